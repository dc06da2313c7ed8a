import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import { documentClient } from '../aws/clients';
import { contactKeys } from '../contacts/keys';
import { batchGetAll } from '../db/batch';
import { queryAll } from '../db/query';
import { tableName } from '../db/table';
import { transactWrite, type TransactItem } from '../db/transactions';
import { countEvents, eventWriteItems, newEvent, type ContactEvent } from '../events/events';
import { contactPage, lastEventAtFrom, loadNameFacts, namedEventsSince } from './evaluate';
import { compileFilter, contactPaths, eventWindows, type ContactView, type FilterGroup } from './filter';
import { segmentKeys } from './keys';
import { ENTERED, EXITED, membershipDiff, memberWrite, reasonsOf, reevaluateContact, segmentCountUpdate, StaleSegment, type TrackedSegment } from './membership';

/**
 * The build of a tracked segment's membership, after its creation or a change of its filters:
 * page by page over the project's contacts, so its size is bounded by time, not by a request.
 * Small projects are built within the request (segments.ts); larger ones by the segment-builder
 * function from the segment-builds queue, each invocation continuing where the last stopped
 * (the job carries the page cursor). Meanwhile the segment says membershipStatus BUILDING and
 * memberCount counts the members built so far; the stream consumer keeps applying contact
 * changes to it as to any tracked segment.
 *
 * Per page: evaluate the page's contacts, read their current membership items (one Query: member
 * keys sort by contact id like the page), then write the difference in transactions of up to 99
 * membership items (49 with their segment.entered / segment.exited events) plus the segment's
 * memberCount ADD conditioned on the filters version. So the counter moves with the items, a
 * superseded build (filters changed again, segment deleted) writes nothing more, and a
 * membership item the stream consumer wrote first fails its condition and is left out.
 *
 * A page is evaluated from a read that a contact change may overtake before the page is written,
 * after the stream consumer already evaluated that change against the old membership. So after
 * writing, the build re-reads the page's contacts (and the filter's events since the read) and
 * re-evaluates any that changed, the way the stream consumer does: from the table's current state.
 */

export const buildJobSchema = v.object({
  projectId: v.pipe(v.string(), v.nonEmpty()),
  segmentId: v.pipe(v.string(), v.nonEmpty()),
  filtersVersion: v.pipe(v.number(), v.integer(), v.minValue(1)),
  /** Creation builds record no segment.entered (the segment is new); filter changes do. */
  recordEvents: v.boolean(),
  /** The contact page to start from (the last page's LastEvaluatedKey); absent: the first. */
  startKey: v.optional(v.record(v.string(), v.string())),
});

export type BuildJob = v.InferOutput<typeof buildJobSchema>;

export const parseBuildJob = (body: unknown): BuildJob => v.parse(buildJobSchema, body);

/** Contacts read and evaluated per page. */
const PAGE_SIZE = 500;
/** Membership items per transaction: 100 items at most, one of them the segment's counter. */
const CHANGES_PER_TRANSACTION = 99;
/** Events are one more item per change. */
const CHANGES_WITH_EVENTS_PER_TRANSACTION = 49;
/** How far before a page's read an event counts as possibly overtaking it (clock skew between writers). */
const EVENT_SKEW_MS = 2_000;

/** READY: built; CONTINUE: the deadline came first, `next` goes on; SUPERSEDED: a newer build (or a deletion) owns the segment. */
export type BuildOutcome = { status: 'READY' } | { status: 'CONTINUE'; next: BuildJob } | { status: 'SUPERSEDED' };

/**
 * Builds pages until the membership is complete (then marks the segment READY) or `deadline`
 * passes (then returns the job that continues). A job whose segment is gone or has newer filters
 * ends at once: the newer build owns the segment.
 */
export async function runBuild(job: BuildJob, deadline: number): Promise<BuildOutcome> {
  const segment = await readTracked(job);
  if (!segment) return { status: 'SUPERSEDED' };
  const now = Date.now();
  const facts = await loadNameFacts(job.projectId, segment.filters, now);
  const predicate = compileFilter(segment.filters, now);
  const paths = [...contactPaths(segment.filters), ['updatedAt']];
  let startKey: Record<string, unknown> | undefined = job.startKey;
  try {
    do {
      const readAt = Date.now();
      const page = await contactPage(job.projectId, paths, startKey, PAGE_SIZE);
      if (page.contacts.length > 0) {
        const desired = page.contacts.filter((contact) => predicate(contact, lastEventAtFrom(facts, contact.id))).map((contact) => contact.id);
        const current = await memberIdsWithin(job.projectId, segment.id, page.contacts);
        const { enter, exit } = membershipDiff(desired, current);
        await applyChanges(job.projectId, segment, enter, exit, job.recordEvents);
        await reconcilePage(job.projectId, segment.filters, page.contacts, readAt);
      }
      startKey = page.nextKey;
    } while (startKey && Date.now() < deadline);
  } catch (error) {
    if (error instanceof StaleSegment) return { status: 'SUPERSEDED' };
    throw error;
  }
  if (startKey) return { status: 'CONTINUE', next: { ...job, startKey: startKey as Record<string, string> } };
  return (await markReady(job)) ? { status: 'READY' } : { status: 'SUPERSEDED' };
}

