import { jest } from '@jest/globals';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { GetObjectCommand, NoSuchKey, S3Client } from '@aws-sdk/client-s3';
import { MessageRejected, SendEmailCommand, SESv2Client, TooManyRequestsException } from '@aws-sdk/client-sesv2';
import { ChangeMessageVisibilityCommand, GetQueueUrlCommand, SQSClient } from '@aws-sdk/client-sqs';
import { BatchWriteCommand, DynamoDBDocumentClient, GetCommand, PutCommand, TransactWriteCommand, UpdateCommand, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { handler } from '../../../../functions/sender/handler';
import { sesTagNames } from '../../../../shared/delivery/ses-tags';
import { putEmails, type EmailRecord } from '../../../../shared/emails/emails';
import { logger } from '../../../../shared/observability/logger';
import { resetPacerMemory } from '../../../../shared/sending/pacer';
import { retryDelaySeconds } from '../../../../shared/sending/sender';
import { endedItem, sendingEmailRecord } from '../../../support/email-fixtures';
import { sqsRecord } from '../../../support/sqs-records';

const ddb = mockClient(DynamoDBDocumentClient);
const ses = mockClient(SESv2Client);
const s3 = mockClient(S3Client);
const sqs = mockClient(SQSClient);

const QUEUE_ARN = 'arn:aws:sqs:us-east-1:123456789012:send';
const QUEUE_URL = 'https://sqs.us-east-1.amazonaws.com/123456789012/send';
const PDF = new Uint8Array([37, 80, 68, 70]);

const email = sendingEmailRecord({
  to: { email: 'jane@example.com', name: 'Jane' },
  from: { email: 'news@acme.test', name: 'Acme News' },
  replyTo: ['support@acme.test'],
  headers: [{ name: 'List-Unsubscribe', value: '<https://u.test/x>' }],
  attachments: [{ key: 'attachments/P1/E1/0', filename: 'report.pdf', contentType: 'application/pdf', size: 4 }],
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:01.000Z',
  leaseUntil: 1_767_225_661_000,
});
const emailKey = { PK: 'PROJECT#P1', SK: 'EMAIL#E1' };
const contactKey = { PK: 'PROJECT#P1', SK: 'CONTACT#C1' };
const suppressionKey = { PK: 'PROJECT#P1', SK: 'SUPPRESSED#jane@example.com' };

const record = (body: string, messageId = 'm1', receiveCount = 1) => sqsRecord({ body, messageId, receiveCount, queueArn: QUEUE_ARN });
const event = (...records: SQSRecord[]): SQSEvent => ({ Records: records });
const sendBody = JSON.stringify({ projectId: 'P1', emailId: 'E1' });

/** DynamoDB as the sender sees it: the claim returns the record, pacer and release succeed. */
function prepareTable(stored: EmailRecord = email, { subscribed = true, suppressed = false } = {}) {
  ddb.on(UpdateCommand).callsFake(async (input: UpdateCommandInput) => {
    if (input.Key!.SK === 'EMAIL#E1' && isClaim(input)) return { Attributes: { ...emailKey, ...stored } };
    if (input.Key!.SK === 'EMAIL#E1' && isEnd(input)) return { Attributes: endedItem(stored, input) };
    return {};
  });
  ddb.on(PutCommand).resolves({});
  ddb.on(GetCommand, { Key: contactKey }).resolves({ Item: { subscribed } });
  ddb.on(GetCommand, { Key: suppressionKey }).resolves(suppressed ? { Item: { PK: 'PROJECT#P1' } } : {});
  ddb.on(TransactWriteCommand).resolves({});
  s3.on(GetObjectCommand).resolves({ Body: { transformToByteArray: async () => PDF } as never });
}

/** The content item putEmails writes for the email (the real encoding); the table mock is reset after. */
async function contentItemOf(written: EmailRecord): Promise<Record<string, unknown>> {
  ddb.on(BatchWriteCommand).resolves({});
  ddb.on(UpdateCommand).resolves({});
  await putEmails([written]);
  const items = ddb.commandCalls(BatchWriteCommand).flatMap((call) => call.args[0].input.RequestItems!['mailwright-test']!.map((request) => request.PutRequest!.Item!));
  ddb.reset();
  return items.find((item) => item.SK === `EMAIL_CONTENT#${written.id}`)!;
}
/** The record as the claim returns it now: without its content, which is an item of its own. */
const withoutContent = ({ html: _html, text: _text, ...rest }: EmailRecord) => rest as EmailRecord;

const updates = () => ddb.commandCalls(UpdateCommand).map((call) => call.args[0].input);
const isClaim = (input: UpdateCommandInput) => input.UpdateExpression!.startsWith('SET #status = :sending, leaseUntil');
const isEnd = (input: UpdateCommandInput) => input.UpdateExpression!.startsWith('SET #status = :status');
const claims = () => updates().filter(isClaim);
const ends = () => updates().filter(isEnd);
const eventPuts = () => ddb.commandCalls(PutCommand).map((call) => call.args[0].input);
/** A refused conditional write, with the item as it is (ALL_OLD, in DynamoDB's wire format). */
const refusedWith = (item: Record<string, unknown>) =>
  Object.assign(new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} }), { Item: marshall({ ...emailKey, ...item }, { removeUndefinedValues: true }) });
