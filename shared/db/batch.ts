import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
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
