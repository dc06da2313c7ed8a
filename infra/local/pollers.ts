import { DeleteMessageBatchCommand, ReceiveMessageCommand, SQSClient, type Message } from '@aws-sdk/client-sqs';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { lambdaContext } from './lambda-context';

/**
 * The local stand-in for Lambda's SQS event source mapping: up to `maxConcurrency` pollers per
 * queue receive batches, invoke the consumer with the SQS event shape and delete only what it did
 * not report in batchItemFailures. A failed message becomes visible again after the queue's
 * visibility timeout, and the queue's RedrivePolicy moves it to the DLQ after maxReceiveCount
 * receives — the same path as in AWS.
 */
export type SqsHandler = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse | void>;

export interface PollerOptions {
  queueUrl: string;
  queueArn: string;
  batchSize: number;
  maxConcurrency: number;
  handler: SqsHandler;
  name: string;
  /** The consumer's Lambda timeout: what context.getRemainingTimeInMillis() counts down from. */
  timeoutMs?: number;
}

export function startPoller(options: PollerOptions): () => Promise<void> {
  const sqs = new SQSClient({});
  let running = true;
  const workers = Array.from({ length: options.maxConcurrency }, () => work());

  async function work() {
    while (running) {
      try {
        const { Messages = [] } = await sqs.send(
          new ReceiveMessageCommand({
            QueueUrl: options.queueUrl,
            MaxNumberOfMessages: options.batchSize,
            WaitTimeSeconds: 1,
            MessageSystemAttributeNames: ['All'],
            MessageAttributeNames: ['All'],
          }),
        );
        if (Messages.length === 0 || !running) continue;
        await deliver(Messages);
      } catch (error) {
        if (running) {
          console.error(`Poller ${options.name} failed; retrying`, error);
          await new Promise((resolve) => setTimeout(resolve, 1000));
        }
      }
    }
  }

  async function deliver(messages: Message[]) {
    const event: SQSEvent = { Records: messages.map((message) => toRecord(message, options.queueArn)) };
    let failed: Set<string>;
    try {
      const response = await options.handler(event, lambdaContext(options.name, options.timeoutMs ?? 30_000));
      failed = new Set((response?.batchItemFailures ?? []).map((failure) => failure.itemIdentifier));
    } catch (error) {
      console.error(`Consumer ${options.name} threw; the whole batch will be retried`, error);
      return;
    }
    const done = messages.filter((message) => !failed.has(message.MessageId!));
    if (done.length === 0) return;
    await sqs.send(
      new DeleteMessageBatchCommand({
        QueueUrl: options.queueUrl,
        Entries: done.map((message, index) => ({ Id: String(index), ReceiptHandle: message.ReceiptHandle! })),
      }),
    );
  }

  return async () => {
    running = false;
    await Promise.allSettled(workers);
  };
}

function toRecord(message: Message, queueArn: string): SQSRecord {
  const attributes = message.Attributes ?? {};
  return {
    messageId: message.MessageId!,
    receiptHandle: message.ReceiptHandle!,
    body: message.Body ?? '',
    attributes: {
      ApproximateReceiveCount: attributes.ApproximateReceiveCount ?? '1',
      SentTimestamp: attributes.SentTimestamp ?? String(Date.now()),
      SenderId: attributes.SenderId ?? 'local',
      ApproximateFirstReceiveTimestamp: attributes.ApproximateFirstReceiveTimestamp ?? String(Date.now()),
    },
    messageAttributes: Object.fromEntries(
      Object.entries(message.MessageAttributes ?? {}).map(([name, value]) => [
        name,
        { stringValue: value.StringValue, binaryValue: value.BinaryValue ? Buffer.from(value.BinaryValue).toString('base64') : undefined, dataType: value.DataType ?? 'String', stringListValues: [], binaryListValues: [] },
      ]),
    ),
    md5OfBody: message.MD5OfBody ?? '',
    eventSource: 'aws:sqs',
    eventSourceARN: queueArn,
    awsRegion: process.env.AWS_REGION ?? 'us-east-1',
  };
}

