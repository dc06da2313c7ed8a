/**
 * Consumers of the table's stream, read by the CDK stack (DynamoEventSource); the local stack
 * reads the mappings the stack makes of them from the synthesized template
 * (infra/local/lambda/event-sources/dynamodb-streams.ts).
 */
export interface StreamConsumerSpec {
  /** The function group: functions/<group>/handler.ts. */
  group: string;
  batchSize: number;
  /** Retries of a failing batch (bisected on each) before its records go to the DLQ. */
  retryAttempts: number;
  /** Only items whose sort key begins with one of these reach the function (Lambda filter criteria). */
  sortKeyPrefixes: readonly string[];
  /** And the deletions (REMOVE records only) of items whose sort key begins with one of these. */
  removalPrefixes?: readonly string[];
  /** And the new items (INSERT records only) whose sort key begins so (and a string attribute, when given). */
  insertions?: { sortKeyPrefix: string; attribute?: { name: string; valuePrefix: string } };
  /** Whether a failing batch is halved on each retry (default true). */
  bisect?: boolean;
  /** How long Lambda gathers records before it invokes (default 0: at once). */
  batchingWindowSeconds?: number;
}

export const streamConsumers: readonly StreamConsumerSpec[] = [
  // Contacts and events change tracked segments' membership; a deleted segment's members are removed in the background (/docs "Segments").
  { group: 'segment-membership', batchSize: 100, retryAttempts: 10, sortKeyPrefixes: ['CONTACT#', 'EVENT#'], removalPrefixes: ['SEGMENT#'] },
  // New events and contacts start workflows and wake waiting executions; a deleted workflow's executions are cancelled in the background (/docs "Workflows").
  { group: 'workflow-triggers', batchSize: 100, retryAttempts: 10, sortKeyPrefixes: ['CONTACT#', 'EVENT#'], removalPrefixes: ['WORKFLOW#'] },
  // Events, contact changes and project notifications become outbound webhook deliveries (/docs "Webhooks").
  { group: 'webhook-events', batchSize: 100, retryAttempts: 10, sortKeyPrefixes: ['EVENT#', 'CONTACT#', 'NOTIFICATION#'] },
  // Emails' events are counted in batches (shared/delivery/tallies.ts): a failed batch is retried whole, never halved,
  // which its run markers rely on, up to 10,000 times (the most Lambda allows short of retrying until the records expire)
  // before its place in the stream goes to the DLQ and its alarm; a 10-s window gathers the events of spread-out mail
  // into one transaction.
  {
    group: 'delivery-counters',
    batchSize: 100,
    retryAttempts: 10_000,
    sortKeyPrefixes: [],
    insertions: { sortKeyPrefix: 'EVENT#', attribute: { name: 'name', valuePrefix: 'email.' } },
    bisect: false,
    batchingWindowSeconds: 10,
  },
  // New executions add their entries to their workflows' figures (shared/workflows/entry-figures.ts), as delivery-counters does.
  {
    group: 'workflow-figures',
    batchSize: 100,
    retryAttempts: 10_000,
    sortKeyPrefixes: [],
    insertions: { sortKeyPrefix: 'EXECUTION#' },
    bisect: false,
    batchingWindowSeconds: 10,
  },
];
