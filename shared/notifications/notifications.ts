import { createHash } from 'node:crypto';
import { tableName } from '../db/table';
import { writeOnce, type TransactItem } from '../db/transactions';
import { projectPartition } from '../projects/keys';

/**
 * A project-level notification: something that happened to a resource other than a contact
 * (`campaign.sent`, `campaign.paused`, `workflow.execution.completed`, …). Contact events are
 * EVENT# items; these are NOTIFICATION# items. Neither is sent anywhere from the request or
 * handler that records it: the table's stream carries both to the outbound webhooks.
 *
 * | item         | PK            | SK                   | TTL (expiresAt) |
 * |--------------|---------------|----------------------|-----------------|
 * | notification | PROJECT#<pid> | NOTIFICATION#<id>    | 7 days          |
 */
export interface Notification {
  id: string;
  /** The webhook event kind, e.g. `campaign.sent`. */
  type: string;
  /** The resource as the API shows it. */
  data: Record<string, unknown>;
  createdAt: string;
}

export const notificationKeys = {
  notification: (projectId: string, notificationId: string) => ({ PK: projectPartition(projectId), SK: `NOTIFICATION#${notificationId}` }),
  prefix: 'NOTIFICATION#',
};

/** The same happening always gets the same id, whenever it is recorded (a redelivery writes later). */
export const notificationId = (type: string, idSeed: string) => createHash('sha256').update(`${type}#${idSeed}`).digest('base64url').slice(0, 27);

/** Kept long enough for the stream to carry them; the webhook deliveries hold their own copy. */
const RETENTION_SECONDS = 7 * 24 * 3600;

/**
 * The write of one notification, to put in the same transaction as the state change it reports.
 * Its id derives from `idSeed` (e.g. `campaign.sent#<campaignId>`), so a redelivered handler
 * writes the same item and the condition refuses it: one notification per happening.
 */
export function notificationWriteItem(projectId: string, type: string, data: Record<string, unknown>, idSeed: string, at = new Date()): TransactItem {
  const notification: Notification = { id: notificationId(type, idSeed), type, data, createdAt: at.toISOString() };
  return {
    Put: {
      TableName: tableName,
      Item: {
        ...notificationKeys.notification(projectId, notification.id),
        ...notification,
        expiresAt: Math.floor(at.getTime() / 1000) + RETENTION_SECONDS,
      },
      ConditionExpression: 'attribute_not_exists(PK)',
    },
  };
}

/**
 * Records a notification on its own. Returns false when one with the same seed was already
 * recorded (a redelivery).
 */
export async function recordNotification(projectId: string, type: string, data: Record<string, unknown>, idSeed: string, at = new Date()): Promise<boolean> {
  return writeOnce([notificationWriteItem(projectId, type, data, idSeed, at)]);
}

export function toNotification(item: Record<string, unknown>): Notification {
  return { id: item.id as string, type: item.type as string, data: (item.data as Record<string, unknown>) ?? {}, createdAt: item.createdAt as string };
}
