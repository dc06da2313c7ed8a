import { projectPartition } from '../projects/keys';

/**
 * Table keys of segments: built here and nowhere else.
 *
 * | item        | PK             | SK                                       |
 * |-------------|----------------|------------------------------------------|
 * | segment     | PROJECT#<pid>  | SEGMENT#<ulid>  (memberCount when tracked)|
 * | member      | PROJECT#<pid>  | SEGMENT_MEMBER#<segmentId>#<contactId>   |
 * | counter     | PROJECT#<pid>  | COUNTER#SEGMENTS                         |
 *
 * Tracked segments whose membership ages with time (withinDays) also carry
 * GSI1PK = TIMED_SEGMENTS, GSI1SK = <pid>#<segmentId>: the daily refresh's one Query across projects.
 *
 * Members of a tracked segment are one Query on `begins_with(SK, SEGMENT_MEMBER#<segmentId>#)`,
 * in contact-id (creation) order; `SEGMENT_MEMBER#` does not begin with `SEGMENT#`, so listing
 * segments never reads members.
 */
const TIMED_SEGMENTS = 'TIMED_SEGMENTS';

export const segmentKeys = {
  segment: (projectId: string, segmentId: string) => ({ PK: projectPartition(projectId), SK: `SEGMENT#${segmentId}` }),
  segmentPrefix: 'SEGMENT#',
  partition: (projectId: string) => projectPartition(projectId),
  member: (projectId: string, segmentId: string, contactId: string) => ({ PK: projectPartition(projectId), SK: `SEGMENT_MEMBER#${segmentId}#${contactId}` }),
  memberPrefix: (segmentId: string) => `SEGMENT_MEMBER#${segmentId}#`,
  counter: (projectId: string) => ({ PK: projectPartition(projectId), SK: 'COUNTER#SEGMENTS' }),
  timedListing: (projectId: string, segmentId: string) => ({ GSI1PK: TIMED_SEGMENTS, GSI1SK: `${projectId}#${segmentId}` }),
  timedPartition: () => TIMED_SEGMENTS,
  /** The project and segment of a timed listing's sort key. */
  fromTimedListing: (sortKey: string) => {
    const [projectId = '', segmentId = ''] = sortKey.split('#');
    return { projectId, segmentId };
  },
};
