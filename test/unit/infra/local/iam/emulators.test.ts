import { CreateBucketCommand, GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { CreateQueueCommand, ReceiveMessageCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createAuthorizer } from '../../../../../infra/local/iam/evaluate';
import type { StackPolicies } from '../../../../../infra/local/iam/policies';
import { S3RVER_ACCESS_KEY_ID, startIamProxy, type IamProxy } from '../../../../../infra/local/iam/proxy';

/** The proxy in front of the emulators the local stack runs in-process: s3rver and local-aws-sqs. */
const REGION = 'us-east-1';
const ACCOUNT = '123456789012';
const ROLE = `arn:aws:iam::${ACCOUNT}:role/Transfers`;
const policies: StackPolicies = {
  identity: new Map([
    [
      ROLE,
      [
        {
          name: 'transfers',
          policy: {
            Version: '2012-10-17',
            Statement: [
              { Effect: 'Allow', Action: ['s3:GetObject', 's3:PutObject'], Resource: 'arn:aws:s3:::payloads/imports/*' },
              { Effect: 'Allow', Action: ['sqs:SendMessage', 'sqs:ReceiveMessage'], Resource: `arn:aws:sqs:${REGION}:${ACCOUNT}:imports` },
            ],
          },
        },
      ],
    ],
  ]),
  functions: new Map(),
  resources: new Map(),
};
const authorizer = createAuthorizer(policies, { account: ACCOUNT });
const credentials = (accessKeyId: string) => ({ accessKeyId, secretAccessKey: 'secret' });

describe('the IAM proxy in front of s3rver', () => {
  let directory: string;
  let s3rver: { close(): Promise<void> };
  let proxy: IamProxy;
  let s3: S3Client;
  let direct: S3Client;
  let s3rverUrl: string;

  beforeAll(async () => {
    directory = mkdtempSync(path.join(tmpdir(), 'mailwright-iam-s3rver-'));
    const { default: S3rver } = await import('s3rver');
    const server = new S3rver({ port: 0, address: '127.0.0.1', directory, silent: true });
    const address = (await server.run()) as AddressInfo;
    s3rver = server;
    s3rverUrl = `http://127.0.0.1:${address.port}`;
    direct = new S3Client({ region: REGION, endpoint: s3rverUrl, forcePathStyle: true, credentials: credentials(S3RVER_ACCESS_KEY_ID) });
    await direct.send(new CreateBucketCommand({ Bucket: 'payloads' }));
    proxy = await startIamProxy({ service: 's3', target: s3rverUrl, principals: (key) => (key === 'AKIATRANSFERS' ? ROLE : undefined), authorizer, region: REGION, account: ACCOUNT });
    s3 = new S3Client({ region: REGION, endpoint: proxy.url, forcePathStyle: true, credentials: credentials('AKIATRANSFERS'), maxAttempts: 1 });
  });

  afterAll(async () => {
    await proxy.stop();
    await s3rver.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it('stores and returns an allowed object, which s3rver accepts under its own key', async () => {
    // Act
    await s3.send(new PutObjectCommand({ Bucket: 'payloads', Key: 'imports/p1/a.csv', Body: 'email\nada@example.com\n' }));
    const { Body } = await s3.send(new GetObjectCommand({ Bucket: 'payloads', Key: 'imports/p1/a.csv' }));

    // Assess: s3rver itself knows no other key, hence the rewrite
    expect(await Body!.transformToString()).toBe('email\nada@example.com\n');
    const unrewritten = new S3Client({ region: REGION, endpoint: s3rverUrl, forcePathStyle: true, credentials: credentials('AKIATRANSFERS'), maxAttempts: 1 });
    await expect(unrewritten.send(new GetObjectCommand({ Bucket: 'payloads', Key: 'imports/p1/a.csv' }))).rejects.toMatchObject({ name: 'InvalidAccessKeyId' });
  });

  it('serves an allowed presigned upload and download through the proxy', async () => {
    // Prepare
    const upload = await getSignedUrl(s3, new PutObjectCommand({ Bucket: 'payloads', Key: 'imports/p1/b.csv' }), { expiresIn: 60 });
    const download = await getSignedUrl(s3, new GetObjectCommand({ Bucket: 'payloads', Key: 'imports/p1/b.csv' }), { expiresIn: 60 });

    // Act
    const put = await fetch(upload, { method: 'PUT', body: 'email\n' });
    const get = await fetch(download);

    // Assess
    expect(put.status).toBe(200);
    expect(get.status).toBe(200);
    expect(await get.text()).toBe('email\n');
  });

  it('keeps a denied object out of the bucket', async () => {
    // Act
    const denied = s3.send(new PutObjectCommand({ Bucket: 'payloads', Key: 'exports/p1/a.csv', Body: 'x' }));

    // Assess
    await expect(denied).rejects.toMatchObject({ name: 'AccessDenied' });
    await expect(direct.send(new GetObjectCommand({ Bucket: 'payloads', Key: 'exports/p1/a.csv' }))).rejects.toMatchObject({ name: 'NoSuchKey' });
  });
});

describe('the IAM proxy in front of local-aws-sqs', () => {
  let sqsServer: Server;
  let proxy: IamProxy;
  let sqs: SQSClient;
  let queueUrl: (name: string) => string;

  beforeAll(async () => {
    const { createSqsServer } = await import('local-aws-sqs');
    sqsServer = (await createSqsServer({ port: 0, hostname: '127.0.0.1', emulateQueueCreationLifecycle: false })) as unknown as Server;
    const target = `http://127.0.0.1:${(sqsServer.address() as AddressInfo).port}`;
    const direct = new SQSClient({ region: REGION, endpoint: target, credentials: credentials('admin') });
    for (const name of ['imports', 'exports']) await direct.send(new CreateQueueCommand({ QueueName: name }));
    proxy = await startIamProxy({ service: 'sqs', target, principals: (key) => (key === 'AKIATRANSFERS' ? ROLE : undefined), authorizer, region: REGION, account: ACCOUNT });
    // The SDK sends to the QueueUrl's origin, so the function's queue URLs must name the proxy.
    queueUrl = (name) => `${proxy.url}/${ACCOUNT}/${name}`;
    sqs = new SQSClient({ region: REGION, endpoint: proxy.url, credentials: credentials('AKIATRANSFERS'), maxAttempts: 1 });
  });

  afterAll(async () => {
    await proxy.stop();
    await new Promise((resolve) => sqsServer.close(resolve));
  });

  it('delivers an allowed message and refuses another queue', async () => {
    // Act
    await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl('imports'), MessageBody: '{"importId":"i1"}' }));
    const { Messages } = await sqs.send(new ReceiveMessageCommand({ QueueUrl: queueUrl('imports'), WaitTimeSeconds: 0 }));
    const denied = sqs.send(new SendMessageCommand({ QueueUrl: queueUrl('exports'), MessageBody: 'x' }));

    // Assess
    expect(Messages?.map((message) => message.Body)).toEqual(['{"importId":"i1"}']);
    await expect(denied).rejects.toMatchObject({ name: 'AccessDenied', $metadata: { httpStatusCode: 403 } });
  });
});
