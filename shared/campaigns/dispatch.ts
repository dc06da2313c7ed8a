import { DeleteCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Context, SQSRecord } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import * as v from 'valibot';
import { documentClient } from '../aws/clients';
import { requiredEnv } from '../config/env';
import { variables } from '../config/variables';
import { tableName } from '../db/table';
import { transactWrite } from '../db/transactions';
import { putEmailOnce, putEmails, type EmailRecord } from '../emails/emails';
import { ApiError } from '../http/errors';
import { logger } from '../observability/logger';
import { RetryLater } from '../queue/errors';
import { sendMessageBatches } from '../queue/send-batches';
import { assertApprovedToStart } from './approval';
import { holdRest, runAbWinner, startWaiting } from './ab-test';
import { splitPage, variantContent } from './ab-test-model';
import { audienceReader, contactIdBound, hasRecipients, type AudienceReader } from './audience';
import { checkCompletion, COMPLETION_CHECK_SECONDS } from './completion-check';
import { campaignEmail, resolveContent } from './content';
import { campaignKeys } from './keys';
import { completeIfSettled, recordRecipients } from './progress';
import { releasedAtStart } from './local-time';
import type { FanoutMessage } from './queues';
import { COUNT_CONTINUES, pageMessages, respread, spreadCount } from './spread';
import { fromItem, readCampaign, startFields, transitionItems, type StoredCampaign } from './store';
import { releaseZone, routeToZones } from './zones';

/** Configuration, read once at cold start. */
const config = {
  fanoutQueueUrl: requiredEnv(variables.campaignFanoutQueueUrl),
  campaignSendQueueUrl: requiredEnv(variables.campaignSendQueueUrl),
};

/** Recipients per page: memory holds one page of rendered mail, whatever the audience size. */
export const PAGE_SIZE = 250;
/** An invocation stops paging with this much time left and continues in a new message. */
const RESERVE_MS = 10_000;
/** How long a dispatcher owns the campaign beyond its own remaining time (then another may take over). */
const LEASE_MARGIN_MS = 30_000;

const idSchema = v.pipe(v.string(), v.regex(/^[0-9A-Za-z_-]{1,64}$/));
export const fanoutMessageSchema = v.variant('kind', [
  v.object({ kind: v.literal('start'), projectId: idSchema, campaignId: idSchema, scheduleId: idSchema }),
  v.object({ kind: v.literal('dispatch'), projectId: idSchema, campaignId: idSchema }),
  v.object({ kind: v.literal('unpark'), projectId: idSchema, campaignId: idSchema }),
  v.object({ kind: v.literal('zone'), projectId: idSchema, campaignId: idSchema, planId: idSchema, moment: v.pipe(v.string(), v.regex(/^m\d{1,12}$/)) }),
  v.object({ kind: v.literal('check'), projectId: idSchema, campaignId: idSchema }),
  v.object({ kind: v.literal('ab-winner'), projectId: idSchema, campaignId: idSchema }),
]);
export const parseFanoutMessage = (body: unknown): FanoutMessage => v.parse(fanoutMessageSchema, body);

/** The fan-out queue's consumer. */
export async function processFanoutMessage(message: FanoutMessage, _record?: SQSRecord, context?: Context): Promise<void> {
  if (message.kind === 'unpark') return unpark(message.projectId, message.campaignId, context);
  if (message.kind === 'zone') return releaseZone(message, context);
  if (message.kind === 'check') return check(message.projectId, message.campaignId);
  if (message.kind === 'ab-winner') return runAbWinner(message.projectId, message.campaignId, context);
  if (message.kind === 'start' && !(await startScheduled(message))) return;
  await dispatch(message.projectId, message.campaignId, context);
}

/**
 * A schedule fired: SCHEDULED → SENDING, conditioned on the schedule it was made by (each
 * scheduling gets a new id), so a schedule that fires late after a cancel or reschedule, or
 * twice, sends nothing. A
 * campaign that can no longer be sent (its sender domain lost its verification, its audience is
 * empty) goes back to DRAFT with failureReason.
 */
