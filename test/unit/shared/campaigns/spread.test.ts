import { ChangeMessageVisibilityCommand, GetQueueUrlCommand, SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, BatchWriteCommand, DeleteCommand, DynamoDBDocumentClient, GetCommand, QueryCommand, UpdateCommand, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import type { SQSRecord } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { handler as campaignSender } from '../../../../functions/campaign-sender/handler';
import { processFanoutMessage } from '../../../../shared/campaigns/dispatch';
import { resetRecentFates } from '../../../../shared/campaigns/fate';
import { dueAt, holdUntilDue, pageMessages, respread, spreadCount } from '../../../../shared/campaigns/spread';
import { spreadView } from '../../../../shared/campaigns/spread-view';
import type { StoredCampaign } from '../../../../shared/campaigns/store';
import { toItem as contactItem } from '../../../../shared/contacts/contacts';
import { C, campaignKey, P, startedCampaignItem, statsKey } from '../../../support/campaign-fixtures';

const ddb = mockClient(DynamoDBDocumentClient);
const sqs = mockClient(SQSClient);

const START = Date.parse('2026-11-23T09:00:00.000Z');
const spreadCampaign = startedCampaignItem({ spreadOverMinutes: 10, totalRecipients: 0, dispatch: {} }) as unknown as StoredCampaign;

beforeEach(() => {
  ddb.reset();
  sqs.reset();
  resetRecentFates();
});

describe('dueAt', () => {
  it('spaces N recipients evenly over the spread from the start, the first at once', () => {
    // Act
    const times = Array.from({ length: 4 }, (_, index) => dueAt(START, 2, index, 4) - START);
    // Assess
    expect(times).toEqual([0, 30_000, 60_000, 90_000]);
  });

  it('keeps a recipient past the counted audience (it grew meanwhile) at the last slot, never after the spread', () => {
    // Act
    const late = dueAt(START, 2, 7, 4) - START;
    // Assess
    expect(late).toBe(90_000);
  });
});

describe('pageMessages', () => {
  it('gives each message its not-before time and an SQS delay of at most 15 minutes, by its place in the audience', () => {
    // Prepare
    const campaign = { ...spreadCampaign, spreadOverMinutes: 60 };
    // Act
    const messages = pageMessages(P, campaign, 4, 2, ['E3', 'E4'], START);
    // Assess: recipients 2 and 3 of 4 over an hour: due at 30 and 45 minutes.
    expect(messages.map((message) => JSON.parse(message.body))).toEqual([
      { projectId: P, emailId: 'E3', campaignId: C, notBefore: '2026-11-23T09:30:00.000Z' },
      { projectId: P, emailId: 'E4', campaignId: C, notBefore: '2026-11-23T09:45:00.000Z' },
    ]);
    expect(messages.map((message) => message.delaySeconds)).toEqual([900, 900]);
  });

  it('queues plain messages without delay for a campaign without a spread', () => {
    // Act
    const messages = pageMessages(P, { ...spreadCampaign, spreadOverMinutes: null }, undefined, 0, ['E1'], START);
    // Assess
    expect(messages).toEqual([{ body: JSON.stringify({ projectId: P, emailId: 'E1' }), delaySeconds: 0 }]);
  });

  it('gives the redo of a page the same times (derived from the campaign and the position)', () => {
    // Act
    const first = pageMessages(P, spreadCampaign, 40, 10, ['E1', 'E2'], START + 1_000);
    const redo = pageMessages(P, spreadCampaign, 40, 10, ['E1', 'E2'], START + 90_000);
    // Assess
    expect(redo.map((message) => message.body)).toEqual(first.map((message) => message.body));
  });
});

describe('respread', () => {
  it('spaces parked mail at the spread\'s pace from the resume', () => {
    // Prepare
    const campaign = { ...spreadCampaign, dispatch: { spreadOf: 20 } };
    const resumedAt = START + 300_000;
    // Act
    const messages = respread(P, campaign, 3, ['E1', 'E2'], resumedAt);
    // Assess: 10 minutes over 20 recipients: 30 s apart, the 4th and 5th parked.
    expect(messages.map((message) => Date.parse(JSON.parse(message.body).notBefore) - resumedAt)).toEqual([90_000, 120_000]);
    expect(messages.map((message) => message.delaySeconds)).toEqual([90, 120]);
  });
});

describe('spreadView', () => {
  it('shows the window once sending has started, and nothing before or without a spread', () => {
    // Act
    const view = spreadView({ spreadOverMinutes: 90, sentAt: '2026-11-23T09:00:00.000Z', dispatch: { spreadOf: 12 } });
    // Assess
    expect(view).toEqual({ overMinutes: 90, startedAt: '2026-11-23T09:00:00.000Z', endsAt: '2026-11-23T10:30:00.000Z', recipients: 12 });
    expect(spreadView({ spreadOverMinutes: 90, sentAt: null })).toBeNull();
    expect(spreadView({ spreadOverMinutes: null, sentAt: '2026-11-23T09:00:00.000Z' })).toBeNull();
  });
});

describe('holdUntilDue', () => {
  it('sends the campaign\'s back to the queue for the rest of its wait, at most 12 hours at a time', async () => {
    // Prepare
    ddb.on(GetCommand, { Key: campaignKey }).resolves({ Item: { status: 'SENDING' } });
    const message = { projectId: P, emailId: 'E1', campaignId: C, notBefore: new Date(START + 20 * 3600_000).toISOString() };
    // Act
    const soon = holdUntilDue({ ...message, notBefore: new Date(START + 125_500).toISOString() }, START);
    const far = holdUntilDue(message, START);
    // Assess
    await expect(soon).rejects.toMatchObject({ name: 'RetryLater', delaySeconds: 126 });
    await expect(far).rejects.toMatchObject({ name: 'RetryLater', delaySeconds: 43_200 });
  });

  it('lets due mail, mail without a time and a cancelled campaign\'s mail through', async () => {
    // Prepare
    ddb.on(GetCommand, { Key: campaignKey }).resolves({ Item: { status: 'CANCELLED' } });
    // Act
    const due = holdUntilDue({ projectId: P, emailId: 'E1', campaignId: C, notBefore: new Date(START + 500).toISOString() }, START);
    const plain = holdUntilDue({ projectId: P, emailId: 'E1' }, START);
    const cancelled = holdUntilDue({ projectId: P, emailId: 'E1', campaignId: C, notBefore: new Date(START + 600_000).toISOString() }, START);
    // Assess
    await expect(due).resolves.toBeUndefined();
    await expect(plain).resolves.toBeUndefined();
    await expect(cancelled).resolves.toBeUndefined();
  });
});

describe('spreadCount', () => {
  /** A reader of `pages` pages of `size` recipients each. */
  const readerOf = (pages: number, size: number) => ({
    page: async (cursor: Record<string, unknown> | undefined) => {
      const index = (cursor?.page as number | undefined) ?? 0;
      return { recipients: Array.from({ length: size }, (_, n) => ({ id: `K${index}-${n}`, email: `r${index}-${n}@example.com`, data: {} })), next: index + 1 < pages ? { page: index + 1 } : undefined, counts: { contacts: size, subscribed: size, suppressed: 0 } };
    },
  });
  const plenty = () => 60_000;

  it('reuses the count kept on the campaign (a redelivered or taken-over dispatch)', async () => {
    // Act
    const count = await spreadCount(P, { ...spreadCampaign, dispatch: { spreadOf: 7 } }, 'owner-1', readerOf(1, 3), plenty, 10_000);
    // Assess
    expect(count).toBe(7);
    expect(ddb.calls()).toHaveLength(0);
  });

  it('counts the frozen audience once and keeps it only as the owner and only if none is kept', async () => {
    // Prepare
    ddb.on(UpdateCommand).callsFake(async (input: UpdateCommandInput) => ({ Attributes: { ...spreadCampaign, dispatch: { owner: 'owner-1', spreadOf: input.ExpressionAttributeValues![':spreadOf'] } } }));
    // Act
    const count = await spreadCount(P, spreadCampaign, 'owner-1', readerOf(3, 4), plenty, 10_000);
    // Assess
    expect(count).toBe(12);
    const update = ddb.commandCalls(UpdateCommand)[0]!.args[0].input;
    expect(update.UpdateExpression).toBe('SET #dispatch.#spreadOf = if_not_exists(#dispatch.#spreadOf, :spreadOf) REMOVE #dispatch.#spreadCounted, #dispatch.#spreadCursor');
    expect(update.ConditionExpression).toBe('#dispatch.#owner = :owner');
    expect(update.ExpressionAttributeValues).toEqual({ ':spreadOf': 12, ':owner': 'owner-1' });
  });

  it('keeps the count so far and its cursor when time runs short, and the next owner goes on from there', async () => {
    // Prepare: time for two pages of five in the first invocation.
    ddb.on(UpdateCommand).callsFake(async (input: UpdateCommandInput) => ({ Attributes: { dispatch: { spreadOf: input.ExpressionAttributeValues![':spreadOf'] } } }));
    let calls = 0;
    const shortOfTime = () => (calls++ < 2 ? 60_000 : 5_000);
    // Act
    const first = await spreadCount(P, spreadCampaign, 'owner-1', readerOf(4, 5), shortOfTime, 10_000);
    const kept = ddb.commandCalls(UpdateCommand)[0]!.args[0].input.ExpressionAttributeValues!;
    const second = await spreadCount(P, { ...spreadCampaign, dispatch: { spreadCounted: kept[':spreadCounted'] as number, spreadCursor: kept[':spreadCursor'] as Record<string, unknown> } }, 'owner-2', readerOf(4, 5), plenty, 10_000);
    // Assess
    expect(first).toBe('continues');
    expect(kept).toEqual({ ':owner': 'owner-1', ':spreadCounted': 10, ':spreadCursor': { page: 2 } });
    expect(second).toBe(20);
  });
});

const contactId = (n: number) => `01HZY3K8Q2V9J6M4T7W5X0C0${String(n).padStart(2, '0')}`;
function contact(n: number) {
  return contactItem(P, { id: contactId(n), email: `reader${n}@example.com`, subscribed: true, data: {}, createdAt: '2026-11-23T08:00:00.000Z', updatedAt: '2026-11-23T08:00:00.000Z' });
}

describe('the dispatch of a spread campaign', () => {
  it('queues each recipient\'s mail with its due time and delay', async () => {
    // Prepare: 3 recipients over 10 minutes, sending started just now.
    const sentAt = new Date().toISOString();
    const item = { ...startedCampaignItem({ sentAt, spreadOverMinutes: 10, totalRecipients: 0, dispatch: {} }), content: { subject: 'Hi', html: '<p>Hi</p>', from: { email: 'news@acme.test' }, replyTo: null } };
    ddb.on(QueryCommand).resolves({ Items: [contact(1), contact(2), contact(3)] });
    ddb.on(BatchGetCommand).resolves({ Responses: {} });
    ddb.on(BatchWriteCommand).resolves({});
    ddb.on(GetCommand, { Key: statsKey }).resolves({ Item: { recipients: 3, settled: 0 } });
    ddb.on(GetCommand).resolves({ Item: { total: 3 } });
    ddb.on(UpdateCommand).callsFake(async (input: UpdateCommandInput) => {
      if (input.ReturnValues === 'ALL_OLD') return { Attributes: item };
      if (input.UpdateExpression!.includes('spreadOf')) return { Attributes: { ...item, dispatch: { owner: 'x', spreadOf: 3 } } };
      if (input.UpdateExpression!.startsWith('SET totalRecipients')) return { Attributes: { ...item, totalRecipients: 3 } };
      return { Attributes: { ...item, totalRecipients: 3 } };
    });
    sqs.on(SendMessageBatchCommand).resolves({ Failed: [] });
    // Act
    await processFanoutMessage({ kind: 'dispatch', projectId: P, campaignId: C });
    // Assess
    // The campaign send queue's messages (the fan-out queue gets its completion check).
    const entries = sqs.commandCalls(SendMessageBatchCommand).filter((call) => call.args[0].input.QueueUrl!.includes('campaign-send')).flatMap((call) => call.args[0].input.Entries!);
    expect(entries).toHaveLength(3);
    const due = entries.map((entry) => Date.parse(JSON.parse(entry.MessageBody!).notBefore) - Date.parse(sentAt));
    expect(due).toEqual([0, 200_000, 400_000]);
    expect(entries.map((entry) => entry.DelaySeconds ?? 0)).toEqual([0, expect.any(Number), expect.any(Number)]);
    expect(entries[1]!.DelaySeconds).toBeGreaterThan(190);
    expect(entries[2]!.DelaySeconds).toBeGreaterThan(390);
  });
});

describe('the campaign sender and a spread email not due yet', () => {
  it('gives the message back until its time without claiming the email', async () => {
    // Prepare
    ddb.on(GetCommand).resolves({ Item: { status: 'SENDING' } });
    sqs.on(GetQueueUrlCommand).resolves({ QueueUrl: 'https://sqs.test/campaign-send' });
    sqs.on(ChangeMessageVisibilityCommand).resolves({});
    const body = JSON.stringify({ projectId: P, emailId: 'E1', campaignId: C, notBefore: new Date(Date.now() + 300_000).toISOString() });
    const record = { messageId: 'm1', receiptHandle: 'rh', body, attributes: { ApproximateReceiveCount: '1' }, eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:campaign-send' } as unknown as SQSRecord;
    // Act
    const result = await campaignSender({ Records: [record] });
    // Assess
    expect(result.batchItemFailures).toEqual([{ itemIdentifier: 'm1' }]);
    expect(ddb.commandCalls(UpdateCommand)).toHaveLength(0);
    const visibility = sqs.commandCalls(ChangeMessageVisibilityCommand)[0]!.args[0].input.VisibilityTimeout!;
    expect(visibility).toBeGreaterThanOrEqual(299);
    expect(visibility).toBeLessThanOrEqual(300);
  });
});

describe('the resume of a paused spread campaign (unpark)', () => {
  it('queues the parked mail at the spread\'s pace from the resume, not at once', async () => {
    // Prepare: 10 minutes over 20 recipients (30 s apart); two emails parked during the pause.
    const parkedPartition = `PROJECT#${P}#CAMPAIGN#${C}#PARKED`;
    ddb.on(GetCommand).resolves({});
    ddb.on(GetCommand, { Key: campaignKey }).resolves({ Item: { ...spreadCampaign, ...campaignKey, status: 'SENDING', dispatch: { done: true, spreadOf: 20 } } });
    ddb.on(QueryCommand).resolves({ Items: ['E1', 'E2'].map((emailId, index) => ({ PK: parkedPartition, SK: `EMAIL#${emailId}`, emailId, parkedAt: `2026-11-23T09:30:0${index}.000Z` })) });
    ddb.on(DeleteCommand).resolves({});
    ddb.on(UpdateCommand).rejects(new ConditionalCheckFailedException({ message: 'done', $metadata: {} }));
    sqs.on(SendMessageBatchCommand).resolves({ Failed: [] });
    const before = Date.now();
    // Act
    await processFanoutMessage({ kind: 'unpark', projectId: P, campaignId: C }, undefined, { getRemainingTimeInMillis: () => 60_000 } as never);
    // Assess
    const entries = sqs.commandCalls(SendMessageBatchCommand)[0]!.args[0].input.Entries!;
    const due = entries.map((entry) => Date.parse(JSON.parse(entry.MessageBody!).notBefore) - before);
    expect(due[0]).toBeLessThan(1_000);
    expect(due[1]! - due[0]!).toBe(30_000);
    expect(entries[1]!.DelaySeconds).toBeGreaterThanOrEqual(29);
    expect(ddb.commandCalls(DeleteCommand)).toHaveLength(2);
  });
});
