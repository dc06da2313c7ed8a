import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import { documentClient } from '../aws/clients';
import { tableName } from '../db/table';
import type { SendMessage } from '../emails/emails';
import { RetryLater } from '../queue/errors';
import type { AudienceReader } from './audience';
import { campaignKeys } from './keys';
import { recentQueuedMailFate } from './fate';
import type { StoredCampaign } from './store';

/**
 * A spread send (`spreadOverMinutes`): the campaign's mail goes out evenly over that many
 * minutes from the moment sending starts, instead of in one burst.
 *
 * - When the dispatcher first takes a spread campaign, it counts the frozen audience once (N) and
 *   keeps the count on the campaign (`dispatch.spreadOf`, written once: a redelivered or
 *   taken-over dispatch finds it). Recipient i of N (in the fan-out's order) gets the not-before
 *   time `sentAt + i · spread / N`: derived from the campaign and the position alone, so the redo
 *   of a page gives each message the same time.
 * - Its message on the campaign send queue carries that time (`notBefore`) and an SQS delay of up
 *   to 15 minutes; a message received before its time goes back to the queue for the rest of the
 *   wait (RetryLater: its visibility, up to 12 hours), unclaimed, so a 24-hour spread costs each
 *   message at most three receives of the queue's 30, and a sender that stops mid-wait loses
 *   nothing (the message is SQS's; the local stack's in-memory SQS drops it when `npm start` stops).
 * - The sender then sends it as any campaign mail: in the pacer's campaign lane (transactional
 *   mail first), never faster than the SES rate — a spread asking for more ends later instead.
 * - Cancelled: nothing more is sent; mail not yet due ends CANCELLED when it is next received (at
 *   the latest when it would have been due: the sender lets it through to end it); a
 *   pause parks mail as it falls due, and the resume sends the parked mail at the spread's pace
 *   from the resume (`respread`), the mail still waiting keeping its times.
 */
export const spreadLimits = { minMinutes: 1, maxMinutes: 1440 } as const;

/** SQS delays a message by at most 15 minutes. */
const MAX_QUEUE_DELAY_SECONDS = 900;
/** The longest visibility timeout SQS accepts (12 hours). */
const MAX_HOLD_SECONDS = 43_200;
/** Mail due within this much is sent now (the pacer's own wait is of that order). */
const DUE_SLACK_MS = 1_000;

export const spreadOverMinutesSchema = v.pipe(
  v.number('spreadOverMinutes must be a number of minutes'),
  v.integer('spreadOverMinutes must be a whole number of minutes'),
  v.minValue(spreadLimits.minMinutes, `spreadOverMinutes must be at least ${spreadLimits.minMinutes}`),
  v.maxValue(spreadLimits.maxMinutes, `spreadOverMinutes must be at most ${spreadLimits.maxMinutes} (24 hours)`),
);

/** When recipient `index` of `count` is due: evenly from `startedAt` over the spread, the last no later than its end. */
export function dueAt(startedAt: number, overMinutes: number, index: number, count: number): number {
  const span = overMinutes * 60_000;
  return startedAt + Math.floor((Math.min(index, Math.max(0, count - 1)) * span) / Math.max(1, count));
}

/** A queue message's body and its SQS delay. */
export interface QueuedMessage {
  body: string;
  delaySeconds: number;
}

/** The send queue's messages of a page whose first recipient is number `firstIndex` of the audience. */
export function pageMessages(projectId: string, campaign: Pick<StoredCampaign, 'id' | 'sentAt' | 'spreadOverMinutes'>, count: number | undefined, firstIndex: number, emailIds: string[], now = Date.now()): QueuedMessage[] {
  return emailIds.map((emailId, offset) => {
    if (!campaign.spreadOverMinutes || count === undefined) return { body: JSON.stringify({ projectId, emailId } satisfies SendMessage), delaySeconds: 0 };
    return due(projectId, campaign.id, emailId, dueAt(Date.parse(campaign.sentAt!), campaign.spreadOverMinutes, firstIndex + offset, count), now);
  });
}

/**
 * After a resume: the parked mail goes out at the spread's pace (spread / N apart) from now,
 * `firstIndex` counting the parked mail queued before this page. Without a spread, at once.
 */
export function respread(projectId: string, campaign: Pick<StoredCampaign, 'id' | 'spreadOverMinutes' | 'dispatch'>, firstIndex: number, emailIds: string[], now = Date.now()): QueuedMessage[] {
  const count = campaign.dispatch?.spreadOf;
  return emailIds.map((emailId, offset) => {
    if (!campaign.spreadOverMinutes || !count) return { body: JSON.stringify({ projectId, emailId } satisfies SendMessage), delaySeconds: 0 };
    return due(projectId, campaign.id, emailId, dueAt(now, campaign.spreadOverMinutes, firstIndex + offset, count), now);
  });
}

