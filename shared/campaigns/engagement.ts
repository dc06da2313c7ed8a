import { createHash } from 'node:crypto';
import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { decodeTime } from 'ulid';
import { documentClient } from '../aws/clients';
import { addToCounters } from '../db/counters';
import { tableName } from '../db/table';
import { transactWrite, updateIfStill } from '../db/transactions';
import type { Outcome } from '../delivery/outcomes';
import { logger } from '../observability/logger';
import { projectPartition } from '../projects/keys';
import { campaignKeys } from './keys';

/**
 * A campaign's per-link clicks and hourly figures, kept as counters as outcomes are recorded
 * (the campaign's outcome listener; an outcome is told once, after its conditional write, so a
 * redelivered SES event counts nothing again) and read with one Query and one GetItem — never a
 * scan of the campaign's emails.
 *
 * - Links: one item per distinct URL (keyed by its hash), `clicks` and `uniqueClicks` (a contact's
 *   first click on that link, decided by a conditional put). At most MAX_CAMPAIGN_LINKS links are
 *   itemised per campaign, counted by a link-count item in the transaction that creates a link
 *   item: personalised URLs cannot grow a campaign's items without bound. Clicks on further links
 *   still count in the campaign's `clicks`; URLs are kept up to MAX_URL_LENGTH characters.
 * - Hourly: one item per campaign and day since the send started, an attribute per metric and
 *   hour since the send started (`delivered_0`, `opened_29`…), for the first 14 days (336 hours);
 *   the send's start is the time of the campaign email's id (content.ts derives it from sentAt).
 *   A day's item stays under 1 KB, where one item for all 14 days grew to about 14 KB, and every
 *   late open's ADD was billed for all of it.
 */
export const MAX_CAMPAIGN_LINKS = 100;
const MAX_URL_LENGTH = 2_048;
export const HOURLY_HOURS = 14 * 24;
const HOUR_MS = 3_600_000;
const ENGAGEMENT_TTL_SECONDS = 400 * 24 * 3600;
const HOURLY_METRICS = ['delivered', 'opened', 'clicked'] as const;
type HourlyMetric = (typeof HOURLY_METRICS)[number];

export interface LinkStats {
  url: string;
  clicks: number;
  uniqueClicks: number;
}

export interface HourStats {
  /** The UTC hour's start (ISO 8601). */
  hour: string;
  delivered: number;
  opened: number;
  clicked: number;
}

/** Counts an outcome of a campaign email: its hourly figures, and each click's link. */
export async function countCampaignActivity(outcome: Pick<Outcome, 'email' | 'daily' | 'events'>): Promise<void> {
  const { email } = outcome;
  const campaignId = email.source.id!;
  const addsByDay = new Map<number, Record<string, number>>();
  for (const { metric, at } of outcome.daily) {
    if (!(HOURLY_METRICS as readonly string[]).includes(metric)) continue;
    const start = hourOf(decodeTime(email.id));
    const index = hourOf(Date.parse(at)) - start;
    if (!(index >= 0 && index < HOURLY_HOURS)) continue;
    const day = Math.floor(index / 24);
    const adds = addsByDay.get(day) ?? {};
    adds[`${metric}_${index}`] = (adds[`${metric}_${index}`] ?? 0) + 1;
    addsByDay.set(day, adds);
  }
  for (const [day, adds] of addsByDay) await addToCounters(campaignKeys.hourly(email.projectId, campaignId, day), adds);
  for (const event of outcome.events) {
    const link = event.name === 'email.clicked' && typeof event.data.link === 'string' ? event.data.link.slice(0, MAX_URL_LENGTH) : undefined;
    if (link) await countLinkClick(email.projectId, campaignId, email.contactId, link);
  }
}

