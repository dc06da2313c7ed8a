import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../aws/clients';
import { addToCounters } from '../db/counters';
import { tableName } from '../db/table';
import { transactWrite } from '../db/transactions';
import { releaseClaimItem, type EmailRecord, type EmailStatus } from '../emails/emails';
import { logger } from '../observability/logger';
import { notificationWriteItem } from '../notifications/notifications';
import { statsKeys } from '../stats/keys';
import type { StatsMetric } from '../stats/stats';
import { variantEngagementAdds } from './ab-test-model';
import { campaignKeys } from './keys';
import type { GuardCounters } from './guard';
import { fromItem, present, transitionItems } from './store';

/**
 * How a campaign's send comes to an end, from counters only (no scans). Beside the delivery
 * metrics of shared/stats, a campaign's stats item holds:
 * - `recipients`: the frozen audience size, set when the fan-out has read the whole audience;
 * - `settled`: emails that reached a final state in the sender (SENT, FAILED, SUPPRESSED,
 *   CANCELLED) — counted once per email, where its final status is written;
 * - `suppressed`, `cancelled`, `uniqueOpened`, `uniqueClicked`, `unsubscribed`.
 * The campaign is SENT once `settled` reaches `recipients`.
 */
const campaignStats = (projectId: string, campaignId: string) => statsKeys.source(projectId, 'campaign', campaignId);

/**
 * Holds back a claimed email of a PAUSED campaign without losing it, in one transaction: the
 * campaign is checked to be PAUSED, the email goes back to QUEUED (its claim released) and a marker
 * is put in the campaign's parked partition, where the resume (or a cancel) finds it and queues it
 * again; the sender then deletes its message. Parked mail is not settled. `not-paused`: the
 * campaign was resumed or cancelled meanwhile (its new status decides); `not-claimed`: the email
 * is no longer this claim's (someone else has it), nothing to do.
 */
export async function parkCampaignEmail(email: Pick<EmailRecord, 'projectId' | 'id' | 'source'>, now = new Date()): Promise<'parked' | 'not-paused' | 'not-claimed'> {
  const campaignId = email.source.id!;
  try {
    await transactWrite([
      {
        ConditionCheck: {
          TableName: tableName,
          Key: campaignKeys.campaign(email.projectId, campaignId),
          ConditionExpression: '#status = :paused',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':paused': 'PAUSED' },
        },
      },
      releaseClaimItem(email.projectId, email.id),
      { Put: { TableName: tableName, Item: { ...campaignKeys.parked(email.projectId, campaignId, email.id), emailId: email.id, parkedAt: now.toISOString() } } },
    ]);
    return 'parked';
  } catch (error) {
    const [campaign, claim] = (error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
    if (campaign?.Code === 'ConditionalCheckFailed') return 'not-paused';
    if (claim?.Code === 'ConditionalCheckFailed') return 'not-claimed';
    throw error;
  }
}

/** The counters the deliverability guard reads (one consistent GetItem of the campaign's stats item). */
export async function readGuardCounters(projectId: string, campaignId: string): Promise<GuardCounters> {
  const { Item } = await documentClient.send(
    new GetCommand({
      TableName: tableName,
      Key: campaignStats(projectId, campaignId),
      ConsistentRead: true,
      ProjectionExpression: 'sent, bounced, complained',
    }),
  );
  return { sent: (Item?.sent as number | undefined) ?? 0, bounced: (Item?.bounced as number | undefined) ?? 0, complained: (Item?.complained as number | undefined) ?? 0 };
}

const settledMetric: Partial<Record<EmailStatus, string>> = { FAILED: 'failed', SUPPRESSED: 'suppressed', CANCELLED: 'cancelled' };

/**
 * Counts a recorded outcome of a campaign email on its campaign's stats item, in one ADD: its
 * delivery metrics and, when it settles the email, `settled` and the final status (a sent email's
 * `sent` is its metric); then, after a settling outcome, completes the campaign if it was the last.
 */
