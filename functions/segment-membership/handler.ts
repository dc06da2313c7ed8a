import { enqueueMemberCleanup } from '../../shared/segments/build-queue';
import { removedSegment } from '../../shared/segments/cleanup';
import { contactToReevaluate, reevaluateContact, segmentLoader } from '../../shared/segments/membership';
import { createStreamHandler, type StreamHandler } from '../../shared/streams/handler';

/**
 * The table stream's consumer that keeps tracked segments current: every change of a contact, and
 * every event but segment.* ones, re-evaluates that contact (once per batch) against its
 * project's tracked segments, loaded once per invocation (after the batch was fetched, so a
 * segment created before a change was written is never missed). A deleted segment's REMOVE
 * queues the deletion of its members for the segment-builder (shared/segments/cleanup.ts).
 */
export const handler: StreamHandler = createStreamHandler({
  name: 'segment-membership',
  perBatch: segmentLoader,
  keyOf: (change) => {
    const removed = removedSegment(change);
    if (removed) return `segment|${removed.projectId}|${removed.segmentId}`;
    const target = contactToReevaluate(change);
    return target && `${target.projectId}|${target.contactId}`;
  },
  process: async (changes, segmentsOf) => {
    const removed = removedSegment(changes[0]!);
    if (removed) {
      await enqueueMemberCleanup({ kind: 'delete-members', ...removed });
      return;
    }
    const target = contactToReevaluate(changes[0]!)!;
    await reevaluateContact(target.projectId, target.contactId, segmentsOf);
  },
});