async function startScheduled(message: Extract<FanoutMessage, { kind: 'start' }>): Promise<boolean> {
  const { projectId, campaignId } = message;
  const campaign = await readCampaign(projectId, campaignId).catch((error: unknown) => {
    if (error instanceof ApiError && error.statusCode === 404) return undefined;
    throw error;
  });
  if (!campaign || campaign.status !== 'SCHEDULED' || campaign.scheduleId !== message.scheduleId) {
    logger.info('Schedule fired for a campaign no longer scheduled for it; nothing sent', { projectId, campaignId, status: campaign?.status });
    return false;
  }
  const sentAt = new Date().toISOString();
  let content;
  try {
    await assertApprovedToStart(projectId, campaign);
    content = await resolveContent(projectId, campaign);
    if (!(await hasRecipients(await audienceReader(projectId, campaign.segmentId, contactIdBound(Date.parse(sentAt)))))) {
      throw new ApiError(422, 'EMPTY_AUDIENCE', 'The campaign\'s audience has no subscribed contacts');
    }
  } catch (error) {
    if (!(error instanceof ApiError) || error.statusCode >= 500) throw error;
    logger.warn('Scheduled campaign cannot be sent; back to DRAFT', { projectId, campaignId, reason: error.code });
    await transitionOnce(transitionItems(projectId, { campaign, action: 'cancel', set: { scheduledFor: null, scheduleId: null, failureReason: error.code, delivery: null } }));
    return false;
  }
  return transitionOnce(transitionItems(projectId, { campaign, action: 'fire', set: { ...startFields(sentAt, content), scheduleId: null, ...releasedAtStart(campaign, sentAt) } }));
}

