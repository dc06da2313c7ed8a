import { DynamoDBServiceException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { isDependencyUnavailable } from '../../../../shared/http/errors';
import { createHttpHandler } from '../../../../shared/http/handler';

/** An AWS dependency busy or failing once the SDK's retries are spent is a 503 with Retry-After, never a 500. */
const ddb = mockClient(DynamoDBDocumentClient);
let failure: unknown;
const handler = createHttpHandler({
  'GET /contacts': async () => {
    throw failure;
  },
});

const awsError = (name: string, fault: 'client' | 'server', status: number, extra: object = {}) =>
  Object.assign(new DynamoDBServiceException({ name, $fault: fault, $metadata: { httpStatusCode: status, attempts: 3 }, message: name }), extra);

function call() {
  const event = {
    httpMethod: 'GET',
    resource: '/contacts',
    path: '/contacts',
    headers: {},
    body: null,
    isBase64Encoded: false,
    requestContext: { requestId: 'r1', identity: { sourceIp: '203.0.113.9' }, authorizer: { projectId: 'P1', keyId: 'K1', keyKind: 'secret' } },
  } as unknown as APIGatewayProxyEvent;
  return handler(event, { awsRequestId: 'r1' } as Context);
}

describe('a dependency that stays busy or failing', () => {
  beforeEach(() => {
    ddb.reset();
    ddb.on(UpdateCommand).resolves({ Attributes: { requestCount: 1, windowStart: Date.now() } });
    ddb.on(GetCommand, { Key: { PK: 'PROJECT#P1', SK: 'PROJECT' } }).resolves({ Item: { status: 'ACTIVE' } });
  });

  it.each([
    ['DynamoDB throttling', awsError('ProvisionedThroughputExceededException', 'client', 400, { $retryable: { throttling: true } })],
    ['DynamoDB ThrottlingException', awsError('ThrottlingException', 'client', 400)],
    ['DynamoDB internal error', awsError('InternalServerError', 'server', 500)],
    ['SQS internal error', awsError('InternalError', 'server', 500)],
    ['S3 SlowDown', awsError('SlowDown', 'server', 503)],
    ['SES throttling', awsError('TooManyRequestsException', 'client', 429)],
    ['a transaction cancelled by throttling', awsError('TransactionCanceledException', 'client', 400, { CancellationReasons: [{ Code: 'None' }, { Code: 'ThrottlingError' }] })],
    ['a dropped connection', Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' })],
  ])('answers 503 SERVICE_UNAVAILABLE with Retry-After for %s', async (_, error) => {
    // Prepare
    failure = error;

    // Act
    const response = await call();

    // Assess
    expect(response.statusCode).toBe(503);
    expect(response.headers).toMatchObject({ 'Retry-After': '1' });
    expect(JSON.parse(response.body)).toMatchObject({ success: false, error: { code: 'SERVICE_UNAVAILABLE', statusCode: 503, requestId: 'r1' } });
  });

  it('still answers 500 for a bug, and a client error of the SDK is no outage', async () => {
    // Prepare
    failure = new TypeError('x is undefined');

    // Act
    const response = await call();

    // Assess
    expect(response.statusCode).toBe(500);
    expect(isDependencyUnavailable(awsError('ConditionalCheckFailedException', 'client', 400))).toBe(false);
    expect(isDependencyUnavailable(awsError('ValidationException', 'client', 400))).toBe(false);
    expect(isDependencyUnavailable(awsError('TransactionCanceledException', 'client', 400, { CancellationReasons: [{ Code: 'ConditionalCheckFailed' }, { Code: 'TransactionConflict' }] }))).toBe(false);
  });
});
