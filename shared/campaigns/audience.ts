import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { encodeTime } from 'ulid';
import { documentClient } from '../aws/clients';
import { countContacts, toContact, type Contact } from '../contacts/contacts';
import { contactKeys } from '../contacts/keys';
import { batchGetAll } from '../db/batch';
import { tableName } from '../db/table';
import { validationFailed } from '../http/errors';
import { compileFilter, contactPaths, type FilterGroup } from '../segments/filter';
import { contactPage, lastEventAtFrom, loadNameFacts } from '../segments/evaluate';
import { segmentKeys } from '../segments/keys';
import { normalizeAddress, suppressionKeys } from '../suppression/keys';

/**
 * A campaign's audience, read page by page: every subscribed contact (GSI3, the subscribed
 * partition), or a segment's members — tracked membership items, or the project's contacts
 * evaluated on demand against the filters. Pages are read newest contact first and only contacts
 * created before the send started (ids at or below `bound`) belong to it, so a contact created
 * mid-send never joins and none is read twice: the audience is frozen when sending starts.
 * Unsubscribed contacts and suppressed addresses are left out here (one BatchGetItem of the
 * page's suppression keys), so what is queued is what GET /campaigns/{id}/audience counts; the
 * sender checks suppression again when it sends (an address suppressed meanwhile).
 */
export type Recipient = Pick<Contact, 'id' | 'email' | 'data'>;

export interface AudiencePage {
  recipients: Recipient[];
  /** Where the next page starts; undefined after the last. */
  next?: Record<string, unknown>;
  /** What the page read: audience members (subscribed or not), the subscribed ones, and of those the suppressed ones. */
  counts: { contacts: number; subscribed: number; suppressed: number };
}

/** A page of the audience's members, subscribed or not (the all-subscribed audience reads only subscribed ones). */
interface MemberPage {
  members: Contact[];
  next?: Record<string, unknown>;
}

interface MemberReader {
  page(cursor: Record<string, unknown> | undefined, limit: number): Promise<MemberPage>;
}

export interface AudienceReader {
  page(cursor: Record<string, unknown> | undefined, limit: number): Promise<AudiencePage>;
}

/** The highest contact id that existed at `time`: every ULID of a later millisecond sorts above it. */
export const contactIdBound = (time: number) => `${encodeTime(time, 10)}ZZZZZZZZZZZZZZZZ`;

/** A reader of the audience (all subscribed contacts when segmentId is null); 422 when the segment is gone. */
export async function audienceReader(projectId: string, segmentId: string | null, bound: string): Promise<AudienceReader> {
  return recipientsOf(projectId, await memberReader(projectId, segmentId, bound));
}

async function memberReader(projectId: string, segmentId: string | null, bound: string): Promise<MemberReader> {
  if (!segmentId) return subscribedContacts(projectId, bound);
  const segment = await readSegment(projectId, segmentId);
  return segment.trackMembership ? trackedMembers(projectId, segmentId, bound) : await evaluatedMembers(projectId, segment.filters, bound);
}

/** The recipients among each page of members: subscribed, and not suppressed. */
function recipientsOf(projectId: string, members: MemberReader): AudienceReader {
  return {
    async page(cursor, limit) {
      const page = await members.page(cursor, limit);
      const subscribed = page.members.filter((contact) => contact.subscribed);
      const suppressed = await suppressedAmong(projectId, subscribed);
      return {
        recipients: subscribed.filter((contact) => !suppressed.has(normalizeAddress(contact.email))).map(recipient),
        next: page.next,
        counts: { contacts: page.members.length, subscribed: subscribed.length, suppressed: subscribed.filter((contact) => suppressed.has(normalizeAddress(contact.email))).length },
      };
    },
  };
}

async function suppressedAmong(projectId: string, contacts: Contact[]): Promise<Set<string>> {
  if (contacts.length === 0) return new Set();
  const items = await batchGetAll(contacts.map((contact) => suppressionKeys.suppressed(projectId, contact.email)), { consistentRead: true, projection: 'SK' });
  return new Set(items.map((item) => (item.SK as string).slice(suppressionKeys.prefix.length)));
}

export interface AudienceCounts {
  /** The audience's contacts: a segment's members, subscribed or not; every contact of the project for the all-subscribed audience. */
  contacts: number;
  subscribed: number;
  /** Subscribed, but their address is suppressed: never sent to. */
  suppressed: number;
  /** What sending now would queue: subscribed and not suppressed. */
  recipients: number;
}

/**
 * GET /campaigns/{id}/audience: the audience as sending now would read it — the same readers and
 * filters as the dispatch, page by page (one page in memory), counted.
 */
