import { ChangeMessageVisibilityCommand, GetQueueUrlCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { Context, SQSBatchItemFailure, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { withCorrelationId } from '../observability/correlation';
import { logger } from '../observability/logger';
import { countMetric, flushMetrics, metricNames } from '../observability/metrics';
import { inSubsegment, traced } from '../observability/tracer';
import { InvalidMessage, RetryLater } from './errors';

export { InvalidMessage, RetryLater } from './errors';

export interface SqsHandlerOptions<T> {
  /** For the logs: the consumer's name. */
  name: string;
  /** Validates the JSON-decoded body; throws when it is not a valid message. */
  parse: (body: unknown) => T;
  /** `context` tells how long the invocation may still run (builders that continue in a new message). */
  process: (message: T, record: SQSRecord, context?: Context) => Promise<void>;
}

export type SqsHandler = (event: SQSEvent, context?: Context) => Promise<SQSBatchResponse>;

/** Longest visibility timeout SQS accepts (12 hours). */
const MAX_VISIBILITY_SECONDS = 43_200;

export const sqsClient = traced(new SQSClient({}));

/**
 * The one SQS consumer factory (the queue-side twin of createHttpHandler). Every consumer is
 * `createSqsHandler({ name, parse, process })` and so fails the same way:
 * - the records of a batch are processed concurrently; each that throws — or whose body does not
 *   parse — is reported in batchItemFailures (the event source mapping needs
 *   ReportBatchItemFailures), the others are deleted: one bad message never fails its batch;
 * - a failed message reappears after the queue's visibility timeout and, after maxReceiveCount
 *   receives, moves to the DLQ; an unparseable one therefore ends in the DLQ, never blocking;
 * - `RetryLater` brings the message back after its delay instead (ChangeMessageVisibility);
 * - failures are logged with the messageId and receive count, never the body.
 */
export function createSqsHandler<T>(options: SqsHandlerOptions<T>): SqsHandler {
  async function handleRecord(record: SQSRecord, context?: Context): Promise<void> {
    let body: unknown;
    try {
      body = JSON.parse(record.body);
    } catch {
      throw new InvalidMessage('The message body is not JSON');
    }
    let message: T;
    try {
      message = options.parse(body);
    } catch (error) {
      throw new InvalidMessage(`The message body is not a valid message: ${describeParseError(error)}`);
    }
    // A message that carries the correlation id of the request behind it (the send queue's do)
    // has it on every log line written while it is processed.
    await withCorrelationId(correlationIdOf(body), () => options.process(message, record, context));
  }

  return (event, context) =>
    inSubsegment(options.name, {}, async () => {
      const records = event.Records ?? [];
      const results = await Promise.allSettled(records.map((record) => handleRecord(record, context)));
      const batchItemFailures: SQSBatchItemFailure[] = [];
      await Promise.all(
        results.map(async (result, index) => {
          if (result.status === 'fulfilled') return;
          const record = records[index]!;
          batchItemFailures.push({ itemIdentifier: record.messageId });
          await withCorrelationId(correlationIdOf(parsedOrUndefined(record.body)), () => reportFailure(options.name, record, result.reason));
        }),
      );
      flushMetrics();
      return { batchItemFailures };
    });
}

function parsedOrUndefined(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

const correlationIdOf = (body: unknown) => {
  const value = (body as { correlationId?: unknown } | null)?.correlationId;
  return typeof value === 'string' && value.length > 0 && value.length <= 200 ? value : undefined;
};

async function reportFailure(consumer: string, record: SQSRecord, error: unknown): Promise<void> {
  const context = { consumer, messageId: record.messageId, receiveCount: Number(record.attributes?.ApproximateReceiveCount ?? 1) };
  if (error instanceof RetryLater) {
    const delaySeconds = Math.max(0, Math.min(MAX_VISIBILITY_SECONDS, Math.round(error.delaySeconds)));
    logger.warn('Message will be retried later', { ...context, delaySeconds, reason: error.message });
    try {
      const queueUrl = await queueUrlOf(record.eventSourceARN);
      await sqsClient.send(new ChangeMessageVisibilityCommand({ QueueUrl: queueUrl, ReceiptHandle: record.receiptHandle, VisibilityTimeout: delaySeconds }));
    } catch (visibilityError) {
      // Still a batch item failure: the message comes back after the queue's visibility timeout.
      logger.error('Could not shorten the message visibility', { ...context, error: visibilityError as Error });
    }
    return;
  }
  countMetric(metricNames.messageFailures, { consumer });
  if (error instanceof InvalidMessage) {
    logger.error('Invalid message; it will reach the DLQ after maxReceiveCount receives', { ...context, reason: error.message });
    return;
  }
  logger.error('Message processing failed', { ...context, error: error as Error });
}

const queueUrls = new Map<string, Promise<string>>();

/** The queue URL of an event source ARN (arn:aws:sqs:<region>:<account>:<name>), looked up once. */
export function queueUrlOf(queueArn: string): Promise<string> {
  let url = queueUrls.get(queueArn);
  if (!url) {
    const [, , , , account, name] = queueArn.split(':');
    if (!name) return Promise.reject(new Error(`Not an SQS queue ARN: ${queueArn}`));
    url = sqsClient.send(new GetQueueUrlCommand({ QueueName: name, QueueOwnerAWSAccountId: account || undefined })).then(({ QueueUrl }) => {
      if (!QueueUrl) throw new Error(`No URL for queue ${queueArn}`);
      return QueueUrl;
    });
    url.catch(() => queueUrls.delete(queueArn));
    queueUrls.set(queueArn, url);
  }
  return url;
}

/**
 * A short description of a validation error: where and what was expected, never the received
 * values (valibot's messages quote them, and a body may carry secrets).
 */
function describeParseError(error: unknown): string {
  const issues = (error as { issues?: { kind?: string; type?: string; expected?: string | null; path?: { key?: unknown }[] }[] } | undefined)?.issues;
  if (!Array.isArray(issues)) return (error as Error | undefined)?.name ?? 'invalid';
  return issues
    .slice(0, 5)
    .map((issue) => `${(issue.path ?? []).map((item) => String(item.key)).join('.') || '(root)'}: expected ${issue.expected ?? issue.type ?? 'valid value'}`)
    .join('; ');
}
