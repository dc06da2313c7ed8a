import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { decodeTime } from 'ulid';
import * as v from 'valibot';
import { documentClient } from '../aws/clients';
import { contactKeys } from '../contacts/keys';
import { batchGetAll } from '../db/batch';
import { queryAll } from '../db/query';
import { tableName } from '../db/table';
import { transactWrite, updateIfStill, type TransactItem } from '../db/transactions';
import { countEvents, eventWriteItems, newEvent, type ContactEvent } from '../events/events';
import { contactPage, lastEventAtFrom, loadNameFacts, namedEventsSince, type NameFacts } from './evaluate';
import { compileFilter, contactPaths, eventWindows, type ContactView, type FilterGroup } from './filter';
import { segmentKeys } from './keys';
import {
  changedAt,
  ENTERED,
  EXITED,
  isRecorded,
  membershipDiff,
  memberWrite,
  quietBeforeOf,
  reasonsOf,
  reevaluateContact,
  segmentCountUpdate,
  StaleSegment,
  viewOf,
  type TrackedSegment,
  type View,
} from './membership';

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
 * after the stream consumer already evaluated that change against the old membership. So:
 * - the event facts are brought up to the page's read (the filter's events since the last read);
 * - before writing, the contacts to change are read again, and those that changed (or tracked a
 *   filter event) since the page's read are not written from it;
 * - each write carries the view it was decided from (membership.ts, memberWrite): a delete yields
 *   to a member the stream consumer decided under these filters from a newer view, whatever the
 *   timing, while members decided under older filters go when these filters exclude them;
 * - after writing, the page's contacts that changed (or tracked a filter event) since its read are
 *   re-evaluated the way the stream consumer does: from the table's current state.
 *
 * A creation build records no segment.entered for contacts that were in the segment from its
 * creation (their view predates it) and records one for contacts that changed since, exactly as
 * the stream consumer decides (membership.ts, TrackedSegment.quietBefore); the member item's
 * conditional put lets one of them write it, so such a contact enters once, whoever comes first.
 * (test/unit/shared/segments/interleaving.test.ts drives both through every order of their steps.)
 */

