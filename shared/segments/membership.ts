import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { decodeTime } from 'ulid';
import { documentClient } from '../aws/clients';
import { contactKeys } from '../contacts/keys';
import { tableName } from '../db/table';
import { batchGetAll } from '../db/batch';
import { transactWrite, type TransactItem } from '../db/transactions';
import { countEvents, eventWriteItems, newEvent } from '../events/events';
import { eventIdBounds, eventKeys } from '../events/keys';
import { compileFilter, eventWindows, type ContactView, type FilterGroup, type LastEventAt } from './filter';
import { segmentKeys } from './keys';
import { queryAll } from '../db/query';
import { toContact } from '../contacts/contacts';

/**
 * Materialised membership of tracked segments. The decisions are pure functions (tested against
 * the on-demand evaluation by a property test); the writes are conditional transactions, so they
 * are idempotent under stream redelivery and keep memberCount exact:
 *   membership item put (if absent) / delete (if present)
 *   + the segment's memberCount ADD ±1, conditioned on the filters version that was evaluated
 *   + the segment.entered / segment.exited event with its counters.
 */

export interface TrackedSegment {
  id: string;
  name: string;
  filters: FilterGroup;
  filtersVersion: number;
}

export const SEGMENT_EVENT_PREFIX = 'segment.';
export const ENTERED = 'segment.entered';
export const EXITED = 'segment.exited';

// ---- Pure decisions ---------------------------------------------------------------------------------

/**
 * Which contact a table change asks to re-evaluate: the contact itself for contact items (create,
 * update, delete), the event's contact for event items — except segment.* events, which this
 * consumer writes itself: re-evaluating on them would loop.
 */
export function contactToReevaluate(change: { keys: Record<string, unknown>; newImage?: Record<string, unknown>; oldImage?: Record<string, unknown> }): { projectId: string; contactId: string } | undefined {
  const pk = String(change.keys.PK ?? '');
  const sk = String(change.keys.SK ?? '');
  if (!pk.startsWith('PROJECT#')) return undefined;
  const projectId = pk.slice('PROJECT#'.length);
  if (sk.startsWith(contactKeys.contactPrefix)) return { projectId, contactId: sk.slice(contactKeys.contactPrefix.length) };
  if (sk.startsWith(eventKeys.eventPrefix)) {
    const image = change.newImage ?? change.oldImage;
    const name = String(image?.name ?? '');
    if (!image?.contactId || name.startsWith(SEGMENT_EVENT_PREFIX)) return undefined;
    return { projectId, contactId: String(image.contactId) };
  }
  return undefined;
}

/** The latest time of each event name among one contact's events. */
export function lastEventTimes(events: { name: string; eventId: string }[]): Map<string, number> {
  const latest = new Map<string, number>();
  for (const event of events) {
    const at = decodeTime(event.eventId);
    if (at > (latest.get(event.name) ?? -Infinity)) latest.set(event.name, at);
  }
  return latest;
}

/** Which tracked segments the contact (undefined: deleted) enters and leaves. */
export function decideMembership(
  segments: TrackedSegment[],
  contact: ContactView | undefined,
  lastEventAt: LastEventAt,
  isMember: (segmentId: string) => boolean,
  now: number,
): { enter: TrackedSegment[]; exit: TrackedSegment[] } {
  const enter: TrackedSegment[] = [];
  const exit: TrackedSegment[] = [];
  for (const segment of segments) {
    const belongs = contact !== undefined && compileFilter(segment.filters, now)(contact, lastEventAt);
    const member = isMember(segment.id);
    if (belongs && !member) enter.push(segment);
    if (!belongs && member) exit.push(segment);
  }
  return { enter, exit };
}

/** The changes that bring `current` members to `desired` ones. */
export function membershipDiff(desired: Iterable<string>, current: Iterable<string>): { enter: string[]; exit: string[] } {
  const want = new Set(desired);
  const have = new Set(current);
  return { enter: [...want].filter((id) => !have.has(id)), exit: [...have].filter((id) => !want.has(id)) };
}

