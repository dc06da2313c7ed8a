import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { requiredEnv } from '../config/env';
import type { SendMessage } from '../emails/emails';
import { currentCorrelationId } from '../observability/correlation';
import { traced } from '../observability/tracer';

const sendQueueUrl = requiredEnv('SEND_QUEUE_URL');
const sqs = traced(new SQSClient({}));

/**
 * Queues one message per email, ten per SendMessageBatch, retrying entries SQS did not take; each
 * with the correlation id of the work that queued it (an API request's requestId), for the sender's logs.
 */
export async function enqueueEmails(messages: SendMessage[]): Promise<void> {
  const correlationId = currentCorrelationId();
  const withCorrelation = (message: SendMessage) => (correlationId && !message.correlationId ? { ...message, correlationId } : message);
  for (let start = 0; start < messages.length; start += 10) {
    let entries = messages.slice(start, start + 10).map((message, index) => ({ Id: String(index), MessageBody: JSON.stringify(withCorrelation(message)) }));
    for (let attempt = 0; entries.length > 0; attempt++) {
      if (attempt >= 5) throw new Error(`SQS refused ${entries.length} send messages`);
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 100 * 2 ** attempt));
      const { Failed = [] } = await sqs.send(new SendMessageBatchCommand({ QueueUrl: sendQueueUrl, Entries: entries }));
      const failedIds = new Set(Failed.map((failure) => failure.Id));
      entries = entries.filter((entry) => failedIds.has(entry.Id));
    }
  }
}
