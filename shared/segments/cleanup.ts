import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import { documentClient } from '../aws/clients';
import { batchWriteAll } from '../db/batch';
import { tableName } from '../db/table';
import { projectOfPartition } from '../projects/keys';
import { segmentKeys } from './keys';

/**
 * A deleted tracked segment's membership items, removed in the background. DELETE /segments/{id}
 * removes only the segment item (and its count), in O(1); the table stream's REMOVE of that item
 * reaches the segment-membership consumer (infra/streams.ts, `removalPrefixes`), which queues a
 * cleanup job on the segment-builds queue; the segment-builder deletes the members page by page
 * and queues the rest with its cursor when its time is nearly up. Every step is idempotent: a
 * redelivered job deletes what is already gone (a no-op), a job for a segment that still exists
 * deletes nothing, and no member is written after the segment item is gone (membership writes
 * condition on it).
 */

/** Members read and deleted per page (four BatchWriteItem calls). */
export const CLEANUP_PAGE_SIZE = 100;
export const memberCleanupJobSchema = v.object({
  kind: v.literal('delete-members'),
  projectId: v.pipe(v.string(), v.nonEmpty()),
  segmentId: v.pipe(v.string(), v.nonEmpty()),
  /** The member page to start from (the last page's LastEvaluatedKey); absent: the first. */
  cursor: v.optional(v.object({ PK: v.string(), SK: v.string() })),
});

export type MemberCleanupJob = v.InferOutput<typeof memberCleanupJobSchema>;

export const parseMemberCleanupJob = (body: unknown): MemberCleanupJob => v.parse(memberCleanupJobSchema, body);

/** Whether a segment-builds message is a cleanup job (the others are builds). */
export const isMemberCleanupJob = (body: unknown): boolean => typeof body === 'object' && body !== null && (body as { kind?: unknown }).kind === 'delete-members';

/** The tracked segment a table change removed (a REMOVE of a segment item), if it is one; on-demand segments have no members. */
export function removedSegment(change: { eventName: string; keys: Record<string, unknown>; oldImage?: Record<string, unknown> }): { projectId: string; segmentId: string } | undefined {
  const projectId = projectOfPartition(change.keys.PK);
  const sk = String(change.keys.SK ?? '');
  if (change.eventName !== 'REMOVE' || !projectId || !sk.startsWith(segmentKeys.segmentPrefix)) return undefined;
  if (change.oldImage?.trackMembership === false) return undefined;
  const segmentId = sk.slice(segmentKeys.segmentPrefix.length);
  if (!segmentId || segmentKeys.segment(projectId, segmentId).SK !== sk) return undefined;
  return { projectId, segmentId };
}

export type CleanupOutcome = { status: 'DONE'; deleted: number } | { status: 'CONTINUE'; deleted: number; next: MemberCleanupJob };

/**
 * Deletes the job's members from its cursor on, a page at a time, until none are left (DONE) or
 * `deadline` (ms) has passed (CONTINUE, with the cursor of the next page). A segment that still
 * exists keeps its members (a stray or forged job).
 */
export async function runMemberCleanup(job: MemberCleanupJob, deadline: number): Promise<CleanupOutcome> {
  const { projectId, segmentId } = job;
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: tableName, Key: segmentKeys.segment(projectId, segmentId), ConsistentRead: true, ProjectionExpression: 'PK' }),
  );
  if (Item) return { status: 'DONE', deleted: 0 };
  let cursor: Record<string, string> | undefined = job.cursor;
  let deleted = 0;
  for (;;) {
    const page = await documentClient.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
        ExpressionAttributeValues: { ':pk': segmentKeys.partition(projectId), ':prefix': segmentKeys.memberPrefix(segmentId) },
        ProjectionExpression: 'PK, SK',
        Limit: CLEANUP_PAGE_SIZE,
        ...(cursor ? { ExclusiveStartKey: cursor } : {}),
      }),
    );
    const keys = (page.Items ?? []).map((item) => ({ PK: item.PK as string, SK: item.SK as string }));
    await batchWriteAll(keys.map((Key) => ({ DeleteRequest: { Key } })));
    deleted += keys.length;
    cursor = page.LastEvaluatedKey as Record<string, string> | undefined;
    if (!cursor) return { status: 'DONE', deleted };
    const next: MemberCleanupJob = { kind: 'delete-members', projectId, segmentId, cursor: { PK: cursor.PK!, SK: cursor.SK! } };
    if (Date.now() >= deadline) return { status: 'CONTINUE', deleted, next };
  }
}