async function transitionOnce(items: Parameters<typeof transactWrite>[0]): Promise<boolean> {
  try {
    await transactWrite(items);
    return true;
  } catch (error) {
    const reasons = (error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
    if (reasons.some((reason) => reason.Code === 'ConditionalCheckFailed')) return false;
    throw error;
  }
}

/**
 * Pages the frozen audience onto the campaign send queue, one owner at a time (a lease on the
 * campaign): each page's email records are written, their messages queued, then the checkpoint
 * (cursor, totalRecipients) saved. Out of time, it queues its own continuation. A dispatcher
 * that takes over from one that died redoes that one's unfinished page with conditional writes,
 * so an email already sent is never written again; its ids derive from campaign and contact,
 * so queueing it twice sends it once. A cancel stops it at the next page; a pause too, keeping
 * its cursor for the resume (unpark) to continue from.
 */
async function dispatch(projectId: string, campaignId: string, context?: Context): Promise<void> {
  const owner = randomUUID();
  const remaining = () => context?.getRemainingTimeInMillis() ?? 30_000;
  const claimed = await claim(projectId, campaignId, owner, Date.now() + remaining() + LEASE_MARGIN_MS);
  if (!claimed) return;
  let { campaign, redo } = claimed;
  const bound = contactIdBound(Date.parse(campaign.sentAt!));
  let reader: AudienceReader;
  try {
    reader = await audienceReader(projectId, campaign.segmentId, bound);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    // The segment was deleted mid-send: what was queued stands (an A/B test picks among what it has).
    await startWaiting(projectId, campaign);
    return finish(projectId, campaignId, owner, 'SEGMENT_DELETED');
  }
  // A spread campaign: its audience counted once, each recipient's mail due at its share of the spread.
  const count = await spreadCount(projectId, campaign, owner, reader, remaining, RESERVE_MS);
  if (count === COUNT_CONTINUES) return continueLater(projectId, campaignId, owner);
  let cursor = campaign.dispatch?.cursor;
  for (;;) {
    const page = await reader.page(cursor, PAGE_SIZE);
    const now = new Date().toISOString();
    // An A/B test sends its sample now and holds the rest for the winner (shared/campaigns/ab-test.ts).
    const { send, hold } = splitPage(campaign.abTest, campaign.totalRecipients ?? 0, page.recipients);
    const records = send.map(({ recipient, variant }) => campaignEmail(projectId, { id: campaignId, sentAt: campaign.sentAt! }, variantContent(campaign.content!, campaign.abTest, variant), recipient, now, variant));
    if (hold.length > 0) await holdRest(projectId, campaignId, hold);
    // A page's writes and messages go out in parallel chunks (25 records per BatchWriteItem, 10 messages per SendMessageBatch).
    await (redo ? putMissingEmails(records) : Promise.all(chunks(records, 25).map((chunk) => putEmails(chunk))));
    // A local-time send queues only the mail of zones whose moment has come; the rest waits in its zone (zones.ts).
    const routed = campaign.delivery ? await routeToZones(projectId, campaignId, campaign.delivery, records.map((record, index) => ({ id: record.id, recipient: send[index]!.recipient }))) : undefined;
    const messages = pageMessages(projectId, campaign, count, campaign.totalRecipients ?? 0, routed ? routed.queue : records.map((record) => record.id));
    await Promise.all(chunks(messages, 10).map((chunk) => sendMessageBatches(config.campaignSendQueueUrl, chunk.map((message) => message.body), { delays: chunk.map((message) => message.delaySeconds) })));
    campaign = await checkpoint(projectId, campaignId, owner, page.next, page.recipients.length, Date.now() + remaining() + LEASE_MARGIN_MS, routed?.zones);
    redo = false;
    cursor = page.next;
    if (campaign.status === 'PAUSED' && cursor) return release(projectId, campaignId, owner);
    // The audience is read: an A/B test waits for its winner, before the fan-out is marked done (a crash redoes it).
    if (!cursor) await startWaiting(projectId, campaign);
    if (campaign.status !== 'SENDING' || !cursor) return finish(projectId, campaignId, owner);
    if (remaining() < RESERVE_MS) {
      await sendMessageBatches(config.fanoutQueueUrl, [JSON.stringify({ kind: 'dispatch', projectId, campaignId } satisfies FanoutMessage)]);
      await release(projectId, campaignId, owner);
      return;
    }
  }
}

/** Out of time while counting a spread's audience: the dispatch goes on in a new message, and this owner lets go. */
async function continueLater(projectId: string, campaignId: string, owner: string): Promise<void> {
  await sendMessageBatches(config.fanoutQueueUrl, [JSON.stringify({ kind: 'dispatch', projectId, campaignId } satisfies FanoutMessage)]);
  await release(projectId, campaignId, owner);
}

/**
 * Takes the dispatch: only a SENDING campaign whose dispatch is not done and has no live owner.
 * Another live owner: the message comes back after its lease. Returns the campaign as it was,
 * and whether a previous owner left without releasing it (its last page is then redone).
 */
async function claim(projectId: string, campaignId: string, owner: string, leaseUntil: number): Promise<{ campaign: StoredCampaign; redo: boolean } | undefined> {
  const now = Date.now();
  try {
    const { Attributes } = await documentClient.send(
      new UpdateCommand({
        TableName: tableName,
        Key: campaignKeys.campaign(projectId, campaignId),
        UpdateExpression: 'SET #dispatch.#owner = :owner, #dispatch.#leaseUntil = :leaseUntil',
        ConditionExpression: '#status = :sending AND attribute_not_exists(#dispatch.#done) AND (attribute_not_exists(#dispatch.#owner) OR #dispatch.#leaseUntil < :now)',
        ExpressionAttributeNames: { '#status': 'status', '#dispatch': 'dispatch', '#owner': 'owner', '#leaseUntil': 'leaseUntil', '#done': 'done' },
        ExpressionAttributeValues: { ':owner': owner, ':leaseUntil': leaseUntil, ':sending': 'SENDING', ':now': now },
        ReturnValues: 'ALL_OLD',
      }),
    );
    const campaign = fromItem(Attributes!);
    return { campaign, redo: campaign.dispatch?.owner !== undefined };
  } catch (error) {
    if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
  }
  const current = await readCampaign(projectId, campaignId).catch(() => undefined);
  const lease = current?.dispatch?.leaseUntil;
  if (current?.status === 'SENDING' && !current.dispatch?.done && lease !== undefined && lease >= now) {
    throw new RetryLater(Math.ceil((lease - now) / 1000) + 1, 'Another dispatcher owns this campaign');
  }
  logger.info('Nothing to dispatch', { projectId, campaignId, status: current?.status });
  return undefined;
}

/** Saves the page's progress as the owner; returns the campaign as it now is (a cancel shows here). */
async function checkpoint(projectId: string, campaignId: string, owner: string, cursor: Record<string, unknown> | undefined, queued: number, leaseUntil: number, zones?: Record<string, number>): Promise<StoredCampaign> {
  const zoneCounts = zoneCountUpdate(zones);
  const { Attributes } = await documentClient.send(
    new UpdateCommand({
      TableName: tableName,
      Key: campaignKeys.campaign(projectId, campaignId),
      UpdateExpression: `SET totalRecipients = totalRecipients + :queued, #dispatch.#leaseUntil = :leaseUntil${cursor ? ', #dispatch.#cursor = :cursor' : ''}${zoneCounts.expression}`,
      ConditionExpression: '#dispatch.#owner = :owner',
      ExpressionAttributeNames: { '#dispatch': 'dispatch', '#owner': 'owner', '#leaseUntil': 'leaseUntil', ...(cursor ? { '#cursor': 'cursor' } : {}), ...zoneCounts.names },
      ExpressionAttributeValues: { ':queued': queued, ':leaseUntil': leaseUntil, ':owner': owner, ...(cursor ? { ':cursor': cursor } : {}), ...zoneCounts.values },
      ReturnValues: 'ALL_NEW',
    }),
  );
  return fromItem(Attributes!);
}

/** A local-time send's recipients per zone, added in the checkpoint (so a redone page is counted once). */
function zoneCountUpdate(zones: Record<string, number> | undefined): { expression: string; names: Record<string, string>; values: Record<string, unknown> } {
  const entries = Object.entries(zones ?? {});
  if (entries.length === 0) return { expression: '', names: {}, values: {} };
  return {
    expression: entries.map((_, index) => `, #delivery.#zones.#z${index} = if_not_exists(#delivery.#zones.#z${index}, :zero) + :z${index}`).join(''),
    names: { '#delivery': 'delivery', '#zones': 'zones', ...Object.fromEntries(entries.map(([zone], index) => [`#z${index}`, zone])) },
    values: { ':zero': 0, ...Object.fromEntries(entries.map(([, count], index) => [`:z${index}`, count])) },
  };
}

/**
 * The audience is read (or the campaign was cancelled): its size is final; the campaign may already be complete.
 * Its completion checks start first, so that a failure after the fan-out's end is recorded cannot skip them.
 */
async function finish(projectId: string, campaignId: string, owner: string, failureReason?: string): Promise<void> {
  await queueCheck(projectId, campaignId);
  const { Attributes } = await documentClient.send(
    new UpdateCommand({
      TableName: tableName,
      Key: campaignKeys.campaign(projectId, campaignId),
      UpdateExpression: `SET #dispatch.#done = :true${failureReason ? ', failureReason = :reason' : ''} REMOVE #dispatch.#owner, #dispatch.#cursor`,
      ConditionExpression: '#dispatch.#owner = :owner',
      ExpressionAttributeNames: { '#dispatch': 'dispatch', '#owner': 'owner', '#done': 'done', '#cursor': 'cursor' },
      ExpressionAttributeValues: { ':true': true, ':owner': owner, ...(failureReason ? { ':reason': failureReason } : {}) },
      ReturnValues: 'ALL_NEW',
    }),
  );
  const recipients = (Attributes!.totalRecipients as number | undefined) ?? 0;
  await recordRecipients(projectId, campaignId, recipients);
  logger.info('Campaign audience queued', { projectId, campaignId, recipients });
  await completeIfSettled(projectId, campaignId);
}

async function check(projectId: string, campaignId: string): Promise<void> {
  if ((await checkCompletion(projectId, campaignId)) === 'again') await queueCheck(projectId, campaignId);
}

async function queueCheck(projectId: string, campaignId: string): Promise<void> {
  await sendMessageBatches(config.fanoutQueueUrl, [JSON.stringify({ kind: 'check', projectId, campaignId } satisfies FanoutMessage)], { delaySeconds: COMPLETION_CHECK_SECONDS });
}

async function release(projectId: string, campaignId: string, owner: string): Promise<void> {
  await documentClient.send(
    new UpdateCommand({
      TableName: tableName,
      Key: campaignKeys.campaign(projectId, campaignId),
      UpdateExpression: 'REMOVE #dispatch.#owner, #dispatch.#leaseUntil',
      ConditionExpression: '#dispatch.#owner = :owner',
      ExpressionAttributeNames: { '#dispatch': 'dispatch', '#owner': 'owner', '#leaseUntil': 'leaseUntil' },
      ExpressionAttributeValues: { ':owner': owner },
    }),
  );
}

/** Parked emails read, queued and unmarked per step. */
const UNPARK_PAGE_SIZE = 250;

/**
 * A PAUSED campaign was resumed (or cancelled): its parked mail goes back on the campaign send
 * queue, where the sender sends it (or, cancelled, ends it CANCELLED). Page by page from a
 * strongly consistent Query of the parked partition, each page's markers deleted only after its
 * messages are queued (and only if not parked again since): a retry queues at most a page again, and the sender's claim sends a
 * twice-queued email once. Paused again meanwhile: the mail stays parked for the next resume.
 * Out of time, it queues its own continuation. Then, SENDING, the fan-out continues from its
 * cursor if it had not finished, and the campaign completes if every email is settled (it may
 * have been while it was PAUSED).
 */
async function unpark(projectId: string, campaignId: string, context?: Context): Promise<void> {
  const remaining = () => context?.getRemainingTimeInMillis() ?? 30_000;
  const status = async () => (await readCampaign(projectId, campaignId).catch(() => undefined))?.status;
  let startKey: Record<string, unknown> | undefined;
  // A spread campaign's parked mail goes out at the spread's pace from the resume.
  const campaign = await readCampaign(projectId, campaignId).catch(() => undefined);
  let requeued = 0;
  do {
    if ((await status()) === 'PAUSED') return;
    if (remaining() < RESERVE_MS) {
      await sendMessageBatches(config.fanoutQueueUrl, [JSON.stringify({ kind: 'unpark', projectId, campaignId } satisfies FanoutMessage)]);
      return;
    }
    const page = await documentClient.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': campaignKeys.parkedPartition(projectId, campaignId) },
        ConsistentRead: true,
        Limit: UNPARK_PAGE_SIZE,
        ExclusiveStartKey: startKey,
      }),
    );
    const parked = page.Items ?? [];
    const messages = campaign?.status === 'SENDING' ? respread(projectId, campaign, requeued, parked.map((item) => item.emailId as string)) : parked.map((item) => ({ body: JSON.stringify({ projectId, emailId: item.emailId }), delaySeconds: 0 }));
    await sendMessageBatches(config.campaignSendQueueUrl, messages.map((message) => message.body), { delays: messages.map((message) => message.delaySeconds) });
    requeued += parked.length;
    await deleteParked(projectId, campaignId, parked);
    if (parked.length) logger.info('Parked campaign mail queued again', { projectId, campaignId, emails: parked.length });
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  if ((await status()) !== 'SENDING') return;
  await dispatch(projectId, campaignId, context);
  await completeIfSettled(projectId, campaignId);
}

