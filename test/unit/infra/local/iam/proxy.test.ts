import { jest } from '@jest/globals';
import { DynamoDBClient, GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { CreateScheduleCommand, SchedulerClient } from '@aws-sdk/client-scheduler';
import { SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { GetQueueAttributesCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAuthorizer } from '../../../../../infra/local/iam/evaluate';
import type { StackPolicies } from '../../../../../infra/local/iam/policies';
import { startIamProxy, type IamProxy } from '../../../../../infra/local/iam/proxy';
import type { IamService } from '../../../../../infra/local/iam/requests';

const REGION = 'us-east-1';
const ACCOUNT = '123456789012';
const WRITER = `arn:aws:iam::${ACCOUNT}:role/Writer`;
const READER = `arn:aws:iam::${ACCOUNT}:role/Reader`;
const SCHEDULER_ROLE = `arn:aws:iam::${ACCOUNT}:role/SchedulerRole`;
const TABLE = `arn:aws:dynamodb:${REGION}:${ACCOUNT}:table/mailwright`;
const QUEUE = `arn:aws:sqs:${REGION}:${ACCOUNT}:sends`;

/** Writer may do what the tests forward; Reader only read (and is denied the writes). */
const policies: StackPolicies = {
  identity: new Map([
    [
      WRITER,
      [
        {
          name: 'writer',
          policy: {
            Version: '2012-10-17',
            Statement: [
              { Effect: 'Allow', Action: ['dynamodb:GetItem', 'dynamodb:PutItem'], Resource: TABLE },
              { Effect: 'Allow', Action: ['sqs:SendMessage', 'sqs:GetQueueAttributes'], Resource: QUEUE },
              { Effect: 'Allow', Action: ['s3:GetObject', 's3:PutObject'], Resource: 'arn:aws:s3:::payloads/*' },
              { Effect: 'Allow', Action: 'ses:SendEmail', Resource: [`arn:aws:ses:${REGION}:${ACCOUNT}:identity/*`, `arn:aws:ses:${REGION}:${ACCOUNT}:configuration-set/mailwright`] },
              { Effect: 'Allow', Action: 'scheduler:CreateSchedule', Resource: `arn:aws:scheduler:${REGION}:${ACCOUNT}:schedule/group/*` },
              { Effect: 'Allow', Action: 'iam:PassRole', Resource: SCHEDULER_ROLE, Condition: { StringEquals: { 'iam:PassedToService': 'scheduler.amazonaws.com' } } },
            ],
          },
        },
      ],
    ],
    [READER, [{ name: 'reader', policy: { Version: '2012-10-17', Statement: [{ Effect: 'Allow', Action: 'dynamodb:GetItem', Resource: TABLE }] } }]],
  ]),
  functions: new Map(),
  resources: new Map(),
};
const keys: Record<string, string> = { WRITERKEY: WRITER, READERKEY: READER };

type Received = { method: string; url: string; headers: IncomingHttpHeaders; body: string };
let upstream: Server;
let received: Received[];
/** What the fake emulator answers next: the tests set it per call. */
let answer: { status: number; headers: Record<string, string>; body: string };
const proxies: Partial<Record<IamService, IamProxy>> = {};
const log = jest.fn<(message: string) => void>();

beforeAll(async () => {
  upstream = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString() });
      res.writeHead(answer.status, answer.headers);
      res.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const target = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  const authorizer = createAuthorizer(policies, { account: ACCOUNT });
  for (const service of ['dynamodb', 'sqs', 's3', 'ses', 'scheduler'] as const) {
    proxies[service] = await startIamProxy({ service, target, principals: (key) => keys[key], authorizer, region: REGION, account: ACCOUNT, log });
  }
});

afterAll(async () => {
  await Promise.all(Object.values(proxies).map((proxy) => proxy.stop()));
  await new Promise((resolve) => upstream.close(resolve));
});

beforeEach(() => {
  received = [];
  answer = { status: 200, headers: { 'content-type': 'application/x-amz-json-1.0' }, body: '{}' };
  log.mockReset();
});

const client = <T>(Client: new (config: object) => T, service: IamService, accessKeyId: string, extra: object = {}) =>
  new Client({ endpoint: proxies[service]!.url, region: REGION, credentials: { accessKeyId, secretAccessKey: 'secret' }, maxAttempts: 1, ...extra });

const failure = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (error) {
    return error as Error & { $metadata: { httpStatusCode?: number }; Code?: string };
  }
  throw new Error('Expected the call to fail');
};

const session = (role: string, key: string) => `arn:aws:sts::${ACCOUNT}:assumed-role/${role}/${key}`;

