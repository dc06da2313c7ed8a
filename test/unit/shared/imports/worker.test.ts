import { Readable } from 'node:stream';
import { jest } from '@jest/globals';
import { ConditionalCheckFailedException, ProvisionedThroughputExceededException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient, GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { handler } from '../../../../functions/contact-imports/handler';
import { runImport } from '../../../../shared/imports/worker';
import { RetryLater } from '../../../../shared/queue/errors';

/**
 * The worker against a small in-memory table that enforces the conditions the worker and the
 * contact upsert rely on (create only if absent, replace only if unchanged since read, the
 * checkpoint only from where the batch began), so that a crash between a batch's contact writes
 * and its checkpoint can be replayed and the counts compared.
 */
const ddb = mockClient(DynamoDBDocumentClient);
const s3 = mockClient(S3Client);
const sqs = mockClient(SQSClient);

const P = 'P1';
const JOB = '01JKQ3M6T5Z8V9W0X1Y2Z3A4B5';
const jobKey = `PROJECT#${P}|IMPORT#${JOB}`;
const counterKey = `PROJECT#${P}|COUNTER#CONTACTS`;

let items: Map<string, Record<string, any>>;
let file: Buffer;
let checkpointCalls: number;
let crashAtCheckpoint: number | undefined;
let crashWith: () => Error;

const keyOf = (key: Record<string, string>) => `${key.PK}|${key.SK}`;
const clone = <T>(value: T): T => (value === undefined ? value : structuredClone(value));
const cancelled = (codes: string[]) => new TransactionCanceledException({ message: 'cancelled', $metadata: {}, CancellationReasons: codes.map((Code) => ({ Code })) });
const conditionFailed = () => new ConditionalCheckFailedException({ message: 'failed', $metadata: {} });

function fakeTable() {
  ddb.on(GetCommand).callsFake((input) => ({ Item: clone(items.get(keyOf(input.Key))) }));
  ddb.on(TransactWriteCommand).callsFake((input) => {
    const writes = input.TransactItems as any[];
    const codes = writes.map((write) => {
      const op = write.Put ?? write.Update ?? write.Delete;
      const current = items.get(keyOf(op.Key ?? { PK: op.Item.PK, SK: op.Item.SK }));
      if (op.ConditionExpression === 'attribute_not_exists(PK)' && current) return 'ConditionalCheckFailed';
      if (op.ConditionExpression?.includes('updatedAt = :readAt') && current?.updatedAt !== op.ExpressionAttributeValues[':readAt']) return 'ConditionalCheckFailed';
      return 'None';
    });
    if (codes.includes('ConditionalCheckFailed')) throw cancelled(codes);
    for (const write of writes) {
      if (write.Put) items.set(keyOf(write.Put.Item), clone(write.Put.Item));
      if (write.Update) {
        const counters = items.get(keyOf(write.Update.Key)) ?? { ...write.Update.Key, total: 0, subscribed: 0 };
        counters.total += write.Update.ExpressionAttributeValues[':total'];
        counters.subscribed += write.Update.ExpressionAttributeValues[':subscribed'];
        items.set(keyOf(write.Update.Key), counters);
      }
    }
    return {};
  });
  ddb.on(UpdateCommand).callsFake((input) => {
    const job = items.get(keyOf(input.Key))!;
    const values = input.ExpressionAttributeValues;
    if (':fromRow' in values) {
      checkpointCalls += 1;
      if (checkpointCalls === crashAtCheckpoint) throw crashWith();
      if (job.nextRow !== values[':fromRow'] || job.status !== 'PROCESSING') throw conditionFailed();
      Object.assign(job, { nextRow: values[':nextRow'], nextByte: values[':nextByte'], processed: values[':nextRow'], errors: [...job.errors, ...values[':errors']] });
      if (values[':header']) job.header = values[':header'];
      for (const name of ['created', 'updated', 'skipped', 'duplicates', 'failed']) job[name] += values[`:${name}`];
      return { Attributes: clone(job) };
    }
    if (':queued' in values) {
      if (job.status !== 'QUEUED') throw conditionFailed();
      Object.assign(job, { status: 'PROCESSING', startedAt: values[':now'] });
      return { Attributes: clone(job) };
    }
    if (job.nextRow !== values[':rows'] || job.status !== 'PROCESSING') throw conditionFailed();
    Object.assign(job, { status: values[':status'], failure: values[':failure'], rows: values[':rows'], finishedAt: values[':now'] });
    return {};
  });
  s3.on(GetObjectCommand).callsFake((input) => {
    const start = input.Range ? Number(/bytes=(\d+)-/.exec(input.Range)![1]) : 0;
    return { Body: Readable.from([file.subarray(start, start + 1000), file.subarray(start + 1000)]) };
  });
}

function queuedJob(options = { updateExisting: true, subscribed: true }) {
  items.set(jobKey, {
    PK: `PROJECT#${P}`,
    SK: `IMPORT#${JOB}`,
    id: JOB,
    projectId: P,
    status: 'QUEUED',
    rows: null,
    processed: 0,
    created: 0,
    updated: 0,
    skipped: 0,
    duplicates: 0,
    failed: 0,
    errors: [],
    failure: null,
    options,
    createdAt: '2026-11-23T00:00:00.000Z',
    startedAt: null,
    finishedAt: null,
    source: 'body',
    format: 'csv',
    objectKey: `imports/${P}/${JOB}.csv`,
    nextRow: 0,
    nextByte: 0,
    header: null,
    queuedAt: '2026-11-23T00:00:00.000Z',
  });
}

/** 500 data rows: 481 distinct emails, 14 repeats (within a batch and across batches), 5 bad emails. */
function csvFile() {
  const rows: string[] = [];
  const emails = new Map<number, string>(); // row number → its email
  const repeats = new Map<number, number>(); // row number → the row it repeats
  for (let row = 1; row <= 500; row++) {
    if (row % 100 === 50) {
      rows.push(`bad-email-${row},yes,x`);
    } else if (row % 33 === 0 && row > 40) {
      const source = row - (row % 2 === 0 ? 3 : row > 230 ? 230 : 30);
      repeats.set(row, source);
      emails.set(row, emails.get(source)!);
      rows.push(`${emails.get(source)},,last-${row}`);
    } else {
      emails.set(row, `p${row}@Example.com`);
      rows.push(`p${row}@Example.com,${row % 2 ? 'no' : '1'},"city, ${row}"`);
    }
  }
  return { text: `\uFEFFEmail,subscribed,data.city\r\n${rows.join('\r\n')}\r\n`, repeats, emails };
}

const job = () => items.get(jobKey)!;

describe('runImport', () => {
  beforeEach(() => {
    ddb.reset();
    s3.reset();
    sqs.reset();
    items = new Map();
    checkpointCalls = 0;
    crashAtCheckpoint = undefined;
    crashWith = () => new Error('Simulated crash before the checkpoint');
    fakeTable();
  });

  it('imports a file in checkpointed batches with exact counts: duplicates counted once, bad rows reported', async () => {
    // Prepare
    const { text, repeats, emails } = csvFile();
    file = Buffer.from(text);
    queuedJob();

    // Act
    const outcome = await runImport(P, JOB, Date.now() + 60_000);

    // Assess
    expect(outcome).toBe('DONE');
    const distinct = 500 - 5 - repeats.size;
    expect(job()).toMatchObject({ status: 'COMPLETED', rows: 500, processed: 500, created: distinct, updated: 0, skipped: 0, duplicates: repeats.size, failed: 5, failure: null });
    expect(job().errors.map((error: { row: number }) => error.row)).toEqual([50, 150, 250, 350, 450]);
    expect(job().errors[0]).toEqual({ row: 50, email: 'bad-email-50', code: 'INVALID_EMAIL', message: expect.any(String) });
    expect(items.get(counterKey)!.total).toBe(distinct);
    expect(checkpointCalls).toBe(3);
    // The last row of an email wins.
    for (const [row, source] of repeats) {
      const lookup = items.get(`PROJECT#${P}|CONTACT_EMAIL#${emails.get(source)!.toLowerCase()}`)!;
      expect(items.get(`PROJECT#${P}|CONTACT#${lookup.contactId}`)!.data.city).toBe(`last-${row}`);
    }
  });

  it('after a crash between a batch\'s writes and its checkpoint, resumes from the checkpoint without counting a row twice', async () => {
    // Prepare: the second checkpoint fails after its 200 rows were written.
    const { text, repeats } = csvFile();
    file = Buffer.from(text);
    queuedJob();
    crashAtCheckpoint = 2;

    // Act
    await expect(runImport(P, JOB, Date.now() + 60_000)).rejects.toThrow('Simulated crash');
    const afterCrash = { ...job() };
    const outcome = await runImport(P, JOB, Date.now() + 60_000);

    // Assess
    expect(afterCrash).toMatchObject({ status: 'PROCESSING', nextRow: 200 });
    expect(outcome).toBe('DONE');
    const distinct = 500 - 5 - repeats.size;
    expect(job()).toMatchObject({ status: 'COMPLETED', processed: 500, created: distinct, updated: 0, duplicates: repeats.size, failed: 5 });
    expect(items.get(counterKey)!.total).toBe(distinct);
    // The second run read the file from the checkpoint's byte offset, not from the start.
    const ranges = s3.commandCalls(GetObjectCommand).map((call) => call.args[0].input.Range);
    expect(ranges).toEqual([undefined, `bytes=${afterCrash.nextByte}-`]);
    expect(file.subarray(afterCrash.nextByte).toString().startsWith(file.toString().split('\r\n')[201]!)).toBe(true);
  });

  it('after DynamoDB throttled a checkpoint through the SDK\'s retries, continues from the checkpoint in a new invocation once a batch was applied, without counting a row twice', async () => {
    // Prepare: the second checkpoint is throttled after its 200 rows were written.
    const { text, repeats } = csvFile();
    file = Buffer.from(text);
    queuedJob();
    crashAtCheckpoint = 2;
    crashWith = () => new ProvisionedThroughputExceededException({ message: 'throttled', $metadata: { httpStatusCode: 400 } });

    // Act
    const first = await runImport(P, JOB, Date.now() + 60_000);
    const afterThrottle = { ...job() };
    const second = await runImport(P, JOB, Date.now() + 60_000);

    // Assess
    expect(first).toBe('CONTINUE');
    expect(afterThrottle).toMatchObject({ status: 'PROCESSING', nextRow: 200 });
    expect(second).toBe('DONE');
    const distinct = 500 - 5 - repeats.size;
    expect(job()).toMatchObject({ status: 'COMPLETED', processed: 500, created: distinct, updated: 0, duplicates: repeats.size, failed: 5 });
    expect(items.get(counterKey)!.total).toBe(distinct);
  });

  it('after a throttled first checkpoint (no batch applied), has its message back in seconds (RetryLater), not after the queue\'s 30-minute visibility timeout', async () => {
    // Prepare
    file = Buffer.from(csvFile().text);
    queuedJob();
    crashAtCheckpoint = 1;
    crashWith = () => new ProvisionedThroughputExceededException({ message: 'throttled', $metadata: { httpStatusCode: 400 } });

    // Act
    const failure = await runImport(P, JOB, Date.now() + 60_000).catch((error: unknown) => error);

    // Assess
    expect(failure).toBeInstanceOf(RetryLater);
    expect((failure as RetryLater).delaySeconds).toBeLessThanOrEqual(10);
    expect(job()).toMatchObject({ status: 'PROCESSING', nextRow: 0, created: 0 });
  });

  it('continues across invocations: the handler queues the job again until it is done, with the same counts', async () => {
    // Prepare: a clock that moves a second per reading, so each invocation's time is up after one batch.
    const { text, repeats } = csvFile();
    file = Buffer.from(text);
    queuedJob();
    sqs.on(SendMessageCommand).resolves({});
    const start = Date.now();
    let readings = 0;
    const clock = jest.spyOn(Date, 'now').mockImplementation(() => start + 1000 * readings++);
    const context = { getRemainingTimeInMillis: () => 0 } as never;
    const record = (n: number) => ({ Records: [{ messageId: `m${n}`, body: JSON.stringify({ projectId: P, jobId: JOB }), receiptHandle: 'r', attributes: {}, eventSourceARN: 'arn:aws:sqs:us-east-1:1:contact-imports' }] }) as never;

    // Act
    const invocations: unknown[] = [];
    for (let n = 0; n < 6 && job().status !== 'COMPLETED'; n++) invocations.push(await handler(record(n), context));
    clock.mockRestore();

    // Assess
    expect(invocations).toHaveLength(3);
    for (const response of invocations) expect(response).toEqual({ batchItemFailures: [] });
    expect(sqs.commandCalls(SendMessageCommand).map((call) => call.args[0].input)).toEqual([
      { QueueUrl: process.env.IMPORT_QUEUE_URL, MessageBody: JSON.stringify({ projectId: P, jobId: JOB }) },
      { QueueUrl: process.env.IMPORT_QUEUE_URL, MessageBody: JSON.stringify({ projectId: P, jobId: JOB }) },
    ]);
    expect(job()).toMatchObject({ status: 'COMPLETED', created: 500 - 5 - repeats.size, duplicates: repeats.size, failed: 5 });
  });

  it('updateExisting false skips contacts that existed before the job but applies repeats of its own rows', async () => {
    // Prepare: a@x.com exists; b@x.com is new and repeated.
    file = Buffer.from('email,plan\na@x.com,gold\nb@x.com,free\nB@x.com,pro\n');
    queuedJob({ updateExisting: false, subscribed: false });
    items.set(`PROJECT#${P}|CONTACT_EMAIL#a@x.com`, { PK: `PROJECT#${P}`, SK: 'CONTACT_EMAIL#a@x.com', contactId: 'A' });
    items.set(`PROJECT#${P}|CONTACT#A`, { PK: `PROJECT#${P}`, SK: 'CONTACT#A', contactId: 'A', email: 'a@x.com', subscribed: true, data: { plan: 'basic' }, createdAt: 't', updatedAt: 't' });

    // Act
    await runImport(P, JOB, Date.now() + 60_000);

    // Assess
    expect(job()).toMatchObject({ status: 'COMPLETED', rows: 3, created: 1, skipped: 1, duplicates: 1, updated: 0 });
    expect(items.get(`PROJECT#${P}|CONTACT#A`)!.data).toEqual({ plan: 'basic' });
    const b = items.get(`PROJECT#${P}|CONTACT#${items.get(`PROJECT#${P}|CONTACT_EMAIL#b@x.com`)!.contactId}`)!;
    expect(b).toMatchObject({ subscribed: false, data: { plan: 'pro' }, lastImport: `${JOB}#3#created` });
  });

  it('fails a file without an email column, with the reason, and writes no contact', async () => {
    // Prepare
    file = Buffer.from('name,city\nJane,Paris\n');
    queuedJob();

    // Act
    await runImport(P, JOB, Date.now() + 60_000);

    // Assess
    expect(job()).toMatchObject({ status: 'FAILED', rows: 0, failure: { code: 'NO_EMAIL_COLUMN', message: 'The header row has no "email" column' } });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });
});
