import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { admitRequest } from '../../../../shared/access/admission';

const ddb = mockClient(DynamoDBDocumentClient);
const caller = { projectId: 'P1', keyId: 'K1' };
const now = 1_800_000_000_000;
const projectKey = { PK: 'PROJECT#P1', SK: 'PROJECT' };
const windowKey = { PK: 'PROJECT#P1', SK: 'ADMISSION' };

const conditionFailed = () => new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} });
const activeProject = () => ddb.on(GetCommand, { Key: projectKey }).resolves({ Item: { status: 'ACTIVE' } });

describe('admitRequest', () => {
  beforeEach(() => ddb.reset());

  it('reads the project consistently and counts the request on a window item of its own, never on the project item', async () => {
    // Prepare
    activeProject();
    ddb.on(UpdateCommand).resolves({ Attributes: { requestCount: 7, windowStart: now - 1000 } });

    // Act
    await admitRequest(caller, now);

    // Assess: the project item (and its GSI1 entry, which lists every project) is only read
    expect(ddb.commandCalls(GetCommand).map((call) => call.args[0].input)).toEqual([
      { TableName: 'mailwright-test', Key: projectKey, ConsistentRead: true, ProjectionExpression: '#status, #revoked', ExpressionAttributeNames: { '#status': 'status', '#revoked': 'revokedKeyIds' } },
    ]);
    expect(ddb.commandCalls(UpdateCommand).map((call) => call.args[0].input)).toEqual([
      {
        TableName: 'mailwright-test',
        Key: windowKey,
        UpdateExpression: 'SET #count = #count + :one',
        ConditionExpression: '#start > :windowOpenedAfter',
        ExpressionAttributeNames: { '#count': 'requestCount', '#start': 'windowStart' },
        ExpressionAttributeValues: { ':one': 1, ':windowOpenedAfter': now - 60_000 },
        ReturnValues: 'ALL_NEW',
      },
    ]);
  });

  it('answers 429 with Retry-After until the window closes once the limit is passed', async () => {
    activeProject();
    ddb.on(UpdateCommand).resolves({ Attributes: { requestCount: 1001, windowStart: now - 45_500 } });

    await expect(admitRequest(caller, now)).rejects.toMatchObject({ statusCode: 429, code: 'RATE_LIMITED', headers: { 'Retry-After': '15' } });
  });

  it('opens a new window, which expires a day later, when the previous one has closed', async () => {
    // Prepare: no open window
    activeProject();
    ddb.on(UpdateCommand).rejectsOnce(conditionFailed()).resolvesOnce({});

    // Act
    await admitRequest(caller, now);

    // Assess
    const second = ddb.commandCalls(UpdateCommand)[1]!.args[0].input;
    expect(second.Key).toEqual(windowKey);
    expect(second.UpdateExpression).toBe('SET #count = :one, #start = :now, expiresAt = :expiresAt');
    expect(second.ConditionExpression).toBe('attribute_not_exists(#start) OR #start <= :windowOpenedAfter');
    expect(second.ExpressionAttributeValues).toMatchObject({ ':now': now, ':windowOpenedAfter': now - 60_000, ':expiresAt': now / 1000 + 86_400 });
  });

  it('answers 429 for a moment when other requests keep rolling the window over', async () => {
    activeProject();
    ddb.on(UpdateCommand).rejects(conditionFailed());

    await expect(admitRequest(caller, now)).rejects.toMatchObject({ statusCode: 429, headers: { 'Retry-After': '1' } });
    expect(ddb.commandCalls(UpdateCommand)).toHaveLength(6);
  });

  it('answers 403 for a disabled project and 401 for a revoked key, whatever the authorizer cached', async () => {
    ddb.on(UpdateCommand).resolves({ Attributes: { requestCount: 1, windowStart: now } });
    ddb.on(GetCommand, { Key: projectKey }).resolves({ Item: { status: 'DISABLED' } });
    await expect(admitRequest(caller, now)).rejects.toMatchObject({ statusCode: 403, code: 'PROJECT_DISABLED' });

    ddb.on(GetCommand, { Key: projectKey }).resolves({ Item: { status: 'ACTIVE', revokedKeyIds: new Set(['K0', 'K1']) } });
    await expect(admitRequest(caller, now)).rejects.toMatchObject({ statusCode: 401 });

    ddb.on(GetCommand, { Key: projectKey }).resolves({ Item: { status: 'ACTIVE', revokedKeyIds: new Set(['K0']) } });
    await expect(admitRequest(caller, now)).resolves.toBeUndefined();
  });

  it('answers 401 when the project no longer exists', async () => {
    ddb.on(UpdateCommand).resolves({ Attributes: { requestCount: 1, windowStart: now } });
    ddb.on(GetCommand).resolves({});

    await expect(admitRequest(caller, now)).rejects.toMatchObject({ statusCode: 401 });
  });
});
