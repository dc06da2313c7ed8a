import { BatchGetCommand, BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../aws/clients';
import { tableName } from './table';

/** BatchGetItem's per-request maximum. */
const KEYS_PER_REQUEST = 100;

export interface BatchGetOptions {
  consistentRead?: boolean;
  projection?: string;
  names?: Record<string, string>;
}

/**
 * Every existing item of `keys` (any number), 100 keys per BatchGetItem, retrying the keys
 * DynamoDB left unprocessed with backoff. Order is not kept: callers index the result.
 */
export async function batchGetAll(keys: Record<string, unknown>[], options: BatchGetOptions = {}): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  for (let start = 0; start < keys.length; start += KEYS_PER_REQUEST) {
    let pending: Record<string, unknown>[] | undefined = keys.slice(start, start + KEYS_PER_REQUEST);
    for (let attempt = 0; pending?.length; attempt++) {
      if (attempt > 10) throw new Error(`BatchGetItem left ${pending.length} keys unprocessed`);
      if (attempt) await new Promise((resolve) => setTimeout(resolve, 20 * 2 ** Math.min(attempt, 6)));
      const result = await documentClient.send(
        new BatchGetCommand({
          RequestItems: {
            [tableName]: {
              Keys: pending,
              ...(options.consistentRead ? { ConsistentRead: true } : {}),
              ...(options.projection ? { ProjectionExpression: options.projection } : {}),
              ...(options.names ? { ExpressionAttributeNames: options.names } : {}),
            },
          },
        }),
      );
      items.push(...(result.Responses?.[tableName] ?? []));
      pending = result.UnprocessedKeys?.[tableName]?.Keys as Record<string, unknown>[] | undefined;
    }
  }
  return items;
}

/** BatchWriteItem's per-request maximum. */
const WRITES_PER_REQUEST = 25;

export type WriteRequest = { PutRequest: { Item: Record<string, unknown> } } | { DeleteRequest: { Key: Record<string, unknown> } };

/**
 * Makes every write of `requests`, 25 per BatchWriteItem, the requests of one call at once
 * (callers pass a bounded page: a fan-out page, a page of keys), retrying what DynamoDB left
 * unprocessed with backoff. Plain puts and deletes: no conditions, so only for writes that may be
 * repeated.
 */
export async function batchWriteAll(requests: WriteRequest[]): Promise<void> {
  const chunks: WriteRequest[][] = [];
  for (let start = 0; start < requests.length; start += WRITES_PER_REQUEST) chunks.push(requests.slice(start, start + WRITES_PER_REQUEST));
  await Promise.all(
    chunks.map(async (chunk) => {
      let pending: WriteRequest[] | undefined = chunk;
      for (let attempt = 0; pending?.length; attempt++) {
        if (attempt > 10) throw new Error(`BatchWriteItem left ${pending.length} writes unprocessed`);
        if (attempt) await new Promise((resolve) => setTimeout(resolve, 20 * 2 ** Math.min(attempt, 6)));
        const result = await documentClient.send(new BatchWriteCommand({ RequestItems: { [tableName]: pending } }));
        pending = result.UnprocessedItems?.[tableName] as WriteRequest[] | undefined;
      }
    }),
  );
}
