import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { handler } from '../../../../functions/unsubscribe/handler';
import { unsubscribeToken } from '../../../../shared/unsubscribe/token';

const ddb = mockClient(DynamoDBDocumentClient);
const token = unsubscribeToken({ projectId: 'P1', contactId: '01KAQ5VZ3N4G8T2M6P0R9S7W1X' });
const contactItem = { PK: 'PROJECT#P1', SK: 'CONTACT#01KAQ5VZ3N4G8T2M6P0R9S7W1X', contactId: '01KAQ5VZ3N4G8T2M6P0R9S7W1X', email: 'ada@example.com', subscribed: true, data: {}, createdAt: '2026-11-01T00:00:00.000Z', updatedAt: '2026-11-01T00:00:00.000Z' };

function call(method: 'GET' | 'POST', path: string, body: string | null = null, contentType = 'application/x-www-form-urlencoded'): Promise<APIGatewayProxyResult> {
  const event = {
    httpMethod: method,
    resource: '/unsubscribe/{token}',
    path,
    pathParameters: { token: path.split('/')[2] },
    headers: body === null ? {} : { 'Content-Type': contentType },
    body,
    isBase64Encoded: false,
    requestContext: { requestId: 'r1', stage: 'api', domainName: 'abc.execute-api.us-east-1.amazonaws.com', identity: { sourceIp: '203.0.113.9' } },
  } as unknown as APIGatewayProxyEvent;
  return handler(event, { awsRequestId: 'r1' } as Context) as Promise<APIGatewayProxyResult>;
}

/** Every input the handler sent to DynamoDB. */
const written = () => JSON.stringify(ddb.calls().map((call) => call.args[0].input));

describe('unsubscribe links', () => {
  beforeEach(() => {
    ddb.reset();
    ddb.onAnyCommand().resolves({});
    ddb.on(GetCommand).resolves({ Item: contactItem });
  });

  it('GET shows a page with one focused Unsubscribe button posting to the link, and changes nothing', async () => {
    // Act
    const response = await call('GET', `/unsubscribe/${token}`);

    // Assess
    expect(response.statusCode).toBe(200);
    expect(response.headers?.['Content-Type']).toBe('text/html; charset=utf-8');
    expect(response.body.match(/<button/g)).toHaveLength(1);
    expect(response.body).toContain(`<form method="post" action="${token}">`);
    expect(response.body).toContain('<button type="submit" id="unsubscribe" autofocus>Unsubscribe</button>');
    expect(ddb.calls()).toHaveLength(0);
  });

  it('GET answers a tampered link with the 400 page, reading nothing', async () => {
    // Act
    const response = await call('GET', `/unsubscribe/${token.slice(0, -2)}xx`);

    // Assess
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('not valid');
    expect(ddb.calls()).toHaveLength(0);
  });

  it('POST from the page unsubscribes and answers the unsubscribed page with its re-subscribe form', async () => {
    // Act
    const response = await call('POST', `/unsubscribe/${token}`, '');

    // Assess
    expect(response.statusCode).toBe(200);
    expect(response.headers?.['Content-Type']).toBe('text/html; charset=utf-8');
    expect(response.body).toContain('You have been unsubscribed.');
    expect(response.body).toContain(`action="${token}/resubscribe"`);
    expect(written()).toContain('"contact.unsubscribed"');
  });

  it('POST with RFC 8058 one-click unsubscribes and answers plain text', async () => {
    // Act
    const response = await call('POST', `/unsubscribe/${token}`, 'List-Unsubscribe=One-Click');

    // Assess
    expect(response.statusCode).toBe(200);
    expect(response.headers?.['Content-Type']).toBe('text/plain; charset=utf-8');
    expect(response.body).toBe('Unsubscribed\n');
    expect(written()).toContain('"contact.unsubscribed"');
  });
});
