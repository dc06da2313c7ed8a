import { BatchGetCommand, DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { createHttpHandler } from '../../../../shared/http/handler';

const ddb = mockClient(DynamoDBDocumentClient);
const userId = '01KAQ5VZ3N4G8T2M6P0R9S7W1X';
const sessionId = '01KAQ5VZ3N4G8T2M6P0R9S7W2Y';
const seen: unknown[] = [];
const handler = createHttpHandler({
  'GET /contacts': async (request) => {
    seen.push({ caller: request.caller, basePath: request.basePath });
    return { data: { items: [], nextCursor: null, hasMore: false, total: 0 } };
  },
  'GET /keys': async () => ({ data: { items: [], nextCursor: null, hasMore: false, total: 0 } }),
  'GET /me': async () => ({ data: {} }),
});

const sessionContext = (role: 'OWNER' | 'MEMBER', expiresAt = Date.now() + 60_000) => ({ projectId: 'P1', keyId: sessionId, keyKind: 'session', userId, role, sessionId, expiresAt });

function call(method: string, resource: string, authorizer: Record<string, unknown>, domainName = 'abc.execute-api.us-east-1.amazonaws.com') {
  const event = {
    httpMethod: method,
    resource,
    path: resource,
    headers: {},
    body: null,
    isBase64Encoded: false,
    requestContext: { requestId: 'r1', stage: 'api', domainName, identity: { sourceIp: '203.0.113.9' }, authorizer },
  } as unknown as APIGatewayProxyEvent;
  return handler(event, { awsRequestId: 'r1' } as Context);
}

/** The per-request check's BatchGetItem: the session and the membership with `role`. */
function current(role: 'OWNER' | 'MEMBER' | null) {
  const live = { idleExpiresAt: Date.now() + 3_600_000, absoluteExpiresAt: Date.now() + 3_600_000 };
  ddb.on(BatchGetCommand).resolves({
    Responses: { 'mailwright-test': [{ PK: `USER#${userId}`, SK: `SESSION#${sessionId}`, ...live }, ...(role ? [{ PK: 'PROJECT#P1', SK: `MEMBER#${userId}`, role }] : [])] },
  });
  ddb.on(UpdateCommand).resolves({ Attributes: { requestCount: 1, windowStart: Date.now() } });
  ddb.on(GetCommand, { Key: { PK: 'PROJECT#P1', SK: 'PROJECT' } }).resolves({ Item: { status: 'ACTIVE' } });
}

describe('requests made with a dashboard access token', () => {
  beforeEach(() => {
    ddb.reset();
    seen.length = 0;
  });

  it('reach the route with the session as the caller once the session and membership are current', async () => {
    // Prepare
    current('MEMBER');

    // Act
    const response = await call('GET', '/contacts', sessionContext('MEMBER'));

    // Assess
    expect(response.statusCode).toBe(200);
    expect(seen).toEqual([{ caller: { kind: 'session', userId, role: 'MEMBER', sessionId }, basePath: '/api' }]);
    expect(ddb.commandCalls(BatchGetCommand)[0]!.args[0].input.RequestItems!['mailwright-test']).toMatchObject({
      Keys: [
        { PK: `USER#${userId}`, SK: `SESSION#${sessionId}` },
        { PK: 'PROJECT#P1', SK: `MEMBER#${userId}` },
      ],
      ConsistentRead: true,
    });
  });

  it('answer 401 once the member is removed or the role changed, even with the authorizer result cached', async () => {
    current(null);
    expect((await call('GET', '/contacts', sessionContext('MEMBER'))).statusCode).toBe(401);

    current('OWNER');
    expect((await call('GET', '/contacts', sessionContext('MEMBER'))).statusCode).toBe(401);
  });

  it('answer 401 after the token expired, without reading the table', async () => {
    const response = await call('GET', '/contacts', sessionContext('OWNER', Date.now() - 1));

    expect(response.statusCode).toBe(401);
    expect(ddb.commandCalls(BatchGetCommand)).toHaveLength(0);
  });

  it('answer 403 to a MEMBER on an owners\' route, and an API key on a session-only route', async () => {
    current('MEMBER');

    const member = await call('GET', '/keys', sessionContext('MEMBER'));
    const key = await call('GET', '/me', { projectId: 'P1', keyId: 'K1', keyKind: 'secret' }, 'localhost:3000');

    expect(member.statusCode).toBe(403);
    expect(key.statusCode).toBe(403);
    expect(JSON.parse(key.body).error.message).toBe('This route is for dashboard sessions only');
  });
});
