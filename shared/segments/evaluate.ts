import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { decodeTime } from 'ulid';
import { documentClient } from '../aws/clients';
import { integerEnv } from '../config/env';
import { variables } from '../config/variables';
import { countContacts } from '../contacts/contacts';
import { contactKeys } from '../contacts/keys';
import { tableName } from '../db/table';
import { eventIdBounds, eventKeys } from '../events/keys';
import { ApiError } from '../http/errors';
import { compileFilter, contactPaths, eventWindows, type ContactView, type FilterGroup } from './filter';
import { toContact } from '../contacts/contacts';

/**
 * On-demand evaluation: one paged Query per event name the filter mentions (GSI2, from the
 * earliest time that matters) builds contact → latest event time; then one paged Query over the
 * project's contacts (only the attributes the filter reads) evaluates each contact in memory.
 * Cost: reads every contact of the project (and every event of the named events) once.
 */

/**
 * The largest audience evaluated in one request. Measured against DynamoDB Local on a 2-core
 * machine (/docs "Segments"): about 4,500–5,000 contacts/s, so 80,000 takes about 16–18 s and
 * stays inside API Gateway's 29 s with room for the event-name reads; DynamoDB itself reads a
 * partition several times faster.
 */
export const onDemandMaxContacts = integerEnv(variables.segmentOnDemandMaxContacts, 80_000);

export const segmentTooLarge = (contacts: number) =>
  new ApiError(422, 'SEGMENT_TOO_LARGE', `The project has ${contacts} contacts; evaluating a segment on demand is limited to ${onDemandMaxContacts}`, {
    suggestion: 'Create the segment with trackMembership: true (membership kept current as contacts change), or ask the operator to raise SEGMENT_ON_DEMAND_MAX_CONTACTS.',
  });

/** Fails fast (O(1) counter read) when the project is too big to evaluate within the API's timeout. */
export async function assertEvaluable(projectId: string): Promise<void> {
  const { total } = await countContacts(projectId);
  if (total > onDemandMaxContacts) throw segmentTooLarge(total);
}

/** contact id → time (ms) of its latest event, per event name. */
export type NameFacts = Map<string, Map<string, number>>;

/** The events of one name from `from` (ms) on, page by page in ascending id (time) order: GSI2. */
export async function* namedEventsSince(projectId: string, name: string, from: number): AsyncGenerator<{ contactId: string; eventId: string }[]> {
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await documentClient.send(
      new QueryCommand({
        TableName: tableName,
        IndexName: 'GSI2',
        KeyConditionExpression: 'GSI2PK = :pk AND GSI2SK >= :low',
        ExpressionAttributeValues: { ':pk': eventKeys.byNamePartition(projectId, name), ':low': eventIdBounds(from, from).low },
        ProjectionExpression: 'contactId, eventId',
        ExclusiveStartKey,
      }),
    );
    yield (page.Items ?? []).map((item) => ({ contactId: item.contactId as string, eventId: item.eventId as string }));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
}

/** The event facts of the filter from the event-name partitions (GSI2). */
export async function loadNameFacts(projectId: string, filters: FilterGroup, now: number): Promise<NameFacts> {
  const facts: NameFacts = new Map();
  await Promise.all(
    [...eventWindows(filters, now)].map(async ([name, from]) => {
      const latest = new Map<string, number>();
      // Ascending ids: the last one seen per contact is its latest.
      for await (const events of namedEventsSince(projectId, name, from)) {
        for (const event of events) latest.set(event.contactId, decodeTime(event.eventId));
      }
      facts.set(name, latest);
    }),
  );
  return facts;
}

export const lastEventAtFrom = (facts: NameFacts, contactId: string) => (name: string) => facts.get(name)?.get(contactId);

export interface ContactPage {
  contacts: ContactView[];
  /** Where the next page starts; undefined after the last page. */
  nextKey?: Record<string, unknown>;
}

/** One page of the project's contacts, newest first, reading only the given paths. */
export async function contactPage(projectId: string, paths: string[][], startKey?: Record<string, unknown>, limit?: number): Promise<ContactPage> {
  const names: Record<string, string> = { '#contactId': 'contactId' };
  const projection = new Set(['#contactId']);
  paths.forEach((path, index) => {
    const parts = path.map((segment, depth) => {
      const alias = depth === 0 ? `#${segment}` : `#p${index}_${depth}`;
      names[alias] = segment;
      return alias;
    });
    projection.add(parts.join('.'));
  });
  const page = await documentClient.send(
    new QueryCommand({
      TableName: tableName,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': contactKeys.contact(projectId, '').PK, ':prefix': contactKeys.contactPrefix },
      ProjectionExpression: [...projection].join(', '),
      ExpressionAttributeNames: names,
      ScanIndexForward: false,
      ExclusiveStartKey: startKey,
      ...(limit ? { Limit: limit } : {}),
    }),
  );
  return { contacts: (page.Items ?? []).map(toContact), nextKey: page.LastEvaluatedKey };
}

/** Pages through the project's contacts, newest first, reading only the given paths. */
export async function* contactPages(projectId: string, paths: string[][]): AsyncGenerator<ContactView[]> {
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await contactPage(projectId, paths, startKey);
    yield page.contacts;
    startKey = page.nextKey;
  } while (startKey);
}

export interface Evaluation {
  /** Member contact ids, newest contact first. */
  memberIds: string[];
  /** How many of the members are subscribed. */
  subscribedCount: number;
  scanned: number;
}

/**
 * Evaluates the filter over every contact of the project (no size check: see assertEvaluable).
 * The one evaluation of on-demand segments and of POST /segments/preview, so the two agree.
 */
export async function evaluateSegment(projectId: string, filters: FilterGroup, now = Date.now()): Promise<Evaluation> {
  const facts = await loadNameFacts(projectId, filters, now);
  const predicate = compileFilter(filters, now);
  const memberIds: string[] = [];
  let subscribedCount = 0;
  let scanned = 0;
  for await (const page of contactPages(projectId, [...contactPaths(filters), ['subscribed']])) {
    scanned += page.length;
    for (const contact of page) {
      if (!predicate(contact, lastEventAtFrom(facts, contact.id))) continue;
      memberIds.push(contact.id);
      if (contact.subscribed === true) subscribedCount++;
    }
  }
  return { memberIds, subscribedCount, scanned };
}
