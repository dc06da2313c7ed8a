import { randomUUID } from 'node:crypto';
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../aws/clients';
import { integerEnv } from '../config/env';
import { tableName } from '../db/table';
import { writeOnce } from '../db/transactions';
import { webhookKeys } from './keys';

/**
 * The per-endpoint concurrency limit: at most WEBHOOK_ENDPOINT_CONCURRENCY (default 5) POSTs to
 * one endpoint at once, across every function instance. A POST holds one of the endpoint's slot
 * items (a conditional PutItem) and frees it after; a slot whose holder died frees itself when
 * its lease ends. A delivery that finds every slot taken goes back to the queue for a few
 * seconds, so a slow or dead endpoint holds at most this many consumers and delays only itself.
 */
export const ENDPOINT_CONCURRENCY = integerEnv('WEBHOOK_ENDPOINT_CONCURRENCY', 5, { min: 1, max: 100 });

export interface Slot {
  release: () => Promise<void>;
}

export async function acquireSlot(projectId: string, endpointId: string, leaseMs: number, now = Date.now()): Promise<Slot | undefined> {
  const token = randomUUID();
  const start = Math.floor(Math.random() * ENDPOINT_CONCURRENCY);
  for (let offset = 0; offset < ENDPOINT_CONCURRENCY; offset++) {
    const key = webhookKeys.slot(projectId, endpointId, (start + offset) % ENDPOINT_CONCURRENCY);
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
    if (!taken) continue;
    return {
      release: async () => {
        try {
          await documentClient.send(new DeleteCommand({ TableName: tableName, Key: key, ConditionExpression: '#token = :token', ExpressionAttributeNames: { '#token': 'token' }, ExpressionAttributeValues: { ':token': token } }));
        } catch (error) {
          if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
        }
      },
    };
  }
  return undefined;
}
