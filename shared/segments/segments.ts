import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import { documentClient } from '../aws/clients';
import { countContacts, toContact, type Contact } from '../contacts/contacts';
import { contactKeys } from '../contacts/keys';
import type { Page } from '../contacts/list-contacts';
import { integerEnv } from '../config/env';
import { variables } from '../config/variables';
import { batchGetAll } from '../db/batch';
import { tableName } from '../db/table';
import { decodeCursor, encodeCursor, pageOf } from '../http/cursor';
import { badRequest, conflict, notFound } from '../http/errors';
import { logger } from '../observability/logger';
import { runBuild, type BuildJob } from './build';
import { enqueueBuild } from './build-queue';
import { assertEvaluable, evaluateSegment } from './evaluate';
import { agesWithTime, type FilterGroup } from './filter';
import { segmentKeys } from './keys';
import type { CreateSegmentInput, ListQuery, SegmentChanges } from './schemas';
import { ULID_PATTERN } from '../http/ids';

/** A tracked segment's membership: being built (memberCount counts what is built so far), or built and kept current. */
export type MembershipStatus = 'BUILDING' | 'READY';

export interface Segment {
  id: string;
  name: string;
  filters: FilterGroup;
  trackMembership: boolean;
  /** Tracked: the counter. On demand: evaluated now (null in lists, where it is not evaluated). */
  memberCount: number | null;
  /** Tracked segments only (null on demand). */
  membershipStatus: MembershipStatus | null;
  createdAt: string;
  updatedAt: string;
}

interface StoredSegment extends Omit<Segment, 'memberCount' | 'membershipStatus'> {
  filtersVersion: number;
  memberCount?: number;
  membershipStatus?: MembershipStatus;
}

/**
 * Projects with at most this many contacts get a tracked segment built within the request that
 * creates it or changes its filters, so the response carries the final memberCount; larger ones
 * are built by the segment-builder function (/docs "Segments").
 */
export const inlineBuildMaxContacts = integerEnv(variables.segmentInlineBuildMaxContacts, 1_000, { min: 0 });
/** An inline build that takes longer hands the rest to the builder. */
const INLINE_BUILD_BUDGET_MS = 10_000;

/**
 * POST /segments. On demand: checks the audience size (O(1)), evaluates, stores. Tracked: stores
 * the segment (BUILDING, so the stream consumer applies concurrent contact changes to it), then
 * builds its membership (startBuild); contacts that matched at its creation get no segment.entered
 * (they did not enter: the segment is new), contacts created or changed into it since get one
 * (membership.ts, TrackedSegment.quietBefore).
 */
export async function createSegment(projectId: string, input: CreateSegmentInput): Promise<Segment> {
  const now = new Date().toISOString();
  const stored: StoredSegment = {
    id: ulid(),
    name: input.name,
    filters: input.filters,
    trackMembership: input.trackMembership,
    filtersVersion: 1,
    createdAt: now,
    updatedAt: now,
  };
  if (!stored.trackMembership) {
    await assertEvaluable(projectId);
    const { memberIds } = await evaluateSegment(projectId, stored.filters);
    await putSegment(projectId, stored);
    return present(stored, memberIds.length);
  }
  await putSegment(projectId, { ...stored, memberCount: 0, membershipStatus: 'BUILDING' });
  try {
    await startBuild({ projectId, segmentId: stored.id, filtersVersion: stored.filtersVersion, recordEvents: false });
  } catch (error) {
    // Neither built nor queued: take the segment back rather than leave it BUILDING for ever.
    await deleteSegment(projectId, stored.id);
    throw error;
  }
  return getSegment(projectId, stored.id);
}

/**
 * Builds a tracked segment's membership within the request when the project is small enough,
 * else (or when that build runs out of time or fails) hands it to the segment-builder function.
 */
