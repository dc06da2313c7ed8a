import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { conflict, notFound } from '../http/errors';
import { ULID_PATTERN } from '../http/ids';
import { ulid } from 'ulid';
import { documentClient } from '../aws/clients';
import { integerEnv, optionalEnv } from '../config/env';
import { variables } from '../config/variables';
import { tableName } from '../db/table';
import { writeOnce } from '../db/transactions';
import { decodeCursor, pageOf } from '../http/cursor';
import { logger } from '../observability/logger';
import { postJson, signPayload } from '../outbound/outbound';
import { queueDeliveries, requeue, toDelivery, webhookId, WEBHOOK_ID_PREFIX, type DeliveryMessage, type DeliveryStatus, type WebhookDelivery } from './delivery-queue';
import { disableEndpoint, getEndpoint, loadDeliveryTarget, markFailing, markHealthy } from './endpoints';
import type { WebhookEvent } from './events';
import { TEST_KIND } from './kinds';
import { webhookKeys } from './keys';
import { nextRetryDelaySeconds, parseRetrySchedule } from './schedule';
import type { ListDeliveriesQuery } from './schemas';
import { acquireSlot } from './slots';

const retrySchedule = parseRetrySchedule(optionalEnv(variables.webhookRetrySchedule));

/** A 2xx within this is a success. */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** An endpoint whose every delivery failed for this long is disabled (a deploy setting, a day unless set). */
export const DISABLE_AFTER_SECONDS = integerEnv(variables.webhookDisableAfterSeconds, 86_400);

/** POST /webhooks/{id}/test: a `webhook.test` event to this endpoint only, whatever it subscribed to. */
export async function sendTestEvent(projectId: string, endpointId: string): Promise<WebhookDelivery> {
  const endpoint = await getEndpoint(projectId, endpointId);
  const now = new Date();
  const event: WebhookEvent = {
    id: ulid(now.getTime()),
    type: TEST_KIND,
    timestamp: now.toISOString(),
    data: { webhookId: endpoint.id, url: endpoint.url, message: 'A test event from Mailwright' },
  };
  const [delivery] = await queueDeliveries(projectId, event, [endpoint.id], { test: true, now });
  return delivery!;
}

/**
 * POST /webhooks/{id}/deliveries/{deliveryId}/replay: the same message once more (the same
 * `webhook-id`, a fresh timestamp and signature), as one more attempt of that delivery in its log.
 * The delivery turns pending with `replay` set: its next attempt is made at once and, if it fails,
 * ends the delivery instead of starting the retries again. A client that retries the request
 * before that attempt (after a 503) queues it again, which is harmless: the attempt count is
 * written conditionally and receivers deduplicate by `webhook-id`.
 */
export async function replayDelivery(projectId: string, endpointId: string, deliveryParameter: string, now = new Date()): Promise<WebhookDelivery> {
  const endpoint = await getEndpoint(projectId, endpointId);
  const deliveryId = deliveryParameter.startsWith(WEBHOOK_ID_PREFIX) ? deliveryParameter.slice(WEBHOOK_ID_PREFIX.length) : deliveryParameter;
  if (!ULID_PATTERN.test(deliveryId)) throw notFound('Webhook delivery');
  const key = webhookKeys.delivery(projectId, endpointId, deliveryId);
  const { Item: item } = await documentClient.send(new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }));
  if (!item) throw notFound('Webhook delivery');
  if (!endpoint.enabled) throw conflict('WEBHOOK_DISABLED', 'The endpoint is disabled; enable it (PATCH with enabled: true) before replaying its deliveries');
  const message: DeliveryMessage = { projectId, endpointId, deliveryId };
  if (item.status === 'pending') {
    if (item.replay !== true) throw conflict('DELIVERY_PENDING', 'The delivery is still being attempted; it can be replayed once it has been delivered or has failed');
    await requeue(message, 0);
    return toDelivery(item);
  }
  const nextAttemptAt = now.toISOString();
  const marked = await writeOnce([
    {
      Update: {
        TableName: tableName,
        Key: key,
        UpdateExpression: 'SET #status = :pending, #replay = :true, #nextAttemptAt = :now',
        ConditionExpression: '#status = :status AND #attempts = :attempts',
        ExpressionAttributeNames: { '#status': 'status', '#replay': 'replay', '#nextAttemptAt': 'nextAttemptAt', '#attempts': 'attempts' },
        ExpressionAttributeValues: { ':pending': 'pending', ':true': true, ':now': nextAttemptAt, ':status': item.status, ':attempts': item.attempts },
      },
    },
  ]);
  if (!marked) throw conflict('CONCURRENT_MODIFICATION', 'The delivery changed concurrently; retry the request');
  await requeue(message, 0);
  return toDelivery({ ...item, status: 'pending', nextAttemptAt });
}

