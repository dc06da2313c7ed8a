import { createStreamHandler } from '../../shared/streams/handler';
import { occurrenceOf, startExecutions, wakeWaiting } from '../../shared/workflows/triggers';

/**
 * The table stream's consumer that starts workflows: new events (custom, segment.entered /
 * exited, email.*) and new contacts, in stream order per contact. Each occurrence enters the
 * workflows its trigger index lists and wakes the executions waiting for that event; both are
 * idempotent (derived execution ids, conditional writes), as a retried batch repeats them.
 */
export const handler = createStreamHandler({
  name: 'workflow-triggers',
  keyOf: (change) => {
    const occurrence = occurrenceOf(change);
    return occurrence && `${occurrence.projectId}|${occurrence.contactId}`;
  },
  process: async (changes) => {
    for (const change of changes) {
      const occurrence = occurrenceOf(change)!;
      await startExecutions(occurrence);
      await wakeWaiting(occurrence);
    }
  },
});
