import type { SQSRecord } from 'aws-lambda';

/** One SQS message as Lambda hands it to a queue consumer; tests say what they are about. */
export function sqsRecord({ body, messageId = 'm1', receiveCount = 1, queueArn = 'arn:aws:sqs:us-east-1:123456789012:send' }: { body: unknown; messageId?: string; receiveCount?: number; queueArn?: string }): SQSRecord {
  return {
    messageId,
    receiptHandle: `rh-${messageId}`,
    body: typeof body === 'string' ? body : JSON.stringify(body),
    attributes: { ApproximateReceiveCount: String(receiveCount), SentTimestamp: '1', SenderId: 'x', ApproximateFirstReceiveTimestamp: '1' },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: queueArn,
    awsRegion: 'us-east-1',
  };
}
