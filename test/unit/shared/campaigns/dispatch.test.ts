import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { BatchGetCommand, BatchWriteCommand, DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand, UpdateCommand, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Context } from 'aws-lambda';
import { CreateScheduleCommand, SchedulerClient } from '@aws-sdk/client-scheduler';
import { mockClient } from 'aws-sdk-client-mock';
import { PAGE_SIZE, processFanoutMessage } from '../../../../shared/campaigns/dispatch';
import { campaignKeys } from '../../../../shared/campaigns/keys';
import { contentOf } from '../../../../shared/emails/emails';
import { toItem as contactItem } from '../../../../shared/contacts/contacts';
import { verifyUnsubscribeToken } from '../../../../shared/unsubscribe/token';
import { C, campaignKey, P, startedCampaignItem, statsKey } from '../../../support/campaign-fixtures';

const ddb = mockClient(DynamoDBDocumentClient);
const sqs = mockClient(SQSClient);
const scheduler = mockClient(SchedulerClient);

const FANOUT_QUEUE_URL = 'http://localhost:9324/000000000000/campaign-fanout-test';
const SEND_QUEUE_URL = 'http://localhost:9324/000000000000/campaign-send-test';
const dispatchMessage = { kind: 'dispatch', projectId: P, campaignId: C } as const;
const withTime = (ms: number) => ({ getRemainingTimeInMillis: () => ms }) as Context;

const campaign = startedCampaignItem({
  totalRecipients: 0,
  content: { subject: 'News for {{contact.data.name}}', html: '<p>Hi {{contact.data.name}}</p>', from: { email: 'news@acme.test' }, replyTo: null },
  dispatch: {},
});

const campaignItem: Record<string, unknown> = campaign;

const contactId = (n: number) => `01HZY3K8Q2V9J6M4T7W5X0C0${String(n).padStart(2, '0')}`;
const contact = (n: number) =>
  contactItem(P, { id: contactId(n), email: `reader${n}@example.com`, subscribed: true, data: { name: `Reader ${n}` }, createdAt: '2026-11-23T08:00:00.000Z', updatedAt: '2026-11-23T08:00:00.000Z' });

/** The audience (GSI3's subscribed partition) as pages of contacts; each page but the last has a cursor. Nobody is suppressed unless `suppressed` says. */
function givenAudience(pages: Record<string, unknown>[][], suppressed: string[] = []) {
  ddb.on(BatchGetCommand).resolves({ Responses: { 'mailwright-test': suppressed.map((email) => ({ SK: `SUPPRESSED#${email}` })) } });
  const query = ddb.on(QueryCommand);
  pages.forEach((items, index) => query.resolvesOnce({ Items: items, ...(index < pages.length - 1 ? { LastEvaluatedKey: { page: index + 1 } } : {}) }));
}

/**
 * The campaign item's updates by kind (claim, checkpoint, finish, release), answered as DynamoDB
 * would: a checkpoint returns the campaign with the status `statusAfterCheckpoint` gives it.
 */
function givenCampaignUpdates(statusAfterCheckpoint: (checkpoint: number) => string = () => 'SENDING', campaign: Record<string, unknown> = campaignItem) {
  let checkpoints = 0;
  let total = 0;
  ddb.on(UpdateCommand).callsFake(async (input: UpdateCommandInput) => {
    const expression = input.UpdateExpression!;
    if (input.ReturnValues === 'ALL_OLD') return { Attributes: campaign };
    if (expression.startsWith('SET totalRecipients')) {
      total += input.ExpressionAttributeValues![':queued'] as number;
      return { Attributes: { ...campaign, status: statusAfterCheckpoint(++checkpoints), totalRecipients: total } };
    }
    if (expression.startsWith('SET #dispatch.#done')) return { Attributes: { ...campaign, totalRecipients: total } };
    return {};
  });
  ddb.on(GetCommand, { Key: statsKey }).resolves({ Item: { recipients: 3, settled: 0 } });
  ddb.on(BatchWriteCommand).resolves({});
  sqs.on(SendMessageBatchCommand).resolves({ Failed: [] });
}

