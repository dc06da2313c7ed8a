import { SendMessageCommand } from '@aws-sdk/client-sqs';
import * as v from 'valibot';
import { requiredEnv } from '../config/env';
import { variables } from '../config/variables';
import { sqsClient } from '../queue/handler';
import { sendMessageBatches } from '../queue/send-batches';

const workflowQueueUrl = requiredEnv(variables.workflowQueueUrl);

/** SQS delays a message by at most 15 minutes; longer waits go through EventBridge Scheduler. */
export const MAX_QUEUE_DELAY_SECONDS = 900;

/**
 * The workflow queue's message: "advance this execution at this step". A step's first message
 * starts it; DELAY and WAIT_FOR_EVENT get another when their time is up (SQS delay or a one-time
 * schedule) and WAIT_FOR_EVENT one per matching event (`event`, from the trigger consumer).
 */
export const stepMessageSchema = v.object({
  projectId: v.pipe(v.string(), v.nonEmpty()),
  workflowId: v.pipe(v.string(), v.nonEmpty()),
  executionId: v.pipe(v.string(), v.nonEmpty()),
  stepId: v.pipe(v.string(), v.nonEmpty()),
  event: v.optional(v.object({ id: v.string(), name: v.string(), createdAt: v.string() })),
});

export type StepMessage = v.InferOutput<typeof stepMessageSchema>;

export const parseStepMessage = (body: unknown): StepMessage => v.parse(stepMessageSchema, body);

/** Queues the message, delayed by up to 15 minutes. */
export async function sendStepMessage(message: StepMessage, delaySeconds = 0): Promise<void> {
  await sqsClient.send(
    new SendMessageCommand({
      QueueUrl: workflowQueueUrl,
      MessageBody: JSON.stringify(message),
      ...(delaySeconds > 0 ? { DelaySeconds: Math.min(MAX_QUEUE_DELAY_SECONDS, Math.ceil(delaySeconds)) } : {}),
    }),
  );
}

/** Queues several messages at once, ten per SendMessageBatch (a trigger's first steps, the waits an event wakes), each after its delay in `delays` (seconds, up to 15 minutes). */
export async function sendStepMessages(messages: StepMessage[], delays?: readonly number[]): Promise<void> {
  await sendMessageBatches(
    workflowQueueUrl,
    messages.map((message) => JSON.stringify(message)),
    { delays },
  );
}

/** Queues a job for the workflow-runner that is not a step: a `kind` tells it apart (shared/workflows/cancel.ts). */
export async function sendRunnerJob(job: { kind: string }): Promise<void> {
  await sqsClient.send(new SendMessageCommand({ QueueUrl: workflowQueueUrl, MessageBody: JSON.stringify(job) }));
}
