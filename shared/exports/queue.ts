import { SendMessageCommand } from '@aws-sdk/client-sqs';
import * as v from 'valibot';
import { requiredEnv } from '../config/env';
import { variables } from '../config/variables';
import { sqsClient } from '../queue/handler';

const exportQueueUrl = requiredEnv(variables.exportQueueUrl);

export const exportMessageSchema = v.object({ projectId: v.pipe(v.string(), v.nonEmpty()), jobId: v.pipe(v.string(), v.nonEmpty()) });
export type ExportMessage = v.InferOutput<typeof exportMessageSchema>;

/** Hands an export job to the contact-exports worker. */
export async function enqueueExport(message: ExportMessage): Promise<void> {
  await sqsClient.send(new SendMessageCommand({ QueueUrl: exportQueueUrl, MessageBody: JSON.stringify(message) }));
}
