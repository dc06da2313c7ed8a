import { GetQueueAttributesCommand, ListQueuesCommand, SQSClient } from '@aws-sdk/client-sqs';

/** The stack's dead-letter queues (every queue named …-dlq) and those holding messages, as `name: count`. */
export async function deadLetters(sqsEndpoint: string): Promise<{ dlqs: string[]; holding: string[] }> {
  const sqs = new SQSClient({ endpoint: sqsEndpoint, region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } });
  try {
    const { QueueUrls = [] } = await sqs.send(new ListQueuesCommand({}));
    const dlqs = QueueUrls.filter((url) => url.endsWith('-dlq'));
    const holding: string[] = [];
    for (const QueueUrl of dlqs) {
      const { Attributes = {} } = await sqs.send(new GetQueueAttributesCommand({ QueueUrl, AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'] }));
      const held = Number(Attributes.ApproximateNumberOfMessages ?? 0) + Number(Attributes.ApproximateNumberOfMessagesNotVisible ?? 0);
      if (held > 0) holding.push(`${QueueUrl.split('/').pop()}: ${held}`);
    }
    return { dlqs, holding };
  } finally {
    sqs.destroy();
  }
}
