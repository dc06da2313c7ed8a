import { BatchGetCommand, DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { signAccessToken } from '../../../../shared/accounts/access-tokens';
import { handler } from '../../../../functions/authorizer/handler';
import { hashApiKey } from '../../../../shared/projects/api-keys';

const ddb = mockClient(DynamoDBDocumentClient);
const apiArn = 'arn:aws:execute-api:us-east-1:123456789012:abc123/api';
const userId = '01KAQ5VZ3N4G8T2M6P0R9S7W1X';
const sessionId = '01KAQ5VZ3N4G8T2M6P0R9S7W2Y';

const event = (authorization: string): APIGatewayRequestAuthorizerEvent => ({ type: 'REQUEST', methodArn: `${apiArn}/GET/contacts`, headers: { Authorization: authorization } }) as never;
const live = { idleExpiresAt: Date.now() + 3_600_000, absoluteExpiresAt: Date.now() + 7_200_000 };

/** The session and membership items the authorizer's BatchGetItem finds. */
function sessionAndMembership(role: 'OWNER' | 'MEMBER', found: { session?: boolean; membership?: boolean } = {}) {
  const items = [
    ...(found.session === false ? [] : [{ PK: `USER#${userId}`, SK: `SESSION#${sessionId}`, ...live }]),
    ...(found.membership === false ? [] : [{ PK: 'PROJECT#P1', SK: `MEMBER#${userId}`, role }]),
  ];
  ddb.on(BatchGetCommand).resolves({ Responses: { 'mailwright-test': items } });
}

const tokenFor = (role: 'OWNER' | 'MEMBER') => signAccessToken({ userId, projectId: 'P1', role, sessionId }).token;
const statements = (result: Awaited<ReturnType<typeof handler>>) => result.policyDocument.Statement as { Effect: string; Resource: string[] }[];

describe('authorizer: dashboard access tokens', () => {
  beforeEach(() => ddb.reset());

  it('allows an OWNER everything but /v1/*, with the session in the context', async () => {
    // Prepare
    sessionAndMembership('OWNER');

    // Act
    const result = await handler(event(`Bearer ${tokenFor('OWNER')}`));

    // Assess
    const [allow, deny] = statements(result);
    expect(allow).toEqual({ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: [`${apiArn}/*/*`] });
    expect(deny!.Effect).toBe('Deny');
    expect(deny!.Resource.sort()).toEqual([`${apiArn}/POST/v1/send`, `${apiArn}/POST/v1/track`, `${apiArn}/POST/v1/verify`]);
    expect(result.context).toMatchObject({ projectId: 'P1', userId, role: 'OWNER', sessionId, keyId: sessionId, keyKind: 'session' });
    expect(ddb.commandCalls(BatchGetCommand)[0]!.args[0].input.RequestItems!['mailwright-test']!.Keys).toEqual([
      { PK: `USER#${userId}`, SK: `SESSION#${sessionId}` },
      { PK: 'PROJECT#P1', SK: `MEMBER#${userId}` },
    ]);
  });

  it('denies a MEMBER the owners\' routes too: keys, members admin, audit, webhooks, domain changes', async () => {
    sessionAndMembership('MEMBER');

    const result = await handler(event(`Bearer ${tokenFor('MEMBER')}`));

    const denied = statements(result)[1]!.Resource;
    for (const resource of ['GET/keys', 'POST/keys', 'POST/keys/*/rotate', 'DELETE/keys/*', 'POST/members/invitations', 'DELETE/members/*', 'PATCH/members/*', 'GET/audit', 'POST/domains', 'DELETE/domains/*', 'GET/webhooks', 'PATCH/project', 'POST/v1/send']) {
      expect(denied).toContain(`${apiArn}/${resource}`);
    }
    for (const resource of ['GET/contacts', 'GET/domains', 'GET/members', 'GET/me', 'GET/project']) expect(denied).not.toContain(`${apiArn}/${resource}`);
  });

  it('refuses a token whose session has ended or whose membership is gone or changed', async () => {
    sessionAndMembership('OWNER', { session: false });
    await expect(handler(event(`Bearer ${tokenFor('OWNER')}`))).rejects.toThrow('Unauthorized');

    sessionAndMembership('OWNER', { membership: false });
    await expect(handler(event(`Bearer ${tokenFor('OWNER')}`))).rejects.toThrow('Unauthorized');

    sessionAndMembership('MEMBER');
    await expect(handler(event(`Bearer ${tokenFor('OWNER')}`))).rejects.toThrow('Unauthorized');
  });

  it('refuses an expired or forged token without reading the table', async () => {
    const expired = signAccessToken({ userId, projectId: 'P1', role: 'OWNER', sessionId }, Date.now() - 300_001).token;

    await expect(handler(event(`Bearer ${expired}`))).rejects.toThrow('Unauthorized');
    await expect(handler(event('Bearer mwa_eyJ1IjoiYSJ9.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'))).rejects.toThrow('Unauthorized');
    expect(ddb.commandCalls(BatchGetCommand)).toHaveLength(0);
  });
});

describe('authorizer: API keys', () => {
  beforeEach(() => ddb.reset());

  it('allows a secret key everything and records its use at most once a minute', async () => {
    // Prepare
    const key = `sk_${'A'.repeat(43)}`;
    ddb.on(GetCommand).resolves({ Item: { keyId: 'K1', projectId: 'P1', kind: 'secret', projectStatus: 'ACTIVE' } });
    ddb.on(UpdateCommand).resolves({});

    // Act
    const result = await handler(event(`Bearer ${key}`));

    // Assess
    expect(ddb.commandCalls(GetCommand)[0]!.args[0].input.Key).toEqual({ PK: `APIKEY#${hashApiKey(key)}`, SK: 'APIKEY' });
    expect(statements(result)).toEqual([{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: [`${apiArn}/*/*`] }]);
    expect(result.context).toEqual({ projectId: 'P1', keyId: 'K1', keyKind: 'secret' });
    const update = ddb.commandCalls(UpdateCommand)[0]!.args[0].input;
    expect(update).toMatchObject({
      Key: { PK: 'PROJECT#P1', SK: 'APIKEY#K1' },
      UpdateExpression: 'SET lastUsedAt = :now',
      ConditionExpression: 'attribute_exists(PK) AND (attribute_not_exists(lastUsedAt) OR lastUsedAt < :recent)',
    });
    const values = update.ExpressionAttributeValues as Record<string, string>;
    expect(Date.parse(values[':now']!) - Date.parse(values[':recent']!)).toBe(60_000);
  });
});
