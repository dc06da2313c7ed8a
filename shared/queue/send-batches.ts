import { SendMessageBatchCommand } from '@aws-sdk/client-sqs';
import { sqsClient } from './handler';

/** Sends the bodies to the queue, ten per SendMessageBatch, retrying entries SQS did not take; `delays`: each body's DelaySeconds (at most 900). */
export async function sendMessageBatches(queueUrl: string, bodies: string[], delays?: readonly number[]): Promise<void> {
  for (let start = 0; start < bodies.length; start += 10) {
    let entries = bodies.slice(start, start + 10).map((body, index) => ({ Id: String(index), MessageBody: body, ...(delays?.[start + index] ? { DelaySeconds: delays[start + index] } : {}) }));
    for (let attempt = 0; entries.length > 0; attempt++) {
      if (attempt >= 5) throw new Error(`SQS refused ${entries.length} messages`);
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 100 * 2 ** attempt));
      const { Failed = [] } = await sqsClient.send(new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: entries }));
      const failedIds = new Set(Failed.map((failure) => failure.Id));
      entries = entries.filter((entry) => failedIds.has(entry.Id));
    }
  }
}
