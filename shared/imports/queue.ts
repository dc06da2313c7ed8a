import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import * as v from 'valibot';
import { requiredEnv } from '../config/env';
import { traced } from '../observability/tracer';

const importQueueUrl = requiredEnv('IMPORT_QUEUE_URL');
const sqs = traced(new SQSClient({}));

export const importMessageSchema = v.object({ projectId: v.pipe(v.string(), v.nonEmpty()), jobId: v.pipe(v.string(), v.nonEmpty()) });
export type ImportMessage = v.InferOutput<typeof importMessageSchema>;

/** Hands an import job (or its continuation) to the contact-imports worker. */
export async function enqueueImport(message: ImportMessage): Promise<void> {
  await sqs.send(new SendMessageCommand({ QueueUrl: importQueueUrl, MessageBody: JSON.stringify(message) }));
}
