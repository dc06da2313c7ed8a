import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { decodeTime } from 'ulid';
import { documentClient } from '../aws/clients';
import { contactKeys } from '../contacts/keys';
import { projectOfPartition } from '../projects/keys';
import { tableName } from '../db/table';
import { batchGetAll } from '../db/batch';
import { transactWrite, type TransactItem } from '../db/transactions';
import { countEvents, eventWriteItems, newEvent } from '../events/events';
import { eventIdBounds, eventKeys } from '../events/keys';
import { compileFilter, eventWindows, type ContactView, type FilterGroup, type LastEventAt } from './filter';
import { segmentKeys } from './keys';
import { queryAll } from '../db/query';
import { perBatchLoader } from '../streams/batch-loader';
import { toContact } from '../contacts/contacts';

/**
 * Materialised membership of tracked segments. The decisions are pure functions (tested against
 * the on-demand evaluation by a property test); the writes are conditional transactions, so they
 * are idempotent under stream redelivery and keep memberCount exact:
 *   membership item put (if absent) / delete (if present)
 *   + the segment's memberCount ADD ±1, conditioned on the filters version that was evaluated
 *   + the segment.entered / segment.exited event with its counters (none for a contact that was in
 *     a new segment from its creation: TrackedSegment.quietBefore).
 * So the one write that creates a membership records its segment.entered, and whoever comes
 * second (the build or the stream consumer) finds the member there and records nothing.
 *
 * Every writer decides from a view of the contact (View: its updatedAt and its latest event of a
 * name the filters mention), and the membership item it puts carries that view and the filters
 * version it was decided under. A delete yields to a member decided under the same filters from
 * a view it has not seen (a newer contact state or a newer event): the writer that saw more wins,
 * whichever writes last, so a build working from a page read a moment ago never undoes (and then
 * redoes, recording a second segment.entered) what the stream consumer decided from a newer
 * state. A member decided under older filters yields to any delete: a rebuild removes every member
 * its filters exclude, whenever it entered.
 */

export interface TrackedSegment {
  id: string;
  name: string;
  filters: FilterGroup;
  filtersVersion: number;
  /**
   * While the segment has its creation's filters (version 1): its creation time (ms). A contact
   * whose view is no newer (changedAt) was in the segment from its creation, so it joins with no
   * segment.entered; every other change of membership is an entry or an exit and is recorded.
   * The build and the stream consumer decide alike from the view they write from.
   */
  quietBefore?: number;
}

/** The quietBefore of a segment item: its creation time while its filters are the creation's. */
export const quietBeforeOf = (item: Record<string, unknown>): number | undefined =>
  item.filtersVersion === 1 && typeof item.createdAt === 'string' ? Date.parse(item.createdAt) : undefined;

/**
 * The contact as a writer saw it when it decided: its updatedAt and the time of its latest event
 * of a name the filters mention (0 for none). Absent: the contact is gone.
 */