async function countLinkClick(projectId: string, campaignId: string, contactId: string, url: string): Promise<void> {
  const hash = createHash('sha256').update(url).digest('hex').slice(0, 32);
  const first = await firstClick(projectId, campaignId, hash, contactId);
  const key = campaignKeys.link(projectId, campaignId, hash);
  for (let attempt = 0; attempt < 2; attempt++) {
    if (await updateIfStill({ TableName: tableName, Key: key, UpdateExpression: 'ADD clicks :one, uniqueClicks :unique', ConditionExpression: 'attribute_exists(PK)', ExpressionAttributeValues: { ':one': 1, ':unique': first ? 1 : 0 } })) return;
    try {
      await transactWrite([
        {
          Update: {
            TableName: tableName,
            Key: campaignKeys.linkCount(projectId, campaignId),
            UpdateExpression: 'ADD linkCount :one',
            ConditionExpression: 'attribute_not_exists(linkCount) OR linkCount < :max',
            ExpressionAttributeValues: { ':one': 1, ':max': MAX_CAMPAIGN_LINKS },
          },
        },
        { Put: { TableName: tableName, Item: { ...key, url, clicks: 1, uniqueClicks: first ? 1 : 0 }, ConditionExpression: 'attribute_not_exists(PK)' } },
      ]);
      return;
    } catch (error) {
      const [count, link] = (error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
      if (link?.Code === 'ConditionalCheckFailed') continue; // another click created it meanwhile: add to it
      if (count?.Code === 'ConditionalCheckFailed') {
        logger.info('Campaign link not itemised: the campaign has the most links kept', { projectId, campaignId, max: MAX_CAMPAIGN_LINKS });
        return;
      }
      throw error;
    }
  }
}

/** Whether this is the contact's first click on the link (a conditional put of its marker). */
async function firstClick(projectId: string, campaignId: string, hash: string, contactId: string): Promise<boolean> {
  try {
    await documentClient.send(
      new PutCommand({
        TableName: tableName,
        Item: { ...campaignKeys.linkClicker(projectId, campaignId, hash, contactId), expiresAt: Math.floor(Date.now() / 1000) + ENGAGEMENT_TTL_SECONDS },
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    );
    return true;
  } catch (error) {
    if ((error as Error).name === 'ConditionalCheckFailedException') return false;
    throw error;
  }
}

/** The campaign's links, most clicked first (one Query of at most MAX_CAMPAIGN_LINKS items). */
export async function readCampaignLinks(projectId: string, campaignId: string): Promise<LinkStats[]> {
  const links: LinkStats[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await documentClient.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
        ExpressionAttributeValues: { ':pk': campaignKeys.partition(projectId), ':prefix': campaignKeys.linkPrefix(campaignId) },
        ExclusiveStartKey,
      }),
    );
    for (const item of page.Items ?? []) links.push({ url: item.url as string, clicks: (item.clicks as number) ?? 0, uniqueClicks: (item.uniqueClicks as number) ?? 0 });
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return links.sort((a, b) => b.clicks - a.clicks || b.uniqueClicks - a.uniqueClicks || a.url.localeCompare(b.url));
}

/** Every UTC hour from the send's start to now (at most 14 days), zeros included; [] before sending. */
export async function readCampaignHourly(projectId: string, campaignId: string, sentAt: string | null, now = Date.now()): Promise<HourStats[]> {
  if (!sentAt) return [];
  const start = hourOf(Date.parse(sentAt));
  const hours = Math.min(hourOf(now) - start + 1, HOURLY_HOURS);
  if (hours <= 0) return [];
  // At most 15 small items (14 days, and the one item of campaigns counted before), one page.
  const { Items = [] } = await documentClient.send(
    new QueryCommand({
      TableName: tableName,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': projectPartition(projectId), ':prefix': campaignKeys.hourlyPrefix(campaignId) },
    }),
  );
  const read = (metric: HourlyMetric, index: number) => Items.reduce((sum, item) => sum + ((item[`${metric}_${index}`] as number | undefined) ?? 0), 0);
  return Array.from({ length: hours }, (_, index) => ({
    hour: new Date((start + index) * HOUR_MS).toISOString(),
    delivered: read('delivered', index),
    opened: read('opened', index),
    clicked: read('clicked', index),
  }));
}

const hourOf = (ms: number) => Math.floor(ms / HOUR_MS);
