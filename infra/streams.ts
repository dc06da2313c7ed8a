/**
 * Consumers of the table's stream: read by the CDK stack (DynamoEventSource) and by the local
 * stack (infra/local/streams.ts), so the two cannot drift — like infra/queues.ts for queues.
 */
export interface StreamConsumerSpec {
  /** The function group: functions/<group>/handler.ts. */
  group: string;
  batchSize: number;
  /** Retries of a failing batch (bisected on each) before its records go to the DLQ. */
  retryAttempts: number;
  /** Only items whose sort key begins with one of these reach the function (Lambda filter criteria). */
  sortKeyPrefixes: readonly string[];
}

export const streamConsumers: readonly StreamConsumerSpec[] = [
  // Contacts and events change tracked segments' membership (README "Segments").
  { group: 'segment-membership', batchSize: 100, retryAttempts: 10, sortKeyPrefixes: ['CONTACT#', 'EVENT#'] },
  // New events and contacts start workflows and wake waiting executions (README "Workflows").
  { group: 'workflow-triggers', batchSize: 100, retryAttempts: 10, sortKeyPrefixes: ['CONTACT#', 'EVENT#'] },
  // Events, contact changes and project notifications become outbound webhook deliveries (README "Webhooks").
  { group: 'webhook-events', batchSize: 100, retryAttempts: 10, sortKeyPrefixes: ['EVENT#', 'CONTACT#', 'NOTIFICATION#'] },
];

/** Whether a change of an item with this sort key passes the consumer's filter criteria. */
export const passesFilter = (spec: StreamConsumerSpec, sortKey: string) => spec.sortKeyPrefixes.some((prefix) => sortKey.startsWith(prefix));
