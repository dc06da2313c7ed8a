import { countTallies, isTallied } from '../../shared/delivery/tallies';
import { createStreamHandler, type StreamHandler } from '../../shared/streams/handler';

/**
 * The table stream's consumer that counts mail: the events an email's outcomes write carry their
 * tally (shared/delivery/tallies.ts), and each batch of them is added to the name counters, the
 * events total, the source stats and the day counters in a transaction or a few, exactly once.
 * The whole batch is one group: a failure retries it from its first record, and the runs it
 * counted already are skipped by their markers.
 */
export const handler: StreamHandler = createStreamHandler({
  name: 'delivery-counters',
  keyOf: (change) => (isTallied(change) ? 'batch' : undefined),
  process: countTallies,
});