async function startBuild(job: BuildJob): Promise<void> {
  const { total } = await countContacts(job.projectId);
  if (total <= inlineBuildMaxContacts) {
    try {
      const outcome = await runBuild(job, Date.now() + INLINE_BUILD_BUDGET_MS);
      if (outcome.status === 'CONTINUE') await enqueueBuild(outcome.next);
      return;
    } catch (error) {
      logger.warn('Inline segment build failed; the segment builder takes it over', { projectId: job.projectId, segmentId: job.segmentId, error: error as Error });
    }
  }
  await enqueueBuild(job);
}

/** The members POST /segments/preview shows, newest first. */
export const PREVIEW_SAMPLE_SIZE = 10;

export interface SegmentPreview {
  memberCount: number;
  subscribedCount: number;
  sample: Contact[];
}

/**
 * POST /segments/preview: the filters evaluated now, nothing saved — the same size check and
 * the same evaluation as an on-demand segment (and the same filter and event facts as a tracked
 * segment's build), so the counts are what the saved segment then reports.
 */
export async function previewSegment(projectId: string, filters: FilterGroup): Promise<SegmentPreview> {
  await assertEvaluable(projectId);
  const { memberIds, subscribedCount } = await evaluateSegment(projectId, filters);
  return { memberCount: memberIds.length, subscribedCount, sample: await contactsByIds(projectId, memberIds.slice(0, PREVIEW_SAMPLE_SIZE)) };
}

export async function getSegment(projectId: string, segmentId: string): Promise<Segment> {
  const stored = await readSegment(projectId, segmentId);
  return present(stored, await memberCountOf(projectId, stored));
}

/** GET /segments: one Query per page, newest first; memberCount only for tracked segments (a counter). */
export async function listSegments(projectId: string, query: ListQuery): Promise<Page<Segment>> {
  const partition = segmentKeys.partition(projectId);
  const binding = JSON.stringify(['segments', projectId]);
  const startKey = query.cursor ? decodeCursor(query.cursor, binding, { PK: partition }, ['SK']) : undefined;
  const [result, counter] = await Promise.all([
    documentClient.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
        ExpressionAttributeValues: { ':pk': partition, ':prefix': segmentKeys.segmentPrefix },
        ScanIndexForward: false,
        Limit: query.limit + 1,
        ExclusiveStartKey: startKey,
      }),
    ),
    documentClient.send(new GetCommand({ TableName: tableName, Key: segmentKeys.counter(projectId) })),
  ]);
  const { page, hasMore, nextCursor } = pageOf(result, query.limit, ['PK', 'SK'], binding);
  return {
    items: page.map((item) => {
      const stored = toStored(item);
      return present(stored, stored.trackMembership ? (stored.memberCount ?? 0) : null);
    }),
    nextCursor,
    hasMore,
    total: (counter.Item?.total as number | undefined) ?? 0,
  };
}

/**
 * PATCH: a new name, and/or new filters (which bump filtersVersion, so stream writes evaluated
 * with the old filters fail their condition and re-evaluate, and a build of the old filters
 * stops). A tracked segment with new filters is rebuilt (BUILDING again): contacts entering and
 * leaving get segment.entered / segment.exited.
 */
