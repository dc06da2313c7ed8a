/**
 * Table keys of the delivery-counters consumer's markers (shared/delivery/tallies.ts): one item per
 * run of stream records it counted, keyed by the id of the run's first record, kept two days (TTL).
 * | item       | PK                     | SK          |
 * |------------|------------------------|-------------|
 * | run marker | COUNTED_RUN#<record id> | COUNTED_RUN |
 */
export const countedRunKeys = {
  run: (firstRecordId: string) => ({ PK: `COUNTED_RUN#${firstRecordId}`, SK: 'COUNTED_RUN' }),
};
