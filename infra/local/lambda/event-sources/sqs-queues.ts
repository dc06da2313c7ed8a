import { DeleteMessageBatchCommand, ReceiveMessageCommand, type Message, type SQSClient } from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { REGION, resourcesOfType, referencedLogicalId, type CfnTemplate } from '../../template/cloud-assembly';
import type { Resolve } from '../../template/intrinsics';
import type { FunctionRunner } from '../runner';

/**
 * Lambda's SQS event source mappings, locally, as the template declares them (queue, BatchSize,
 * MaximumBatchingWindowInSeconds, ScalingConfig.MaximumConcurrency, FunctionResponseTypes): up to
 * MaximumConcurrency pollers receive batches with the function's own role, invoke it with the
 * SQS event shape and delete what succeeded — with ReportBatchItemFailures all but the reported
 * items, without it the whole batch or nothing. A failed message becomes visible again after the
 * queue's visibility timeout, and the queue's RedrivePolicy moves it to its DLQ after
 * maxReceiveCount receives — the same path as in AWS.
 */
export interface SqsMapping {
  functionLogicalId: string;
  queueUrl: string;
  queueArn: string;
  batchSize: number;
  batchingWindowSeconds: number;
  maxConcurrency: number;
  reportBatchItemFailures: boolean;
}

/** Lambda's default when a mapping sets no MaximumConcurrency is account-wide scaling; locally a handful. */
const DEFAULT_LOCAL_CONCURRENCY = 5;

export function sqsMappings(template: CfnTemplate, resolve: Resolve, queueUrlByArn: ReadonlyMap<string, string>): SqsMapping[] {
  return resourcesOfType(template, 'AWS::Lambda::EventSourceMapping').flatMap(([, resource]) => {
    const properties = resource.Properties ?? {};
    const queueArn = String(resolve(properties.EventSourceArn));
    const queueUrl = queueUrlByArn.get(queueArn);
    if (!queueUrl || properties.Enabled === false) return [];
    return [
      {
        functionLogicalId: referencedLogicalId(properties.FunctionName)!,
        queueUrl,
        queueArn,
        batchSize: Number(properties.BatchSize ?? 10),
        batchingWindowSeconds: Number(properties.MaximumBatchingWindowInSeconds ?? 0),
        maxConcurrency: Number(properties.ScalingConfig?.MaximumConcurrency ?? DEFAULT_LOCAL_CONCURRENCY),
        reportBatchItemFailures: (properties.FunctionResponseTypes ?? []).includes('ReportBatchItemFailures'),
      },
    ];
  });
}

export function startSqsMapping(mapping: SqsMapping, runner: FunctionRunner, sqs: SQSClient, log: (line: string) => void): () => Promise<void> {
  let running = true;
  const pollers = Array.from({ length: mapping.maxConcurrency }, () => poll());

  async function poll() {
    while (running) {
      try {
        const messages = await receiveBatch();
        if (messages.length > 0 && running) await deliver(messages);
      } catch (error) {
        if (!running) break;
        log(`Polling ${mapping.queueArn} for ${runner.definition.name} failed; retrying: ${(error as Error).name}: ${(error as Error).message}`);
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    }
  }

  /** Up to BatchSize messages, waiting up to the batching window for a fuller batch. */
  async function receiveBatch(): Promise<Message[]> {
    const messages: Message[] = [];
    const deadline = Date.now() + mapping.batchingWindowSeconds * 1000;
    do {
      const { Messages = [] } = await sqs.send(
        new ReceiveMessageCommand({
          QueueUrl: mapping.queueUrl,
          MaxNumberOfMessages: Math.min(10, mapping.batchSize - messages.length),
          WaitTimeSeconds: 1,
          MessageSystemAttributeNames: ['All'],
          MessageAttributeNames: ['All'],
        }),
      );
      messages.push(...Messages);
    } while (running && messages.length > 0 && messages.length < mapping.batchSize && Date.now() < deadline);
    return messages;
  }

  async function deliver(messages: Message[]) {
    const event: SQSEvent = { Records: messages.map((message) => toRecord(message, mapping.queueArn)) };
    const outcome = await runner.invoke(event);
    if (!outcome.ok) return; // the whole batch comes back after the visibility timeout
    const failed = new Set(
      mapping.reportBatchItemFailures ? ((outcome.result as SQSBatchResponse | null)?.batchItemFailures ?? []).map((failure) => failure.itemIdentifier) : [],
    );
    const done = messages.filter((message) => !failed.has(message.MessageId!));
    for (let start = 0; start < done.length; start += 10) {
      await sqs.send(
        new DeleteMessageBatchCommand({
          QueueUrl: mapping.queueUrl,
          Entries: done.slice(start, start + 10).map((message, index) => ({ Id: String(index), ReceiptHandle: message.ReceiptHandle! })),
        }),
      );
    }
  }

  return async () => {
    running = false;
    await Promise.allSettled(pollers);
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
    awsRegion: REGION,
  };
}
