import { DeleteCommand, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Context } from 'aws-lambda';
import { documentClient } from '../aws/clients';
import { requiredEnv } from '../config/env';
import { variables } from '../config/variables';
import { batchWriteAll } from '../db/batch';
import { tableName } from '../db/table';
import { updateIfStill } from '../db/transactions';
import { logger } from '../observability/logger';
import { sendMessageBatches } from '../queue/send-batches';
import type { Recipient } from './audience';
import { campaignKeys } from './keys';
import { recipientMoment, type LocalTimeDelivery } from './local-time';
import type { FanoutMessage } from './queues';

/**
 * The dispatch side of local-time delivery (shared/campaigns/local-time.ts): the fan-out writes
 * every recipient's email record as usual, then queues the mail of moments already released and
 * holds the rest, one item per email in its moment's partition; when a moment's schedule fires,
 * its mail is released: the moment is marked released on the campaign first, then its partition
 * read and queued. The fan-out holds first and reads the marks after, so either it sees the
 * mark (and queues the mail itself) or the release reads its held item: no email is left held.
 * Queued twice, an email is sent once (the sender's claim; its id derives from campaign and contact).
 */

/** Configuration, read once at cold start. */
const config = {
  fanoutQueueUrl: requiredEnv(variables.campaignFanoutQueueUrl),
  campaignSendQueueUrl: requiredEnv(variables.campaignSendQueueUrl),
};

/** Held items outlive any moment of a plan (at most 365 days ahead plus a day of zones). */
const HELD_TTL_SECONDS = 400 * 24 * 3600;
/** Held items read, queued and deleted per step of a release. */
const RELEASE_PAGE_SIZE = 250;
/** A release stops with this much time left and continues in a new message. */
const RESERVE_MS = 10_000;

export interface RoutedPage {
  /** The email ids to queue now: their moment is released. */
  queue: string[];
  /** Recipients per zone, for the checkpoint. */
  zones: Record<string, number>;
}

/**
 * Routes a fan-out page: emails of released moments are queued, the others held in their
 * moment's partition. Returns what to queue now and the page's count per zone.
 */
export async function routeToZones(projectId: string, campaignId: string, delivery: LocalTimeDelivery, emails: { id: string; recipient: Recipient }[]): Promise<RoutedPage> {
  const zones: Record<string, number> = {};
  const routed = emails.map(({ id, recipient }) => {
    const { zone, moment } = recipientMoment(recipient, delivery);
    zones[zone] = (zones[zone] ?? 0) + 1;
    return { id, moment };
  });
  const held = routed.filter(({ moment }) => delivery.released?.[moment] === undefined);
  await putHeld(projectId, campaignId, held);
  // Marks made since the campaign was read: their releases may have read the partitions before these items were in them.
  const released = held.length > 0 ? await readReleased(projectId, campaignId) : delivery.released ?? {};
  return { queue: routed.filter(({ moment }) => released[moment] !== undefined).map(({ id }) => id), zones };
}

async function putHeld(projectId: string, campaignId: string, held: { id: string; moment: string }[]): Promise<void> {
  const expiresAt = Math.floor(Date.now() / 1000) + HELD_TTL_SECONDS;
  await batchWriteAll(held.map(({ id, moment }) => ({ PutRequest: { Item: { ...campaignKeys.heldInZone(projectId, campaignId, moment, id), emailId: id, expiresAt } } })));
}

async function readReleased(projectId: string, campaignId: string): Promise<Record<string, string>> {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: tableName, Key: campaignKeys.campaign(projectId, campaignId), ConsistentRead: true, ProjectionExpression: '#delivery.#released', ExpressionAttributeNames: { '#delivery': 'delivery', '#released': 'released' } }),
  );
  return ((Item?.delivery as { released?: Record<string, string> } | undefined)?.released) ?? {};
}

/**
 * A moment's schedule fired (or a cancel asks for the held mail): marks the moment released
 * (the first time only) while the campaign is SCHEDULED, SENDING or PAUSED by this plan, then
 * queues its held mail page by page, each page's items deleted after its messages are queued (a
 * redelivery queues at most a page again). A cancelled campaign's held mail is queued too,
 * unmarked: the sender ends it CANCELLED. A message of an older plan, or for a campaign back in
 * DRAFT, does nothing. Out of time, it queues its own continuation.
 */
export async function releaseZone(message: Extract<FanoutMessage, { kind: 'zone' }>, context?: Context): Promise<void> {
  const { projectId, campaignId, planId, moment } = message;
  const remaining = () => context?.getRemainingTimeInMillis() ?? 30_000;
  const state = await markReleased(projectId, campaignId, planId, moment);
  if (state === 'other-plan') {
    logger.info('Zone schedule of an older plan fired; nothing released', { projectId, campaignId, moment });
    return;
  }
  let queued = 0;
  for (;;) {
    if (remaining() < RESERVE_MS) {
      await sendMessageBatches(config.fanoutQueueUrl, [JSON.stringify(message)]);
      break;
    }
    const page = await documentClient.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': campaignKeys.zonePartition(projectId, campaignId, moment) },
        ConsistentRead: true,
        Limit: RELEASE_PAGE_SIZE,
      }),
    );
    const items = page.Items ?? [];
    if (items.length === 0) break;
    await sendMessageBatches(config.campaignSendQueueUrl, items.map((item) => JSON.stringify({ projectId, emailId: item.emailId })));
    await Promise.all(items.map((item) => documentClient.send(new DeleteCommand({ TableName: tableName, Key: { PK: item.PK, SK: item.SK } }))));
    queued += items.length;
  }
  logger.info('Zone released', { projectId, campaignId, moment, queued, state });
}

/** Marks the moment released on a campaign of this plan; CANCELLED (or done) campaigns are left unmarked. */
async function markReleased(projectId: string, campaignId: string, planId: string, moment: string): Promise<'marked' | 'cancelled' | 'other-plan'> {
  const marked = await updateIfStill({
    TableName: tableName,
    Key: campaignKeys.campaign(projectId, campaignId),
    UpdateExpression: 'SET #delivery.#released.#moment = if_not_exists(#delivery.#released.#moment, :now)',
    ConditionExpression: '#delivery.#planId = :planId AND #status IN (:scheduled, :sending, :paused)',
    ExpressionAttributeNames: { '#delivery': 'delivery', '#released': 'released', '#moment': moment, '#planId': 'planId', '#status': 'status' },
    ExpressionAttributeValues: { ':now': new Date().toISOString(), ':planId': planId, ':scheduled': 'SCHEDULED', ':sending': 'SENDING', ':paused': 'PAUSED' },
  });
  if (marked) return 'marked';
  const { Item } = await documentClient.send(new GetCommand({ TableName: tableName, Key: campaignKeys.campaign(projectId, campaignId), ConsistentRead: true }));
  const samePlan = (Item?.delivery as { planId?: string } | undefined)?.planId === planId;
  return samePlan ? 'cancelled' : 'other-plan';
}
