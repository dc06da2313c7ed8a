import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient, GetCommand, PutCommand, TransactWriteCommand, UpdateCommand, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import type { SQSEvent } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { handler } from '../../../../functions/campaign-sender/handler';
import { C, campaignEmailRecord, campaignKey, P } from '../../../support/campaign-fixtures';
import { endedItem } from '../../../support/email-fixtures';
import { sqsRecord } from '../../../support/sqs-records';
import { recentQueuedMailFate, resetRecentFates } from '../../../../shared/campaigns/fate';
import { resetPacerMemory } from '../../../../shared/sending/pacer';

const ddb = mockClient(DynamoDBDocumentClient);
const ses = mockClient(SESv2Client);
const sqs = mockClient(SQSClient);

const emailKey = { PK: `PROJECT#${P}`, SK: 'EMAIL#E1' };

const email = campaignEmailRecord({ status: 'SENDING', leaseUntil: 1_795_000_000_000 });

const event: SQSEvent = { Records: [sqsRecord({ body: { projectId: P, emailId: 'E1' }, queueArn: 'arn:aws:sqs:us-east-1:123456789012:campaign-send' })] };

const conditionFailedAt = (index: number) =>
  new TransactionCanceledException({ message: 'cancelled', $metadata: {}, CancellationReasons: [0, 1, 2].map((item) => ({ Code: item === index ? 'ConditionalCheckFailed' : 'None' })) });

/** The table as the campaign sender sees it: the claim hands back the email, the contact is subscribed, the address not suppressed. */
function prepareTable() {
  ddb.on(UpdateCommand).callsFake(async (input: UpdateCommandInput) => {
    if (input.Key!.SK !== 'EMAIL#E1' || input.ReturnValues !== 'ALL_NEW') return {};
    // The claim hands back the email; the end of the claim, the email as it ended
    return { Attributes: input.UpdateExpression!.startsWith('SET #status = :status') ? endedItem({ ...emailKey, ...email }, input) : { ...emailKey, ...email } };
  });
  ddb.on(PutCommand).resolves({});
  ddb.on(GetCommand).resolves({});
  ddb.on(GetCommand, { Key: { PK: `PROJECT#${P}`, SK: 'CONTACT#K1' } }).resolves({ Item: { subscribed: true } });
}

const transactions = () => ddb.commandCalls(TransactWriteCommand).map((call) => call.args[0].input.TransactItems!);
/** The claim's end (SENDING → SENT, CANCELLED…), a write of its own. */
const ends = () => ddb.commandCalls(UpdateCommand).map((call) => call.args[0].input).filter((input) => input.Key!.SK === 'EMAIL#E1' && input.UpdateExpression!.startsWith('SET #status = :status'));
const statusReads = () => ddb.commandCalls(GetCommand).filter((call) => call.args[0].input.Key!.SK === campaignKey.SK);
const pacerWrites = () => ddb.commandCalls(UpdateCommand).filter((call) => call.args[0].input.Key!.PK === 'SES_PACER');
const statusRead = { TableName: 'mailwright-test', Key: campaignKey, ConsistentRead: true, ProjectionExpression: '#status', ExpressionAttributeNames: { '#status': 'status' } };

/** The park: PAUSED checked, the claim given back (SENDING → QUEUED), the marker put, all or nothing. */
const parkItems = [
  {
    ConditionCheck: {
      TableName: 'mailwright-test',
      Key: campaignKey,
      ConditionExpression: '#status = :paused',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':paused': 'PAUSED' },
    },
  },
  {
    Update: {
      TableName: 'mailwright-test',
      Key: emailKey,
      UpdateExpression: 'SET #status = :queued, updatedAt = :now REMOVE leaseUntil',
      ConditionExpression: '#status = :sending',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':queued': 'QUEUED', ':sending': 'SENDING', ':now': expect.any(String) },
    },
  },
  { Put: { TableName: 'mailwright-test', Item: { PK: `PROJECT#${P}#CAMPAIGN#${C}#PARKED`, SK: 'EMAIL#E1', emailId: 'E1', parkedAt: expect.any(String) } } },
];

beforeEach(() => {
  ddb.reset();
  ses.reset();
  sqs.reset();
  resetPacerMemory();
  resetRecentFates();
});