export interface View {
  updatedAt: string;
  eventAt: number;
  /**
   * The events this view accounts for: up to eventAt, and any older than the filters' shortest
   * window reaches back (they count for nothing now, whoever saw them).
   */
  eventsKnownTo: number;
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
  const projectId = projectOfPartition(change.keys.PK);
  const sk = String(change.keys.SK ?? '');
  if (!projectId) return undefined;
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

/** The view of a contact (undefined: deleted) as `filters` see it at `now`. */
export function viewOf(filters: FilterGroup, contact: ContactView | undefined, lastEventAt: LastEventAt, now: number): View | undefined {
  if (!contact) return undefined;
  let eventAt = 0;
  let horizon = 0;
  for (const [name, from] of eventWindows(filters, now)) {
    eventAt = Math.max(eventAt, lastEventAt(name) ?? 0);
    horizon = Math.max(horizon, from);
  }
  return { updatedAt: contact.updatedAt, eventAt, eventsKnownTo: Math.max(eventAt, horizon) };
}

/** When the contact last changed as the filters see it: its updatedAt, or a later event; a deleted contact changed now. */
export const changedAt = (view: View | undefined, now: number): number => (view ? Math.max(Date.parse(view.updatedAt) || 0, view.eventAt) : now);

/** Whether a contact's joining or leaving, decided from a view that changed at `changed`, is recorded (segment.entered / segment.exited). */
export const isRecorded = (segment: TrackedSegment, changed: number): boolean => segment.quietBefore === undefined || changed > segment.quietBefore;

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
export const segmentLoader = (): SegmentLoader & { forget: (projectId: string) => void } => perBatchLoader(loadTrackedSegments);

export async function loadTrackedSegments(projectId: string): Promise<TrackedSegment[]> {
  const items = await queryAll({
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
    FilterExpression: 'trackMembership = :true',
    ExpressionAttributeValues: { ':pk': segmentKeys.partition(projectId), ':prefix': segmentKeys.segmentPrefix, ':true': true },
    ProjectionExpression: 'segmentId, #name, #filters, filtersVersion, createdAt',
    ExpressionAttributeNames: { '#name': 'name', '#filters': 'filters' },
    ConsistentRead: true,
  });
  return items.map((item) => ({
    id: item.segmentId as string,
    name: item.name as string,
    filters: item.filters as FilterGroup,
    filtersVersion: item.filtersVersion as number,
    quietBefore: quietBeforeOf(item),
  }));
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

/**
 * The membership item's write, decided from `view` under the segment's filters version: a put
 * if absent, carrying both; a delete if present, unless the member was decided under the same
 * filters from a view with a newer contact state or a newer event (that decision stands). A
 * deleted contact's member (view undefined) always goes.
 */
export function memberWrite(projectId: string, segment: TrackedSegment, contactId: string, enter: boolean, at: string, view: View | undefined): TransactItem {
  const Key = segmentKeys.member(projectId, segment.id, contactId);
  if (enter) {
    const seen = view ? { seenUpdatedAt: view.updatedAt, seenEventAt: view.eventAt } : {};
    return { Put: { TableName: tableName, Item: { ...Key, segmentId: segment.id, contactId, enteredAt: at, filtersVersion: segment.filtersVersion, ...seen }, ConditionExpression: 'attribute_not_exists(PK)' } };
  }
  if (!view) return { Delete: { TableName: tableName, Key, ConditionExpression: 'attribute_exists(PK)' } };
  return {
    Delete: {
      TableName: tableName,
      Key,
      ConditionExpression:
        'attribute_exists(PK) AND (attribute_not_exists(filtersVersion) OR filtersVersion <> :version OR (seenUpdatedAt <= :seenUpdatedAt AND seenEventAt <= :seenEventAt))',
      ExpressionAttributeValues: { ':version': segment.filtersVersion, ':seenUpdatedAt': view.updatedAt, ':seenEventAt': view.eventsKnownTo },
    },
  };
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
 * One contact enters or leaves one segment, decided from `view`, in one transaction. Already done
 * (a redelivered record, or a concurrent evaluation), or a member decided from a newer view, is a
 * no-op; a changed segment throws StaleSegment.
 */
export async function applyChange(projectId: string, segment: TrackedSegment, contactId: string, enter: boolean, view: View | undefined, recordEvent = true): Promise<boolean> {
  const at = new Date();
  const items: TransactItem[] = [memberWrite(projectId, segment, contactId, enter, at.toISOString(), view), segmentCountUpdate(projectId, segment, enter ? 1 : -1)];
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
    if (reasons[0] === 'ConditionalCheckFailed') return false; // already a member / already gone / decided from a newer view
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
 * After writing, it reads the contact again: when it changed meanwhile (another evaluation may
 * have judged the newer state before this one's older decision landed), it evaluates again, so
 * the last write is always from the newest state.
 */
export async function reevaluateContact(
  projectId: string,
  contactId: string,
  segmentsOf: SegmentLoader & { forget?: (projectId: string) => void } = segmentLoader(),
): Promise<{ entered: number; exited: number }> {
  const total = { entered: 0, exited: 0 };
  for (let attempt = 0; ; attempt++) {
    const segments = await segmentsOf(projectId);
    if (segments.length === 0) return total;
    const now = Date.now();
    const [stored, times, current] = await Promise.all([
      documentClient.send(new GetCommand({ TableName: tableName, Key: contactKeys.contact(projectId, contactId), ConsistentRead: true })),
      contactEventTimes(projectId, contactId, segments.map((segment) => segment.filters), now),
      memberships(projectId, contactId, segments),
    ]);
    const contact = stored.Item ? toContact(stored.Item) : undefined;
    const lastEventAt = (name: string) => times.get(name);
    const { enter, exit } = decideMembership(segments, contact, lastEventAt, (id) => current.has(id), now);
    const change = async (segment: TrackedSegment, entering: boolean) => {
      const view = viewOf(segment.filters, contact, lastEventAt, now);
      if (await applyChange(projectId, segment, contactId, entering, view, isRecorded(segment, changedAt(view, now)))) total[entering ? 'entered' : 'exited']++;
    };
    try {
      for (const segment of enter) await change(segment, true);
      for (const segment of exit) await change(segment, false);
    } catch (error) {
      if (!(error instanceof StaleSegment) || attempt >= 3) throw error;
      segmentsOf.forget?.(projectId);
      continue;
    }
    if (enter.length + exit.length === 0 || attempt >= 3 || !(await contactMoved(projectId, contactId, contact))) return total;
  }
}

/** Whether the contact's stored state is no longer `seen` (undefined: it was gone). */
async function contactMoved(projectId: string, contactId: string, seen: ContactView | undefined): Promise<boolean> {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: tableName, Key: contactKeys.contact(projectId, contactId), ConsistentRead: true, ProjectionExpression: 'updatedAt' }),
  );
  return (Item?.updatedAt as string | undefined) !== seen?.updatedAt;
}