export async function patchSegment(projectId: string, segmentId: string, changes: SegmentChanges): Promise<Segment> {
  const current = await readSegment(projectId, segmentId);
  const rebuild = current.trackMembership && changes.filters !== undefined;
  // Segments whose membership ages with time are listed for the daily refresh (refresh.ts).
  const timed = rebuild && agesWithTime(changes.filters!) ? segmentKeys.timedListing(projectId, segmentId) : undefined;
  if (changes.filters && !current.trackMembership) await assertEvaluable(projectId);
  const now = new Date().toISOString();
  const next: StoredSegment = {
    ...current,
    name: changes.name ?? current.name,
    filters: changes.filters ?? current.filters,
    filtersVersion: current.filtersVersion + (changes.filters ? 1 : 0),
    ...(rebuild ? { membershipStatus: 'BUILDING' as const } : {}),
    updatedAt: now,
  };
  try {
    await documentClient.send(
      new UpdateCommand({
        TableName: tableName,
        Key: segmentKeys.segment(projectId, segmentId),
        UpdateExpression: rebuild
          ? `SET #name = :name, #filters = :filters, filtersVersion = :next, updatedAt = :now, membershipStatus = :building${timed ? ', GSI1PK = :timedPk, GSI1SK = :timedSk' : ' REMOVE GSI1PK, GSI1SK'}`
          : 'SET #name = :name, #filters = :filters, filtersVersion = :next, updatedAt = :now',
        ConditionExpression: 'filtersVersion = :version',
        ExpressionAttributeNames: { '#name': 'name', '#filters': 'filters' },
        ExpressionAttributeValues: {
          ':name': next.name,
          ':filters': next.filters,
          ':next': next.filtersVersion,
          ':now': now,
          ':version': current.filtersVersion,
          ...(rebuild ? { ':building': 'BUILDING' } : {}),
          ...(rebuild && timed ? { ':timedPk': timed.GSI1PK, ':timedSk': timed.GSI1SK } : {}),
        },
      }),
    );
  } catch (error) {
    if ((error as Error).name === 'ConditionalCheckFailedException') throw conflict('CONCURRENT_MODIFICATION', 'The segment changed concurrently; retry the request');
    throw error;
  }
  if (!rebuild) return present(next, await memberCountOf(projectId, next));
  await startBuild({ projectId, segmentId, filtersVersion: next.filtersVersion, recordEvents: true });
  return getSegment(projectId, segmentId);
}

/**
 * DELETE: removes the segment and its count in one transaction (O(1)); the request answers then.
 * A tracked segment's membership items are deleted in the background: the item's REMOVE on the
 * table stream queues their cleanup (shared/segments/cleanup.ts). Membership writes condition on
 * the segment item, so no member is added after this point.
 */
export async function deleteSegment(projectId: string, segmentId: string): Promise<void> {
  if (!ULID_PATTERN.test(segmentId)) throw notFound('Segment');
  try {
    await documentClient.send(
      new TransactWriteCommand({
        TransactItems: [
          { Delete: { TableName: tableName, Key: segmentKeys.segment(projectId, segmentId), ConditionExpression: 'attribute_exists(PK)' } },
          counterUpdate(projectId, -1),
        ],
      }),
    );
  } catch (error) {
    if (error instanceof TransactionCanceledException) throw notFound('Segment');
    throw error;
  }
}

/**
 * GET /segments/{id}/contacts, newest contact first. Tracked: one Query on the membership items
 * plus one BatchGetItem of the page's contacts. On demand: a full evaluation per request (the
 * page is cut from it; `total` is its size).
 */
export async function listSegmentContacts(projectId: string, segmentId: string, query: ListQuery): Promise<Page<Contact>> {
  const segment = await readSegment(projectId, segmentId);
  const partition = segmentKeys.partition(projectId);
  const binding = JSON.stringify(['segment-contacts', projectId, segmentId, segment.filtersVersion]);
  const startKey = query.cursor ? decodeCursor(query.cursor, binding, { PK: partition }, ['SK']) : undefined;

  if (segment.trackMembership) {
    const prefix = segmentKeys.memberPrefix(segmentId);
    if (startKey && !startKey.SK!.startsWith(prefix)) throw badCursor();
    const result = await documentClient.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
        ExpressionAttributeValues: { ':pk': partition, ':prefix': prefix },
        ScanIndexForward: false,
        Limit: query.limit + 1,
        ExclusiveStartKey: startKey,
      }),
    );
    const { page, hasMore, nextCursor } = pageOf(result, query.limit, ['PK', 'SK'], binding);
    return {
      items: await contactsByIds(projectId, page.map((item) => item.contactId as string)),
      nextCursor,
      hasMore,
      total: segment.memberCount ?? 0,
    };
  }

  await assertEvaluable(projectId);
  const { memberIds } = await evaluateSegment(projectId, segment.filters);
  let from = 0;
  if (startKey) {
    const after = startKey.SK!.slice(contactKeys.contactPrefix.length);
    if (!startKey.SK!.startsWith(contactKeys.contactPrefix)) throw badCursor();
    from = memberIds.findIndex((id) => id < after); // newest first: ids descend
    if (from === -1) from = memberIds.length;
  }
  const ids = memberIds.slice(from, from + query.limit);
  const hasMore = from + query.limit < memberIds.length;
  const lastId = ids[ids.length - 1];
  return {
    items: await contactsByIds(projectId, ids),
    nextCursor: hasMore && lastId ? encodeCursor(contactKeys.contact(projectId, lastId), binding) : null,
    hasMore,
    total: memberIds.length,
  };
}