function due(projectId: string, campaignId: string, emailId: string, at: number, now: number): QueuedMessage {
  const message: SendMessage = { projectId, emailId, campaignId, notBefore: new Date(at).toISOString() };
  return { body: JSON.stringify(message), delaySeconds: Math.max(0, Math.min(MAX_QUEUE_DELAY_SECONDS, Math.ceil((at - now) / 1000))) };
}

/** Recipients read per page while counting a spread campaign's audience. */
const COUNT_PAGE_SIZE = 1000;

/** spreadCount's answer when the invocation ran short of time: the count so far is kept, to go on in a new message. */
export const COUNT_CONTINUES = 'continues';

/**
 * The audience size of a spread campaign, counted once per send: the count already kept, or the
 * frozen audience (the dispatch's own reader) counted now and kept, only by the dispatch's owner
 * and only if none is kept yet. A large audience is counted over several invocations: with less
 * than `reserveMs` left, the count so far and its cursor are kept (COUNT_CONTINUES) and the next
 * owner goes on from there.
 */
export async function spreadCount(
  projectId: string,
  campaign: StoredCampaign,
  owner: string,
  reader: AudienceReader,
  timeLeft: () => number,
  reserveMs: number,
): Promise<number | typeof COUNT_CONTINUES | undefined> {
  if (!campaign.spreadOverMinutes) return undefined;
  if (campaign.dispatch?.spreadOf !== undefined) return campaign.dispatch.spreadOf;
  let counted = campaign.dispatch?.spreadCounted ?? 0;
  let cursor = campaign.dispatch?.spreadCursor;
  do {
    if (timeLeft() < reserveMs) {
      await saveCount(projectId, campaign.id, owner, { spreadCounted: counted, spreadCursor: cursor });
      return COUNT_CONTINUES;
    }
    const page = await reader.page(cursor, COUNT_PAGE_SIZE);
    counted += page.recipients.length;
    cursor = page.next;
  } while (cursor);
  const saved = await saveCount(projectId, campaign.id, owner, { spreadOf: counted });
  return saved.spreadOf!;
}

async function saveCount(projectId: string, campaignId: string, owner: string, fields: { spreadOf?: number; spreadCounted?: number; spreadCursor?: Record<string, unknown> }): Promise<NonNullable<StoredCampaign['dispatch']>> {
  const sets = fields.spreadOf !== undefined ? ['#dispatch.#spreadOf = if_not_exists(#dispatch.#spreadOf, :spreadOf)'] : ['#dispatch.#spreadCounted = :spreadCounted', '#dispatch.#spreadCursor = :spreadCursor'];
  const { Attributes } = await documentClient.send(
    new UpdateCommand({
      TableName: tableName,
      Key: campaignKeys.campaign(projectId, campaignId),
      UpdateExpression: `SET ${sets.join(', ')}${fields.spreadOf !== undefined ? ' REMOVE #dispatch.#spreadCounted, #dispatch.#spreadCursor' : ''}`,
      ConditionExpression: '#dispatch.#owner = :owner',
      ExpressionAttributeNames: { '#dispatch': 'dispatch', '#owner': 'owner', ...(fields.spreadOf !== undefined ? { '#spreadOf': 'spreadOf' } : {}), '#spreadCounted': 'spreadCounted', '#spreadCursor': 'spreadCursor' },
      ExpressionAttributeValues: { ':owner': owner, ...Object.fromEntries(Object.entries(fields).map(([name, value]) => [`:${name}`, value])) },
      ReturnValues: 'ALL_NEW',
    }),
  );
  return Attributes!.dispatch as NonNullable<StoredCampaign['dispatch']>;
}

/**
 * The sender's first step for a spread email: not due yet, its message goes back to the queue
 * until it is (unclaimed: nothing held, nothing lost). A cancelled campaign's mail is let through
 * at once, for the sender to end it CANCELLED.
 */
export async function holdUntilDue(message: SendMessage, now = Date.now()): Promise<void> {
  if (!message.notBefore) return;
  const wait = Date.parse(message.notBefore) - now;
  if (!(wait > DUE_SLACK_MS)) return;
  if (message.campaignId && (await recentQueuedMailFate(message.projectId, message.campaignId, now)) === 'cancel') return;
  throw new RetryLater(Math.min(MAX_HOLD_SECONDS, Math.ceil(wait / 1000)), 'Spread campaign mail not due yet; back when it is');
}