/**
 * Deletes parked items, each only if it is the park that was read: an email queued again and
 * parked again meanwhile (the campaign paused again) keeps its new marker.
 */
async function deleteParked(projectId: string, campaignId: string, items: Record<string, unknown>[]): Promise<void> {
  for (const group of chunks(items, PUT_CONCURRENCY)) {
    await Promise.all(
      group.map((item) =>
        documentClient
          .send(
            new DeleteCommand({
              TableName: tableName,
              Key: campaignKeys.parked(projectId, campaignId, item.emailId as string),
              ConditionExpression: 'parkedAt = :parkedAt',
              ExpressionAttributeValues: { ':parkedAt': item.parkedAt },
            }),
          )
          .catch((error: Error) => {
            if (error.name !== 'ConditionalCheckFailedException') throw error;
          }),
      ),
    );
  }
}

const chunks = <T>(items: T[], size: number): T[][] => Array.from({ length: Math.ceil(items.length / size) }, (_, index) => items.slice(index * size, (index + 1) * size));

const PUT_CONCURRENCY = 16;

/** Writes only the records that do not exist yet (each a conditional put): the redo of a page. */
async function putMissingEmails(records: EmailRecord[]): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(PUT_CONCURRENCY, records.length) }, async () => {
      while (next < records.length) await putEmailOnce(records[next++]!);
    }),
  );
}
