import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../aws/clients';
import { tableName } from '../db/table';
import { updateIfStill } from '../db/transactions';
import { emailKeys, emailSortKeyBounds } from '../emails/keys';
import type { EmailStatus } from '../emails/emails';
import { ApiError } from '../http/errors';
import { logger } from '../observability/logger';
import { statsKeys } from '../stats/keys';
import { completeIfSettled } from './progress';
import { readCampaign, type StoredCampaign } from './store';

/**
 * The backstop of a campaign's completion. A campaign completes when its `settled` counter reaches
 * its audience size (shared/campaigns/progress.ts); those counters are added after each email's
 * final write, so an add that fails after all the SDK's retries (a DynamoDB bad minute) leaves the
 * counter one short for good — the redelivered message finds the email final and counts nothing
 * again. So from the end of its fan-out until it ends, a campaign is checked every
 * COMPLETION_CHECK_SECONDS: once none of its emails is QUEUED or SENDING and none has settled for
 * QUIET_MS (no counter add can still be on its way), its counters are set to what its emails
 * show, and it completes. A campaign whose counters kept up is SENT before its first check, which
 * then reads one item.
 */
export const COMPLETION_CHECK_SECONDS = 60;
/** Longer than any function that settles an email runs (the senders' and the SES events' timeouts). */
export const QUIET_MS = 2 * 60_000;

/** What a campaign's emails show, counted from the emails themselves. */
export interface EmailTally {
  emails: number;
  settled: number;
  sent: number;
  failed: number;
  suppressed: number;
  cancelled: number;
  /** When the last email settled (ms). */
  lastSettledAt: number;
}

const unsettled: ReadonlySet<EmailStatus> = new Set(['QUEUED', 'SENDING']);
const settledMetric: Partial<Record<EmailStatus, 'failed' | 'suppressed' | 'cancelled'>> = { FAILED: 'failed', SUPPRESSED: 'suppressed', CANCELLED: 'cancelled' };

/** `done`: nothing more to check (it ended, or was just completed); `again`: check later. */
export async function checkCompletion(projectId: string, campaignId: string, now = Date.now()): Promise<'done' | 'again'> {
  const campaign = await readCampaign(projectId, campaignId).catch((error: unknown) => {
    if (error instanceof ApiError && error.statusCode === 404) return undefined;
    throw error;
  });
  if (!campaign || (campaign.status !== 'SENDING' && campaign.status !== 'PAUSED')) return 'done';
  if (campaign.status !== 'SENDING' || !campaign.dispatch?.done) return 'again';
  const tally = await tallyEmails(projectId, campaign);
  if (!tally || now - tally.lastSettledAt < QUIET_MS) return 'again';
  if (!(await repairCounters(projectId, campaign, tally))) return 'again';
  await completeIfSettled(projectId, campaignId);
  return (await readCampaign(projectId, campaignId)).status === 'SENDING' ? 'again' : 'done';
}

/**
 * Counts the campaign's emails: their ids carry the campaign's start (shared/campaigns/content.ts),
 * so they are one key range of the project's partition. Stops at the first email not yet settled
 * (undefined): while the campaign drains, a check reads about one page.
 */
export async function tallyEmails(projectId: string, campaign: Pick<StoredCampaign, 'id' | 'sentAt'>): Promise<EmailTally | undefined> {
  const started = Date.parse(campaign.sentAt!);
  const { low, high } = emailSortKeyBounds(started, started);
  const tally: EmailTally = { emails: 0, settled: 0, sent: 0, failed: 0, suppressed: 0, cancelled: 0, lastSettledAt: 0 };
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await documentClient.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'PK = :pk AND SK BETWEEN :low AND :high',
        FilterExpression: '#source.#id = :campaignId',
        ProjectionExpression: '#status, sentAt, updatedAt',
        ExpressionAttributeNames: { '#status': 'status', '#source': 'source', '#id': 'id' },
        ExpressionAttributeValues: { ':pk': emailKeys.partition(projectId), ':low': low, ':high': high, ':campaignId': campaign.id },
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of page.Items ?? []) {
      const status = item.status as EmailStatus;
      if (unsettled.has(status)) return undefined;
      tally.emails++;
      tally.settled++;
      if (item.sentAt) tally.sent++;
      const metric = settledMetric[status];
      if (metric) tally[metric]++;
      const settledAt = Date.parse(String(item.sentAt ?? item.updatedAt));
      if (settledAt > tally.lastSettledAt) tally.lastSettledAt = settledAt;
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return tally;
}

/**
 * Raises the completion counters to what the emails show (never lowers one: a counter above them
 * is left as it is), and records the audience size if the fan-out's record of it was lost.
 * Conditioned on `settled` as read, so an add that lands meanwhile is not overwritten (false: check again).
 */
async function repairCounters(projectId: string, campaign: StoredCampaign, tally: EmailTally): Promise<boolean> {
  const key = statsKeys.source(projectId, 'campaign', campaign.id);
  const { Attributes: current = {} } = await documentClient.send(
    new UpdateCommand({ TableName: tableName, Key: key, UpdateExpression: 'SET recipients = if_not_exists(recipients, :recipients)', ExpressionAttributeValues: { ':recipients': campaign.totalRecipients }, ReturnValues: 'ALL_NEW' }),
  );
  const counts = { settled: tally.settled, sent: tally.sent, failed: tally.failed, suppressed: tally.suppressed, cancelled: tally.cancelled };
  const missing = Object.entries(counts).filter(([name, value]) => ((current[name] as number | undefined) ?? 0) < value);
  if (missing.length === 0) return true;
  logger.warn('Campaign counters were behind its emails; repaired', {
    projectId,
    campaignId: campaign.id,
    repaired: Object.fromEntries(missing.map(([name, value]) => [name, { counted: (current[name] as number | undefined) ?? 0, emails: value }])),
  });
  // False when counted meanwhile: the next check reads again.
  return updateIfStill({
    TableName: tableName,
    Key: key,
    UpdateExpression: `SET ${missing.map(([name]) => `#${name} = :${name}`).join(', ')}`,
    ConditionExpression: current.settled === undefined ? 'attribute_not_exists(settled)' : 'settled = :seen',
    ExpressionAttributeNames: Object.fromEntries(missing.map(([name]) => [`#${name}`, name])),
    ExpressionAttributeValues: { ...Object.fromEntries(missing.map(([name, value]) => [`:${name}`, value])), ...(current.settled === undefined ? {} : { ':seen': current.settled }) },
  });
}
