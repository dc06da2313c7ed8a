import { contactToReevaluate, reevaluateContact, segmentLoader } from '../../shared/segments/membership';
import { createStreamHandler, type StreamHandler } from '../../shared/streams/handler';

/**
 * The table stream's consumer that keeps tracked segments current: every change of a contact, and
 * every event but segment.* ones, re-evaluates that contact (once per batch) against its
 * project's tracked segments, loaded once per invocation (after the batch was fetched, so a
 * segment created before a change was written is never missed).
 */
export const handler: StreamHandler = (event, context) => {
  const segmentsOf = segmentLoader();
  return createStreamHandler({
    name: 'segment-membership',
    keyOf: (change) => {
      const target = contactToReevaluate(change);
      return target && `${target.projectId}|${target.contactId}`;
    },
    process: async (changes) => {
      const target = contactToReevaluate(changes[0]!)!;
      await reevaluateContact(target.projectId, target.contactId, segmentsOf);
    },
  })(event, context);
};