describe('campaign sender: mail of a PAUSED campaign', () => {
  it('parks the email in one transaction right after its claim (no pacer slot), never hands it to SES, and finishes the message', async () => {
    // Prepare
    prepareTable();
    ddb.on(GetCommand, { Key: campaignKey }).resolves({ Item: { status: 'PAUSED' } });
    ddb.on(TransactWriteCommand).resolves({});

    // Act
    const response = await handler(event);

    // Assess
    expect(response).toEqual({ batchItemFailures: [] });
    // The early look, then the read the park acts on
    expect(statusReads().map((call) => call.args[0].input)).toEqual([statusRead, statusRead]);
    expect(transactions()).toEqual([parkItems]);
    expect(pacerWrites()).toHaveLength(0);
    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(0);
    // Parked mail is not settled: no counter touched.
    expect(ddb.commandCalls(UpdateCommand).filter((call) => call.args[0].input.Key!.SK.startsWith('STATS#'))).toHaveLength(0);
  });

  it('sends the email once when the campaign was resumed between the status read and the park', async () => {
    // Prepare: PAUSED when read, SENDING by the time the park's condition is checked
    prepareTable();
    ddb.on(GetCommand, { Key: campaignKey }).resolvesOnce({ Item: { status: 'PAUSED' } }).resolvesOnce({ Item: { status: 'PAUSED' } }).resolves({ Item: { status: 'SENDING' } });
    ddb.on(TransactWriteCommand).rejectsOnce(conditionFailedAt(0)).resolves({});
    ses.on(SendEmailCommand).resolves({ MessageId: 'ses-1' });

    // Act
    const response = await handler(event);

    // Assess: the early look and the park's read (PAUSED), the read after the failed park and the last one before SendEmail (SENDING)
    expect(response).toEqual({ batchItemFailures: [] });
    expect(statusReads()).toHaveLength(4);
    expect(transactions()[0]).toEqual(parkItems);
    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(1);
    expect(ends()).toEqual([expect.objectContaining({ Key: emailKey, ConditionExpression: '#status = :sending', ExpressionAttributeValues: expect.objectContaining({ ':status': 'SENT', ':f0': 'ses-1' }) })]);
  });

  it('ends the email CANCELLED when the campaign was cancelled between the status read and the park', async () => {
    // Prepare
    prepareTable();
    ddb.on(GetCommand, { Key: campaignKey }).resolvesOnce({ Item: { status: 'PAUSED' } }).resolvesOnce({ Item: { status: 'PAUSED' } }).resolves({ Item: { status: 'CANCELLED' } });
    ddb.on(TransactWriteCommand).rejectsOnce(conditionFailedAt(0)).resolves({});

    // Act
    const response = await handler(event);

    // Assess
    expect(response).toEqual({ batchItemFailures: [] });
    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(0);
    expect(ends()).toEqual([expect.objectContaining({ Key: emailKey, ExpressionAttributeValues: expect.objectContaining({ ':status': 'CANCELLED', ':f0': 'CAMPAIGN_CANCELLED' }) })]);
  });

  it('leaves an email someone else took meanwhile: no send, message done', async () => {
    // Prepare
    prepareTable();
    ddb.on(GetCommand, { Key: campaignKey }).resolves({ Item: { status: 'PAUSED' } });
    ddb.on(TransactWriteCommand).rejects(conditionFailedAt(1));

    // Act
    const response = await handler(event);

    // Assess
    expect(response).toEqual({ batchItemFailures: [] });
    expect(transactions()).toEqual([parkItems]);
    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(0);
  });
});

describe('campaign sender: mail of a CANCELLED campaign', () => {
  it('ends the email CANCELLED without reading the contact or taking a pacer slot, so a cancelled campaign settles at once instead of at the send rate', async () => {
    // Prepare
    prepareTable();
    ddb.on(GetCommand, { Key: campaignKey }).resolves({ Item: { status: 'CANCELLED' } });
    ddb.on(TransactWriteCommand).resolves({});

    // Act
    const response = await handler(event);

    // Assess
    expect(response).toEqual({ batchItemFailures: [] });
    expect(ddb.commandCalls(GetCommand).filter((call) => call.args[0].input.Key!.SK !== campaignKey.SK && !call.args[0].input.Key!.SK.startsWith('STATS#'))).toEqual([]);
    expect(pacerWrites()).toHaveLength(0);
    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(0);
    expect(ends()).toEqual([expect.objectContaining({ Key: emailKey, ExpressionAttributeValues: expect.objectContaining({ ':status': 'CANCELLED', ':f0': 'CAMPAIGN_CANCELLED' }) })]);
  });

  it('reads the status for the early look once a second per campaign, not once per email', async () => {
    // Prepare
    ddb.on(GetCommand, { Key: campaignKey }).resolvesOnce({ Item: { status: 'SENDING' } }).resolves({ Item: { status: 'CANCELLED' } });

    // Act
    const fates = [await recentQueuedMailFate(P, C, 10_000), await recentQueuedMailFate(P, C, 10_999), await recentQueuedMailFate(P, C, 11_000)];

    // Assess
    expect(fates).toEqual(['send', 'send', 'cancel']);
    expect(statusReads()).toHaveLength(2);
  });
});

describe('campaign sender: a batch of a SENDING campaign', () => {
  it('shares one status read among the batch for the early look, then reads it once per email right before its SendEmail', async () => {
    // Prepare: ten records of one campaign, each claim handing back its own email
    const ids = Array.from({ length: 10 }, (_, index) => `E${index + 1}`);
    ddb.on(UpdateCommand).callsFake(async (input: UpdateCommandInput) => {
      const id = input.Key!.SK.replace('EMAIL#', '');
      return ids.includes(id) && input.ReturnValues === 'ALL_NEW' ? { Attributes: { PK: `PROJECT#${P}`, SK: `EMAIL#${id}`, ...email, id } } : {};
    });
    ddb.on(GetCommand).resolves({});
    ddb.on(GetCommand, { Key: { PK: `PROJECT#${P}`, SK: 'CONTACT#K1' } }).resolves({ Item: { subscribed: true } });
    ddb.on(GetCommand, { Key: campaignKey }).resolves({ Item: { status: 'SENDING' } });
    ddb.on(TransactWriteCommand).resolves({});
    ses.on(SendEmailCommand).resolves({ MessageId: 'ses-1' });
    const batch: SQSEvent = { Records: ids.map((id) => sqsRecord({ body: { projectId: P, emailId: id }, messageId: `m-${id}`, queueArn: 'arn:aws:sqs:us-east-1:123456789012:campaign-send' })) };

    // Act
    const response = await handler(batch);

    // Assess: 1 shared early look + 10 last-moment reads, each with only the status projected
    expect(response).toEqual({ batchItemFailures: [] });
    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(10);
    expect(statusReads().map((call) => call.args[0].input)).toEqual(Array.from({ length: 11 }, () => statusRead));
  });
});
