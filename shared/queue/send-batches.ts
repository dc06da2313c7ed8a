import { SendMessageBatchCommand } from '@aws-sdk/client-sqs';
import { sqsClient } from './handler';

/**
 * Sends the bodies to the queue, ten per SendMessageBatch, retrying entries SQS did not take; each
 * delivered after `delaySeconds` (at most 900), or after its own in `delays` (one per body).
 */
export async function sendMessageBatches(queueUrl: string, bodies: string[], { delaySeconds, delays }: { delaySeconds?: number; delays?: readonly number[] } = {}): Promise<void> {
  for (let start = 0; start < bodies.length; start += 10) {
    let entries = bodies.slice(start, start + 10).map((body, index) => {
      const delay = delays?.[start + index] ?? delaySeconds;
      return { Id: String(index), MessageBody: body, ...(delay ? { DelaySeconds: delay } : {}) };
    });
    for (let attempt = 0; entries.length > 0; attempt++) {
      if (attempt >= 5) throw new Error(`SQS refused ${entries.length} messages`);
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 100 * 2 ** attempt));
      const { Failed = [] } = await sqsClient.send(new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: entries }));
      const failedIds = new Set(Failed.map((failure) => failure.Id));
      entries = entries.filter((entry) => failedIds.has(entry.Id));
    }
  }
}
