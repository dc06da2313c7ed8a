import { variables, type Variable } from '../shared/config/variables';

/**
 * Every queue, each with its DLQ, read by the CDK stack; consumers are declared with their
 * function group. The local stack runs the queues and mappings the stack makes of them, from the
 * synthesized template.
 */
export interface QueueSpec {
  name: string;
  /** Receives before a message moves to the DLQ. */
  maxReceiveCount: number;
  visibilityTimeoutSeconds: number;
  /** The function group that consumes it (functions/<group>/handler.ts), if any yet. */
  consumer?: {
    group: string;
    batchSize: number;
    maxConcurrency: number;
    /** The consumer's Lambda timeout (default CONSUMER_TIMEOUT_SECONDS, infra/constructs/consumers.ts). */
    timeoutSeconds?: number;
    memorySize?: number;
  };
  /** The variable its URL is given to functions as. */
  envVar: Variable['name'];
}

export const queues: readonly QueueSpec[] = [
  // Throttled sends come back after a short backoff (ChangeMessageVisibility), each a receive
  // (two with the local emulator): 30 receives keep a 35 % failure rate from dead-lettering good
  // mail, and ride out about 7 hours of SES daily-quota stall (15-minute retries).
  {
    name: 'send',
    maxReceiveCount: 30,
    visibilityTimeoutSeconds: 180,
    envVar: variables.sendQueueUrl.name,
    // Eight instances keep the pacer busy while others are between batches (claiming, recording,
    // polling: 0.78 → 0.83 of the rate in the local bench from 5 to 8); the pacer, not the concurrency, holds
    // the SES rate. At 14/s the 80 emails in flight wait at most about 6 s for their slots.
    // 256 MB: the sender waits on DynamoDB, its slot and SES, and is billed for its memory while it
    // waits (half of 512 MB's price per email; the cost bench prints it).
    consumer: { group: 'sender', batchSize: 10, maxConcurrency: 8, memorySize: 256 },
  },
  // Tracked segments too large to build within a request: one job per message, each invocation
  // building pages for its timeout and queueing the rest. Jobs are idempotent; one that keeps
  // failing reaches the DLQ (and its alarm) after 5 receives.
  {
    name: 'segment-builds',
    maxReceiveCount: 5,
    visibilityTimeoutSeconds: 180,
    envVar: variables.segmentBuildQueueUrl.name,
    consumer: { group: 'segment-builder', batchSize: 1, maxConcurrency: 2 },
  },
  // Workflow steps (/docs "Workflows"): one message advances one execution by one step. A
  // failing step comes back after 2, 4, 8, 16 s and then fails its execution (the runner counts
  // receives), so the DLQ only sees messages the runner could not even read.
  {
    name: 'workflows',
    maxReceiveCount: 10,
    visibilityTimeoutSeconds: 180,
    envVar: variables.workflowQueueUrl.name,
    consumer: { group: 'workflow-runner', batchSize: 10, maxConcurrency: 5 },
  },
  // Outbound webhook deliveries (/docs "Webhooks"): one message per attempt of one event for one
  // endpoint. Retries and busy endpoints go back as new delayed messages (no receive counted),
  // so the DLQ only sees messages that failed for the consumer's own reasons 5 times.
  {
    name: 'webhook-deliveries',
    maxReceiveCount: 5,
    visibilityTimeoutSeconds: 180,
    envVar: variables.webhookDeliveryQueueUrl.name,
    consumer: { group: 'webhook-delivery', batchSize: 10, maxConcurrency: 10 },
  },
  // Contact imports (/docs "Imports and exports"): one message per job; each invocation imports
  // rows for up to 5 minutes from the job's checkpoint and queues the job again to continue.
  // Two workers at a time (16 upserts in flight each) bound an import's share of DynamoDB.
  // The visibility timeout is 6× the worker's timeout, so a crashed invocation's job resumes then;
  // one stopped by a busy or failing dependency resumes from its checkpoint within seconds
  // (shared/imports/worker.ts).
  {
    name: 'contact-imports',
    maxReceiveCount: 5,
    visibilityTimeoutSeconds: 1800,
    envVar: variables.importQueueUrl.name,
    consumer: { group: 'contact-imports', batchSize: 1, maxConcurrency: 2, timeoutSeconds: 300 },
  },
  // Contact exports: one message per job, each written in one invocation of up to 15 minutes.
  {
    name: 'contact-exports',
    maxReceiveCount: 3,
    visibilityTimeoutSeconds: 5400,
    envVar: variables.exportQueueUrl.name,
    consumer: { group: 'contact-exports', batchSize: 1, maxConcurrency: 2, timeoutSeconds: 900 },
  },
  // Campaigns (/docs "Campaigns"): the fan-out queue takes a campaign's start (from its schedule)
  // and dispatch messages; one dispatcher per campaign pages its audience for up to 2 minutes and
  // queues its continuation. A message that finds another dispatcher owning the campaign comes
  // back after that one's lease, which costs receives: hence 20.
  {
    name: 'campaign-fanout',
    maxReceiveCount: 20,
    visibilityTimeoutSeconds: 720,
    envVar: variables.campaignFanoutQueueUrl.name,
    consumer: { group: 'campaign-dispatch', batchSize: 1, maxConcurrency: 4, timeoutSeconds: 120 },
  },
  // Campaign mail, one message per email: the sender in the pacer's campaign lane, which only takes
  // slots transactional mail leaves free. Retries as on the send queue.
  {
    name: 'campaign-send',
    maxReceiveCount: 30,
    visibilityTimeoutSeconds: 180,
    envVar: variables.campaignSendQueueUrl.name,
    // 256 MB as the sender: at full rate each instance holds a batch and sleeps for its slots, billed.
    consumer: { group: 'campaign-sender', batchSize: 10, maxConcurrency: 4, memorySize: 256 },
  },
];

export const dlqName = (queueName: string) => `${queueName}-dlq`;
