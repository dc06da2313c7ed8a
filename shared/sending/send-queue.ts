import { requiredEnv } from '../config/env';
import { variables } from '../config/variables';
import type { SendMessage } from '../emails/emails';
import { currentCorrelationId } from '../observability/correlation';
import { sendMessageBatches } from '../queue/send-batches';

const sendQueueUrl = requiredEnv(variables.sendQueueUrl);

/**
 * Queues one message per email on the send queue (transactional and workflow mail), each with the
 * correlation id of the work that queued it (an API request's requestId), for the sender's logs.
 */
export async function enqueueEmails(messages: SendMessage[]): Promise<void> {
  const correlationId = currentCorrelationId();
  await sendMessageBatches(sendQueueUrl, messages.map((message) => JSON.stringify(correlationId && !message.correlationId ? { ...message, correlationId } : message)));
}