const releases = () => updates().filter((input) => input.UpdateExpression?.startsWith('SET #status = :queued'));
const pacerWrites = () => updates().filter((input) => input.Key!.PK === 'SES_PACER');
const transactItems = () => ddb.commandCalls(TransactWriteCommand).map((call) => call.args[0].input.TransactItems!);
/** Updates of the project's items but the email: counters, which transactional mail no longer writes (the table stream counts its events' tallies). */
const counterUpdates = () => updates().filter((input) => input.Key!.PK === 'PROJECT#P1' && input.Key!.SK !== 'EMAIL#E1');

describe('sender', () => {
  beforeEach(() => {
    ddb.reset();
    ses.reset();
    s3.reset();
    sqs.reset();
    resetPacerMemory();
    jest.restoreAllMocks();
  });

  it('sends a claimed email, ends the claim SENT in one conditional write, then writes its email.sent on its own, sent tallied on it', async () => {
    // Prepare
    prepareTable();
    ses.on(SendEmailCommand).resolves({ MessageId: 'ses-1' });

    // Act
    const response = await handler(event(record(sendBody)));

    // Assess
    expect(response).toEqual({ batchItemFailures: [] });
    expect(claims()).toEqual([
      {
        TableName: 'mailwright-test',
        Key: emailKey,
        UpdateExpression: 'SET #status = :sending, leaseUntil = :leaseUntil, claimToken = :token, claimedAt = :now, updatedAt = :now',
        ConditionExpression: 'attribute_exists(PK) AND (#status = :queued OR (#status = :sending AND (leaseUntil < :settledBefore OR claimToken = :token)))',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':sending': 'SENDING', ':queued': 'QUEUED', ':leaseUntil': expect.any(Number), ':token': expect.stringMatching(/^[0-9a-f-]{36}$/), ':now': expect.any(String), ':settledBefore': expect.any(Number) },
        ReturnValues: 'ALL_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    ]);
    // A 60-s lease; another's claim is taken over only 10 minutes after its lease ran out
    const lease = claims()[0]!.ExpressionAttributeValues!;
    const claimedAt = Date.parse(lease[':now']);
    expect([lease[':leaseUntil'] - claimedAt, claimedAt - lease[':settledBefore']]).toEqual([60_000, 600_000]);
    expect(ddb.commandCalls(GetCommand).map((call) => call.args[0].input)).toEqual([
      { TableName: 'mailwright-test', Key: suppressionKey, ConsistentRead: true, ProjectionExpression: 'PK' },
    ]);
    expect(s3.commandCalls(GetObjectCommand)[0]!.args[0].input).toEqual({ Bucket: 'mailwright-payloads-test', Key: 'attachments/P1/E1/0' });
    expect(pacerWrites()).toHaveLength(1);
    expect(ses.commandCalls(SendEmailCommand)[0]!.args[0].input).toEqual({
      FromEmailAddress: '"Acme News" <news@acme.test>',
      Destination: { ToAddresses: ['"Jane" <jane@example.com>'] },
      ReplyToAddresses: ['support@acme.test'],
      Content: {
        Simple: {
          Subject: { Data: 'Hello', Charset: 'UTF-8' },
          Body: { Html: { Data: '<p>Hello</p>', Charset: 'UTF-8' }, Text: { Data: 'Hello', Charset: 'UTF-8' } },
          Headers: [{ Name: 'List-Unsubscribe', Value: '<https://u.test/x>' }],
          Attachments: [{ RawContent: PDF, FileName: 'report.pdf', ContentType: 'application/pdf', ContentDisposition: 'ATTACHMENT' }],
        },
      },
      EmailTags: [
        { Name: sesTagNames.project, Value: 'P1' },
        { Name: sesTagNames.email, Value: 'E1' },
        { Name: sesTagNames.source, Value: 'transactional' },
      ],
      ConfigurationSetName: 'mailwright-test',
    });
    // No transaction (twice the units of both items): the end, marked with its event's id, then the event
    expect(transactItems()).toHaveLength(0);
    const [end] = ends();
    expect(end).toEqual({
      TableName: 'mailwright-test',
      Key: emailKey,
      UpdateExpression: 'SET #status = :status, updatedAt = :now, #f0 = :f0, #f1 = :f1, #f2 = :f2 REMOVE leaseUntil',
      ConditionExpression: '#status = :sending',
      ExpressionAttributeNames: { '#status': 'status', '#f0': 'sesMessageId', '#f1': 'sentAt', '#f2': 'sendEnd' },
      ExpressionAttributeValues: { ':status': 'SENT', ':sending': 'SENDING', ':now': expect.any(String), ':f0': 'ses-1', ':f1': expect.any(String), ':f2': { status: 'SENT', eventId: expect.any(String) } },
      ReturnValues: 'ALL_NEW',
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    });
    const [put] = eventPuts();
    expect(put).toMatchObject({
      TableName: 'mailwright-test',
      Item: {
        name: 'email.sent',
        contactId: 'C1',
        emailId: 'E1',
        eventId: end!.ExpressionAttributeValues![':f2'].eventId,
        data: { sesMessageId: 'ses-1', subject: 'Hello', source: { type: 'transactional' } },
      },
      ConditionExpression: 'attribute_not_exists(PK)',
    });
    // Sent for the source's stats and the day (GET /analytics), on the UTC day of the email.sent event: its tally, which the table stream counts
    const day = (put!.Item!.createdAt as string).slice(0, 10);
    expect(put!.Item!.tally).toEqual({ stats: { type: 'transactional', metrics: ['sent'] }, daily: [{ metric: 'sent', day }] });
    expect(counterUpdates()).toEqual([]);
    expect(releases()).toHaveLength(0);
  });

  it('releases a throttled email and brings its message back after an exponential backoff', async () => {
    // Prepare: third receive → 2^2 s + jitter
    prepareTable();
    ses.on(SendEmailCommand).rejects(new TooManyRequestsException({ message: 'Maximum sending rate exceeded.', $metadata: { httpStatusCode: 429 } }));
    sqs.on(GetQueueUrlCommand).resolves({ QueueUrl: QUEUE_URL });
    sqs.on(ChangeMessageVisibilityCommand).resolves({});
    jest.spyOn(Math, 'random').mockReturnValue(0.3);

    // Act
    const response = await handler(event(record(sendBody, 'm1', 3)));

    // Assess
    expect(response).toEqual({ batchItemFailures: [{ itemIdentifier: 'm1' }] });
    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(1);
    expect(releases()).toEqual([
      {
        TableName: 'mailwright-test',
        Key: emailKey,
        UpdateExpression: 'SET #status = :queued, updatedAt = :now REMOVE leaseUntil',
        ConditionExpression: '#status = :sending',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':queued': 'QUEUED', ':sending': 'SENDING', ':now': expect.any(String) },
      },
    ]);
    expect(sqs.commandCalls(GetQueueUrlCommand).map((call) => call.args[0].input)).toEqual([{ QueueName: 'send', QueueOwnerAWSAccountId: '123456789012' }]);
    expect(sqs.commandCalls(ChangeMessageVisibilityCommand).map((call) => call.args[0].input)).toEqual([
      { QueueUrl: QUEUE_URL, ReceiptHandle: 'rh-m1', VisibilityTimeout: 4 },
    ]);
    expect(transactItems()).toHaveLength(0);
  });

  it('fails a rejected email with an email.failed event and does not retry it', async () => {
    // Prepare
    prepareTable();
    ses.on(SendEmailCommand).rejects(new MessageRejected({ message: 'Email address is not verified.', $metadata: { httpStatusCode: 400 } }));

    // Act
    const response = await handler(event(record(sendBody)));

    // Assess
    expect(response).toEqual({ batchItemFailures: [] });
    expect(ends()).toEqual([
      expect.objectContaining({
        Key: emailKey,
        ExpressionAttributeNames: { '#status': 'status', '#f0': 'failureReason', '#f1': 'sendEnd' },
        ExpressionAttributeValues: expect.objectContaining({ ':status': 'FAILED', ':f0': 'MessageRejected: Email address is not verified.' }),
      }),
    ]);
    expect(eventPuts()[0]!.Item).toMatchObject({
      name: 'email.failed',
      emailId: 'E1',
      data: { reason: 'MessageRejected: Email address is not verified.', subject: 'Hello' },
    });
    expect(releases()).toHaveLength(0);
    expect(sqs.commandCalls(ChangeMessageVisibilityCommand)).toHaveLength(0);
  });

  it('does nothing for a redelivered message whose email SES\'s events recorded sent', async () => {
    // Prepare: the claim's condition fails and hands back the record: SENT, by no sender's end
    ddb.on(UpdateCommand).rejects(refusedWith({ ...email, status: 'SENT' }));

    // Act
    const response = await handler(event(record(sendBody, 'm1', 2)));

    // Assess: one refused claim, no read, nothing written
    expect(response).toEqual({ batchItemFailures: [] });
    expect(ddb.commandCalls(UpdateCommand)).toHaveLength(1);
    expect(ddb.commandCalls(GetCommand)).toHaveLength(0);
    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(0);
    expect(eventPuts()).toHaveLength(0);
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('writes the email.sent a sender that stopped after ending its claim still owes, when the message comes back', async () => {
    // Prepare: SENT by a sender's end whose event was never written
    const sendEnd = { status: 'SENT', eventId: '01KB0000010000000000000000' };
    ddb.on(UpdateCommand).resolves({ Attributes: { count: 1 } });
    ddb.on(UpdateCommand, { Key: emailKey }).rejects(refusedWith({ ...email, status: 'SENT', sesMessageId: 'ses-9', sendEnd }));
    ddb.on(PutCommand).resolves({});

    // Act
    const response = await handler(event(record(sendBody, 'm1', 2)));

    // Assess: the event as the end made it, with sent tallied; nothing sent again
    expect(response).toEqual({ batchItemFailures: [] });
    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(0);
    expect(eventPuts().map((input) => input.Item)).toEqual([
      expect.objectContaining({
        eventId: sendEnd.eventId,
        name: 'email.sent',
        data: { sesMessageId: 'ses-9', subject: 'Hello', source: { type: 'transactional' } },
        tally: { stats: { type: 'transactional', metrics: ['sent'] }, daily: [{ metric: 'sent', day: '2025-11-26' }] }, // the UTC day of the event id's time
      }),
    ]);
    expect(counterUpdates()).toEqual([]);
  });

  it('leaves an email.sent it cannot write to the message\'s redelivery, never the email SENDING', async () => {
    // Prepare: the end goes through; the event's writes fail
    prepareTable({ ...email, attachments: [] });
    ses.on(SendEmailCommand).resolves({ MessageId: 'ses-6' });
    ddb.on(PutCommand).rejects(Object.assign(new Error('Service unavailable'), { name: 'InternalServerError' }));

    // Act
    const response = await handler(event(record(sendBody)));

    // Assess: reported, so the message comes back (the claim then finds it SENT); not released
    expect(response).toEqual({ batchItemFailures: [{ itemIdentifier: 'm1' }] });
    expect(ends()).toHaveLength(1);
    expect(eventPuts().length).toBeGreaterThan(1);
    expect(releases()).toHaveLength(0);
    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(1);
  });

  it('brings a second message for an email another sender holds back after that lease, so the email is not lost if that sender dies', async () => {
    // Prepare: another claim's lease runs 30 s more
    jest.spyOn(Date, 'now').mockReturnValue(1_795_000_000_000);
    ddb.on(UpdateCommand).rejects(refusedWith({ ...email, claimToken: 'claim-2', leaseUntil: 1_795_000_030_000 }));
    sqs.on(GetQueueUrlCommand).resolves({ QueueUrl: QUEUE_URL });
    sqs.on(ChangeMessageVisibilityCommand).resolves({});

    // Act
    const response = await handler(event(record(sendBody, 'm2')));

    // Assess: not done — back after the lease (30 s + 1 s)
    expect(response).toEqual({ batchItemFailures: [{ itemIdentifier: 'm2' }] });
    expect(sqs.commandCalls(ChangeMessageVisibilityCommand).map((call) => call.args[0].input)).toEqual([{ QueueUrl: QUEUE_URL, ReceiptHandle: 'rh-m2', VisibilityTimeout: 31 }]);
    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(0);
  });

  it('suppresses mail to a suppressed address without sending it', async () => {
    // Prepare
    prepareTable(email, { suppressed: true });

    // Act
    const response = await handler(event(record(sendBody)));

    // Assess
    expect(response).toEqual({ batchItemFailures: [] });
    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(0);
    expect(pacerWrites()).toHaveLength(0);
    expect(ends()[0]!.ExpressionAttributeValues).toMatchObject({ ':status': 'SUPPRESSED', ':f0': 'SUPPRESSED' });
    expect(eventPuts()[0]!.Item).toMatchObject({ name: 'email.suppressed', contactId: 'C1', emailId: 'E1', data: { reason: 'SUPPRESSED' } });
  });

  it('suppresses marketing mail to an unsubscribed contact', async () => {
    // Prepare
    prepareTable({ ...email, marketing: true, source: { type: 'workflow', id: 'K1' } }, { subscribed: false });

    // Act
    const response = await handler(event(record(sendBody)));

    // Assess
    expect(response).toEqual({ batchItemFailures: [] });
    expect(ddb.commandCalls(GetCommand).map((call) => call.args[0].input)).toEqual([
      { TableName: 'mailwright-test', Key: contactKey, ConsistentRead: true, ProjectionExpression: '#subscribed', ExpressionAttributeNames: { '#subscribed': 'subscribed' } },
    ]);
    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(0);
    expect(ends()[0]!.ExpressionAttributeValues).toMatchObject({ ':status': 'SUPPRESSED', ':f0': 'UNSUBSCRIBED' });
    expect(eventPuts()[0]!.Item).toMatchObject({ name: 'email.suppressed', data: { reason: 'UNSUBSCRIBED', source: { type: 'workflow', id: 'K1' } } });
  });

  it('reports the message of a suppressed email whose email.suppressed could not be written, so its redelivery writes it', async () => {
    // Prepare: the end goes through; the event's write fails
    prepareTable(email, { suppressed: true });
    ddb.on(PutCommand).rejects(Object.assign(new Error('Service unavailable'), { name: 'InternalServerError' }));

    // Act
    const response = await handler(event(record(sendBody)));

    // Assess: ended SUPPRESSED once, never sent; the message comes back (its claim then finds the end and writes the event)
    expect(response).toEqual({ batchItemFailures: [{ itemIdentifier: 'm1' }] });
    expect(ends().map((input) => input.ExpressionAttributeValues![':status'])).toEqual(['SUPPRESSED']);
    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(0);
  });

  it('sends transactional mail to an unsubscribed contact', async () => {
    // Prepare
    prepareTable(email, { subscribed: false });
    ses.on(SendEmailCommand).resolves({ MessageId: 'ses-2' });

    // Act
    await handler(event(record(sendBody)));

    // Assess
    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(1);
  });

  it('reports unparseable bodies as batch item failures and still processes the rest of the batch', async () => {
    // Prepare
    prepareTable({ ...email, attachments: [] });
    ses.on(SendEmailCommand).resolves({ MessageId: 'ses-3' });

    // Act
    const response = await handler(event(record('not json', 'bad-json'), record(JSON.stringify({ projectId: 'P1' }), 'bad-shape'), record(sendBody, 'good')));

    // Assess
    expect(response).toEqual({ batchItemFailures: [{ itemIdentifier: 'bad-json' }, { itemIdentifier: 'bad-shape' }] });
    expect(claims()).toHaveLength(1);
    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(1);
    expect(sqs.commandCalls(ChangeMessageVisibilityCommand)).toHaveLength(0);
  });

  it('releases the email and reports the message when DynamoDB fails before the send', async () => {
    // Prepare
    prepareTable();
    ddb.on(GetCommand, { Key: suppressionKey }).rejects(Object.assign(new Error('Service unavailable'), { name: 'InternalServerError' }));

    // Act
    const response = await handler(event(record(sendBody)));

    // Assess
    expect(response).toEqual({ batchItemFailures: [{ itemIdentifier: 'm1' }] });
    expect(releases()).toHaveLength(1);
    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(0);
    expect(sqs.commandCalls(ChangeMessageVisibilityCommand)).toHaveLength(0);
  });

  it('fails the email when an attachment is gone from the bucket', async () => {
    // Prepare
    prepareTable();
    s3.on(GetObjectCommand).rejects(new NoSuchKey({ message: 'The specified key does not exist.', $metadata: {} }));

    // Act
    const response = await handler(event(record(sendBody)));

    // Assess
    expect(response).toEqual({ batchItemFailures: [] });
    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(0);
    expect(ends()[0]!.ExpressionAttributeValues).toMatchObject({ ':status': 'FAILED', ':f0': 'ATTACHMENT_MISSING' });
  });

  it('leaves the message done when someone else finished the email after the send', async () => {
    // Prepare
    prepareTable();
    ses.on(SendEmailCommand).resolves({ MessageId: 'ses-4' });
    // SES's Send event recorded it SENT meanwhile (no sender's end on it)
    ddb.on(UpdateCommand, { Key: emailKey, UpdateExpression: 'SET #status = :status, updatedAt = :now, #f0 = :f0, #f1 = :f1, #f2 = :f2 REMOVE leaseUntil' }).rejects(refusedWith({ ...email, status: 'SENT' }));

    // Act
    const response = await handler(event(record(sendBody)));

    // Assess
    expect(response).toEqual({ batchItemFailures: [] });
    expect(ends()).toHaveLength(1);
    expect(eventPuts()).toHaveLength(0);
    expect(releases()).toHaveLength(0);
    // Whoever finished it counted it: no second sent, tallied or counted
    expect(counterUpdates()).toEqual([]);
  });

  it('sends SES the HTML and text of the content item when the claimed record has none, read consistently before the send slot', async () => {
    // Prepare: the record without content, its content item as putEmails wrote it
    const written = { ...email, status: 'QUEUED' as const, html: '<p>Hello from the content item</p>', text: 'Hello, in text' };
    const contentItem = await contentItemOf(written);
    prepareTable(withoutContent(email));
    ddb.on(GetCommand, { Key: { PK: 'PROJECT#P1', SK: 'EMAIL_CONTENT#E1' } }).resolves({ Item: contentItem });
    ses.on(SendEmailCommand).resolves({ MessageId: 'ses-5' });

    // Act
    const response = await handler(event(record(sendBody)));

    // Assess
    expect(response).toEqual({ batchItemFailures: [] });
    const contentReads = ddb.commandCalls(GetCommand).filter((call) => call.args[0].input.Key!.SK === 'EMAIL_CONTENT#E1');
    expect(contentReads.map((call) => call.args[0].input)).toEqual([{ TableName: 'mailwright-test', Key: { PK: 'PROJECT#P1', SK: 'EMAIL_CONTENT#E1' }, ConsistentRead: true }]);
    const [pacerSlot] = ddb.commandCalls(UpdateCommand).filter((call) => call.args[0].input.Key!.PK === 'SES_PACER');
    const callId = (call: object) => (call as { callId: number }).callId;
    expect(callId(contentReads[0]!)).toBeLessThan(callId(pacerSlot!)); // nothing but the slot between the read and SES
    expect(ses.commandCalls(SendEmailCommand)[0]!.args[0].input.Content!.Simple).toMatchObject({
      Subject: { Data: 'Hello', Charset: 'UTF-8' },
      Body: { Html: { Data: '<p>Hello from the content item</p>', Charset: 'UTF-8' }, Text: { Data: 'Hello, in text', Charset: 'UTF-8' } },
      Attachments: [{ RawContent: PDF, FileName: 'report.pdf', ContentType: 'application/pdf', ContentDisposition: 'ATTACHMENT' }],
    });
    expect(ends()[0]!.ExpressionAttributeValues).toMatchObject({ ':status': 'SENT', ':f0': 'ses-5' });
  });

  it('sends each email of a batch with its own content: an old record\'s inline HTML without a content read, a new record\'s from its content item', async () => {
    // Prepare: E1 written before the content had its own item (HTML inline); E2 without content, its content item beside it
    const old = { ...email, attachments: [] };
    const fresh = { ...email, id: 'E2', attachments: [], html: '<p>New E2</p>', text: 'New E2' };
    const contentItem = await contentItemOf({ ...fresh, status: 'QUEUED' });
    prepareTable(old);
    ddb.on(UpdateCommand).callsFake(async (input: UpdateCommandInput) => {
      if (input.ReturnValues !== 'ALL_NEW') return {};
      return { Attributes: input.Key!.SK === 'EMAIL#E1' ? { ...emailKey, ...old } : { PK: 'PROJECT#P1', SK: 'EMAIL#E2', ...withoutContent(fresh) } };
    });
    ddb.on(GetCommand, { Key: { PK: 'PROJECT#P1', SK: 'EMAIL_CONTENT#E2' } }).resolves({ Item: contentItem });
    ses.on(SendEmailCommand).resolves({ MessageId: 'ses-6' });

    // Act
    const response = await handler(event(record(sendBody, 'm1'), record(JSON.stringify({ projectId: 'P1', emailId: 'E2' }), 'm2')));

    // Assess
    expect(response).toEqual({ batchItemFailures: [] });
    const bodies = new Map(
      ses.commandCalls(SendEmailCommand).map((call) => [call.args[0].input.EmailTags!.find((tag) => tag.Name === sesTagNames.email)!.Value, call.args[0].input.Content!.Simple!.Body]),
    );
    expect(bodies.get('E1')).toEqual({ Html: { Data: '<p>Hello</p>', Charset: 'UTF-8' }, Text: { Data: 'Hello', Charset: 'UTF-8' } });
    expect(bodies.get('E2')).toEqual({ Html: { Data: '<p>New E2</p>', Charset: 'UTF-8' }, Text: { Data: 'New E2', Charset: 'UTF-8' } });
    expect(ddb.commandCalls(GetCommand).map((call) => call.args[0].input.Key!.SK).filter((sortKey) => String(sortKey).startsWith('EMAIL_CONTENT#'))).toEqual(['EMAIL_CONTENT#E2']);
  });

  it('gives the claim back, without sending, when a record has neither its HTML nor a content item', async () => {
    // Prepare: no content item found
    prepareTable(withoutContent(email));
    ddb.on(GetCommand, { Key: { PK: 'PROJECT#P1', SK: 'EMAIL_CONTENT#E1' } }).resolves({});
    const errorLog = jest.spyOn(logger, 'error');

    // Act
    const response = await handler(event(record(sendBody)));

    // Assess
    expect(response).toEqual({ batchItemFailures: [{ itemIdentifier: 'm1' }] });
    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(0);
    expect(pacerWrites()).toHaveLength(0);
    expect(releases()).toHaveLength(1);
    expect(transactItems()).toHaveLength(0);
    expect(ddb.commandCalls(GetCommand).filter((call) => call.args[0].input.Key!.SK === 'EMAIL_CONTENT#E1')).toHaveLength(1);
    expect(errorLog).toHaveBeenCalledWith('Message processing failed', expect.objectContaining({ error: expect.objectContaining({ message: 'Email E1 has no content item' }) }));
  });
});

describe('retryDelaySeconds', () => {
  it('doubles per receive from 1 s, caps at 300 s and adds up to 1 s of jitter', () => {
    expect([1, 2, 3, 4, 9, 10, 50].map((count) => retryDelaySeconds(count, () => 0))).toEqual([1, 2, 4, 8, 256, 300, 300]);
    expect(retryDelaySeconds(3, () => 0.999)).toBeCloseTo(4.999);
  });
});
