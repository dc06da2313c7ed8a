import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import { documentClient } from '../aws/clients';
import { tableName } from '../db/table';
import { transactWrite, writeOnce } from '../db/transactions';
import { conflict, notFound } from '../http/errors';
import { assertPublicDestination } from '../outbound/outbound';
import { notificationWriteItem } from '../notifications/notifications';
import { DISABLED_KIND } from './kinds';
import { webhookKeys } from './keys';
import { indexWrite, MAX_ENDPOINTS_PER_PROJECT } from './subscriptions';
import type { CreateWebhookInput, PatchWebhookInput } from './schemas';
import { decryptSecret, encryptSecret, generateSecret } from './secrets';
import { ULID_PATTERN } from '../http/ids';

/** A project's webhook endpoint as the API shows it (never with its secret, except below). */
export interface WebhookEndpoint {
  id: string;
  url: string;
  events: string[];
  description: string | null;
  enabled: boolean;
  /** `enabled` as a state: DISABLED by its owners or by the service (then with `disabledReason`). */
  status: 'ENABLED' | 'DISABLED';
  /** Why the service disabled it (every delivery failing for the deploy's period), or null. */
  disabledReason: string | null;
  /** Since when every delivery has failed, or null when the last one succeeded. */
  failingSince: string | null;
  createdAt: string;
  updatedAt: string;
}

/** The create and rotate answers: the only times the plain secret is shown. */
export type WebhookEndpointWithSecret = WebhookEndpoint & { secret: string };

/** How long a rotated-out secret keeps signing beside the new one. */
export const ROTATION_OVERLAP_MS = 24 * 3600 * 1000;

/** The ciphertext of an endpoint's secret is bound to the endpoint. */
const secretBinding = (projectId: string, endpointId: string) => `${projectId}/${endpointId}`;

