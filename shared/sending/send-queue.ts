import { requiredEnv } from '../config/env';
import type { SendMessage } from '../emails/emails';
import { sendMessageBatches } from '../queue/send-batches';

const sendQueueUrl = requiredEnv('SEND_QUEUE_URL');

/** Queues one message per email on the send queue (transactional and workflow mail). */
export async function enqueueEmails(messages: SendMessage[]): Promise<void> {
  await sendMessageBatches(sendQueueUrl, messages.map((message) => JSON.stringify(message)));
}
