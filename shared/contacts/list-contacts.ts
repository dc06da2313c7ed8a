import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../aws/clients';
import { sortKeyPrefixRange } from '../db/schema';
import { tableName } from '../db/table';
import { decodeCursor, pageOf } from '../http/cursor';
import { countContacts, toContact, type Contact } from './contacts';
import { contactKeys } from './keys';

export interface ListContactsQuery {
  limit: number;
  cursor?: string;
  subscribed?: boolean;
  /** An email prefix (`jane`, `jane@exa`) or a whole domain (`@example.com`), lower-cased. */
  search?: string;
}

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
  hasMore: boolean;
  total: number;
}

interface Plan {
  input: Omit<QueryCommandInput, 'TableName' | 'Limit' | 'ExclusiveStartKey'>;
  /** Key attributes of the index, partition first: what a cursor must carry. */
  partitionKey: Record<string, string>;
  sortKeys: string[];
}

/**
 * One Query per page, never a scan: each filter has an index (shared/db/README.md).
 * Newest first without `search`; in email order with it. `subscribed` with `search` is a
 * FilterExpression on the search index, so such a page may come back shorter than `limit`.
 * `total` is the counter of the project's contacts (of the `subscribed` filter when given).
 */
export async function listContacts(projectId: string, query: ListContactsQuery): Promise<Page<Contact>> {
  const plan = planQuery(projectId, query);
  const binding = JSON.stringify([projectId, query.subscribed ?? null, query.search ?? null]);
  const startKey = query.cursor
    ? decodeCursor(query.cursor, binding, plan.partitionKey, ['PK', 'SK', ...plan.sortKeys].filter((name) => !(name in plan.partitionKey)))
    : undefined;

  const [result, counts] = await Promise.all([
    documentClient.send(new QueryCommand({ ...plan.input, TableName: tableName, Limit: query.limit + 1, ExclusiveStartKey: startKey })),
    countContacts(projectId),
  ]);

  const { page, hasMore, nextCursor } = pageOf(result, query.limit, ['PK', 'SK', ...Object.keys(plan.partitionKey), ...plan.sortKeys], binding);
  const total = query.subscribed === undefined ? counts.total : query.subscribed ? counts.subscribed : counts.total - counts.subscribed;

  return { items: page.map(toContact), nextCursor, hasMore, total };
}

function planQuery(projectId: string, { subscribed, search }: ListContactsQuery): Plan {
  const filter: Partial<QueryCommandInput> =
    subscribed === undefined ? {} : { FilterExpression: '#subscribed = :subscribed', ExpressionAttributeNames: { '#subscribed': 'subscribed' } };
  const filterValue = subscribed === undefined ? {} : { ':subscribed': subscribed };

  if (search?.startsWith('@')) {
    const partition = contactKeys.byDomainPartition(projectId, search.slice(1));
    return {
      input: { ...filter, IndexName: 'GSI2', KeyConditionExpression: 'GSI2PK = :pk', ExpressionAttributeValues: { ':pk': partition, ...filterValue } },
      partitionKey: { GSI2PK: partition },
      sortKeys: ['GSI2SK'],
    };
  }
  if (search) {
    const partition = contactKeys.byEmailPartition(projectId);
    return {
      input: {
        ...filter,
        IndexName: 'GSI1',
        KeyConditionExpression: 'GSI1PK = :pk AND begins_with(GSI1SK, :prefix)',
        ExpressionAttributeValues: { ':pk': partition, ':prefix': search, ...filterValue },
      },
      partitionKey: { GSI1PK: partition },
      sortKeys: ['GSI1SK'],
    };
  }
  if (subscribed !== undefined) {
    const partition = contactKeys.bySubscribedPartition(projectId, subscribed);
    return {
      input: { IndexName: 'GSI3', KeyConditionExpression: 'GSI3PK = :pk', ExpressionAttributeValues: { ':pk': partition }, ScanIndexForward: false },
      partitionKey: { GSI3PK: partition },
      sortKeys: ['GSI3SK'],
    };
  }
  const partition = contactKeys.contact(projectId, '').PK;
  return {
    input: {
      KeyConditionExpression: 'PK = :pk AND SK BETWEEN :prefixLow AND :prefixHigh',
      ExpressionAttributeValues: { ':pk': partition, ...sortKeyPrefixRange(contactKeys.contactPrefix) },
      ScanIndexForward: false,
    },
    partitionKey: { PK: partition },
    sortKeys: ['SK'],
  };
}
