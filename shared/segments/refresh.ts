import { queryAll } from '../db/query';
import { enqueueBuild } from './build-queue';
import { segmentKeys } from './keys';

/**
 * The daily refresh of tracked segments whose membership ages with time ("triggered X within the
 * last N days"): contacts leave such a segment when their event grows old, with no change to
 * react to. Each such segment (listed on GSI1, across projects) gets a build job for its current
 * filters: the build walks its contacts again, and those whose events aged out exit
 * (segment.exited), without the segment leaving READY. Returns how many were queued.
 */
export async function refreshTimedSegments(): Promise<number> {
  const listed = await queryAll({
    IndexName: 'GSI1',
    KeyConditionExpression: 'GSI1PK = :timed',
    ExpressionAttributeValues: { ':timed': segmentKeys.timedPartition() },
    ProjectionExpression: 'GSI1SK, filtersVersion, membershipStatus',
  });
  // A segment still BUILDING gets its current state from that build.
  const ready = listed.filter((item) => item.membershipStatus !== 'BUILDING');
  for (const item of ready) {
    const { projectId, segmentId } = segmentKeys.fromTimedListing(item.GSI1SK as string);
    await enqueueBuild({ projectId, segmentId, filtersVersion: item.filtersVersion as number, recordEvents: true });
  }
  return ready.length;
}
