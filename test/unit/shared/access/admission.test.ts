import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { admitRequest } from '../../../../shared/access/admission';

const ddb = mockClient(DynamoDBDocumentClient);
const caller = { projectId: 'P1', keyId: 'K1' };
const now = 1_800_000_000_000;

const conditionFailed = (item?: Record<string, unknown>) =>
  new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {}, Item: item as never });

describe('admitRequest', () => {
  beforeEach(() => ddb.reset());

  it('counts the request in the open window with one conditional update on the project item', async () => {
    // Prepare
    ddb.on(UpdateCommand).resolves({ Attributes: { requestCount: 7, windowStart: now - 1000 } });

    // Act
    await admitRequest(caller, now);

    // Assess
    expect(ddb.commandCalls(UpdateCommand)).toHaveLength(1);
    expect(ddb.commandCalls(UpdateCommand)[0]!.args[0].input).toEqual({
      TableName: 'mailwright-test',
      Key: { PK: 'PROJECT#P1', SK: 'PROJECT' },
      UpdateExpression: 'SET #count = #count + :one',
      ConditionExpression: '#status = :active AND NOT contains(#revoked, :keyId) AND #start > :windowOpenedAfter',
      ExpressionAttributeNames: { '#status': 'status', '#revoked': 'revokedKeyIds', '#count': 'requestCount', '#start': 'windowStart' },
      ExpressionAttributeValues: { ':one': 1, ':active': 'ACTIVE', ':keyId': 'K1', ':windowOpenedAfter': now - 60_000 },
      ReturnValues: 'ALL_NEW',
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    });
  });

  it('answers 429 with Retry-After until the window closes once the limit is passed', async () => {
    ddb.on(UpdateCommand).resolves({ Attributes: { requestCount: 1001, windowStart: now - 45_500 } });

    await expect(admitRequest(caller, now)).rejects.toMatchObject({ statusCode: 429, code: 'RATE_LIMITED', headers: { 'Retry-After': '15' } });
  });

  it('opens a new window when the previous one has closed', async () => {
    ddb
      .on(UpdateCommand)
      .rejectsOnce(conditionFailed({ status: { S: 'ACTIVE' }, windowStart: { N: String(now - 61_000) } }))
      .resolvesOnce({});

    await admitRequest(caller, now);

    const second = ddb.commandCalls(UpdateCommand)[1]!.args[0].input;
    expect(second.UpdateExpression).toBe('SET #count = :one, #start = :now');
    expect(second.ConditionExpression).toBe('#status = :active AND NOT contains(#revoked, :keyId) AND (attribute_not_exists(#start) OR #start <= :windowOpenedAfter)');
    expect(second.ExpressionAttributeValues).toMatchObject({ ':now': now, ':windowOpenedAfter': now - 60_000 });
  });

  it('answers 403 for a disabled project and 401 for a revoked key, whatever the authorizer cached', async () => {
    ddb.on(UpdateCommand).rejects(conditionFailed({ status: { S: 'DISABLED' } }));
    await expect(admitRequest(caller, now)).rejects.toMatchObject({ statusCode: 403, code: 'PROJECT_DISABLED' });

    ddb.reset();
    ddb.on(UpdateCommand).rejects(conditionFailed({ status: { S: 'ACTIVE' }, revokedKeyIds: { SS: ['K0', 'K1'] } }));
    await expect(admitRequest(caller, now)).rejects.toMatchObject({ statusCode: 401 });
  });

  it('answers 401 when the project no longer exists', async () => {
    ddb.on(UpdateCommand).rejects(conditionFailed(undefined));

    await expect(admitRequest(caller, now)).rejects.toMatchObject({ statusCode: 401 });
  });
});
