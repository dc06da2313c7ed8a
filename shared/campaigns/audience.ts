import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { encodeTime } from 'ulid';
import { documentClient } from '../aws/clients';
import { toContact, type Contact } from '../contacts/contacts';
import { contactKeys } from '../contacts/keys';
import { batchGetAll } from '../db/batch';
import { tableName } from '../db/table';
import { validationFailed } from '../http/errors';
import { compileFilter, contactPaths, type FilterGroup } from '../segments/filter';
import { contactPage, lastEventAtFrom, loadNameFacts } from '../segments/evaluate';
import { segmentKeys } from '../segments/keys';

/**
 * A campaign's audience, read page by page: every subscribed contact (GSI3, the subscribed
 * partition), or a segment's members — tracked membership items, or the project's contacts
 * evaluated on demand against the filters. Pages are read newest contact first and only contacts
 * created before the send started (ids at or below `bound`) belong to it, so a contact created
 * mid-send never joins and none is read twice: the audience is frozen when sending starts.
 * Unsubscribed contacts are left out here; suppression is the sender's check.
 */
export type Recipient = Pick<Contact, 'id' | 'email' | 'data'>;

export interface AudiencePage {
  recipients: Recipient[];
  /** Where the next page starts; undefined after the last. */
  next?: Record<string, unknown>;
}

export interface AudienceReader {
  page(cursor: Record<string, unknown> | undefined, limit: number): Promise<AudiencePage>;
}

/** The highest contact id that existed at `time`: every ULID of a later millisecond sorts above it. */
export const contactIdBound = (time: number) => `${encodeTime(time, 10)}ZZZZZZZZZZZZZZZZ`;

/** A reader of the audience (all subscribed contacts when segmentId is null); 422 when the segment is gone. */
export async function audienceReader(projectId: string, segmentId: string | null, bound: string): Promise<AudienceReader> {
  if (!segmentId) return subscribedContacts(projectId, bound);
  const segment = await readSegment(projectId, segmentId);
  return segment.trackMembership ? trackedMembers(projectId, segmentId, bound) : await evaluatedMembers(projectId, segment.filters, bound);
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

function subscribedContacts(projectId: string, bound: string): AudienceReader {
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
      return { recipients: (result.Items ?? []).map(toContact).filter((contact) => contact.subscribed).map(recipient), next: result.LastEvaluatedKey };
    },
  };
}

function trackedMembers(projectId: string, segmentId: string, bound: string): AudienceReader {
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
      const recipients = ids.flatMap((id) => {
        const contact = byId.get(id);
        return contact?.subscribed ? [recipient(contact)] : [];
      });
      return { recipients, next: result.LastEvaluatedKey };
    },
  };
}

/** On demand: the event facts of the filter are loaded once per reader (one dispatch invocation). */
async function evaluatedMembers(projectId: string, filters: FilterGroup, bound: string): Promise<AudienceReader> {
  const now = Date.now();
  const facts = await loadNameFacts(projectId, filters, now);
  const predicate = compileFilter(filters, now);
  // Rendering needs email and data whole; paths inside them would overlap in the projection.
  const whole = ['email', 'data', 'subscribed'];
  const paths = [...contactPaths(filters).filter((path) => !whole.includes(path[0]!)), ...whole.map((name) => [name])];
  return {
    async page(cursor, limit) {
      const { contacts, nextKey } = await contactPage(projectId, paths, cursor, limit);
      const recipients = contacts.filter((contact) => contact.id <= bound && contact.subscribed && predicate(contact, lastEventAtFrom(facts, contact.id))).map(recipient);
      return { recipients, next: nextKey };
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
