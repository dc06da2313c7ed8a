import { createStreamHandler, type StreamHandler } from '../../shared/streams/handler';
import { countEntries, isEntry } from '../../shared/workflows/entry-figures';

/**
 * The table stream's consumer that counts workflow entries: each new execution carries what its
 * entry adds to its workflow's figures (shared/workflows/entry-figures.ts), and each batch of them is
 * added in a transaction or a few, exactly once. The whole batch is one group: a failure retries it
 * from its first record, and the runs it counted already are skipped by their markers.
 */
export const handler: StreamHandler = createStreamHandler({
  name: 'workflow-figures',
  keyOf: (change) => (isEntry(change) ? 'batch' : undefined),
  process: countEntries,
});
