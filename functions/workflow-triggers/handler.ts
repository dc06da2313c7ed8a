import { createStreamHandler, type StreamHandler } from '../../shared/streams/handler';
import { removedWorkflow } from '../../shared/workflows/removals';
import { sendCancelExecutionsJob } from '../../shared/workflows/cancel-job';
import { batchLoaders, handleOccurrence, occurrenceOf } from '../../shared/workflows/triggers';

/**
 * The table stream's consumer that starts workflows: new events (custom, segment.entered /
 * exited, email.*) and new contacts, in stream order per contact. Each occurrence enters the
 * workflows its trigger index lists and wakes the executions waiting for that event; both are
 * idempotent (derived execution ids, conditional writes), as a retried batch repeats them.
 * A deleted workflow's REMOVE queues the cancellation of its executions for the workflow-runner
 * (shared/workflows/cancel.ts).
 */
export const handler: StreamHandler = createStreamHandler({
  name: 'workflow-triggers',
  // Each project's names item and each trigger's index item are read once per batch (shared/workflows/triggers.ts).
  perBatch: batchLoaders,
  keyOf: (change) => {
    const removed = removedWorkflow(change);
    if (removed) return `workflow|${removed.projectId}|${removed.workflowId}`;
    const occurrence = occurrenceOf(change);
    return occurrence && `${occurrence.projectId}|${occurrence.contactId}`;
  },
  process: async (changes, loaders) => {
    const removed = removedWorkflow(changes[0]!);
    if (removed) {
      await sendCancelExecutionsJob({ kind: 'cancel-executions', ...removed });
      return;
    }
    for (const change of changes) await handleOccurrence(occurrenceOf(change)!, loaders);
  },
});
