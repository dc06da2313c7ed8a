import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../aws/clients';
import { decodeCursor, pageOf } from '../http/cursor';
import { sortKeyPrefixRange } from './schema';
import { tableName } from './table';
import { transactWrite, type TransactItem } from './transactions';

/**
 * Items of one sort-key prefix in a partition, with the count a counter item keeps beside them
 * (in its `total`): the shape of list routes over jobs, workflows, event names and similar records.
 */
export interface CountedListing {
  partition: string;
  prefix: string;
  counter: { PK: string; SK: string };
}

/**
 * One page: one Query (`limit + 1`) and the counter's GetItem; `binding` ties cursors to the list.
 * Newest first by default (ULID ids); `ascending` pages in sort-key order (names, A to Z).
 */
export async function pageWithTotal(
  listing: CountedListing,
  query: { limit: number; cursor?: string },
  binding: string,
  order: 'newest-first' | 'ascending' = 'newest-first',
) {
  const startKey = query.cursor ? decodeCursor(query.cursor, binding, { PK: listing.partition }, ['SK']) : undefined;
  const [result, counter] = await Promise.all([
    documentClient.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'PK = :pk AND SK BETWEEN :prefixLow AND :prefixHigh',
        ExpressionAttributeValues: { ':pk': listing.partition, ...sortKeyPrefixRange(listing.prefix) },
        ScanIndexForward: order === 'ascending',
        Limit: query.limit + 1,
        ExclusiveStartKey: startKey,
      }),
    ),
    documentClient.send(new GetCommand({ TableName: tableName, Key: listing.counter })),
  ]);
  const { page, hasMore, nextCursor } = pageOf(result, query.limit, ['PK', 'SK'], binding);
  return { items: page, nextCursor, hasMore, total: (counter.Item?.total as number | undefined) ?? 0 };
}

/** Puts a new item of the listing and counts it, in one transaction. */
export async function putCounted(listing: CountedListing, item: Record<string, unknown>): Promise<void> {
  await transactWrite(countedPutItems(listing, item));
}

/** The transaction items of putCounted, to join another change's transaction (both or neither). */
export function countedPutItems(listing: CountedListing, item: Record<string, unknown>): TransactItem[] {
  return [
    { Put: { TableName: tableName, Item: item, ConditionExpression: 'attribute_not_exists(PK)' } },
    {
      Update: {
        TableName: tableName,
        Key: listing.counter,
        UpdateExpression: 'ADD #total :one',
        ExpressionAttributeNames: { '#total': 'total' },
        ExpressionAttributeValues: { ':one': 1 },
      },
    },
  ];
}