// ---- Reads ----------------------------------------------------------------------------------------

/**
 * The project's tracked segments (a small list), read strongly consistent. The stream consumer
 * loads it once per invocation, after the batch was fetched — so a segment created before a
 * change was written is always in the list that change is evaluated against.
 */
export type SegmentLoader = (projectId: string) => Promise<TrackedSegment[]>;

/** A loader that reads each project's list once; `forget` makes the next call read again. */
export function segmentLoader(): SegmentLoader & { forget: (projectId: string) => void } {
  const loads = new Map<string, Promise<TrackedSegment[]>>();
  const load = (projectId: string) => {
    let segments = loads.get(projectId);
    if (!segments) {
      segments = loadTrackedSegments(projectId);
      segments.catch(() => loads.delete(projectId));
      loads.set(projectId, segments);
    }
    return segments;
  };
  return Object.assign(load, { forget: (projectId: string) => void loads.delete(projectId) });
}

export async function loadTrackedSegments(projectId: string): Promise<TrackedSegment[]> {
  const items = await queryAll({
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
    FilterExpression: 'trackMembership = :true',
    ExpressionAttributeValues: { ':pk': segmentKeys.partition(projectId), ':prefix': segmentKeys.segmentPrefix, ':true': true },
    ProjectionExpression: 'segmentId, #name, #filters, filtersVersion',
    ExpressionAttributeNames: { '#name': 'name', '#filters': 'filters' },
    ConsistentRead: true,
  });
  return items.map((item) => ({ id: item.segmentId as string, name: item.name as string, filters: item.filters as FilterGroup, filtersVersion: item.filtersVersion as number }));
}

