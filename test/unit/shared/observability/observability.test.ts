import { jest } from '@jest/globals';
import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEvent, Context, SQSEvent } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import type { Route } from '../../../../shared/http/routes';

// EMF lines are what is under test here (the unit setup turns them off), and the send queue.
process.env.POWERTOOLS_METRICS_DISABLED = 'false';
process.env.POWERTOOLS_METRICS_NAMESPACE = 'MailwrightTest';
process.env.SEND_QUEUE_URL = 'http://localhost:9324/000000000000/send-test';

const testRoutes: Route[] = [{ method: 'POST', path: '/things', group: 'contacts', keys: ['secret'] }];
const actual = await import('../../../../shared/http/routes');
jest.unstable_mockModule('../../../../shared/http/routes', () => ({
  ...actual,
  routes: testRoutes,
  findRoute: (method: string, path: string) => testRoutes.find((route) => route.method === method && route.path === path),
}));
jest.unstable_mockModule('../../../../shared/access/admission', () => ({ admitRequest: async () => undefined }));
const { createHttpHandler } = await import('../../../../shared/http/handler');
const { createSqsHandler } = await import('../../../../shared/queue/handler');
const { enqueueEmails } = await import('../../../../shared/sending/send-queue');
const { parseSendMessage } = await import('../../../../shared/sending/sender');
const { emitOutcomeMetrics } = await import('../../../../shared/stats/stats');
const { logger } = await import('../../../../shared/observability/logger');
const { currentCorrelationId } = await import('../../../../shared/observability/correlation');

const sqs = mockClient(SQSClient);
const dynamo = mockClient(DynamoDBDocumentClient);

/** Everything written to stdout during the test: EMF metric lines and log lines, parsed. */
let written: Record<string, any>[];
beforeEach(() => {
  sqs.reset();
  dynamo.reset();
  sqs.on(SendMessageBatchCommand).resolves({ Failed: [] });
  dynamo.on(UpdateCommand).resolves({});
  written = [];
  const capture = (chunk: string | Uint8Array) => {
    for (const line of String(chunk).split('\n')) if (line.trim().startsWith('{')) written.push(JSON.parse(line));
    return true;
  };
  jest.spyOn(process.stdout, 'write').mockImplementation(capture);
  jest.spyOn(process.stderr, 'write').mockImplementation(capture); // warnings and errors
  logger.setLogLevel('INFO');
});
afterEach(() => {
  jest.restoreAllMocks();
  logger.setLogLevel('SILENT');
});

const emfLines = () => written.filter((line) => line._aws);
/** The EMF lines that carry `name`, as { dimensions (names), values of the dimensions, value }. */
const metric = (name: string) =>
  emfLines()
    .filter((line) => name in line)
    .map((line) => {
      const definition = line._aws.CloudWatchMetrics[0];
      const dimensionNames: string[] = definition.Dimensions[0];
      return {
        namespace: definition.Namespace,
        unit: definition.Metrics.find((m: { Name: string }) => m.Name === name).Unit,
        dimensions: Object.fromEntries(dimensionNames.map((dimension) => [dimension, line[dimension]])),
        value: line[name],
      };
    });

function apiEvent(requestId: string): APIGatewayProxyEvent {
  return {
    resource: '/things',
    path: '/things',
    httpMethod: 'POST',
    headers: { 'content-type': 'application/json' },
    multiValueHeaders: {},
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: null,
    stageVariables: null,
    body: '{}',
    isBase64Encoded: false,
    requestContext: { requestId, authorizer: { projectId: 'p1', keyId: 'k1', keyKind: 'secret' } } as never,
  };
}
const context = { awsRequestId: 'lambda-request' } as Context;

const sqsEvent = (...bodies: unknown[]): SQSEvent => ({
  Records: bodies.map((body, index) => ({
    messageId: `m${index}`,
    receiptHandle: `r${index}`,
    body: JSON.stringify(body),
    attributes: { ApproximateReceiveCount: '1' } as never,
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:send-test',
    awsRegion: 'us-east-1',
  })),
});