async function readTracked(job: BuildJob): Promise<TrackedSegment | undefined> {
  const { Item } = await documentClient.send(new GetCommand({ TableName: tableName, Key: segmentKeys.segment(job.projectId, job.segmentId), ConsistentRead: true }));
  if (!Item || Item.trackMembership !== true || Item.filtersVersion !== job.filtersVersion) return undefined;
  return { id: Item.segmentId as string, name: Item.name as string, filters: Item.filters as FilterGroup, filtersVersion: Item.filtersVersion as number };
}

/** The members among a page of contacts (newest first): one Query over their contact-id range. */
async function memberIdsWithin(projectId: string, segmentId: string, contacts: ContactView[]): Promise<string[]> {
  const items = await queryAll({
    KeyConditionExpression: 'PK = :pk AND SK BETWEEN :low AND :high',
    ExpressionAttributeValues: {
      ':pk': segmentKeys.partition(projectId),
      ':low': segmentKeys.member(projectId, segmentId, contacts[contacts.length - 1]!.id).SK,
      ':high': segmentKeys.member(projectId, segmentId, contacts[0]!.id).SK,
    },
    ProjectionExpression: 'contactId',
    ConsistentRead: true,
  });
  return items.map((item) => item.contactId as string);
}

interface Change {
  contactId: string;
  enter: boolean;
}

/** Writes the changes in transactions with the counter; throws StaleSegment when the segment moved on. */
async function applyChanges(projectId: string, segment: TrackedSegment, enter: string[], exit: string[], recordEvents: boolean): Promise<void> {
  const changes: Change[] = [...enter.map((contactId) => ({ contactId, enter: true })), ...exit.map((contactId) => ({ contactId, enter: false }))];
  const size = recordEvents ? CHANGES_WITH_EVENTS_PER_TRANSACTION : CHANGES_PER_TRANSACTION;
  for (let start = 0; start < changes.length; start += size) {
    await applyChunk(projectId, segment, changes.slice(start, start + size), recordEvents);
  }
}

async function applyChunk(projectId: string, segment: TrackedSegment, chunk: Change[], recordEvents: boolean): Promise<void> {
  let pending = chunk;
  while (pending.length > 0) {
    const at = new Date();
    const events: ContactEvent[] = recordEvents
      ? pending.map((change) => newEvent({ name: change.enter ? ENTERED : EXITED, contactId: change.contactId, data: { segmentId: segment.id, segmentName: segment.name } }, at))
      : [];
    const delta = pending.reduce((sum, change) => sum + (change.enter ? 1 : -1), 0);
    const items: TransactItem[] = [
      segmentCountUpdate(projectId, segment, delta),
      ...pending.map((change) => memberWrite(projectId, segment, change.contactId, change.enter, at.toISOString())),
      ...events.flatMap((event) => eventWriteItems(projectId, event)),
    ];
    try {
      await transactWrite(items);
      if (events.length > 0) await countEvents(projectId, events);
      return;
    } catch (error) {
      const reasons = reasonsOf(error);
      if (!reasons) throw error;
      if (reasons[0] === 'ConditionalCheckFailed') throw new StaleSegment(`Segment ${segment.id} changed`);
      // Membership items the stream consumer wrote first: theirs stands; retry without them.
      const taken = new Set(pending.filter((_, index) => reasons[index + 1] === 'ConditionalCheckFailed').map((change) => change.contactId));
      if (taken.size === 0) throw error;
      pending = pending.filter((change) => !taken.has(change.contactId));
    }
  }
}

/** Re-evaluates the page's contacts that changed (or were deleted, or tracked a filter event) since `readAt`. */
async function reconcilePage(projectId: string, filters: FilterGroup, contacts: ContactView[], readAt: number): Promise<void> {
  const seen = new Map(contacts.map((contact) => [contact.id, contact.updatedAt]));
  const stored = await batchGetAll(
    contacts.map((contact) => contactKeys.contact(projectId, contact.id)),
    { consistentRead: true, projection: 'contactId, updatedAt' },
  );
  const stillThere = new Map(stored.map((item) => [item.contactId as string, item.updatedAt as string]));
  const changed = new Set([...seen].filter(([id, updatedAt]) => stillThere.get(id) !== updatedAt).map(([id]) => id));
  for (const contactId of await contactsWithEventsSince(projectId, filters, readAt - EVENT_SKEW_MS)) {
    if (seen.has(contactId)) changed.add(contactId);
  }
  for (const contactId of changed) await reevaluateContact(projectId, contactId);
}

/** Contacts that tracked one of the filter's events since `from` (GSI2, the name partitions). */
async function contactsWithEventsSince(projectId: string, filters: FilterGroup, from: number): Promise<Set<string>> {
  const contactIds = new Set<string>();
  for (const name of eventNamesOf(filters)) {
    for await (const events of namedEventsSince(projectId, name, from)) for (const event of events) contactIds.add(event.contactId);
  }
  return contactIds;
}

const eventNamesOf = (filters: FilterGroup) => [...eventWindows(filters, Date.now()).keys()];

/** BUILDING → READY, unless the filters changed meanwhile (the newer build will say READY). */
async function markReady(job: BuildJob): Promise<boolean> {
  try {
    await documentClient.send(
      new UpdateCommand({
        TableName: tableName,
        Key: segmentKeys.segment(job.projectId, job.segmentId),
        UpdateExpression: 'SET membershipStatus = :ready',
        ConditionExpression: 'filtersVersion = :version',
        ExpressionAttributeValues: { ':ready': 'READY', ':version': job.filtersVersion },
      }),
    );
    return true;
  } catch (error) {
    if ((error as Error).name === 'ConditionalCheckFailedException') return false;
    throw error;
  }
}
