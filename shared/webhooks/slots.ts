import { randomUUID } from 'node:crypto';
import { DeleteCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../aws/clients';
import { integerEnv } from '../config/env';
import { variables } from '../config/variables';
import { tableName } from '../db/table';
import { writeOnce } from '../db/transactions';
import { webhookKeys } from './keys';

/**
 * The per-endpoint concurrency limit: at most WEBHOOK_ENDPOINT_CONCURRENCY (default 5) POSTs to
 * one endpoint at once, across every function instance. A POST holds one of the endpoint's slot
 * items (a conditional PutItem) and frees it after; a slot whose holder died frees itself when
 * its lease ends. A delivery tries one slot at random, then (held) reads them all once and tries
 * only the free ones; one that finds every slot taken goes back to the queue for a few seconds,
 * so a slow or dead endpoint holds at most this many consumers and delays only itself.
 */
export const ENDPOINT_CONCURRENCY = integerEnv(variables.webhookEndpointConcurrency, 5, { min: 1, max: 100 });

export interface Slot {
  release: () => Promise<void>;
}

export async function acquireSlot(projectId: string, endpointId: string, leaseMs: number, now = Date.now()): Promise<Slot | undefined> {
  const token = randomUUID();
  const take = async (index: number): Promise<Slot | undefined> => {
    const key = webhookKeys.slot(projectId, endpointId, index);
    const taken = await writeOnce([
      {
        Put: {
          TableName: tableName,
          Item: { ...key, token, heldUntil: now + leaseMs, expiresAt: Math.ceil((now + leaseMs) / 1000) + 3600 },
          ConditionExpression: 'attribute_not_exists(PK) OR heldUntil < :now',
          ExpressionAttributeValues: { ':now': now },
        },
      },
    ]);
    if (!taken) return undefined;
    return {
      release: async () => {
        try {
          await documentClient.send(new DeleteCommand({ TableName: tableName, Key: key, ConditionExpression: '#token = :token', ExpressionAttributeNames: { '#token': 'token' }, ExpressionAttributeValues: { ':token': token } }));
        } catch (error) {
          if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
        }
      },
    };
  };
  const first = Math.floor(Math.random() * ENDPOINT_CONCURRENCY);
  const slot = await take(first);
  if (slot) return slot;
  // That one is held: one read of them all, then writes only where a slot is free — a busy
  // endpoint's deliveries do not each spend a write per slot before going back to the queue.
  for (const index of await freeSlots(projectId, endpointId, now)) {
    if (index === first) continue;
    const other = await take(index);
    if (other) return other;
  }
  return undefined;
}

/** The endpoint's slots that nobody holds, from a random one on (one Query of its SLOT# items). */
async function freeSlots(projectId: string, endpointId: string, now: number): Promise<number[]> {
  const { Items = [] } = await documentClient.send(
    new QueryCommand({
      TableName: tableName,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :slot)',
      ExpressionAttributeValues: { ':pk': webhookKeys.endpointPartition(projectId, endpointId), ':slot': webhookKeys.slotPrefix },
      ProjectionExpression: 'SK, heldUntil',
      ConsistentRead: true,
    }),
  );
  const held = new Set(Items.filter((item) => (item.heldUntil as number) >= now).map((item) => item.SK as string));
  const start = Math.floor(Math.random() * ENDPOINT_CONCURRENCY);
  return Array.from({ length: ENDPOINT_CONCURRENCY }, (_, offset) => (start + offset) % ENDPOINT_CONCURRENCY).filter((index) => !held.has(webhookKeys.slot(projectId, endpointId, index).SK));
}