export const buildJobSchema = v.object({
  projectId: v.pipe(v.string(), v.nonEmpty()),
  segmentId: v.pipe(v.string(), v.nonEmpty()),
  filtersVersion: v.pipe(v.number(), v.integer(), v.minValue(1)),
  /**
   * Filter changes record every entry and exit. Creation builds (false) record none for contacts
   * that were in the segment from its creation, and record those of contacts that changed since
   * (TrackedSegment.quietBefore), as the stream consumer does: whoever writes a member first.
   */
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
  let factsAt = now;
  const facts = await loadNameFacts(job.projectId, segment.filters, now);
  const predicate = compileFilter(segment.filters, now);
  const paths = [...contactPaths(segment.filters), ['updatedAt']];
  let startKey: Record<string, unknown> | undefined = job.startKey;
  try {
    do {
      const readAt = Date.now();
      const page = await contactPage(job.projectId, paths, startKey, PAGE_SIZE);
      if (page.contacts.length > 0) {
        // The facts as of this page's read: the filter's events since the last read joined in.
        await addEventsSince(job.projectId, segment.filters, facts, factsAt - EVENT_SKEW_MS);
        factsAt = readAt;
        const byId = new Map(page.contacts.map((contact) => [contact.id, contact]));
        const desired = page.contacts.filter((contact) => predicate(contact, lastEventAtFrom(facts, contact.id))).map((contact) => contact.id);
        const current = await memberIdsWithin(job.projectId, segment.id, page.contacts);
        const { enter, exit } = membershipDiff(desired, current);
        const overtaken = await changedSince(job.projectId, segment.filters, [...enter, ...exit].map((id) => byId.get(id)!), readAt);
        const change = (contactId: string, entering: boolean): Change => {
          const view = viewOf(segment.filters, byId.get(contactId), lastEventAtFrom(facts, contactId), now)!;
          return { contactId, enter: entering, view, record: job.recordEvents || isRecorded(segment, changedAt(view, now)) };
        };
        await applyChanges(job.projectId, segment, [
          ...enter.filter((id) => !overtaken.has(id)).map((id) => change(id, true)),
          ...exit.filter((id) => !overtaken.has(id)).map((id) => change(id, false)),
        ]);
        for (const contactId of await changedSince(job.projectId, segment.filters, page.contacts, readAt)) await reevaluateContact(job.projectId, contactId);
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
  return { id: Item.segmentId as string, name: Item.name as string, filters: Item.filters as FilterGroup, filtersVersion: Item.filtersVersion as number, quietBefore: quietBeforeOf(Item) };
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
  /** The contact as the page saw it. */
  view: View;
  /** With its segment.entered / segment.exited event. */
  record: boolean;
}

/** Writes the changes in transactions with the counter; throws StaleSegment when the segment moved on. */
async function applyChanges(projectId: string, segment: TrackedSegment, changes: Change[]): Promise<void> {
  const size = changes.some((change) => change.record) ? CHANGES_WITH_EVENTS_PER_TRANSACTION : CHANGES_PER_TRANSACTION;
  for (let start = 0; start < changes.length; start += size) {
    await applyChunk(projectId, segment, changes.slice(start, start + size));
  }
}

async function applyChunk(projectId: string, segment: TrackedSegment, chunk: Change[]): Promise<void> {
  let pending = chunk;
  while (pending.length > 0) {
    const at = new Date();
    const events: ContactEvent[] = pending
      .filter((change) => change.record)
      .map((change) => newEvent({ name: change.enter ? ENTERED : EXITED, contactId: change.contactId, data: { segmentId: segment.id, segmentName: segment.name } }, at));
    const delta = pending.reduce((sum, change) => sum + (change.enter ? 1 : -1), 0);
    const items: TransactItem[] = [
      segmentCountUpdate(projectId, segment, delta),
      ...pending.map((change) => memberWrite(projectId, segment, change.contactId, change.enter, at.toISOString(), change.view)),
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
      // Membership items the stream consumer wrote first, or decided from a newer view: theirs stands; retry without them.
      const taken = new Set(pending.filter((_, index) => reasons[index + 1] === 'ConditionalCheckFailed').map((change) => change.contactId));
      if (taken.size === 0) throw error;
      pending = pending.filter((change) => !taken.has(change.contactId));
    }
  }
}

/** Which of `contacts` changed (or were deleted, or tracked one of the filter's events) since `readAt`, when they were read. */
async function changedSince(projectId: string, filters: FilterGroup, contacts: ContactView[], readAt: number): Promise<Set<string>> {
  if (contacts.length === 0) return new Set();
  const stored = await batchGetAll(
    contacts.map((contact) => contactKeys.contact(projectId, contact.id)),
    { consistentRead: true, projection: 'contactId, updatedAt' },
  );
  const stillThere = new Map(stored.map((item) => [item.contactId as string, item.updatedAt as string]));
  const changed = new Set(contacts.filter((contact) => stillThere.get(contact.id) !== contact.updatedAt).map((contact) => contact.id));
  const seen = new Set(contacts.map((contact) => contact.id));
  for (const contactId of await contactsWithEventsSince(projectId, filters, readAt - EVENT_SKEW_MS)) {
    if (seen.has(contactId)) changed.add(contactId);
  }
  return changed;
}

/** Joins the filter's events since `from` into `facts` (the latest per contact and name). */
async function addEventsSince(projectId: string, filters: FilterGroup, facts: NameFacts, from: number): Promise<void> {
  for (const name of eventNamesOf(filters)) {
    const latest = facts.get(name) ?? new Map<string, number>();
    facts.set(name, latest);
    for await (const events of namedEventsSince(projectId, name, from)) {
      for (const event of events) latest.set(event.contactId, Math.max(latest.get(event.contactId) ?? 0, decodeTime(event.eventId)));
    }
  }
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
  return updateIfStill({
    TableName: tableName,
    Key: segmentKeys.segment(job.projectId, job.segmentId),
    UpdateExpression: 'SET membershipStatus = :ready',
    ConditionExpression: 'filtersVersion = :version',
    ExpressionAttributeValues: { ':ready': 'READY', ':version': job.filtersVersion },
  });
}