/** One contact's latest event times for the names the filters mention (GSI1, filtered by name); also a workflow CONDITION's facts. */
export async function contactEventTimes(projectId: string, contactId: string, filters: FilterGroup[], now: number): Promise<Map<string, number>> {
  const windows = new Map<string, number>();
  for (const filter of filters) {
    for (const [name, from] of eventWindows(filter, now)) windows.set(name, Math.min(windows.get(name) ?? from, from));
  }
  if (windows.size === 0) return new Map();
  const names = [...windows.keys()];
  const from = Math.min(...windows.values());
  const events: { name: string; eventId: string }[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await documentClient.send(
      new QueryCommand({
        TableName: tableName,
        IndexName: 'GSI1',
        KeyConditionExpression: 'GSI1PK = :pk AND GSI1SK >= :low',
        FilterExpression: `#name IN (${names.map((_, index) => `:n${index}`).join(', ')})`,
        ExpressionAttributeNames: { '#name': 'name' },
        ExpressionAttributeValues: {
          ':pk': eventKeys.byContactPartition(projectId, contactId),
          ':low': eventIdBounds(from, from).low,
          ...Object.fromEntries(names.map((name, index) => [`:n${index}`, name])),
        },
        ProjectionExpression: '#name, eventId',
        ExclusiveStartKey,
      }),
    );
    for (const item of page.Items ?? []) events.push({ name: item.name as string, eventId: item.eventId as string });
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return lastEventTimes(events);
}

async function memberships(projectId: string, contactId: string, segments: TrackedSegment[]): Promise<Set<string>> {
  const keys = segments.map((segment) => segmentKeys.member(projectId, segment.id, contactId));
  const items = await batchGetAll(keys, { consistentRead: true, projection: 'segmentId' });
  return new Set(items.map((item) => item.segmentId as string));
}

// ---- Writes ---------------------------------------------------------------------------------------

/** The segment was edited or deleted after it was read: reload and evaluate again. */
export class StaleSegment extends Error {
  override name = 'StaleSegment';
}

export function memberWrite(projectId: string, segment: TrackedSegment, contactId: string, enter: boolean, at: string): TransactItem {
  const Key = segmentKeys.member(projectId, segment.id, contactId);
  return enter
    ? { Put: { TableName: tableName, Item: { ...Key, segmentId: segment.id, contactId, enteredAt: at }, ConditionExpression: 'attribute_not_exists(PK)' } }
    : { Delete: { TableName: tableName, Key, ConditionExpression: 'attribute_exists(PK)' } };
}

export function segmentCountUpdate(projectId: string, segment: TrackedSegment, delta: number): TransactItem {
  return {
    Update: {
      TableName: tableName,
      Key: segmentKeys.segment(projectId, segment.id),
      UpdateExpression: 'ADD memberCount :delta',
      ConditionExpression: 'filtersVersion = :version',
      ExpressionAttributeValues: { ':delta': delta, ':version': segment.filtersVersion },
    },
  };
}

export const reasonsOf = (error: unknown) => (error instanceof TransactionCanceledException ? (error.CancellationReasons ?? []).map((reason) => reason.Code) : undefined);

/**
 * One contact enters or leaves one segment, in one transaction. Already done (a redelivered
 * record, or a concurrent evaluation) is a no-op; a changed segment throws StaleSegment.
 */
export async function applyChange(projectId: string, segment: TrackedSegment, contactId: string, enter: boolean, recordEvent = true): Promise<boolean> {
  const at = new Date();
  const items: TransactItem[] = [memberWrite(projectId, segment, contactId, enter, at.toISOString()), segmentCountUpdate(projectId, segment, enter ? 1 : -1)];
  const event = recordEvent ? newEvent({ name: enter ? ENTERED : EXITED, contactId, data: { segmentId: segment.id, segmentName: segment.name } }, at) : undefined;
  if (event) items.push(...eventWriteItems(projectId, event));
  try {
    await transactWrite(items);
    if (event) await countEvents(projectId, [event]);
    return true;
  } catch (error) {
    const reasons = reasonsOf(error);
    if (!reasons) throw error;
    if (reasons[1] === 'ConditionalCheckFailed') throw new StaleSegment(`Segment ${segment.id} changed`);
    if (reasons[0] === 'ConditionalCheckFailed') return false; // already a member / already gone
    throw error;
  }
}

/** Every member id of a tracked segment (to remove them with the segment). */
export async function memberIdsOf(projectId: string, segmentId: string): Promise<string[]> {
  const items = await queryAll({
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
    ExpressionAttributeValues: { ':pk': segmentKeys.partition(projectId), ':prefix': segmentKeys.memberPrefix(segmentId) },
    ProjectionExpression: 'contactId',
    ConsistentRead: true,
  });
  return items.map((item) => item.contactId as string);
}

/**
 * The stream path: re-evaluates one contact against every tracked segment of its project from
 * the current table state (not the stream image), so out-of-order or repeated records converge.
 */
export async function reevaluateContact(
  projectId: string,
  contactId: string,
  segmentsOf: SegmentLoader & { forget?: (projectId: string) => void } = segmentLoader(),
): Promise<{ entered: number; exited: number }> {
  for (let attempt = 0; ; attempt++) {
    const segments = await segmentsOf(projectId);
    if (segments.length === 0) return { entered: 0, exited: 0 };
    const now = Date.now();
    const [stored, times, current] = await Promise.all([
      documentClient.send(new GetCommand({ TableName: tableName, Key: contactKeys.contact(projectId, contactId), ConsistentRead: true })),
      contactEventTimes(projectId, contactId, segments.map((segment) => segment.filters), now),
      memberships(projectId, contactId, segments),
    ]);
    const contact = stored.Item ? toContact(stored.Item) : undefined;
    const { enter, exit } = decideMembership(segments, contact, (name) => times.get(name), (id) => current.has(id), now);
    try {
      for (const segment of enter) await applyChange(projectId, segment, contactId, true);
      for (const segment of exit) await applyChange(projectId, segment, contactId, false);
      return { entered: enter.length, exited: exit.length };
    } catch (error) {
      if (!(error instanceof StaleSegment) || attempt >= 3) throw error;
      segmentsOf.forget?.(projectId);
    }
  }
}