const campaignUpdates = () => ddb.commandCalls(UpdateCommand).map((call) => call.args[0].input).filter((input) => input.Key!.SK === campaignKey.SK);
const writtenItems = () => ddb.commandCalls(BatchWriteCommand).flatMap((call) => Object.values(call.args[0].input.RequestItems!).flat().map((request) => request.PutRequest!.Item!));
/** The email records written (their content items and recipient references beside them are not). */
const writtenRecords = () => writtenItems().filter((item) => item.PK === `PROJECT#${P}` && String(item.SK).startsWith('EMAIL#'));
/** The content (HTML and text) of each email written, by email id, decoded from its content item. */
const writtenContents = () =>
  new Map(writtenItems().filter((item) => String(item.SK).startsWith('EMAIL_CONTENT#')).map((item) => [String(item.SK).slice('EMAIL_CONTENT#'.length), contentOf(item)!]));
const queuedBodies = (queueUrl: string) =>
  sqs
    .commandCalls(SendMessageBatchCommand)
    .filter((call) => call.args[0].input.QueueUrl === queueUrl)
    .flatMap((call) => call.args[0].input.Entries!.map((entry) => JSON.parse(entry.MessageBody!)));

beforeEach(() => {
  ddb.reset();
  sqs.reset();
  scheduler.reset();
});

