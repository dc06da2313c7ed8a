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
}

export const streamConsumers: readonly StreamConsumerSpec[] = [
  // Contacts and events change tracked segments' membership; a deleted segment's members are removed in the background (/docs "Segments").
  { group: 'segment-membership', batchSize: 100, retryAttempts: 10, sortKeyPrefixes: ['CONTACT#', 'EVENT#'], removalPrefixes: ['SEGMENT#'] },
  // New events and contacts start workflows and wake waiting executions; a deleted workflow's executions are cancelled in the background (/docs "Workflows").
  { group: 'workflow-triggers', batchSize: 100, retryAttempts: 10, sortKeyPrefixes: ['CONTACT#', 'EVENT#'], removalPrefixes: ['WORKFLOW#'] },
  // Events, contact changes and project notifications become outbound webhook deliveries (/docs "Webhooks").
  { group: 'webhook-events', batchSize: 100, retryAttempts: 10, sortKeyPrefixes: ['EVENT#', 'CONTACT#', 'NOTIFICATION#'] },
];