export async function countAudience(projectId: string, segmentId: string | null, now = Date.now(), pageSize = 250): Promise<AudienceCounts> {
  const reader = await audienceReader(projectId, segmentId, contactIdBound(now));
  const counts: AudienceCounts = { contacts: 0, subscribed: 0, suppressed: 0, recipients: 0 };
  let cursor: Record<string, unknown> | undefined;
  do {
    const page = await reader.page(cursor, pageSize);
    counts.contacts += page.counts.contacts;
    counts.subscribed += page.counts.subscribed;
    counts.suppressed += page.counts.suppressed;
    counts.recipients += page.recipients.length;
    cursor = page.next;
  } while (cursor);
  // The all-subscribed audience reads only subscribed contacts: its contacts are the project's.
  if (!segmentId) counts.contacts = (await countContacts(projectId)).total;
  return counts;
}

/** Whether the audience has at least one recipient: pages until it finds one (the first page, usually). */
export async function hasRecipients(reader: AudienceReader, limit = 100): Promise<boolean> {
  let cursor: Record<string, unknown> | undefined;
  do {
    const page = await reader.page(cursor, limit);
    if (page.recipients.length > 0) return true;
    cursor = page.next;
  } while (cursor);
  return false;
}

const recipient = (contact: Contact): Recipient => ({ id: contact.id, email: contact.email, data: contact.data });

function subscribedContacts(projectId: string, bound: string): MemberReader {
  return {
    async page(cursor, limit) {
      const result = await documentClient.send(
        new QueryCommand({
          TableName: tableName,
          IndexName: 'GSI3',
          KeyConditionExpression: 'GSI3PK = :pk AND GSI3SK <= :bound',
          ExpressionAttributeValues: { ':pk': contactKeys.bySubscribedPartition(projectId, true), ':bound': bound },
          ScanIndexForward: false,
          Limit: limit,
          ExclusiveStartKey: cursor,
        }),
      );
      return { members: (result.Items ?? []).map(toContact).filter((contact) => contact.subscribed), next: result.LastEvaluatedKey };
    },
  };
}

function trackedMembers(projectId: string, segmentId: string, bound: string): MemberReader {
  const prefix = segmentKeys.memberPrefix(segmentId);
  return {
    async page(cursor, limit) {
      const result = await documentClient.send(
        new QueryCommand({
          TableName: tableName,
          KeyConditionExpression: 'PK = :pk AND SK BETWEEN :low AND :high',
          ExpressionAttributeValues: { ':pk': segmentKeys.partition(projectId), ':low': prefix, ':high': `${prefix}${bound}` },
          ProjectionExpression: 'contactId',
          ScanIndexForward: false,
          Limit: limit,
          ExclusiveStartKey: cursor,
        }),
      );
      const ids = (result.Items ?? []).map((item) => item.contactId as string);
      const contacts = (await batchGetAll(ids.map((id) => contactKeys.contact(projectId, id)))).map(toContact);
      const byId = new Map(contacts.map((contact) => [contact.id, contact]));
      // In membership order; members deleted since are left out.
      const members = ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
      return { members, next: result.LastEvaluatedKey };
    },
  };
}

/** On demand: the event facts of the filter are loaded once per reader (one dispatch invocation). */
async function evaluatedMembers(projectId: string, filters: FilterGroup, bound: string): Promise<MemberReader> {
  const now = Date.now();
  const facts = await loadNameFacts(projectId, filters, now);
  const predicate = compileFilter(filters, now);
  // Rendering needs email and data whole; paths inside them would overlap in the projection.
  const whole = ['email', 'data', 'subscribed'];
  const paths = [...contactPaths(filters).filter((path) => !whole.includes(path[0]!)), ...whole.map((name) => [name])];
  return {
    async page(cursor, limit) {
      const { contacts, nextKey } = await contactPage(projectId, paths, cursor, limit);
      return { members: contacts.filter((contact) => contact.id <= bound && predicate(contact, lastEventAtFrom(facts, contact.id))), next: nextKey };
    },
  };
}

async function readSegment(projectId: string, segmentId: string): Promise<{ filters: FilterGroup; trackMembership: boolean }> {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: tableName, Key: segmentKeys.segment(projectId, segmentId), ConsistentRead: true, ProjectionExpression: 'filters, trackMembership' }),
  );
  if (!Item) throw validationFailed([{ field: 'segmentId', code: 'NOT_FOUND', message: 'The campaign\'s segment does not exist' }]);
  return { filters: Item.filters as FilterGroup, trackMembership: Item.trackMembership === true };
}

/** Fails with 422 unless the segment exists (create and update check it). */
export async function assertSegmentExists(projectId: string, segmentId: string): Promise<void> {
  await readSegment(projectId, segmentId);
}