describe('the campaign fan-out (campaign-dispatch)', () => {
  it('leaves suppressed addresses out of what it queues and of totalRecipients', async () => {
    // Prepare: three subscribed contacts, the second one's address suppressed
    givenAudience([[contact(1), contact(2), contact(3)]], ['reader2@example.com']);
    givenCampaignUpdates();

    // Act
    await processFanoutMessage(dispatchMessage, undefined, withTime(60_000));

    // Assess
    expect(writtenRecords().map((record) => record.contactId)).toEqual([contactId(1), contactId(3)]);
    expect(queuedBodies(SEND_QUEUE_URL)).toHaveLength(2);
    expect(campaignUpdates().find((input) => input.UpdateExpression!.startsWith('SET totalRecipients'))!.ExpressionAttributeValues![':queued']).toBe(2);
    const lookup = ddb.commandCalls(BatchGetCommand)[0]!.args[0].input.RequestItems!['mailwright-test']!;
    expect(lookup.Keys).toEqual([1, 2, 3].map((n) => ({ PK: `PROJECT#${P}`, SK: `SUPPRESSED#reader${n}@example.com` })));
    expect(lookup.ConsistentRead).toBe(true);
  });

  it('pages the frozen audience onto the campaign send queue: each page written, queued and checkpointed; the last page finishes it with the audience size', async () => {
    // Prepare: two pages, 2 + 1 subscribed contacts
    givenAudience([[contact(1), contact(2)], [contact(3)]]);
    givenCampaignUpdates();

    // Act
    await processFanoutMessage(dispatchMessage, undefined, withTime(60_000));

    // Assess: the audience read newest first from GSI3, below the bound of the send's start
    const [firstPage, secondPage] = ddb.commandCalls(QueryCommand).map((call) => call.args[0].input);
    expect(firstPage).toMatchObject({ IndexName: 'GSI3', ScanIndexForward: false, Limit: PAGE_SIZE, ExclusiveStartKey: undefined, ExpressionAttributeValues: { ':pk': expect.stringContaining(P) } });
    expect(secondPage!.ExclusiveStartKey).toEqual({ page: 1 });
    // Each recipient's record rendered for that contact, with its one-click unsubscribe link; its HTML in its content item, not on the record
    const records = writtenRecords();
    const contents = writtenContents();
    expect(records.map((record) => [record.to, record.subject, contents.get(record.id as string)?.html, record.status, record.marketing])).toEqual([
      [{ email: 'reader1@example.com' }, 'News for Reader 1', '<p>Hi Reader 1</p>', 'QUEUED', true],
      [{ email: 'reader2@example.com' }, 'News for Reader 2', '<p>Hi Reader 2</p>', 'QUEUED', true],
      [{ email: 'reader3@example.com' }, 'News for Reader 3', '<p>Hi Reader 3</p>', 'QUEUED', true],
    ]);
    expect(records.filter((record) => 'html' in record || 'text' in record)).toEqual([]);
    const link = (records[0]!.headers as { name: string; value: string }[]).find((header) => header.name === 'List-Unsubscribe')!.value;
    expect(verifyUnsubscribeToken(link.slice(1, -1).split('/unsubscribe/')[1]!)).toEqual({ projectId: P, contactId: contactId(1), campaignId: C });
    // The text part made from the HTML, with the same link
    expect(contents.get(records[0]!.id as string)!.text).toBe(`Hi Reader 1\n\nUnsubscribe: ${link.slice(1, -1)}\n`);
    expect(queuedBodies(SEND_QUEUE_URL)).toEqual(records.map((record) => ({ projectId: P, emailId: record.id })));
    // Each record's content item and recipient reference in the same BatchWriteItem (shared/db/README.md)
    expect(ddb.commandCalls(BatchWriteCommand)).toHaveLength(2);
    expect(writtenItems().map((item) => String(item.SK).split('#')[0])).toEqual(['EMAIL', 'EMAIL_CONTENT', 'EMAIL', 'EMAIL', 'EMAIL_CONTENT', 'EMAIL', 'EMAIL', 'EMAIL_CONTENT', 'EMAIL']);
    expect(writtenItems().filter((item) => item.PK !== `PROJECT#${P}`)).toEqual(
      records.map((record) => ({ PK: `PROJECT#${P}#EMAILS_TO#${(record.to as { email: string }).email}`, SK: `EMAIL#${record.id}`, emailId: record.id, sourceType: 'campaign', sourceId: C })),
    );
    // Checkpoints after each page, then the finish, all as the owner that claimed it
    const [claim, ...rest] = campaignUpdates();
    const owner = claim!.ExpressionAttributeValues![':owner'];
    expect(rest.map((input) => [input.UpdateExpression!.split(',')[0], input.ExpressionAttributeValues![':queued'], input.ExpressionAttributeValues![':cursor'], input.ExpressionAttributeValues![':owner']])).toEqual([
      ['SET totalRecipients = totalRecipients + :queued', 2, { page: 1 }, owner],
      ['SET totalRecipients = totalRecipients + :queued', 1, undefined, owner],
      ['SET #dispatch.#done = :true REMOVE #dispatch.#owner', undefined, undefined, owner],
    ]);
    expect(ddb.commandCalls(UpdateCommand).map((call) => call.args[0].input).find((input) => input.Key!.SK === statsKey.SK)).toMatchObject({ UpdateExpression: 'SET recipients = :recipients', ExpressionAttributeValues: { ':recipients': 3 } });
  });

  it('starts the completion checks when the fan-out ends, before it records its end, each a minute later', async () => {
    // Prepare
    givenAudience([[contact(1)]]);
    givenCampaignUpdates();

    // Act
    await processFanoutMessage(dispatchMessage, undefined, withTime(60_000));

    // Assess
    expect(queuedBodies(FANOUT_QUEUE_URL)).toEqual([{ kind: 'check', projectId: P, campaignId: C }]);
    const check = sqs.commandCalls(SendMessageBatchCommand).find((call) => call.args[0].input.QueueUrl === FANOUT_QUEUE_URL)!;
    expect(check.args[0].input.Entries![0]!.DelaySeconds).toBe(60);
    // sinon numbers calls across all stubs: the check was queued before the end was written
    const finish = ddb.commandCalls(UpdateCommand).find((call) => call.args[0].input.UpdateExpression!.startsWith('SET #dispatch.#done'))!;
    const callId = (call: object) => (call as { callId: number }).callId;
    expect(callId(check)).toBeLessThan(callId(finish));
  });

  it('checks a campaign again a minute later while its emails are still being sent, and stops once it has ended', async () => {
    // Prepare: a SENDING campaign whose fan-out is done, one email still QUEUED
    ddb.on(GetCommand, { Key: campaignKey }).resolves({ Item: { ...campaign, dispatch: { done: true } } });
    ddb.on(QueryCommand).resolves({ Items: [{ status: 'SENT', sentAt: '2026-11-23T09:00:01.000Z' }, { status: 'QUEUED', updatedAt: '2026-11-23T09:00:00.000Z' }] });
    sqs.on(SendMessageBatchCommand).resolves({ Failed: [] });

    // Act
    await processFanoutMessage({ kind: 'check', projectId: P, campaignId: C });

    // Assess
    expect(queuedBodies(FANOUT_QUEUE_URL)).toEqual([{ kind: 'check', projectId: P, campaignId: C }]);
    expect(ddb.commandCalls(UpdateCommand)).toHaveLength(0);

    // Act: the campaign has ended meanwhile
    sqs.resetHistory();
    ddb.on(GetCommand, { Key: campaignKey }).resolves({ Item: { ...campaign, status: 'SENT' } });
    await processFanoutMessage({ kind: 'check', projectId: P, campaignId: C });

    // Assess
    expect(queuedBodies(FANOUT_QUEUE_URL)).toEqual([]);
  });

  it('derives the same email ids when a page is dispatched again, so a redelivered page never sends twice', async () => {
    // Prepare
    givenAudience([[contact(1), contact(2)]]);
    givenCampaignUpdates();
    await processFanoutMessage(dispatchMessage, undefined, withTime(60_000));
    const first = writtenRecords().map((record) => record.id);
    ddb.reset();
    sqs.reset();
    givenAudience([[contact(1), contact(2)]]);
    givenCampaignUpdates();

    // Act
    await processFanoutMessage(dispatchMessage, undefined, withTime(60_000));

    // Assess
    expect(writtenRecords().map((record) => record.id)).toEqual(first);
  });

  it('redoes the page of a dispatcher that died with conditional puts, so a record already there (maybe sent) is not overwritten', async () => {
    // Prepare: the claim finds another owner's lease expired
    givenAudience([[contact(1), contact(2)]]);
    givenCampaignUpdates();
    ddb.on(UpdateCommand, { ReturnValues: 'ALL_OLD' }).resolves({ Attributes: { ...campaign, dispatch: { owner: 'dead', leaseUntil: 1, cursor: { page: 7 } } } });
    ddb.on(PutCommand).resolves({});

    // Act
    await processFanoutMessage(dispatchMessage, undefined, withTime(60_000));

    // Assess
    expect(ddb.commandCalls(QueryCommand)[0]!.args[0].input.ExclusiveStartKey).toEqual({ page: 7 });
    // The records only by conditional puts, never by a BatchWriteItem's overwrite
    expect(ddb.commandCalls(BatchWriteCommand)).toHaveLength(0);
    const puts = ddb.commandCalls(PutCommand).map((call) => call.args[0].input);
    expect(puts).toHaveLength(6);
    const records = puts.filter((put) => put.Item!.PK === `PROJECT#${P}` && String(put.Item!.SK).startsWith('EMAIL#'));
    expect(records.map((put) => [put.Item!.to, put.ConditionExpression])).toEqual([
      [{ email: 'reader1@example.com' }, 'attribute_not_exists(PK)'],
      [{ email: 'reader2@example.com' }, 'attribute_not_exists(PK)'],
    ]);
    // Each record's content item again, only where there is none (content already there, maybe sent, is not overwritten either)
    const contents = new Map(puts.filter((put) => String(put.Item!.SK).startsWith('EMAIL_CONTENT#')).map((put) => [String(put.Item!.SK).slice('EMAIL_CONTENT#'.length), put]));
    expect(records.map((put) => [contents.get(put.Item!.id as string)?.Item!.PK, contentOf(contents.get(put.Item!.id as string)?.Item)?.html, contents.get(put.Item!.id as string)?.ConditionExpression])).toEqual([
      [`PROJECT#${P}`, '<p>Hi Reader 1</p>', 'attribute_not_exists(PK)'],
      [`PROJECT#${P}`, '<p>Hi Reader 2</p>', 'attribute_not_exists(PK)'],
    ]);
    // Each one after its record's put
    expect(records.every((record) => puts.indexOf(record) < puts.indexOf(contents.get(record.Item!.id as string)!))).toBe(true);
    // And its recipient reference again, unconditionally (the dead dispatcher may not have written it)
    const references = puts.filter((put) => put.Item!.PK !== `PROJECT#${P}`);
    expect(references.map((put) => [put.Item!.PK, put.Item!.SK, put.ConditionExpression]).sort()).toEqual(
      records.map((put) => [`PROJECT#${P}#EMAILS_TO#${(put.Item!.to as { email: string }).email}`, `EMAIL#${put.Item!.id}`, undefined]).sort(),
    );
  });

  it('stops at the next page when the campaign was PAUSED, keeping its cursor for the resume', async () => {
    // Prepare: paused while the first page was queued
    givenAudience([[contact(1), contact(2)], [contact(3)]]);
    givenCampaignUpdates(() => 'PAUSED');

    // Act
    await processFanoutMessage(dispatchMessage, undefined, withTime(60_000));

    // Assess: one page queued, the lease released, the cursor kept, the dispatch not done
    expect(ddb.commandCalls(QueryCommand)).toHaveLength(1);
    expect(queuedBodies(SEND_QUEUE_URL)).toHaveLength(2);
    const last = campaignUpdates().at(-1)!;
    expect(last).toMatchObject({ UpdateExpression: 'REMOVE #dispatch.#owner, #dispatch.#leaseUntil', ConditionExpression: '#dispatch.#owner = :owner' });
    expect(campaignUpdates().filter((input) => input.UpdateExpression!.includes('#dispatch.#done'))).toEqual([]);
    expect(ddb.commandCalls(UpdateCommand).filter((call) => call.args[0].input.Key!.SK === statsKey.SK)).toHaveLength(0);
  });

  it('stops at the next page when the campaign was CANCELLED, its audience size final at what was queued', async () => {
    // Prepare
    givenAudience([[contact(1), contact(2)], [contact(3)]]);
    givenCampaignUpdates(() => 'CANCELLED');

    // Act
    await processFanoutMessage(dispatchMessage, undefined, withTime(60_000));

    // Assess
    expect(ddb.commandCalls(QueryCommand)).toHaveLength(1);
    expect(campaignUpdates().at(-1)!.UpdateExpression).toBe('SET #dispatch.#done = :true REMOVE #dispatch.#owner, #dispatch.#cursor');
    expect(ddb.commandCalls(UpdateCommand).map((call) => call.args[0].input).find((input) => input.Key!.SK === statsKey.SK)!.ExpressionAttributeValues).toEqual({ ':recipients': 2 });
  });

  it('queues its own continuation and releases the campaign when its invocation runs out of time', async () => {
    // Prepare: less than the 10 s reserve left after the first page
    givenAudience([[contact(1), contact(2)], [contact(3)]]);
    givenCampaignUpdates();

    // Act
    await processFanoutMessage(dispatchMessage, undefined, withTime(9_000));

    // Assess
    expect(ddb.commandCalls(QueryCommand)).toHaveLength(1);
    expect(queuedBodies(FANOUT_QUEUE_URL)).toEqual([dispatchMessage]);
    expect(campaignUpdates().at(-1)!.UpdateExpression).toBe('REMOVE #dispatch.#owner, #dispatch.#leaseUntil');
  });
});

