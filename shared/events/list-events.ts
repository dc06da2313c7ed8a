import { GetCommand, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../aws/clients';
import { findContactIdByEmail } from '../contacts/contacts';
import { pageWithTotal } from '../db/listing';
import { tableName } from '../db/table';
import { decodeCursor, pageOf } from '../http/cursor';
import type { Page } from '../contacts/list-contacts';
import { toEvent, type ContactEvent } from './events';
import { eventIdBounds, eventKeys } from './keys';
import type { ListEventNamesQuery, ListEventsQuery } from './schemas';

const MAX_TIME = 281474976710655; // the largest ULID time

/**
 * GET /events, newest first, one Query per page: by contact (GSI1), by name (GSI2) or all
 * (table), with the time range as a key condition on the ULID ids. Contact and name together
 * query the contact's events and filter by name. `total` is the project's event count, or the
 * name's when `name` is given; it does not narrow with contact or time.
 */
export async function listEvents(projectId: string, query: ListEventsQuery): Promise<Page<ContactEvent>> {
  const contactId = query.contactId ?? (query.email ? await findContactIdByEmail(projectId, query.email) : undefined);
  const total = await countEvents(projectId, query.name);
  if (query.email && !contactId) return { items: [], nextCursor: null, hasMore: false, total };

  const { low, high } = eventIdBounds(query.from ?? 0, query.to ?? MAX_TIME);
  const values: Record<string, unknown> = { ':low': low, ':high': high };
  let plan: { input: Omit<QueryCommandInput, 'TableName'>; partition: Record<string, string>; sortKey: string };
  if (contactId) {
    const partition = eventKeys.byContactPartition(projectId, contactId);
    plan = {
      input: {
        IndexName: 'GSI1',
        KeyConditionExpression: 'GSI1PK = :pk AND GSI1SK BETWEEN :low AND :high',
        ...(query.name ? { FilterExpression: '#name = :name', ExpressionAttributeNames: { '#name': 'name' } } : {}),
        ExpressionAttributeValues: { ...values, ':pk': partition, ...(query.name ? { ':name': query.name } : {}) },
      },
      partition: { GSI1PK: partition },
      sortKey: 'GSI1SK',
    };
  } else if (query.name) {
    const partition = eventKeys.byNamePartition(projectId, query.name);
    plan = {
      input: { IndexName: 'GSI2', KeyConditionExpression: 'GSI2PK = :pk AND GSI2SK BETWEEN :low AND :high', ExpressionAttributeValues: { ...values, ':pk': partition } },
      partition: { GSI2PK: partition },
      sortKey: 'GSI2SK',
    };
  } else {
    const partition = eventKeys.event(projectId, '').PK;
    plan = {
      input: {
        KeyConditionExpression: 'PK = :pk AND SK BETWEEN :lowKey AND :highKey',
        ExpressionAttributeValues: { ':pk': partition, ':lowKey': `${eventKeys.eventPrefix}${low}`, ':highKey': `${eventKeys.eventPrefix}${high}` },
      },
      partition: { PK: partition },
      sortKey: 'SK',
    };
  }

  const binding = JSON.stringify(['events', projectId, contactId ?? null, query.name ?? null, query.from ?? null, query.to ?? null]);
  const free = ['PK', 'SK', plan.sortKey].filter((name, index, all) => !(name in plan.partition) && all.indexOf(name) === index);
  const startKey = query.cursor ? decodeCursor(query.cursor, binding, plan.partition, free) : undefined;
  const result = await documentClient.send(
    new QueryCommand({ ...plan.input, TableName: tableName, ScanIndexForward: false, Limit: query.limit + 1, ExclusiveStartKey: startKey }),
  );
  const { page, hasMore, nextCursor } = pageOf(result, query.limit, ['PK', 'SK', ...Object.keys(plan.partition), plan.sortKey], binding);
  return { items: page.map(toEvent), nextCursor, hasMore, total };
}

async function countEvents(projectId: string, name: string | undefined): Promise<number> {
  const Key = name ? eventKeys.nameCounter(projectId, name) : eventKeys.total(projectId);
  const { Item } = await documentClient.send(new GetCommand({ TableName: tableName, Key }));
  return (Item?.count as number | undefined) ?? 0;
}

export interface EventName {
  name: string;
  count: number;
  lastSeenAt: string;
}

/**
 * GET /events/names, by name: a page of the name counters (one Query, `limit + 1`) and the count
 * of names (one GetItem), never a scan of events. Names counted before the names total existed
 * are not in it: on a one-page list the total is at least the page.
 */
export async function listEventNames(projectId: string, query: ListEventNamesQuery): Promise<Page<EventName>> {
  const listing = { partition: eventKeys.namesTotal(projectId).PK, prefix: eventKeys.nameCounterPrefix, counter: eventKeys.namesTotal(projectId) };
  const { items, nextCursor, hasMore, total: counted } = await pageWithTotal(listing, query, JSON.stringify(['event-names', projectId]), 'ascending');
  return {
    items: items.map((item) => ({ name: item.name as string, count: item.count as number, lastSeenAt: item.lastSeenAt as string })),
    nextCursor,
    hasMore,
    total: !hasMore && !query.cursor ? Math.max(counted, items.length) : counted,
  };
}
