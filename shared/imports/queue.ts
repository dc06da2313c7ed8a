import { SendMessageCommand } from '@aws-sdk/client-sqs';
import * as v from 'valibot';
import { requiredEnv } from '../config/env';
import { variables } from '../config/variables';
import { sqsClient } from '../queue/handler';

const importQueueUrl = requiredEnv(variables.importQueueUrl);

export const importMessageSchema = v.object({ projectId: v.pipe(v.string(), v.nonEmpty()), jobId: v.pipe(v.string(), v.nonEmpty()) });
export type ImportMessage = v.InferOutput<typeof importMessageSchema>;

/** Hands an import job (or its continuation) to the contact-imports worker. */
export async function enqueueImport(message: ImportMessage): Promise<void> {
  await sqsClient.send(new SendMessageCommand({ QueueUrl: importQueueUrl, MessageBody: JSON.stringify(message) }));
}