/**
 * One attempt of a delivery (the webhook-delivery consumer): a delivery no longer pending is
 * done; one not yet due waits on in the queue; an endpoint that is gone or disabled fails it;
 * a busy endpoint (every concurrency slot held) sends it back for a few seconds. Otherwise the
 * signed POST is made and its outcome recorded, conditionally on the attempt count, so of two
 * copies of a message only one goes on; a failure is retried after the schedule's next wait.
 */
export async function attemptDelivery(message: DeliveryMessage, now = new Date()): Promise<void> {
  const { projectId, endpointId, deliveryId } = message;
  const { Item: item } = await documentClient.send(new GetCommand({ TableName: tableName, Key: webhookKeys.delivery(projectId, endpointId, deliveryId), ConsistentRead: true }));
  if (!item || item.status !== 'pending') return;
  const dueInMs = Date.parse(item.nextAttemptAt as string) - now.getTime();
  if (dueInMs > 1000) return requeue(message, dueInMs / 1000);

  const test = item.test === true;
  const target = await loadDeliveryTarget(projectId, endpointId, now);
  if (!target || (!target.endpoint.enabled && !test)) {
    const reason = target ? `The endpoint is disabled${target.endpoint.disabledReason ? `: ${target.endpoint.disabledReason}` : ''}` : 'The endpoint was deleted';
    await recordOutcome(message, item, { status: 'failed', lastError: reason, now, attempted: false });
    return;
  }

  const slot = await acquireSlot(projectId, endpointId, DELIVERY_TIMEOUT_MS + 5_000, now.getTime());
  if (!slot) return requeue(message, 1 + Math.random() * 4);
  let result;
  try {
    const headers = signPayload({ secrets: target.secrets, id: webhookId(deliveryId), timestamp: new Date(), body: item.body as string });
    result = await postJson({ url: target.endpoint.url, headers, body: item.body as string, timeoutMs: DELIVERY_TIMEOUT_MS });
  } finally {
    await slot.release();
  }
  const attempts = (item.attempts as number) + 1;
  const finished = new Date();

  if (result.status >= 200 && result.status < 300) {
    const recorded = await recordOutcome(message, item, { status: 'delivered', lastStatusCode: result.status, now: finished, attempted: true });
    if (recorded && !test && target.endpoint.failingSince) await markHealthy(projectId, endpointId);
    return;
  }

  // A replay is one attempt: its failure ends the delivery again.
  const delay = item.replay === true ? undefined : nextRetryDelaySeconds(retrySchedule, attempts);
  const recorded = await recordOutcome(message, item, {
    status: delay === undefined ? 'failed' : 'pending',
    lastStatusCode: result.status || undefined,
    lastError: result.error ?? `HTTP ${result.status}`,
    nextAttemptAt: delay === undefined ? undefined : new Date(finished.getTime() + delay * 1000),
    now: finished,
    attempted: true,
  });
  if (!recorded) return;
  if (!test) {
    const failingSince = await markFailing(projectId, endpointId, finished);
    if (finished.getTime() - Date.parse(failingSince) >= DISABLE_AFTER_SECONDS * 1000) {
      const reason = `Every delivery failed for ${describeSeconds(DISABLE_AFTER_SECONDS)} (since ${failingSince}); the last: ${result.error ?? `HTTP ${result.status}`}`;
      if (await disableEndpoint(target.endpoint, projectId, failingSince, reason, finished)) logger.warn('Webhook endpoint disabled', { projectId, endpointId, failingSince });
    }
  }
  if (delay !== undefined) await requeue(message, delay);
}