const cancelledBy = (error: unknown, index: number) =>
  ((error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [])[index]?.Code === 'ConditionalCheckFailed';

/** POST /webhooks: checks the URL (SSRF rules), stores the endpoint and its encrypted secret. */
export async function createEndpoint(projectId: string, input: CreateWebhookInput): Promise<WebhookEndpointWithSecret> {
  await assertPublicDestination(input.url);
  const id = ulid();
  const secret = generateSecret();
  const now = new Date().toISOString();
  const endpoint: WebhookEndpoint = {
    id,
    url: input.url,
    events: input.events,
    description: input.description ?? null,
    enabled: true,
    status: 'ENABLED',
    disabledReason: null,
    failingSince: null,
    createdAt: now,
    updatedAt: now,
  };
  try {
    await transactWrite([
      {
        Put: {
          TableName: tableName,
          Item: { ...webhookKeys.endpoint(projectId, id), ...toItem(endpoint), secret: encryptSecret(secret, secretBinding(projectId, id)) },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
      indexWrite(projectId, id, endpoint.events, 1),
    ]);
  } catch (error) {
    if (cancelledBy(error, 1)) throw conflict('WEBHOOK_LIMIT_REACHED', `A project has at most ${MAX_ENDPOINTS_PER_PROJECT} webhook endpoints; delete one first`);
    throw error;
  }
  return { ...endpoint, secret };
}

async function readEndpointItem(projectId: string, endpointId: string): Promise<Record<string, unknown> | undefined> {
  if (!ULID_PATTERN.test(endpointId)) return undefined;
  const { Item } = await documentClient.send(new GetCommand({ TableName: tableName, Key: webhookKeys.endpoint(projectId, endpointId), ConsistentRead: true }));
  return Item;
}

export async function getEndpoint(projectId: string, endpointId: string): Promise<WebhookEndpoint> {
  const item = await readEndpointItem(projectId, endpointId);
  if (!item) throw notFound('Webhook');
  return toEndpoint(item);
}

/** GET /webhooks: at most MAX_ENDPOINTS_PER_PROJECT, so one Query. */
export async function listEndpoints(projectId: string): Promise<WebhookEndpoint[]> {
  const { Items = [] } = await documentClient.send(
    new QueryCommand({
      TableName: tableName,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': webhookKeys.index(projectId).PK, ':prefix': webhookKeys.endpointPrefix },
    }),
  );
  return Items.map(toEndpoint);
}

/**
 * PATCH /webhooks/{id}: url (checked again), events, description, enabled. Enabling clears the
 * reason it was disabled and its failing streak.
 */
export async function patchEndpoint(projectId: string, endpointId: string, patch: PatchWebhookInput): Promise<WebhookEndpoint> {
  const current = await getEndpoint(projectId, endpointId);
  if (patch.url !== undefined && patch.url !== current.url) await assertPublicDestination(patch.url);
  const next: WebhookEndpoint = {
    ...current,
    ...(patch.url !== undefined ? { url: patch.url } : {}),
    ...(patch.events !== undefined ? { events: patch.events } : {}),
    ...(patch.description !== undefined ? { description: patch.description || null } : {}),
    ...(patch.enabled !== undefined ? { enabled: patch.enabled, status: patch.enabled ? 'ENABLED' : 'DISABLED' } : {}),
    updatedAt: new Date().toISOString(),
  };
  const reenabled = next.enabled && !current.enabled;
  if (reenabled) Object.assign(next, { disabledReason: null, failingSince: null });
  try {
    await transactWrite([
      {
        Update: {
          TableName: tableName,
          Key: webhookKeys.endpoint(projectId, endpointId),
          UpdateExpression: `SET #url = :url, #events = :events, #description = :description, #enabled = :enabled, #updatedAt = :updatedAt${reenabled ? ' REMOVE #disabledReason, #failingSince' : ''}`,
          ConditionExpression: 'attribute_exists(PK)',
          ExpressionAttributeNames: {
            '#url': 'url',
            '#events': 'events',
            '#description': 'description',
            '#enabled': 'enabled',
            '#updatedAt': 'updatedAt',
            ...(reenabled ? { '#disabledReason': 'disabledReason', '#failingSince': 'failingSince' } : {}),
          },
          ExpressionAttributeValues: { ':url': next.url, ':events': next.events, ':description': next.description, ':enabled': next.enabled, ':updatedAt': next.updatedAt },
        },
      },
      indexWrite(projectId, endpointId, next.enabled ? next.events : null, 0),
    ]);
  } catch (error) {
    if (cancelledBy(error, 0)) throw notFound('Webhook');
    throw error;
  }
  return next;
}

/** DELETE /webhooks/{id}: its pending deliveries end as failed when their turn comes. */
export async function deleteEndpoint(projectId: string, endpointId: string): Promise<void> {
  if (!ULID_PATTERN.test(endpointId)) throw notFound('Webhook');
  try {
    await transactWrite([
      { Delete: { TableName: tableName, Key: webhookKeys.endpoint(projectId, endpointId), ConditionExpression: 'attribute_exists(PK)' } },
      indexWrite(projectId, endpointId, null, -1),
    ]);
  } catch (error) {
    if (cancelledBy(error, 0)) throw notFound('Webhook');
    throw error;
  }
}

/**
 * POST /webhooks/{id}/rotate-secret: a new secret signs from now on; the one it replaces keeps
 * signing beside it for 24 hours (a second rotation within them drops the oldest).
 */
export async function rotateSecret(projectId: string, endpointId: string, now = new Date()): Promise<WebhookEndpointWithSecret> {
  const item = await readEndpointItem(projectId, endpointId);
  if (!item) throw notFound('Webhook');
  const secret = generateSecret();
  const updatedAt = now.toISOString();
  const rotated = await writeOnce([
    {
      Update: {
        TableName: tableName,
        Key: webhookKeys.endpoint(projectId, endpointId),
        UpdateExpression: 'SET #secret = :secret, #previousSecret = :previous, #previousSecretExpiresAt = :expires, #updatedAt = :updatedAt',
        ConditionExpression: '#secret = :current',
        ExpressionAttributeNames: { '#secret': 'secret', '#previousSecret': 'previousSecret', '#previousSecretExpiresAt': 'previousSecretExpiresAt', '#updatedAt': 'updatedAt' },
        ExpressionAttributeValues: {
          ':secret': encryptSecret(secret, secretBinding(projectId, endpointId)),
          ':previous': item.secret,
          ':expires': new Date(now.getTime() + ROTATION_OVERLAP_MS).toISOString(),
          ':updatedAt': updatedAt,
          ':current': item.secret,
        },
      },
    },
  ]);
  if (!rotated) throw conflict('CONCURRENT_MODIFICATION', 'The webhook changed concurrently; retry the request');
  return { ...toEndpoint({ ...item, updatedAt }), secret };
}

/** The endpoint as a delivery needs it: where, whether, and the secrets that sign now. */
export interface DeliveryTarget {
  endpoint: WebhookEndpoint;
  secrets: string[];
}

export async function loadDeliveryTarget(projectId: string, endpointId: string, now = new Date()): Promise<DeliveryTarget | undefined> {
  const item = await readEndpointItem(projectId, endpointId);
  if (!item) return undefined;
  const binding = secretBinding(projectId, endpointId);
  const secrets = [decryptSecret(item.secret as string, binding)];
  if (item.previousSecret && String(item.previousSecretExpiresAt) > now.toISOString()) secrets.push(decryptSecret(item.previousSecret as string, binding));
  return { endpoint: toEndpoint(item), secrets };
}

/** Records a failed delivery: starts the failing streak unless one is running. */
export async function markFailing(projectId: string, endpointId: string, at: Date): Promise<string> {
  try {
    const { Attributes } = await documentClient.send(
      new UpdateCommand({
        TableName: tableName,
        Key: webhookKeys.endpoint(projectId, endpointId),
        UpdateExpression: 'SET #failingSince = if_not_exists(#failingSince, :at)',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeNames: { '#failingSince': 'failingSince' },
        ExpressionAttributeValues: { ':at': at.toISOString() },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return Attributes!.failingSince as string;
  } catch (error) {
    if ((error as Error).name === 'ConditionalCheckFailedException') return at.toISOString();
    throw error;
  }
}

/** A delivery succeeded: the failing streak, if any, ends. */
export async function markHealthy(projectId: string, endpointId: string): Promise<void> {
  await writeOnce([
    {
      Update: {
        TableName: tableName,
        Key: webhookKeys.endpoint(projectId, endpointId),
        UpdateExpression: 'REMOVE #failingSince',
        ConditionExpression: 'attribute_exists(#failingSince)',
        ExpressionAttributeNames: { '#failingSince': 'failingSince' },
      },
    },
  ]);
}

/**
 * Disables an endpoint that has failed since `failingSince`, saying why; only if that streak is
 * still the current one (a success in between ends it) and the endpoint is still enabled. The
 * `webhook.disabled` notification is written in the same transaction: the table's stream carries
 * it to the other endpoints and to the owners' email (shared/webhooks/disabled-notice.ts).
 */
export async function disableEndpoint(endpoint: WebhookEndpoint, projectId: string, failingSince: string, reason: string, at: Date): Promise<boolean> {
  const endpointId = endpoint.id;
  const disabled: WebhookEndpoint = { ...endpoint, enabled: false, status: 'DISABLED', disabledReason: reason, failingSince, updatedAt: at.toISOString() };
  return writeOnce([
    {
      Update: {
        TableName: tableName,
        Key: webhookKeys.endpoint(projectId, endpointId),
        UpdateExpression: 'SET #enabled = :false, #disabledReason = :reason, #updatedAt = :at',
        ConditionExpression: '#enabled = :true AND #failingSince = :since',
        ExpressionAttributeNames: { '#enabled': 'enabled', '#disabledReason': 'disabledReason', '#updatedAt': 'updatedAt', '#failingSince': 'failingSince' },
        ExpressionAttributeValues: { ':false': false, ':true': true, ':reason': reason, ':at': at.toISOString(), ':since': failingSince },
      },
    },
    indexWrite(projectId, endpointId, null, 0),
    notificationWriteItem(projectId, DISABLED_KIND, { ...disabled }, `${endpointId}#${failingSince}`, at),
  ]);
}

function toItem(endpoint: WebhookEndpoint) {
  return {
    endpointId: endpoint.id,
    url: endpoint.url,
    events: endpoint.events,
    description: endpoint.description,
    enabled: endpoint.enabled,
    createdAt: endpoint.createdAt,
    updatedAt: endpoint.updatedAt,
  };
}

export function toEndpoint(item: Record<string, unknown>): WebhookEndpoint {
  return {
    id: item.endpointId as string,
    url: item.url as string,
    events: item.events as string[],
    description: (item.description as string | null | undefined) ?? null,
    enabled: item.enabled as boolean,
    status: item.enabled ? 'ENABLED' : 'DISABLED',
    disabledReason: (item.disabledReason as string | undefined) ?? null,
    failingSince: (item.failingSince as string | undefined) ?? null,
    createdAt: item.createdAt as string,
    updatedAt: item.updatedAt as string,
  };
}
