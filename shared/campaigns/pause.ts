import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../aws/clients';
import { tableName } from '../db/table';
import { transactWrite } from '../db/transactions';
import { notificationWriteItem } from '../notifications/notifications';
import { logger } from '../observability/logger';
import { countMetric, metricNames } from '../observability/metrics';
import { guardThresholdsFrom, pauseReasonFor } from './guard';
import { campaignKeys } from './keys';
import { readGuardCounters } from './progress';
import { fromItem, present, transitionItems } from './store';

/** Configuration, read once at cold start: the CDK context values pause* as PAUSE_* variables (defaults when unset). */
const thresholds = guardThresholdsFrom((setting) => process.env[setting.env], 'env');

/**
 * The deliverability guard, run after a bounce or complaint of the campaign's mail was counted:
 * a SENDING campaign whose rates passed the thresholds goes PAUSED, with its reason and a
 * `campaign.paused` notification in one transaction conditioned on the status and version read —
 * of concurrent checks one pauses, and a redelivery finds it PAUSED; the notification's id
 * derives from campaign and version. From then on the sender parks the campaign's mail and the
 * fan-out stops. Returns whether this call paused it.
 */
export async function pauseIfUndeliverable(projectId: string, campaignId: string, now = new Date()): Promise<boolean> {
  const { Item } = await documentClient.send(new GetCommand({ TableName: tableName, Key: campaignKeys.campaign(projectId, campaignId), ConsistentRead: true }));
  if (!Item || Item.status !== 'SENDING') return false;
  const campaign = fromItem(Item);
  const reason = pauseReasonFor(await readGuardCounters(projectId, campaignId), campaign.guardBaseline, thresholds);
  if (!reason) return false;
  const pausedAt = now.toISOString();
  const paused = present({ ...campaign, status: 'PAUSED', pausedAt, pauseReason: reason, updatedAt: pausedAt });
  try {
    await transactWrite([
      ...transitionItems(projectId, { campaign, action: 'pause', set: { pausedAt, pauseReason: reason } }, pausedAt),
      notificationWriteItem(projectId, 'campaign.paused', { ...paused }, `${campaignId}#${campaign.version}`, now),
    ]);
  } catch (error) {
    const reasons = (error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
    if (reasons.some((item) => item.Code === 'ConditionalCheckFailed')) return false;
    throw error;
  }
  countMetric(metricNames.campaignsPaused);
  logger.warn('Campaign paused by the deliverability guard', { projectId, campaignId, reason });
  return true;
}