/** "1 day", "36 hours", "90 seconds": the disabling period as its reason says it. */
export function describeSeconds(seconds: number): string {
  const [amount, unit] = seconds % 86_400 === 0 ? [seconds / 86_400, 'day'] : seconds % 3600 === 0 ? [seconds / 3600, 'hour'] : seconds % 60 === 0 ? [seconds / 60, 'minute'] : [seconds, 'second'];
  return `${amount} ${unit}${amount === 1 ? '' : 's'}`;
}

interface Outcome {
  status: DeliveryStatus;
  lastStatusCode?: number;
  lastError?: string;
  nextAttemptAt?: Date;
  now: Date;
  /** Whether a POST was made (it counts as an attempt). */
  attempted: boolean;
}

/** Records an attempt's outcome if nobody recorded another since this one read the delivery. */
async function recordOutcome(message: DeliveryMessage, item: Record<string, unknown>, outcome: Outcome): Promise<boolean> {
  const set: string[] = ['#status = :status', '#attempts = :attempts'];
  const remove: string[] = [];
  const names: Record<string, string> = { '#status': 'status', '#attempts': 'attempts', '#replay': 'replay' };
  const values: Record<string, unknown> = {
    ':status': outcome.status,
    ':attempts': (item.attempts as number) + (outcome.attempted ? 1 : 0),
    ':previous': item.attempts,
    ':pending': 'pending',
  };
  const field = (name: string, value: unknown) => {
    names[`#${name}`] = name;
    if (value === undefined) remove.push(`#${name}`);
    else {
      values[`:${name}`] = value;
      set.push(`#${name} = :${name}`);
    }
  };
  field('lastStatusCode', outcome.lastStatusCode);
  field('lastError', outcome.lastError);
  field('nextAttemptAt', outcome.nextAttemptAt?.toISOString());
  if (outcome.attempted) field('lastAttemptAt', outcome.now.toISOString());
  if (outcome.status === 'delivered') field('deliveredAt', outcome.now.toISOString());
  remove.push('#replay');
  return writeOnce([
    {
      Update: {
        TableName: tableName,
        Key: webhookKeys.delivery(message.projectId, message.endpointId, message.deliveryId),
        UpdateExpression: `SET ${set.join(', ')}${remove.length ? ` REMOVE ${remove.join(', ')}` : ''}`,
        ConditionExpression: '#status = :pending AND #attempts = :previous',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      },
    },
  ]);
}

/** GET /webhooks/{id}/deliveries: newest first, one Query per page. */
export async function listDeliveries(projectId: string, endpointId: string, query: ListDeliveriesQuery) {
  await getEndpoint(projectId, endpointId);
  const partition = webhookKeys.endpointPartition(projectId, endpointId);
  const binding = JSON.stringify(['webhook-deliveries', projectId, endpointId]);
  const startKey = query.cursor ? decodeCursor(query.cursor, binding, { PK: partition }, ['SK']) : undefined;
  const result = await documentClient.send(
    new QueryCommand({
      TableName: tableName,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': partition, ':prefix': webhookKeys.deliveryPrefix },
      ScanIndexForward: false,
      Limit: query.limit + 1,
      ExclusiveStartKey: startKey,
    }),
  );
  const { page, hasMore, nextCursor } = pageOf(result, query.limit, ['PK', 'SK'], binding);
  return { items: page.map(toDelivery), nextCursor, hasMore };
}