describe('API requests', () => {
  test('the requestId is the correlation id: it reaches the queued send messages, and the request counts in ApiRequests by route', async () => {
    // Prepare
    const handler = createHttpHandler({
      'POST /things': async () => {
        await enqueueEmails([{ projectId: 'p1', emailId: 'e1' }, { projectId: 'p1', emailId: 'e2' }]);
        return { statusCode: 202, data: { ok: true } };
      },
    });

    // Act
    const response = await handler(apiEvent('req-123'), context);

    // Assess
    expect(response.statusCode).toBe(202);
    const bodies = sqs.commandCalls(SendMessageBatchCommand)[0]!.args[0].input.Entries!.map((entry) => JSON.parse(entry.MessageBody!));
    expect(bodies).toEqual([
      { projectId: 'p1', emailId: 'e1', correlationId: 'req-123' },
      { projectId: 'p1', emailId: 'e2', correlationId: 'req-123' },
    ]);
    expect(metric('ApiRequests')).toEqual([{ namespace: 'MailwrightTest', unit: 'Count', dimensions: { service: 'mailwright', route: 'POST /things' }, value: 1 }]);
    expect(metric('ApiErrors')).toEqual([]);
    expect(currentCorrelationId()).toBeUndefined();
  });

  test('a request that fails with a 5xx counts in ApiErrors of its route, and its error line carries the correlation id', async () => {
    // Prepare
    const handler = createHttpHandler({
      'POST /things': async () => {
        throw new Error('boom');
      },
    });

    // Act
    const response = await handler(apiEvent('req-500'), context);

    // Assess
    expect(response.statusCode).toBe(500);
    expect(metric('ApiErrors')).toEqual([{ namespace: 'MailwrightTest', unit: 'Count', dimensions: { service: 'mailwright', route: 'POST /things' }, value: 1 }]);
    expect(written.filter((line) => line.message === 'Request failed').map((line) => line.correlation_id)).toEqual(['req-500']);
  });
});

describe('queue messages', () => {
  test("each message's log lines carry its own correlation id, concurrently; older messages without one still parse", async () => {
    // Prepare
    const handler = createSqsHandler({
      name: 'sender',
      parse: parseSendMessage,
      process: async (message) => {
        await new Promise((resolve) => setTimeout(resolve, message.emailId === 'e1' ? 20 : 1));
        logger.info('Sending', { emailId: message.emailId });
      },
    });

    // Act
    const result = await handler(sqsEvent({ projectId: 'p1', emailId: 'e1', correlationId: 'req-1' }, { projectId: 'p1', emailId: 'e2', correlationId: 'req-2' }, { projectId: 'p1', emailId: 'e3' }));

    // Assess
    expect(result.batchItemFailures).toEqual([]);
    const lines = written.filter((line) => line.message === 'Sending').map((line) => [line.emailId, line.correlation_id]);
    expect(lines).toEqual(expect.arrayContaining([['e1', 'req-1'], ['e2', 'req-2'], ['e3', undefined]]));
    expect(lines).toHaveLength(3);
    expect(parseSendMessage({ projectId: 'p1', emailId: 'e3' })).toEqual({ projectId: 'p1', emailId: 'e3' });
  });

  test('a failed message counts in MessageFailures of its consumer, flushed when the batch ends', async () => {
    // Prepare
    const handler = createSqsHandler({ name: 'sender', parse: parseSendMessage, process: async () => { throw new Error('DynamoDB down'); } });

    // Act
    const result = await handler(sqsEvent({ projectId: 'p1', emailId: 'e1', correlationId: 'req-9' }));

    // Assess
    expect(result.batchItemFailures).toEqual([{ itemIdentifier: 'm0' }]);
    expect(metric('MessageFailures')).toEqual([{ namespace: 'MailwrightTest', unit: 'Count', dimensions: { service: 'mailwright', consumer: 'sender' }, value: 1 }]);
    expect(written.find((line) => line.message === 'Message processing failed')?.correlation_id).toBe('req-9');
  });
});

describe('email outcomes', () => {
  test('outcomes count per source type, in the same dimension set', async () => {
    // Prepare
    const handler = createSqsHandler({
      name: 'ses-events',
      parse: (body) => body as { source: 'campaign' | 'transactional' },
      process: async (message) => {
        emitOutcomeMetrics({ source: { type: message.source, id: 'c1' } }, ['bounced']);
        emitOutcomeMetrics({ source: { type: message.source, id: 'c1' } }, ['sent', 'opened']);
      },
    });

    // Act
    await handler(sqsEvent({ source: 'campaign' }, { source: 'campaign' }, { source: 'transactional' }));

    // Assess
    expect(metric('EmailsBounced')).toEqual(
      expect.arrayContaining([
        { namespace: 'MailwrightTest', unit: 'Count', dimensions: { service: 'mailwright', source: 'campaign' }, value: [1, 1] },
        { namespace: 'MailwrightTest', unit: 'Count', dimensions: { service: 'mailwright', source: 'transactional' }, value: 1 },
      ]),
    );
    expect(metric('EmailsSent')).toHaveLength(2);
    expect(emfLines().some((line) => 'EmailsOpened' in line)).toBe(false); // opens are stats only, not metrics
  });
});
