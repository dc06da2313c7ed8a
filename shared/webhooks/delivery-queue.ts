import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../aws/clients';
import { requiredEnv } from '../config/env';
import { variables } from '../config/variables';
import { tableName } from '../db/table';
import { derivedUlid } from '../events/events';
import { sqsClient } from '../queue/handler';
import { sendMessageBatches } from '../queue/send-batches';
import type { WebhookEvent } from './events';
import { webhookKeys } from './keys';

const deliveryQueueUrl = requiredEnv(variables.webhookDeliveryQueueUrl);

/** Delivery log entries are kept this long (TTL). */
const RETENTION_SECONDS = 30 * 24 * 3600;
/** SQS delays a message at most 15 minutes; longer waits are made of several such hops. */
const MAX_QUEUE_DELAY_SECONDS = 900;

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

/** One event for one endpoint, as GET /webhooks/{id}/deliveries shows it. */
export interface WebhookDelivery {
  /** The `webhook-id` header of every attempt. */
  id: string;
  eventId: string;
  type: string;
  status: DeliveryStatus;
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  lastAttemptAt: string | null;
  nextAttemptAt: string | null;
  deliveredAt: string | null;
  createdAt: string;
}

export interface DeliveryMessage {
  projectId: string;
  endpointId: string;
  deliveryId: string;
}

/** A delivery's `webhook-id` (and its id in the API): this prefix and the delivery's ULID. */
export const WEBHOOK_ID_PREFIX = 'msg_';
export const webhookId = (deliveryId: string) => `${WEBHOOK_ID_PREFIX}${deliveryId}`;

/**
 * Writes one delivery per endpoint for an event and queues it. Delivery ids derive from the event
 * and the endpoint, so a repeated call writes nothing new; it queues again only deliveries never
 * attempted (the first call may have died between the write and the queueing).
 */
export async function queueDeliveries(projectId: string, event: WebhookEvent, endpointIds: string[], options: { test?: boolean; now?: Date } = {}): Promise<WebhookDelivery[]> {
  const now = options.now ?? new Date();
  const eventTime = Date.parse(event.timestamp);
  const body = JSON.stringify({ type: event.type, timestamp: event.timestamp, data: event.data });
  const messages: DeliveryMessage[] = [];
  const deliveries: WebhookDelivery[] = [];
  for (const endpointId of endpointIds) {
    const deliveryId = derivedUlid(Number.isFinite(eventTime) ? eventTime : now.getTime(), `${event.id}#${endpointId}`);
    const delivery: WebhookDelivery = {
      id: webhookId(deliveryId),
      eventId: event.id,
      type: event.type,
      status: 'pending',
      attempts: 0,
      lastStatusCode: null,
      lastError: null,
      lastAttemptAt: null,
      nextAttemptAt: now.toISOString(),
      deliveredAt: null,
      createdAt: now.toISOString(),
    };
    try {
      await documentClient.send(
        new PutCommand({
          TableName: tableName,
          Item: {
            ...webhookKeys.delivery(projectId, endpointId, deliveryId),
            deliveryId,
            endpointId,
            eventId: event.id,
            type: event.type,
            body,
            status: delivery.status,
            attempts: 0,
            nextAttemptAt: delivery.nextAttemptAt,
            createdAt: delivery.createdAt,
            ...(options.test ? { test: true } : {}),
            expiresAt: Math.floor(now.getTime() / 1000) + RETENTION_SECONDS,
          },
          ConditionExpression: 'attribute_not_exists(PK)',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
    } catch (error) {
      if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
      // The document client does not unmarshall the item of a failed condition: it is in DynamoDB's wire format.
      const wire = (error as { Item?: Record<string, AttributeValue> }).Item;
      const existing = wire ? unmarshall(wire) : undefined;
      if (existing && (existing.attempts !== 0 || existing.status !== 'pending')) continue;
    }
    messages.push({ projectId, endpointId, deliveryId });
    deliveries.push(delivery);
  }
  await sendMessageBatches(deliveryQueueUrl, messages.map((message) => JSON.stringify(message)));
  return deliveries;
}

/** The message again, after `seconds` (at most one SQS delay; the next receipt waits on if needed). */
export async function requeue(message: DeliveryMessage, seconds: number): Promise<void> {
  const DelaySeconds = Math.min(MAX_QUEUE_DELAY_SECONDS, Math.max(0, Math.ceil(seconds)));
  await sqsClient.send(new SendMessageCommand({ QueueUrl: deliveryQueueUrl, MessageBody: JSON.stringify(message), DelaySeconds }));
}

export function toDelivery(item: Record<string, unknown>): WebhookDelivery {
  return {
    id: webhookId(item.deliveryId as string),
    eventId: item.eventId as string,
    type: item.type as string,
    status: item.status as DeliveryStatus,
    attempts: item.attempts as number,
    lastStatusCode: (item.lastStatusCode as number | undefined) ?? null,
    lastError: (item.lastError as string | undefined) ?? null,
    lastAttemptAt: (item.lastAttemptAt as string | undefined) ?? null,
    nextAttemptAt: (item.nextAttemptAt as string | undefined) ?? null,
    deliveredAt: (item.deliveredAt as string | undefined) ?? null,
    createdAt: item.createdAt as string,
  };
}
