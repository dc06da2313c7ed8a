import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { CreateScheduleCommand, SchedulerClient } from '@aws-sdk/client-scheduler';
import { SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { DeleteMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { LOCAL_SERVICE_USER_AGENT, type ServiceFaults } from '../../../../../infra/local/faults';
import type { Authorizer } from '../../../../../infra/local/iam/evaluate';
import { startIamProxy, type IamProxy } from '../../../../../infra/local/iam/proxy';
import type { IamService } from '../../../../../infra/local/iam/requests';

/**
 * LOCAL_FAULTS at the IAM fronts: each service's throttling and internal errors reach the
 * unchanged SDK in the service's wire shape, which the SDK names and retries as it does in AWS.
 */
const REGION = 'us-east-1';
const ROLE = 'arn:aws:iam::123456789012:role/Writer';
const allowAll: Authorizer = { authorize: async () => ({ allowed: true }) } as unknown as Authorizer;

let upstream: Server;
let target: string;
let reached: number;
let proxy: IamProxy | undefined;

beforeAll(async () => {
  upstream = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      reached += 1;
      const json = String(req.headers['content-type'] ?? '').includes('amz-json');
      res.writeHead(200, { 'content-type': json ? 'application/x-amz-json-1.0' : 'application/json' });
      res.end(json ? '{}' : '{"MessageId":"m","ScheduleArn":"arn"}');
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  target = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => upstream.close(resolve));
});

beforeEach(() => {
  reached = 0;
});

afterEach(async () => {
  await proxy?.stop();
  proxy = undefined;
});

/** A front whose draws come from `rolls` in turn (then pass). */
async function front(service: IamService, faults: ServiceFaults, rolls: number[]) {
  const draws = [...rolls];
  proxy = await startIamProxy({ service, target, principals: () => ROLE, authorizer: allowAll, region: REGION, account: '123456789012', faults, random: () => draws.shift() ?? 0.99 });
  return { endpoint: proxy.url, region: REGION, credentials: { accessKeyId: 'KEY', secretAccessKey: 'secret' }, retryStrategy: undefined, maxAttempts: 3 };
}

const failure = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (error) {
    return error as Error & { $metadata: { httpStatusCode?: number; attempts?: number }; $fault?: string; $retryable?: unknown };
  }
  throw new Error('Expected the call to fail');
};

const getItem = new GetItemCommand({ TableName: 'mailwright', Key: { pk: { S: 'a' } } });
const sendMessage = new DeleteMessageCommand({ QueueUrl: 'http://127.0.0.1:1/000000000000/send', ReceiptHandle: 'r' });
const getObject = new GetObjectCommand({ Bucket: 'payloads', Key: 'a.csv' });
const sendEmail = new SendEmailCommand({ FromEmailAddress: 'a@example.com', Destination: { ToAddresses: ['b@example.com'] }, Content: { Simple: { Subject: { Data: 's' }, Body: { Text: { Data: 'b' } } } } });
const createSchedule = new CreateScheduleCommand({ Name: 's', ScheduleExpression: 'at(2030-01-01T00:00:00)', FlexibleTimeWindow: { Mode: 'OFF' }, Target: { Arn: 'arn:aws:sqs:us-east-1:123456789012:q', RoleArn: ROLE } });

describe('LOCAL_FAULTS at the IAM fronts', () => {
  it.each([
    ['dynamodb', 'throttle', 'ProvisionedThroughputExceededException', 400],
    ['dynamodb', 'error', 'InternalServerError', 500],
    ['sqs', 'throttle', 'RequestThrottled', 400],
    ['sqs', 'error', 'InternalError', 500],
    ['s3', 'throttle', 'SlowDown', 503],
    ['s3', 'error', 'InternalError', 500],
    ['ses', 'throttle', 'TooManyRequestsException', 429],
    ['ses', 'error', 'InternalServiceErrorException', 500],
    ['scheduler', 'throttle', 'ThrottlingException', 429],
    ['scheduler', 'error', 'InternalServerException', 500],
  ] as const)('%s %s: the SDK sees %s (%i) and retries it until its attempts are spent', async (service, kind, name, status) => {
    // Prepare
    const faults = kind === 'throttle' ? { throttle: 1, error: 0, latencyMs: 0 } : { throttle: 0, error: 1, latencyMs: 0 };
    const config = await front(service, faults, [0, 0, 0]);
    const call = {
      dynamodb: () => new DynamoDBClient(config).send(getItem),
      sqs: () => new SQSClient(config).send(sendMessage),
      s3: () => new S3Client({ ...config, forcePathStyle: true }).send(getObject),
      ses: () => new SESv2Client(config).send(sendEmail),
      scheduler: () => new SchedulerClient(config).send(createSchedule),
    }[service] as () => Promise<unknown>;

    // Act
    const error = await failure(call());

    // Assess
    expect(error.name).toBe(name);
    expect(error.$metadata.httpStatusCode).toBe(status);
    expect(error.$metadata.attempts).toBe(3);
    expect(error.$fault).toBe(status >= 500 ? 'server' : 'client');
    expect(reached).toBe(0);
  });

  it('lets the SDK’s retry through when the next draw passes', async () => {
    // Prepare
    const config = await front('dynamodb', { throttle: 0.1, error: 0.02, latencyMs: 0 }, [0.05, 0.11]);

    // Act
    const result = await new DynamoDBClient(config).send(getItem);

    // Assess
    expect(result.$metadata.attempts).toBe(3);
    expect(reached).toBe(1);
  });

  it('spares the local stack’s own service calls (event source mappings, deliveries)', async () => {
    // Prepare
    const config = await front('sqs', { throttle: 0, error: 1, latencyMs: 0 }, [0, 0, 0]);

    // Act
    await new SQSClient({ ...config, customUserAgent: LOCAL_SERVICE_USER_AGENT }).send(sendMessage);

    // Assess
    expect(reached).toBe(1);
  });

  it('adds the latency to every call', async () => {
    // Prepare
    const config = await front('dynamodb', { throttle: 0, error: 0, latencyMs: 150 }, []);
    const started = Date.now();

    // Act
    await new DynamoDBClient(config).send(getItem);

    // Assess
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });
});
