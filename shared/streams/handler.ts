import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { Context, DynamoDBBatchItemFailure, DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { logger } from '../observability/logger';
import { flushMetrics } from '../observability/metrics';
import { inSubsegment } from '../observability/tracer';

/** One table change, decoded: the images are plain objects (unmarshalled). */
export interface StreamChange {
  eventName: 'INSERT' | 'MODIFY' | 'REMOVE';
  keys: Record<string, unknown>;
  newImage?: Record<string, unknown>;
  oldImage?: Record<string, unknown>;
  sequenceNumber: string;
  record: DynamoDBRecord;
}

export interface StreamHandlerOptions<Batch = undefined> {
  /** For the logs: the consumer's name. */
  name: string;
  /**
   * Made anew for each batch, after it was fetched, and handed to every `process` call of that
   * batch: the reads its changes share (perBatchLoader, shared/streams/batch-loader.ts).
   */
  perBatch?: () => Batch;
  /**
   * Changes with the same key are handed to `process` together, in stream order; different keys
   * run concurrently. Return undefined to skip a change. Default: the item's PK and SK.
   */
  keyOf?: (change: StreamChange) => string | undefined;
  /** Handles the changes of one key; must be idempotent (a retried batch repeats them). */
  process: (changes: StreamChange[], batch: Batch) => Promise<void>;
  /** Keys processed at once (default 10). */
  concurrency?: number;
}

export type StreamHandler = (event: DynamoDBStreamEvent, context?: Context) => Promise<DynamoDBBatchResponse>;

/**
 * The one DynamoDB stream consumer factory (the stream-side twin of createSqsHandler):
 * - records are decoded (NewImage/OldImage unmarshalled) and grouped by `keyOf`; each group is
 *   processed in stream order, groups concurrently;
 * - a group that throws (or a record that cannot be decoded or keyed) is a failure. Per Lambda's stream
 *   contract (ReportBatchItemFailures), the response names the EARLIEST failed record's
 *   SequenceNumber: Lambda checkpoints before it and retries from it, so every record after it is
 *   delivered again — which is why `process` must be idempotent;
 * - after the event source mapping's retry attempts (bisecting the batch on the way), the failed
 *   records' metadata goes to the on-failure destination (a DLQ with an alarm);
 * - failures are logged with the sequence number and keys, never the images.
 */
export function createStreamHandler<Batch = undefined>(options: StreamHandlerOptions<Batch>): StreamHandler {
  const keyOf = options.keyOf ?? ((change: StreamChange) => `${String(change.keys.PK)}|${String(change.keys.SK)}`);
  const concurrency = options.concurrency ?? 10;

  const handle = async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
    const records = event.Records ?? [];
    const batch = options.perBatch ? options.perBatch() : (undefined as Batch);
    const failedPositions: number[] = [];
    const groups = new Map<string, { position: number; changes: StreamChange[] }>();

    records.forEach((record, position) => {
      let change: StreamChange;
      let key: string | undefined;
      let step: 'decode' | 'key' = 'decode';
      try {
        change = decode(record);
        step = 'key';
        key = keyOf(change);
      } catch (error) {
        failedPositions.push(position);
        logger.error('Stream record failed before processing', { consumer: options.name, step, sequenceNumber: record.dynamodb?.SequenceNumber, error: error as Error });
        return;
      }
      if (key === undefined) return;
      const group = groups.get(key) ?? { position, changes: [] };
      group.changes.push(change);
      groups.set(key, group);
    });

    const queue = [...groups.entries()];
    const worker = async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        const [key, group] = next;
        try {
          await options.process(group.changes, batch);
        } catch (error) {
          failedPositions.push(group.position);
          logger.error('Stream record processing failed', {
            consumer: options.name,
            key,
            sequenceNumber: group.changes[0]!.sequenceNumber,
            error: error as Error,
          });
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, queue.length) }, worker));

    if (failedPositions.length === 0) return { batchItemFailures: [] };
    const earliest = records[Math.min(...failedPositions)]!;
    const failure: DynamoDBBatchItemFailure = { itemIdentifier: earliest.dynamodb?.SequenceNumber ?? earliest.eventID ?? '' };
    return { batchItemFailures: [failure] };
  };
  return (event) =>
    inSubsegment(options.name, {}, async () => {
      try {
        return await handle(event);
      } finally {
        flushMetrics();
      }
    });
}

function decode(record: DynamoDBRecord): StreamChange {
  const data = record.dynamodb;
  if (!data?.Keys || !data.SequenceNumber || !record.eventName) throw new Error('A stream record without keys, sequence number or event name');
  const plain = (image: unknown) => (image ? unmarshall(image as Record<string, AttributeValue>) : undefined);
  return {
    eventName: record.eventName,
    keys: plain(data.Keys)!,
    newImage: plain(data.NewImage),
    oldImage: plain(data.OldImage),
    sequenceNumber: data.SequenceNumber,
    record,
  };
}