// ---- helpers ---------------------------------------------------------------------------------------

const badCursor = () => badRequest('INVALID_CURSOR', 'The cursor is invalid or belongs to another query', 'Omit cursor to start from the first page.');

async function contactsByIds(projectId: string, ids: string[]): Promise<Contact[]> {
  const found = new Map((await batchGetAll(ids.map((id) => contactKeys.contact(projectId, id)))).map((item) => [item.contactId as string, toContact(item)]));
  // A member deleted a moment ago (its stream record not yet applied) is left out.
  return ids.flatMap((id) => (found.has(id) ? [found.get(id)!] : []));
}

/** Tracked: the counter, read with the segment (O(1)). On demand: an evaluation. */
async function memberCountOf(projectId: string, segment: StoredSegment): Promise<number> {
  if (segment.trackMembership) return segment.memberCount ?? 0;
  await assertEvaluable(projectId);
  return (await evaluateSegment(projectId, segment.filters)).memberIds.length;
}

async function readSegment(projectId: string, segmentId: string): Promise<StoredSegment> {
  const { Item } = ULID_PATTERN.test(segmentId)
    ? await documentClient.send(new GetCommand({ TableName: tableName, Key: segmentKeys.segment(projectId, segmentId), ConsistentRead: true }))
    : { Item: undefined };
  if (!Item) throw notFound('Segment');
  return toStored(Item);
}

async function putSegment(projectId: string, segment: StoredSegment): Promise<void> {
  await documentClient.send(
    new TransactWriteCommand({
      TransactItems: [
        {
          Put: {
            TableName: tableName,
            Item: {
              ...segmentKeys.segment(projectId, segment.id),
              ...(segment.trackMembership && agesWithTime(segment.filters) ? segmentKeys.timedListing(projectId, segment.id) : {}),
              segmentId: segment.id,
              name: segment.name,
              filters: segment.filters,
              trackMembership: segment.trackMembership,
              filtersVersion: segment.filtersVersion,
              ...(segment.memberCount !== undefined ? { memberCount: segment.memberCount } : {}),
              ...(segment.membershipStatus ? { membershipStatus: segment.membershipStatus } : {}),
              createdAt: segment.createdAt,
              updatedAt: segment.updatedAt,
            },
            ConditionExpression: 'attribute_not_exists(PK)',
          },
        },
        counterUpdate(projectId, 1),
      ],
    }),
  );
}

function counterUpdate(projectId: string, delta: number) {
  return {
    Update: {
      TableName: tableName,
      Key: segmentKeys.counter(projectId),
      UpdateExpression: 'ADD #total :delta',
      ExpressionAttributeNames: { '#total': 'total' },
      ExpressionAttributeValues: { ':delta': delta },
    },
  };
}

function toStored(item: Record<string, unknown>): StoredSegment {
  return {
    id: item.segmentId as string,
    name: item.name as string,
    filters: item.filters as FilterGroup,
    trackMembership: item.trackMembership as boolean,
    filtersVersion: item.filtersVersion as number,
    ...(item.memberCount !== undefined ? { memberCount: item.memberCount as number } : {}),
    ...(item.membershipStatus ? { membershipStatus: item.membershipStatus as MembershipStatus } : {}),
    createdAt: item.createdAt as string,
    updatedAt: item.updatedAt as string,
  };
}

function present(segment: StoredSegment, memberCount: number | null): Segment {
  return {
    id: segment.id,
    name: segment.name,
    filters: segment.filters,
    trackMembership: segment.trackMembership,
    memberCount,
    membershipStatus: segment.trackMembership ? (segment.membershipStatus ?? 'READY') : null,
    createdAt: segment.createdAt,
    updatedAt: segment.updatedAt,
  };
}
