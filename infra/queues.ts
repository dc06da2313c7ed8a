/**
 * Every queue, each with its DLQ: read by the CDK stack and by the local stack. Consumers are
 * declared with their function group; the local pollers honour the same settings.
 */
export interface QueueSpec {
  name: string;
  /** Receives before a message moves to the DLQ. */
  maxReceiveCount: number;
  visibilityTimeoutSeconds: number;
  /** The function group that consumes it (functions/<group>/handler.ts), if any yet. */
  consumer?: { group: string; batchSize: number; maxConcurrency: number };
  envVar: string;
}

export const queues: readonly QueueSpec[] = [
  { name: 'send', maxReceiveCount: 8, visibilityTimeoutSeconds: 180, envVar: 'SEND_QUEUE_URL' },
];

export const dlqName = (queueName: string) => `${queueName}-dlq`;