describe('the fan-out of an A/B test', () => {
  it('sends the sample with each variant\'s subject and its variant on the record, holds the rest, and waits for the winner before it is done', async () => {
    // Prepare: four recipients, two subjects, a 50 % sample
    const abTest = { variants: [{ subject: 'Alpha {{contact.data.name}}' }, { subject: 'Beta' }], samplePercent: 50, metric: 'opens', waitMinutes: 1 };
    givenAudience([[contact(1), contact(2), contact(3), contact(4)]]);
    givenCampaignUpdates(() => 'SENDING', { ...campaign, abTest });
    ddb.on(PutCommand).resolves({});
    scheduler.on(CreateScheduleCommand).resolves({ ScheduleArn: 'arn:x' });

    // Act
    await processFanoutMessage(dispatchMessage, undefined, withTime(60_000));

    // Assess: positions 1 and 3 are the sample (A then B), 0 and 2 held
    expect(writtenRecords().map((record) => [record.contactId, record.subject, record.abVariant])).toEqual([
      [contactId(2), 'Alpha Reader 2', 0],
      [contactId(4), 'Beta', 1],
    ]);
    const markers = ddb.commandCalls(PutCommand).map((call) => call.args[0].input.Item!);
    expect(markers.map((item) => ({ PK: item.PK, SK: item.SK }))).toEqual([1, 3].map((n) => campaignKeys.abRest(P, C, contactId(n))));
    expect(queuedBodies(SEND_QUEUE_URL)).toHaveLength(2);
    // The whole audience counts as its recipients, so it completes only after the rest has settled
    const updates = campaignUpdates().map((input) => input.UpdateExpression!.split(',')[0]);
    expect(updates).toEqual(['SET #dispatch.#owner = :owner', 'SET totalRecipients = totalRecipients + :queued', 'SET abTest.phase = :waiting', 'SET #dispatch.#done = :true REMOVE #dispatch.#owner']);
    expect(campaignUpdates()[1]!.ExpressionAttributeValues![':queued']).toBe(4);
    expect(scheduler.commandCalls(CreateScheduleCommand)).toHaveLength(1);
  });
});
