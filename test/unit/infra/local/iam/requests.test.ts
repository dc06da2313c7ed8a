import { CreateTableCommand, DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DescribeStreamCommand, DynamoDBStreamsClient, GetRecordsCommand, GetShardIteratorCommand, ListStreamsCommand } from '@aws-sdk/client-dynamodb-streams';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { CreateScheduleCommand, DeleteScheduleCommand, GetScheduleCommand, SchedulerClient, UpdateScheduleCommand } from '@aws-sdk/client-scheduler';
import { CreateEmailIdentityCommand, DeleteEmailIdentityCommand, GetEmailIdentityCommand, SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import {
  ChangeMessageVisibilityCommand,
  CreateQueueCommand,
  DeleteMessageBatchCommand,
  GetQueueAttributesCommand,
  GetQueueUrlCommand,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  SendMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { BatchGetCommand, BatchWriteCommand, DeleteCommand, DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { accessKeyIdOf, authorizationRequests, UnmappedRequestError, type IamService, type ServiceRequest } from '../../../../../infra/local/iam/requests';

const where = { region: 'us-east-1', account: '123456789012' };
const TABLE = 'arn:aws:dynamodb:us-east-1:123456789012:table/mailwright';
const STREAM = 'arn:aws:dynamodb:us-east-1:123456789012:table/mailwright/stream/2026-01-01T00:00:00.000';
const QUEUE_URL = 'http://127.0.0.1:9324/000000000000/mailwright-sends';
const QUEUE = 'arn:aws:sqs:us-east-1:123456789012:mailwright-sends';
const SCHEDULER_ROLE = 'arn:aws:iam::123456789012:role/SchedulerRole';
const SCHEDULE = 'arn:aws:scheduler:us-east-1:123456789012:schedule/mailwright-group/wf-1';

/** A request as the SDK puts it on the wire; the request handler stops it there. */
type Wire = { method: string; path: string; query: Record<string, string | string[] | null>; headers: Record<string, string>; body?: unknown };
class Captured extends Error {}

function capturing<T extends { send(command: never): Promise<unknown> }>(Client: new (config: object) => T, extra: object = {}) {
  const wire: Wire[] = [];
  const client = new Client({
    region: 'us-east-1',
    endpoint: 'http://127.0.0.1:4000',
    credentials: { accessKeyId: 'AKIAFUNCTION', secretAccessKey: 'secret' },
    maxAttempts: 1,
    requestHandler: {
      handle: async (request: Wire) => {
        wire.push(request);
        throw new Captured();
      },
    },
    ...extra,
  });
  return { client, wire };
}

/** The ServiceRequest the proxy would see for the SDK's request. */
function seen(request: Wire): ServiceRequest {
  const query = Object.entries(request.query ?? {})
    .flatMap(([name, value]) => (value === null ? [name] : ([] as string[]).concat(value).map((one) => `${name}=${encodeURIComponent(one)}`)))
    .join('&');
  const body = typeof request.body === 'string' ? request.body : request.body instanceof Uint8Array ? new TextDecoder().decode(request.body) : undefined;
  return { method: request.method, url: `${request.path}${query ? `?${query}` : ''}`, headers: request.headers, ...(body !== undefined ? { body } : {}) };
}

async function mapped(service: IamService, send: () => Promise<unknown>, wire: Wire[]) {
  await expect(send()).rejects.toBeInstanceOf(Captured);
  return authorizationRequests(service, seen(wire.at(-1)!), where);
}

describe('authorizationRequests: DynamoDB, as the document client sends it', () => {
  const { client: base, wire } = capturing(DynamoDBClient);
  const documents = DynamoDBDocumentClient.from(base);
  const key = { pk: 'P#1', sk: 'S#1' };

  it.each([
    ['GetItem', () => new GetCommand({ TableName: 'mailwright', Key: key }), [{ action: 'dynamodb:GetItem', resource: TABLE, context: {} }]],
    ['PutItem', () => new PutCommand({ TableName: 'mailwright', Item: key }), [{ action: 'dynamodb:PutItem', resource: TABLE, context: {} }]],
    ['UpdateItem', () => new UpdateCommand({ TableName: 'mailwright', Key: key, UpdateExpression: 'SET a = :a', ExpressionAttributeValues: { ':a': 1 } }), [{ action: 'dynamodb:UpdateItem', resource: TABLE, context: {} }]],
    ['DeleteItem', () => new DeleteCommand({ TableName: 'mailwright', Key: key }), [{ action: 'dynamodb:DeleteItem', resource: TABLE, context: {} }]],
    ['Query on the table', () => new QueryCommand({ TableName: 'mailwright', KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': 'P#1' } }), [{ action: 'dynamodb:Query', resource: TABLE, context: {} }]],
    [
      'Query on an index',
      () => new QueryCommand({ TableName: 'mailwright', IndexName: 'GSI2', KeyConditionExpression: 'gsi2pk = :p', ExpressionAttributeValues: { ':p': 'P#1' } }),
      [{ action: 'dynamodb:Query', resource: `${TABLE}/index/GSI2`, context: {} }],
    ],
    [
      'BatchGetItem on two tables',
      () => new BatchGetCommand({ RequestItems: { mailwright: { Keys: [key] }, other: { Keys: [key] } } }),
      [
        { action: 'dynamodb:BatchGetItem', resource: TABLE, context: {} },
        { action: 'dynamodb:BatchGetItem', resource: 'arn:aws:dynamodb:us-east-1:123456789012:table/other', context: {} },
      ],
    ],
    ['BatchWriteItem', () => new BatchWriteCommand({ RequestItems: { mailwright: [{ PutRequest: { Item: key } }, { DeleteRequest: { Key: key } }] } }), [{ action: 'dynamodb:BatchWriteItem', resource: TABLE, context: {} }]],
    [
      'TransactWriteItems, each item its action on its table',
      () =>
        new TransactWriteCommand({
          TransactItems: [
            { Put: { TableName: 'mailwright', Item: key } },
            { Update: { TableName: 'mailwright', Key: key, UpdateExpression: 'SET a = :a', ExpressionAttributeValues: { ':a': 1 } } },
            { Delete: { TableName: 'other', Key: key } },
            { ConditionCheck: { TableName: 'mailwright', Key: key, ConditionExpression: 'attribute_exists(pk)' } },
          ],
        }),
      [
        { action: 'dynamodb:PutItem', resource: TABLE, context: {} },
        { action: 'dynamodb:UpdateItem', resource: TABLE, context: {} },
        { action: 'dynamodb:DeleteItem', resource: 'arn:aws:dynamodb:us-east-1:123456789012:table/other', context: {} },
        { action: 'dynamodb:ConditionCheckItem', resource: TABLE, context: {} },
      ],
    ],
    ['DescribeTable', () => new DescribeTableCommand({ TableName: 'mailwright' }), [{ action: 'dynamodb:DescribeTable', resource: TABLE, context: {} }]],
    [
      'CreateTable',
      () => new CreateTableCommand({ TableName: 'mailwright', AttributeDefinitions: [], KeySchema: [], BillingMode: 'PAY_PER_REQUEST' }),
      [{ action: 'dynamodb:CreateTable', resource: TABLE, context: {} }],
    ],
  ])('%s', async (_name, command, expected) => {
    // Act
    const requests = await mapped('dynamodb', () => documents.send(command() as never), wire);

    // Assess
    expect(requests).toEqual(expected);
  });

  it('takes a TransactGetItems item as GetItem and a table ARN as it is', () => {
    // Prepare
    const body = JSON.stringify({ TransactItems: [{ Get: { TableName: TABLE, Key: {} } }] });

    // Act
    const requests = authorizationRequests('dynamodb', { method: 'POST', url: '/', headers: { 'x-amz-target': 'DynamoDB_20120810.TransactGetItems' }, body }, where);

    // Assess
    expect(requests).toEqual([{ action: 'dynamodb:GetItem', resource: TABLE, context: {} }]);
  });
});

describe('authorizationRequests: DynamoDB Streams', () => {
  const { client, wire } = capturing(DynamoDBStreamsClient);

  it.each([
    ['DescribeStream', () => new DescribeStreamCommand({ StreamArn: STREAM }), [{ action: 'dynamodb:DescribeStream', resource: STREAM, context: {} }]],
    ['GetShardIterator', () => new GetShardIteratorCommand({ StreamArn: STREAM, ShardId: 'shard-1', ShardIteratorType: 'LATEST' }), [{ action: 'dynamodb:GetShardIterator', resource: STREAM, context: {} }]],
    ['GetRecords, by the stream its iterator names', () => new GetRecordsCommand({ ShardIterator: `${STREAM}|1|AAAAAAAAAA==` }), [{ action: 'dynamodb:GetRecords', resource: STREAM, context: {} }]],
    ['ListStreams', () => new ListStreamsCommand({}), [{ action: 'dynamodb:ListStreams', resource: '*', context: {} }]],
  ])('%s', async (_name, command, expected) => {
    // Act
    const requests = await mapped('dynamodb', () => client.send(command() as never), wire);

    // Assess
    expect(requests).toEqual(expected);
  });

  it('refuses GetRecords whose iterator names no stream', () => {
    // Prepare
    const request = { method: 'POST', url: '/', headers: { 'x-amz-target': 'DynamoDBStreams_20120810.GetRecords' }, body: '{"ShardIterator":"opaque"}' };

    // Act
    const act = () => authorizationRequests('dynamodb', request, where);

    // Assess
    expect(act).toThrow(new UnmappedRequestError('GetRecords with a shard iterator that does not name its stream'));
  });
});

describe('authorizationRequests: SQS', () => {
  const { client, wire } = capturing(SQSClient);
  const queue = (action: string, resource = QUEUE) => [{ action, resource, context: {} }];

  it.each([
    ['SendMessage', () => new SendMessageCommand({ QueueUrl: QUEUE_URL, MessageBody: 'x' }), queue('sqs:SendMessage')],
    ['SendMessageBatch as SendMessage', () => new SendMessageBatchCommand({ QueueUrl: QUEUE_URL, Entries: [{ Id: '1', MessageBody: 'x' }] }), queue('sqs:SendMessage')],
    ['ReceiveMessage', () => new ReceiveMessageCommand({ QueueUrl: QUEUE_URL }), queue('sqs:ReceiveMessage')],
    ['DeleteMessageBatch as DeleteMessage', () => new DeleteMessageBatchCommand({ QueueUrl: QUEUE_URL, Entries: [{ Id: '1', ReceiptHandle: 'r' }] }), queue('sqs:DeleteMessage')],
    ['ChangeMessageVisibility', () => new ChangeMessageVisibilityCommand({ QueueUrl: QUEUE_URL, ReceiptHandle: 'r', VisibilityTimeout: 5 }), queue('sqs:ChangeMessageVisibility')],
    ['GetQueueAttributes', () => new GetQueueAttributesCommand({ QueueUrl: QUEUE_URL, AttributeNames: ['QueueArn'] }), queue('sqs:GetQueueAttributes')],
    ['GetQueueUrl by name', () => new GetQueueUrlCommand({ QueueName: 'mailwright-sends' }), queue('sqs:GetQueueUrl')],
    ['GetQueueUrl of another account', () => new GetQueueUrlCommand({ QueueName: 'q', QueueOwnerAWSAccountId: '999999999999' }), queue('sqs:GetQueueUrl', 'arn:aws:sqs:us-east-1:999999999999:q')],
    ['CreateQueue', () => new CreateQueueCommand({ QueueName: 'mailwright-sends' }), queue('sqs:CreateQueue')],
  ])('%s', async (_name, command, expected) => {
    // Act
    const requests = await mapped('sqs', () => client.send(command() as never), wire);

    // Assess
    expect(requests).toEqual(expected);
  });
});

describe('authorizationRequests: S3, path-style as shared/payloads addresses it', () => {
  const { client, wire } = capturing(S3Client, { forcePathStyle: true });
  const object = (action: string, key = 'imports/p 1/a.csv') => [{ action, resource: `arn:aws:s3:::mailwright-payloads/${key}`, context: {} }];
  const at = { Bucket: 'mailwright-payloads', Key: 'imports/p 1/a.csv' };

  it.each([
    ['PutObject', () => new PutObjectCommand({ ...at, Body: 'x' }), object('s3:PutObject')],
    ['GetObject', () => new GetObjectCommand({ ...at, Range: 'bytes=0-9' }), object('s3:GetObject')],
    ['HeadObject as GetObject', () => new HeadObjectCommand(at), object('s3:GetObject')],
    ['CreateMultipartUpload as PutObject', () => new CreateMultipartUploadCommand(at), object('s3:PutObject')],
    ['UploadPart as PutObject', () => new UploadPartCommand({ ...at, UploadId: 'u1', PartNumber: 1, Body: 'x' }), object('s3:PutObject')],
    ['CompleteMultipartUpload as PutObject', () => new CompleteMultipartUploadCommand({ ...at, UploadId: 'u1', MultipartUpload: { Parts: [{ ETag: '"e"', PartNumber: 1 }] } }), object('s3:PutObject')],
    ['AbortMultipartUpload', () => new AbortMultipartUploadCommand({ ...at, UploadId: 'u1' }), object('s3:AbortMultipartUpload')],
    ['CreateBucket', () => new CreateBucketCommand({ Bucket: 'mailwright-payloads' }), [{ action: 's3:CreateBucket', resource: 'arn:aws:s3:::mailwright-payloads', context: {} }]],
  ])('%s', async (_name, command, expected) => {
    // Act
    const requests = await mapped('s3', () => client.send(command() as never), wire);

    // Assess
    expect(requests).toEqual(expected);
  });

  it('maps presigned upload and download URLs and names their access key', async () => {
    // Prepare
    const signer = new S3Client({ region: 'us-east-1', endpoint: 'http://127.0.0.1:4569', forcePathStyle: true, credentials: { accessKeyId: 'AKIAFUNCTION', secretAccessKey: 'secret' } });
    const upload = new URL(await getSignedUrl(signer, new PutObjectCommand(at), { expiresIn: 60 }));
    const download = new URL(await getSignedUrl(signer, new GetObjectCommand({ ...at, ResponseContentDisposition: 'attachment; filename="a.csv"' }), { expiresIn: 60 }));

    // Act
    const put = authorizationRequests('s3', { method: 'PUT', url: `${upload.pathname}${upload.search}`, headers: {} }, where);
    const get = authorizationRequests('s3', { method: 'GET', url: `${download.pathname}${download.search}`, headers: {} }, where);

    // Assess
    expect(put).toEqual(object('s3:PutObject'));
    expect(get).toEqual(object('s3:GetObject'));
    expect(accessKeyIdOf({ url: `${download.pathname}${download.search}`, headers: {} })).toBe('AKIAFUNCTION');
  });

  it('maps bucket listings with their prefix, and a copy to a read of its source', () => {
    // Act
    const list = authorizationRequests('s3', { method: 'GET', url: '/mailwright-payloads?list-type=2&prefix=exports%2F', headers: {} }, where);
    const copy = authorizationRequests('s3', { method: 'PUT', url: '/mailwright-payloads/exports/b.csv', headers: { 'x-amz-copy-source': '/mailwright-payloads/imports/a%20b.csv' } }, where);

    // Assess
    expect(list).toEqual([{ action: 's3:ListBucket', resource: 'arn:aws:s3:::mailwright-payloads', context: { 's3:prefix': 'exports/' } }]);
    expect(copy).toEqual([
      { action: 's3:PutObject', resource: 'arn:aws:s3:::mailwright-payloads/exports/b.csv', context: {} },
      { action: 's3:GetObject', resource: 'arn:aws:s3:::mailwright-payloads/imports/a b.csv', context: {} },
    ]);
  });

  it('refuses a multi-object delete it does not read', () => {
    // Act
    const act = () => authorizationRequests('s3', { method: 'POST', url: '/mailwright-payloads?delete', headers: {} }, where);

    // Assess
    expect(act).toThrow(UnmappedRequestError);
  });
});

describe('authorizationRequests: SES v2', () => {
  const { client, wire } = capturing(SESv2Client);
  const identity = (action: string, name = 'example.com') => [{ action, resource: `arn:aws:ses:us-east-1:123456789012:identity/${name}`, context: {} }];

  it('authorizes SendEmail on the sender’s domain identity and on the configuration set', async () => {
    // Act
    const requests = await mapped(
      'ses',
      () =>
        client.send(
          new SendEmailCommand({
            FromEmailAddress: '"News, weekly" <news@example.com>',
            Destination: { ToAddresses: ['ada@example.org'] },
            Content: { Simple: { Subject: { Data: 's' }, Body: { Html: { Data: '<p>h</p>' } } } },
            ConfigurationSetName: 'mailwright',
          }),
        ),
      wire,
    );

    // Assess
    expect(requests).toEqual([
      { action: 'ses:SendEmail', resource: 'arn:aws:ses:us-east-1:123456789012:identity/example.com', context: { 'ses:FromAddress': 'news@example.com' } },
      { action: 'ses:SendEmail', resource: 'arn:aws:ses:us-east-1:123456789012:configuration-set/mailwright', context: { 'ses:FromAddress': 'news@example.com' } },
    ]);
  });

  it('authorizes SendEmail without a configuration set on the identity alone', async () => {
    // Act
    const requests = await mapped('ses', () => client.send(new SendEmailCommand({ FromEmailAddress: 'a@b.example', Content: { Raw: { Data: Buffer.from('x') } } })), wire);

    // Assess
    expect(requests).toEqual([{ action: 'ses:SendEmail', resource: 'arn:aws:ses:us-east-1:123456789012:identity/b.example', context: { 'ses:FromAddress': 'a@b.example' } }]);
  });

  it.each([
    ['CreateEmailIdentity', () => new CreateEmailIdentityCommand({ EmailIdentity: 'example.com' }), identity('ses:CreateEmailIdentity')],
    ['GetEmailIdentity', () => new GetEmailIdentityCommand({ EmailIdentity: 'example.com' }), identity('ses:GetEmailIdentity')],
    ['DeleteEmailIdentity', () => new DeleteEmailIdentityCommand({ EmailIdentity: 'example.com' }), identity('ses:DeleteEmailIdentity')],
  ])('%s', async (_name, command, expected) => {
    // Act
    const requests = await mapped('ses', () => client.send(command() as never), wire);

    // Assess
    expect(requests).toEqual(expected);
  });
});

describe('authorizationRequests: Scheduler', () => {
  const { client, wire } = capturing(SchedulerClient);
  const target = { Arn: QUEUE, RoleArn: SCHEDULER_ROLE, Input: '{}' };
  const passRole = { action: 'iam:PassRole', resource: SCHEDULER_ROLE, context: { 'iam:PassedToService': 'scheduler.amazonaws.com' } };
  const schedule = { Name: 'wf-1', GroupName: 'mailwright-group', ScheduleExpression: 'at(2030-01-01T00:00:00)', FlexibleTimeWindow: { Mode: 'OFF' as const }, Target: target };

  it.each([
    ['CreateSchedule, with PassRole of its role', () => new CreateScheduleCommand(schedule), [{ action: 'scheduler:CreateSchedule', resource: SCHEDULE, context: {} }, passRole]],
    ['UpdateSchedule, with PassRole of its role', () => new UpdateScheduleCommand(schedule), [{ action: 'scheduler:UpdateSchedule', resource: SCHEDULE, context: {} }, passRole]],
    ['GetSchedule', () => new GetScheduleCommand({ Name: 'wf-1', GroupName: 'mailwright-group' }), [{ action: 'scheduler:GetSchedule', resource: SCHEDULE, context: {} }]],
    ['DeleteSchedule', () => new DeleteScheduleCommand({ Name: 'wf-1', GroupName: 'mailwright-group' }), [{ action: 'scheduler:DeleteSchedule', resource: SCHEDULE, context: {} }]],
    [
      'GetSchedule in the default group',
      () => new GetScheduleCommand({ Name: 'wf-1' }),
      [{ action: 'scheduler:GetSchedule', resource: 'arn:aws:scheduler:us-east-1:123456789012:schedule/default/wf-1', context: {} }],
    ],
  ])('%s', async (_name, command, expected) => {
    // Act
    const requests = await mapped('scheduler', () => client.send(command() as never), wire);

    // Assess
    expect(requests).toEqual(expected);
  });
});

describe('accessKeyIdOf', () => {
  it('reads the key id from a SigV4 Authorization header', () => {
    // Act
    const id = accessKeyIdOf({ url: '/', headers: { authorization: 'AWS4-HMAC-SHA256 Credential=AKIAFUNCTION/20260101/us-east-1/sqs/aws4_request, SignedHeaders=host, Signature=abc' } });

    // Assess
    expect(id).toBe('AKIAFUNCTION');
  });

  it('finds none in an unsigned request', () => {
    // Act
    const id = accessKeyIdOf({ url: '/bucket/key', headers: {} });

    // Assess
    expect(id).toBeUndefined();
  });
});