describe('startIamProxy', () => {
  it('forwards an allowed DynamoDB call unchanged and hands back the emulator’s answer', async () => {
    // Prepare
    answer = { status: 200, headers: { 'content-type': 'application/x-amz-json-1.0', 'x-emulator': 'yes' }, body: '{"Item":{"pk":{"S":"a"}}}' };
    const dynamodb = client(DynamoDBClient, 'dynamodb', 'READERKEY');

    // Act
    const result = await dynamodb.send(new GetItemCommand({ TableName: 'mailwright', Key: { pk: { S: 'a' } } }));

    // Assess
    expect(result.Item).toEqual({ pk: { S: 'a' } });
    expect(received).toHaveLength(1);
    expect(received[0]!.method).toBe('POST');
    expect(received[0]!.headers['x-amz-target']).toBe('DynamoDB_20120810.GetItem');
    expect(received[0]!.headers.authorization).toContain('Credential=READERKEY/');
    expect(JSON.parse(received[0]!.body)).toEqual({ TableName: 'mailwright', Key: { pk: { S: 'a' } } });
  });

  it('answers a denied DynamoDB call as DynamoDB does, without reaching the emulator', async () => {
    // Prepare
    const dynamodb = client(DynamoDBClient, 'dynamodb', 'READERKEY');

    // Act
    const error = await failure(dynamodb.send(new PutItemCommand({ TableName: 'mailwright', Item: { pk: { S: 'a' } } })));

    // Assess
    expect(error.name).toBe('AccessDeniedException');
    expect(error.$metadata.httpStatusCode).toBe(400);
    expect(error.message).toBe(
      `User: ${session('Reader', 'READERKEY')} is not authorized to perform: dynamodb:PutItem on resource: ${TABLE} because no identity-based policy allows the dynamodb:PutItem action`,
    );
    expect(received).toHaveLength(0);
  });

  it('answers the exact DynamoDB denial body', async () => {
    // Prepare
    const body = JSON.stringify({ TableName: 'mailwright', Item: {} });

    // Act
    const response = await fetch(proxies.dynamodb!.url, {
      method: 'POST',
      headers: { 'x-amz-target': 'DynamoDB_20120810.PutItem', authorization: 'AWS4-HMAC-SHA256 Credential=READERKEY/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=x' },
      body,
    });

    // Assess
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      __type: 'com.amazon.coral.service#AccessDeniedException',
      Message: `User: ${session('Reader', 'READERKEY')} is not authorized to perform: dynamodb:PutItem on resource: ${TABLE} because no identity-based policy allows the dynamodb:PutItem action`,
    });
  });

  // SQS speaks JSON but stays Query-compatible: the x-amzn-query-error header gives the SDK the
  // Query protocol's code, so the error is named AccessDenied (not AccessDeniedException), as from AWS.
  it('forwards an allowed SQS call and denies another queue with the Query-compatible AccessDenied', async () => {
    // Prepare
    answer = { status: 200, headers: { 'content-type': 'application/x-amz-json-1.0' }, body: '{"Attributes":{"QueueArn":"x"}}' };
    const sqs = client(SQSClient, 'sqs', 'WRITERKEY');

    // Act
    const allowed = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: 'http://127.0.0.1:9324/000000000000/sends', AttributeNames: ['QueueArn'] }));
    const error = await failure(sqs.send(new SendMessageCommand({ QueueUrl: 'http://127.0.0.1:9324/000000000000/imports', MessageBody: 'x' })));

    // Assess
    expect(allowed.Attributes).toEqual({ QueueArn: 'x' });
    expect(error.name).toBe('AccessDenied');
    expect(error.Code).toBe('AccessDenied');
    expect(error.$metadata.httpStatusCode).toBe(403);
    expect(error.message).toBe(
      `User: ${session('Writer', 'WRITERKEY')} is not authorized to perform: sqs:SendMessage on resource: arn:aws:sqs:${REGION}:${ACCOUNT}:imports because no identity-based policy allows the sqs:SendMessage action`,
    );
    expect(received.map((request) => request.headers['x-amz-target'])).toEqual(['AmazonSQS.GetQueueAttributes']);
  });

  it('forwards an allowed S3 upload under the s3rver key, body intact, and denies another prefix with AccessDenied', async () => {
    // Prepare
    answer = { status: 200, headers: { etag: '"abc"' }, body: '' };
    const s3 = client(S3Client, 's3', 'READERKEY', { forcePathStyle: true });
    const writer = client(S3Client, 's3', 'WRITERKEY', { forcePathStyle: true });

    // Act
    const uploaded = await writer.send(new PutObjectCommand({ Bucket: 'payloads', Key: 'imports/a b.csv', Body: 'email\nada@example.com\n' }));
    const error = await failure(s3.send(new PutObjectCommand({ Bucket: 'payloads', Key: 'imports/c.csv', Body: 'x' })));

    // Assess
    expect(uploaded.ETag).toBe('"abc"');
    expect(received).toHaveLength(1);
    expect(received[0]!.method).toBe('PUT');
    expect(received[0]!.url.split('?')[0]).toBe('/payloads/imports/a%20b.csv');
    expect(received[0]!.headers.authorization).toMatch(/Credential=S3RVER\/\d{8}\/us-east-1\/s3\/aws4_request/);
    expect(received[0]!.body).toBe('email\nada@example.com\n');
    expect(error.name).toBe('AccessDenied');
    expect(error.$metadata.httpStatusCode).toBe(403);
    expect(error.message).toBe(
      `User: ${session('Reader', 'READERKEY')} is not authorized to perform: s3:PutObject on resource: "arn:aws:s3:::payloads/imports/c.csv" because no identity-based policy allows the s3:PutObject action`,
    );
  });

  it('answers a denied HEAD with 403 and no body, as S3 does', async () => {
    // Prepare
    const s3 = client(S3Client, 's3', 'READERKEY', { forcePathStyle: true });
    const url = await getSignedUrl(s3, new HeadObjectCommand({ Bucket: 'payloads', Key: 'imports/a.csv' }), { expiresIn: 60 });

    // Act
    const error = await failure(s3.send(new HeadObjectCommand({ Bucket: 'payloads', Key: 'imports/a.csv' })));
    const raw = await fetch(url, { method: 'HEAD' });

    // Assess
    expect(error.$metadata.httpStatusCode).toBe(403);
    expect(raw.status).toBe(403);
    expect(raw.headers.get('content-length')).toBe('0');
    expect(received).toHaveLength(0);
  });

  it('authorizes a presigned URL by its X-Amz-Credential and forwards it under the s3rver key', async () => {
    // Prepare
    answer = { status: 200, headers: { 'content-type': 'text/csv' }, body: 'email\n' };
    const signer = (key: string) => client(S3Client, 's3', key, { forcePathStyle: true });
    const allowedUrl = await getSignedUrl(signer('WRITERKEY'), new GetObjectCommand({ Bucket: 'payloads', Key: 'exports/e.csv' }), { expiresIn: 60 });
    const deniedUrl = await getSignedUrl(signer('READERKEY'), new GetObjectCommand({ Bucket: 'payloads', Key: 'exports/e.csv' }), { expiresIn: 60 });

    // Act
    const allowed = await fetch(allowedUrl);
    const denied = await fetch(deniedUrl);

    // Assess
    expect(allowed.status).toBe(200);
    expect(await allowed.text()).toBe('email\n');
    expect(received).toHaveLength(1);
    expect(new URL(received[0]!.url, 'http://x').searchParams.get('X-Amz-Credential')).toMatch(/^S3RVER\/\d{8}\/us-east-1\/s3\/aws4_request$/);
    expect(denied.status).toBe(403);
    expect(await denied.text()).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<Error><Code>AccessDenied<\/Code><Message>User: .* is not authorized to perform: s3:GetObject on resource: &quot;arn:aws:s3:::payloads\/exports\/e.csv&quot;/);
  });

  it('authorizes SES SendEmail on the configuration set too, and answers AccessDeniedException', async () => {
    // Prepare
    answer = { status: 200, headers: { 'content-type': 'application/json' }, body: '{"MessageId":"m-1"}' };
    const ses = client(SESv2Client, 'ses', 'WRITERKEY');
    const email = (configurationSet: string) =>
      new SendEmailCommand({
        FromEmailAddress: 'Mailwright <news@example.com>',
        Destination: { ToAddresses: ['ada@example.org'] },
        Content: { Simple: { Subject: { Data: 'Hi' }, Body: { Text: { Data: 'Hi' } } } },
        ConfigurationSetName: configurationSet,
      });

    // Act
    const sent = await ses.send(email('mailwright'));
    const error = await failure(ses.send(email('other')));

    // Assess
    expect(sent.MessageId).toBe('m-1');
    expect(error.name).toBe('AccessDeniedException');
    expect(error.$metadata.httpStatusCode).toBe(403);
    expect(error.message).toBe(
      `User: ${session('Writer', 'WRITERKEY')} is not authorized to perform: ses:SendEmail on resource: arn:aws:ses:${REGION}:${ACCOUNT}:configuration-set/other because no identity-based policy allows the ses:SendEmail action`,
    );
    expect(received).toHaveLength(1);
  });

  it('checks iam:PassRole of a schedule’s role, and answers AccessDeniedException', async () => {
    // Prepare
    answer = { status: 200, headers: { 'content-type': 'application/json' }, body: `{"ScheduleArn":"arn:aws:scheduler:${REGION}:${ACCOUNT}:schedule/group/s1"}` };
    const scheduler = client(SchedulerClient, 'scheduler', 'WRITERKEY');
    const schedule = (name: string, roleArn: string) =>
      new CreateScheduleCommand({
        Name: name,
        GroupName: 'group',
        ScheduleExpression: 'at(2030-01-01T00:00:00)',
        FlexibleTimeWindow: { Mode: 'OFF' },
        Target: { Arn: QUEUE, RoleArn: roleArn, Input: '{}' },
      });

    // Act
    const created = await scheduler.send(schedule('s1', SCHEDULER_ROLE));
    const error = await failure(scheduler.send(schedule('s2', WRITER)));

    // Assess
    expect(created.ScheduleArn).toBe(`arn:aws:scheduler:${REGION}:${ACCOUNT}:schedule/group/s1`);
    expect(error.name).toBe('AccessDeniedException');
    expect(error.$metadata.httpStatusCode).toBe(403);
    expect(error.message).toBe(
      `User: ${session('Writer', 'WRITERKEY')} is not authorized to perform: iam:PassRole on resource: ${WRITER} because no identity-based policy allows the iam:PassRole action`,
    );
    expect(received.map((request) => `${request.method} ${request.url}`)).toEqual(['POST /schedules/s1']);
  });

  it('answers an access key it does not know with each service’s invalid-credential error', async () => {
    // Prepare
    const stranger = 'AKIASTRANGER';

    // Act
    const errors = await Promise.all([
      failure(client(DynamoDBClient, 'dynamodb', stranger).send(new GetItemCommand({ TableName: 'mailwright', Key: { pk: { S: 'a' } } }))),
      failure(client(SQSClient, 'sqs', stranger).send(new GetQueueAttributesCommand({ QueueUrl: 'http://127.0.0.1/000000000000/sends' }))),
      failure(client(S3Client, 's3', stranger, { forcePathStyle: true }).send(new GetObjectCommand({ Bucket: 'payloads', Key: 'imports/a.csv' }))),
      failure(client(SESv2Client, 'ses', stranger).send(new SendEmailCommand({ FromEmailAddress: 'a@example.com', Content: { Raw: { Data: Buffer.from('x') } } }))),
    ]);

    // Assess
    expect(errors.map((error) => [error.name, error.$metadata.httpStatusCode])).toEqual([
      ['UnrecognizedClientException', 400],
      ['InvalidClientTokenId', 403],
      ['InvalidAccessKeyId', 403],
      ['UnrecognizedClientException', 403],
    ]);
    expect(received).toHaveLength(0);
  });

  it('refuses a request it cannot map to an action, and says so', async () => {
    // Prepare
    const headers = { authorization: 'AWS4-HMAC-SHA256 Credential=WRITERKEY/20260101/us-east-1/ses/aws4_request, SignedHeaders=host, Signature=x' };

    // Act
    const response = await fetch(`${proxies.ses!.url}/v2/email/dedicated-ip-pools`, { headers });

    // Assess
    expect(response.status).toBe(403);
    expect(response.headers.get('x-amzn-errortype')).toBe('AccessDeniedException');
    expect(await response.json()).toEqual({
      message: `User: ${session('Writer', 'WRITERKEY')} is not authorized to perform this request locally: SES GET /v2/email/dedicated-ip-pools is not an operation the local IAM knows`,
    });
    expect(log).toHaveBeenCalledWith(
      'IAM proxy (ses) refused GET /v2/email/dedicated-ip-pools: SES GET /v2/email/dedicated-ip-pools is not an operation the local IAM knows',
    );
    expect(received).toHaveLength(0);
  });

  it('answers 502, which the SDK retries, when the emulator cannot be reached', async () => {
    // Prepare: a port nothing listens on any more
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const proxy = await startIamProxy({ service: 'dynamodb', target: `http://127.0.0.1:${port}`, principals: (key) => keys[key], authorizer: createAuthorizer(policies, { account: ACCOUNT }), region: REGION, account: ACCOUNT, log });

    // Act
    const error = await failure(client(DynamoDBClient, 'dynamodb', 'READERKEY', { endpoint: proxy.url }).send(new GetItemCommand({ TableName: 'mailwright', Key: { pk: { S: 'a' } } })));
    await proxy.stop();

    // Assess
    expect(error.$metadata.httpStatusCode).toBe(502);
    expect(log).toHaveBeenCalledWith(expect.stringMatching(/^IAM proxy \(dynamodb\) failed on POST \/: connect ECONNREFUSED 127\.0\.0\.1:\d+$/));
  });
});
