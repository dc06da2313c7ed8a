import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../aws/clients';
import { tableName } from '../db/table';
import { campaignKeys } from './keys';
import { queuedMailFates, type CampaignStatus, type QueuedMailFate } from './status';

/** What the sender does with a queued email of this campaign: one consistent read of its status. */
export async function queuedMailFate(projectId: string, campaignId: string): Promise<QueuedMailFate> {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: tableName, Key: campaignKeys.campaign(projectId, campaignId), ConsistentRead: true, ProjectionExpression: '#status', ExpressionAttributeNames: { '#status': 'status' } }),
  );
  return Item ? queuedMailFates[Item.status as CampaignStatus] : 'cancel';
}

/** How long the status read for the sender's early look is reused for the campaign's other mail. */
const RECENT_FATE_MS = 1_000;
/** Each read is kept from when it is sent: the records of a batch that look while it is in flight share it. */
const recentFates = new Map<string, { fate: Promise<QueuedMailFate>; readAt: number }>();

/**
 * The fate as read at most a second ago in this instance: the sender's early look, right after its
 * claim, so that the mail of a cancelled or paused campaign takes no pacer slots and no contact or
 * suppression reads (a large cancelled campaign settles at DynamoDB's pace, not the send rate)
 * without a status read per email — the records of a batch, which look at once, share one read.
 * Only a hint: what is done with the email is decided on a fresh read (queuedMailFate).
 */
export function recentQueuedMailFate(projectId: string, campaignId: string, now = Date.now()): Promise<QueuedMailFate> {
  const key = `${projectId}#${campaignId}`;
  const recent = recentFates.get(key);
  if (recent && now - recent.readAt < RECENT_FATE_MS) return recent.fate;
  const fate = queuedMailFate(projectId, campaignId);
  if (recentFates.size > 1_000) recentFates.clear();
  recentFates.set(key, { fate, readAt: now });
  // A failed read is not reused: the next look reads again.
  fate.catch(() => recentFates.get(key)?.fate === fate && recentFates.delete(key));
  return fate;
}

/** For tests: forget the statuses read. */
export const resetRecentFates = () => recentFates.clear();
