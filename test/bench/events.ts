import { randomUUID } from 'node:crypto';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { APIGatewayAuthorizerResult, APIGatewayProxyEvent, APIGatewayRequestAuthorizerEvent, Context, DynamoDBRecord, EventBridgeEvent, SQSEvent } from 'aws-lambda';
import type { SesEventDetail } from '../../shared/delivery/ses-events';
import { sesTagNames } from '../../shared/delivery/ses-tags';

/**
 * REST API (v1) events as API Gateway — and infra/local/emulators/api-gateway.ts — hand them to the authorizer and
 * to a function, for invoking handlers in this process (where their DynamoDB calls can be counted);
 * and the SQS, SES and table stream events other functions are handed.
 */
const ACCOUNT = '000000000000';
const API_ID = 'bench';
const STAGE = 'api';
const REGION = 'us-east-1';

export interface ApiRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** The route's resource path, e.g. /contacts/{id}. */
  resource: string;
  /** The concrete path, e.g. /contacts/01J…; defaults to the resource. */
  path?: string;
  pathParameters?: Record<string, string>;
  query?: Record<string, string>;
  secretKey: string;
  body?: unknown;
}

export const methodArn = (request: ApiRequest) => `arn:aws:execute-api:${REGION}:${ACCOUNT}:${API_ID}/${STAGE}/${request.method}${request.resource}`;

function headers(request: ApiRequest): Record<string, string> {
  return {
    Authorization: `Bearer ${request.secretKey}`,
    Host: 'localhost',
    'User-Agent': 'mailwright-bench',
    ...(request.body === undefined ? {} : { 'Content-Type': 'application/json' }),
  };
}

/** $context.requestTime is in Common Log Format: 22/Nov/2026:17:00:00 +0000. */
function requestTime(date: Date): string {
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(date.getUTCDate())}/${months[date.getUTCMonth()]}/${date.getUTCFullYear()}:${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())} +0000`;
}

function requestContext(request: ApiRequest, requestId: string) {
  const now = new Date();
  return {
    accountId: ACCOUNT,
    apiId: API_ID,
    domainName: 'localhost',
    domainPrefix: 'localhost',
    extendedRequestId: requestId,
    httpMethod: request.method,
    path: `/${STAGE}${request.path ?? request.resource}`,
    protocol: 'HTTP/1.1',
    requestId,
    requestTime: requestTime(now),
    requestTimeEpoch: now.getTime(),
    resourceId: request.resource,
    resourcePath: request.resource,
    stage: STAGE,
    identity: { sourceIp: '127.0.0.1', userAgent: 'mailwright-bench' },
  };
}

const multi = (values: Record<string, string>) => Object.fromEntries(Object.entries(values).map(([key, value]) => [key, [value]]));

export function authorizerEvent(request: ApiRequest): APIGatewayRequestAuthorizerEvent {
  const requestHeaders = headers(request);
  return {
    type: 'REQUEST',
    methodArn: methodArn(request),
    resource: request.resource,
    path: request.path ?? request.resource,
    httpMethod: request.method,
    headers: requestHeaders,
    multiValueHeaders: multi(requestHeaders),
    pathParameters: request.pathParameters ?? {},
    queryStringParameters: request.query ?? null,
    multiValueQueryStringParameters: request.query ? multi(request.query) : null,
    stageVariables: null,
    requestContext: requestContext(request, randomUUID()) as never,
  };
}

/** The proxy event of a request the authorizer allowed; its context lands in requestContext.authorizer. */
export function proxyEvent(request: ApiRequest, authorization: APIGatewayAuthorizerResult): APIGatewayProxyEvent {
  const requestHeaders = headers(request);
  return {
    resource: request.resource,
    path: request.path ?? request.resource,
    httpMethod: request.method,
    headers: requestHeaders,
    multiValueHeaders: multi(requestHeaders),
    queryStringParameters: request.query ?? null,
    multiValueQueryStringParameters: request.query ? multi(request.query) : null,
    pathParameters: request.pathParameters ?? null,
    stageVariables: null,
    requestContext: {
      ...requestContext(request, randomUUID()),
      authorizer: { ...authorization.context, principalId: authorization.principalId, integrationLatency: 0 },
    } as unknown as APIGatewayProxyEvent['requestContext'],
    body: request.body === undefined ? null : JSON.stringify(request.body),
    isBase64Encoded: false,
  };
}

export function lambdaContext(functionName: string): Context {
  const deadline = Date.now() + 29_000;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:${REGION}:${ACCOUNT}:function:${functionName}`,
    memoryLimitInMB: '512',
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'bench',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

/** An SQS event of `bodies`, as an event source mapping hands a batch to its function. */
export function sqsEvent(bodies: string[], queueName: string): SQSEvent {
  return {
    Records: bodies.map((body) => ({
      messageId: randomUUID(),
      receiptHandle: `bench-${randomUUID()}`,
      body,
      attributes: { ApproximateReceiveCount: '1', SentTimestamp: String(Date.now()), SenderId: 'bench', ApproximateFirstReceiveTimestamp: String(Date.now()) },
      messageAttributes: {},
      md5OfBody: '',
      eventSource: 'aws:sqs',
      eventSourceARN: `arn:aws:sqs:${REGION}:${ACCOUNT}:${queueName}`,
      awsRegion: REGION,
    })),
  };
}

/** An SES event of an email as EventBridge delivers it to ses-events, with the tags the sender puts on its message. */
export function sesEvent(email: { id: string; projectId: string; source: { type: string } }, eventType: 'Send' | 'Delivery', messageId: string): EventBridgeEvent<string, SesEventDetail> {
  const timestamp = new Date().toISOString();
  return {
    id: randomUUID(),
    version: '0',
    account: ACCOUNT,
    time: timestamp,
    region: REGION,
    resources: [],
    source: 'aws.ses',
    'detail-type': eventType === 'Send' ? 'Email Sent' : 'Email Delivered',
    detail: {
      eventType,
      mail: { messageId, timestamp, tags: { [sesTagNames.project]: [email.projectId], [sesTagNames.email]: [email.id], [sesTagNames.source]: [email.source.type] } },
      ...(eventType === 'Delivery' ? { delivery: { timestamp, smtpResponse: '250 OK' } } : {}),
    } as SesEventDetail,
  };
}

type StreamImage = NonNullable<NonNullable<DynamoDBRecord['dynamodb']>['NewImage']>;

/** A new table item as the table stream hands it to a consumer (an INSERT record), at `sequence` in its shard. */
export function streamInsert(item: Record<string, unknown>, sequence: bigint, eventId: string): DynamoDBRecord {
  return {
    eventID: eventId,
    eventName: 'INSERT',
    eventSource: 'aws:dynamodb',
    awsRegion: REGION,
    dynamodb: {
      Keys: marshall({ PK: item.PK, SK: item.SK }) as StreamImage,
      NewImage: marshall(item, { removeUndefinedValues: true }) as StreamImage,
      SequenceNumber: sequence.toString(),
      StreamViewType: 'NEW_AND_OLD_IMAGES',
    },
  };
}