export async function countCampaignOutcome(email: Pick<EmailRecord, 'projectId' | 'source'>, metrics: readonly StatsMetric[], settles?: EmailStatus): Promise<void> {
  const campaignId = email.source.id!;
  const adds: Record<string, number> = {};
  const add = (name: string) => (adds[name] = (adds[name] ?? 0) + 1);
  metrics.forEach(add);
  if (settles) {
    add('settled');
    const metric = settledMetric[settles];
    if (metric) add(metric);
  }
  if (Object.keys(adds).length > 0) await addToCounters(campaignStats(email.projectId, campaignId), adds);
  if (settles) await completeIfSettled(email.projectId, campaignId);
}

/**
 * SENDING → SENT with `campaign.sent`, once every recipient's email is settled. Two finishers
 * may both see the last count: the conditional transition lets one through.
 */
export async function completeIfSettled(projectId: string, campaignId: string): Promise<void> {
  const { Item: stats } = await documentClient.send(new GetCommand({ TableName: tableName, Key: campaignStats(projectId, campaignId), ConsistentRead: true }));
  const recipients = stats?.recipients as number | undefined;
  if (recipients === undefined || ((stats?.settled as number | undefined) ?? 0) < recipients) return;
  const { Item } = await documentClient.send(new GetCommand({ TableName: tableName, Key: campaignKeys.campaign(projectId, campaignId), ConsistentRead: true }));
  if (!Item || Item.status !== 'SENDING') return;
  const campaign = fromItem(Item);
  const now = new Date().toISOString();
  const sent = present({ ...campaign, status: 'SENT', updatedAt: now, totalRecipients: recipients });
  try {
    await transactWrite([
      ...transitionItems(projectId, { campaign, action: 'complete', set: { totalRecipients: recipients } }, now),
      notificationWriteItem(projectId, 'campaign.sent', { ...sent }, campaignId),
    ]);
    logger.info('Campaign sent', { projectId, campaignId, recipients });
  } catch (error) {
    const reasons = (error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
    if (!reasons.some((reason) => reason.Code === 'ConditionalCheckFailed')) throw error;
  }
}

/** Records the audience size when the fan-out has read it all (the same number on a repeat). */
export async function recordRecipients(projectId: string, campaignId: string, recipients: number): Promise<void> {
  await documentClient.send(
    new UpdateCommand({ TableName: tableName, Key: campaignStats(projectId, campaignId), UpdateExpression: 'SET recipients = :recipients', ExpressionAttributeValues: { ':recipients': recipients } }),
  );
}

/** Engagement items live as long as a campaign's stats are worth reading. */
const ENGAGEMENT_TTL_SECONDS = 400 * 24 * 3600;

/**
 * Opens and clicks of campaign mail: the totals are the delivery metrics (`opened`, `clicked`);
 * the first open (click) of each contact also counts `uniqueOpened` (`uniqueClicked`), decided
 * by a conditional put of the contact's engagement item, and on an A/B sample email its variant's.
 */
export async function countCampaignEngagement(email: Pick<EmailRecord, 'projectId' | 'source' | 'contactId' | 'abVariant'>, kind: 'opened' | 'clicked'): Promise<void> {
  const campaignId = email.source.id!;
  try {
    await documentClient.send(
      new PutCommand({
        TableName: tableName,
        Item: { ...campaignKeys.engagement(email.projectId, campaignId, kind, email.contactId), expiresAt: Math.floor(Date.now() / 1000) + ENGAGEMENT_TTL_SECONDS },
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    );
  } catch (error) {
    if ((error as Error).name === 'ConditionalCheckFailedException') return;
    throw error;
  }
  await addToCounters(campaignStats(email.projectId, campaignId), { [kind === 'opened' ? 'uniqueOpened' : 'uniqueClicked']: 1, ...variantEngagementAdds(email, kind) });
}

/** A contact unsubscribed through a link in this campaign's mail. */
export async function countCampaignUnsubscribe(projectId: string, campaignId: string): Promise<void> {
  await addToCounters(campaignStats(projectId, campaignId), { unsubscribed: 1 });
}
