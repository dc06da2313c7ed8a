import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import {
  DescribeStreamCommand,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type AttributeValue,
  type DynamoDBStreamsClient,
  type _Record as StreamRecord,
} from '@aws-sdk/client-dynamodb-streams';
import type { AttributeValue as LambdaAttributeValue, DynamoDBBatchResponse, DynamoDBRecord } from 'aws-lambda';
import { REGION, resourcesOfType, referencedLogicalId, type CfnTemplate } from '../../template/cloud-assembly';
import { matchesPattern, type EventPattern } from './event-pattern';
import type { Resolve } from '../../template/intrinsics';
import type { FunctionRunner } from '../runner';

/**
 * Lambda's DynamoDB stream event source mappings, locally, as the template declares them
 * (BatchSize, FilterCriteria, MaximumRetryAttempts, BisectBatchOnFunctionError,
 * FunctionResponseTypes, the on-failure destination), over DynamoDB Local's stream read with the
 * function's own role: shards open at start are read from LATEST, shards that appear later from
 * TRIM_HORIZON; each shard in order. Records that pass the filters are handed over in batches; a
 * reported item failure retries from that record, a function error bisects the batch when the
 * mapping says so; after MaximumRetryAttempts the batch's metadata goes to the on-failure queue,
 * as Lambda sends it, and the shard moves on. A batching window (MaximumBatchingWindowInSeconds) is
 * not waited for: records are handed over as they are read, so what a consumer counts shows sooner.
 */
export interface StreamMapping {
  functionLogicalId: string;
  streamArn: string;
  batchSize: number;
  retryAttempts: number;
  bisect: boolean;
  reportBatchItemFailures: boolean;
  filters: EventPattern[];
  onFailureArn?: string;
  onFailureQueueUrl?: string;
}

export function streamMappings(template: CfnTemplate, resolve: Resolve, queueUrlByArn: ReadonlyMap<string, string>): StreamMapping[] {
  return resourcesOfType(template, 'AWS::Lambda::EventSourceMapping').flatMap(([, resource]) => {
    const properties = resource.Properties ?? {};
    const source = String(resolve(properties.EventSourceArn));
    if (!source.includes(':dynamodb:') || properties.Enabled === false) return [];
    const onFailureArn = properties.DestinationConfig?.OnFailure?.Destination ? String(resolve(properties.DestinationConfig.OnFailure.Destination)) : undefined;
    return [
      {
        functionLogicalId: referencedLogicalId(properties.FunctionName)!,
        streamArn: source,
        batchSize: Number(properties.BatchSize ?? 100),
        // -1 (the default) is "until the record expires"; locally a day's worth of retries is as good.
        retryAttempts: properties.MaximumRetryAttempts === undefined || Number(properties.MaximumRetryAttempts) < 0 ? 10_000 : Number(properties.MaximumRetryAttempts),
        bisect: properties.BisectBatchOnFunctionError === true,
        reportBatchItemFailures: (properties.FunctionResponseTypes ?? []).includes('ReportBatchItemFailures'),
        filters: ((properties.FilterCriteria?.Filters ?? []) as { Pattern: string }[]).map((filter) => JSON.parse(filter.Pattern) as EventPattern),
        ...(onFailureArn ? { onFailureArn, onFailureQueueUrl: queueUrlByArn.get(onFailureArn) } : {}),
      },
    ];
  });
}

interface ShardState {
  iterator?: string;
  lastSequence?: string;
  done: boolean;
}

export interface StreamPollerOptions {
  mapping: StreamMapping;
  runner: FunctionRunner;
  /** Clients with the function's credentials: reading the stream and sending to the on-failure queue are its role's. */
  streams: DynamoDBStreamsClient;
  sqs: SQSClient;
  log: (line: string) => void;
  /** Idle wait between reads of a shard with no new records (ms). */
  idleMs?: number;
}

export async function startStreamPoller(options: StreamPollerOptions): Promise<() => Promise<void>> {
  const { mapping, runner, streams, sqs, log } = options;
  const streamArn = mapping.streamArn;
  const idleMs = options.idleMs ?? 200;
  const shards = new Map<string, ShardState>();
  let running = true;

  async function discover(initial: boolean) {
    let ExclusiveStartShardId: string | undefined;
    do {
      const { StreamDescription } = await streams.send(new DescribeStreamCommand({ StreamArn: streamArn, ExclusiveStartShardId }));
      for (const shard of StreamDescription?.Shards ?? []) {
        const id = shard.ShardId!;
        if (shards.has(id)) continue;
        const closed = shard.SequenceNumberRange?.EndingSequenceNumber !== undefined;
        if (initial && closed) {
          shards.set(id, { done: true });
          continue;
        }
        const { ShardIterator } = await streams.send(
          new GetShardIteratorCommand({ StreamArn: streamArn, ShardId: id, ShardIteratorType: initial ? 'LATEST' : 'TRIM_HORIZON' }),
        );
        shards.set(id, { iterator: ShardIterator, done: !ShardIterator });
      }
      ExclusiveStartShardId = StreamDescription?.LastEvaluatedShardId;
    } while (ExclusiveStartShardId);
  }

  /** One batch until it succeeds or its retries are spent; returns the retries left. */
  async function deliver(shardId: string, records: DynamoDBRecord[], retriesLeft: number): Promise<number> {
    let pending = records;
    while (pending.length > 0) {
      const outcome = await runner.invoke({ Records: pending });
      let failedAt: number;
      if (outcome.ok) {
        const failure = mapping.reportBatchItemFailures ? (outcome.result as DynamoDBBatchResponse | null)?.batchItemFailures?.[0]?.itemIdentifier : undefined;
        if (!failure) return retriesLeft;
        failedAt = Math.max(0, pending.findIndex((record) => record.dynamodb?.SequenceNumber === failure));
      } else {
        if (mapping.bisect && pending.length > 1 && retriesLeft > 0) {
          const half = Math.ceil(pending.length / 2);
          const left = await deliver(shardId, pending.slice(0, half), retriesLeft - 1);
          return deliver(shardId, pending.slice(half), left);
        }
        failedAt = 0;
      }
      if (retriesLeft <= 0) {
        await sendToOnFailure(shardId, pending.slice(failedAt));
        return mapping.retryAttempts;
      }
      retriesLeft -= 1;
      pending = pending.slice(failedAt);
      await sleep(Math.min(5_000, 100 * 2 ** (mapping.retryAttempts - retriesLeft)));
    }
    return retriesLeft;
  }

  /** What Lambda sends to a stream mapping's on-failure destination: the batch's place in the stream, not its records. */
  async function sendToOnFailure(shardId: string, records: DynamoDBRecord[]) {
    log(`${runner.definition.name}: ${records.length} stream records failed after ${mapping.retryAttempts} retries${mapping.onFailureQueueUrl ? '; their batch info goes to the on-failure queue' : ' and are skipped'}`);
    if (!mapping.onFailureQueueUrl) return;
    const first = records[0]!.dynamodb!;
    const last = records[records.length - 1]!.dynamodb!;
    const timestamp = new Date().toISOString();
    await sqs.send(
      new SendMessageCommand({
        QueueUrl: mapping.onFailureQueueUrl,
        MessageBody: JSON.stringify({
          requestContext: { requestId: crypto.randomUUID(), functionArn: runner.definition.arn, condition: 'RetryAttemptsExhausted', approximateInvokeCount: mapping.retryAttempts + 1 },
          responseContext: { statusCode: 200, executedVersion: '$LATEST', functionError: 'Unhandled' },
          version: '1.0',
          timestamp,
          DDBStreamBatchInfo: {
            shardId,
            startSequenceNumber: first.SequenceNumber,
            endSequenceNumber: last.SequenceNumber,
            approximateArrivalOfFirstRecord: new Date((first.ApproximateCreationDateTime ?? 0) * 1000).toISOString(),
            approximateArrivalOfLastRecord: new Date((last.ApproximateCreationDateTime ?? 0) * 1000).toISOString(),
            batchSize: records.length,
            streamArn,
          },
        }),
      }),
    );
  }

  async function readShard(id: string, state: ShardState): Promise<number> {
    if (state.done || !state.iterator) return 0;
    let result;
    try {
      result = await streams.send(new GetRecordsCommand({ ShardIterator: state.iterator, Limit: 1000 }));
    } catch (error) {
      if ((error as Error).name !== 'ExpiredIteratorException') throw error;
      const { ShardIterator } = await streams.send(
        new GetShardIteratorCommand({
          StreamArn: streamArn,
          ShardId: id,
          ...(state.lastSequence ? { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER', SequenceNumber: state.lastSequence } : { ShardIteratorType: 'LATEST' }),
        }),
      );
      state.iterator = ShardIterator;
      return 0;
    }
    const records = result.Records ?? [];
    const wanted = records
      .map((record) => toLambdaRecord(record, streamArn))
      .filter((record) => mapping.filters.length === 0 || mapping.filters.some((filter) => matchesPattern(filter, record)));
    for (let start = 0; start < wanted.length; start += mapping.batchSize) await deliver(id, wanted.slice(start, start + mapping.batchSize), mapping.retryAttempts);
    // Only past a page once it is delivered: a delivery that throws reads the same page again, as Lambda retries.
    state.iterator = result.NextShardIterator;
    if (!state.iterator) state.done = true;
    if (records.length) state.lastSequence = records[records.length - 1]!.dynamodb?.SequenceNumber;
    return records.length;
  }

  await discover(true);
  const loop = (async () => {
    let lastDiscovery = Date.now();
    while (running) {
      try {
        if (Date.now() - lastDiscovery > 5_000) {
          await discover(false);
          lastDiscovery = Date.now();
        }
        let read = 0;
        for (const [id, state] of shards) read += await readShard(id, state);
        if (read === 0) await sleep(idleMs);
      } catch (error) {
        if (!running) break;
        log(`Reading the table stream for ${runner.definition.name} failed; retrying: ${(error as Error).name}: ${(error as Error).message}`);
        await sleep(1_000);
      }
    }
  })();

  return async () => {
    running = false;
    await loop;
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The SDK's attribute values (bytes as Uint8Array) in the JSON form Lambda delivers (bytes as base64). */
function toJsonValue(value: AttributeValue): LambdaAttributeValue {
  // The SDK's deserializer returns an empty map as {} (its union tag lost); Lambda delivers {"M":{}}.
  if (Object.keys(value).length === 0) return { M: {} };
  if (value.B) return { B: Buffer.from(value.B).toString('base64') };
  if (value.BS) return { BS: value.BS.map((item) => Buffer.from(item).toString('base64')) };
  if (value.M) return { M: toJsonImage(value.M) };
  if (value.L) return { L: value.L.map(toJsonValue) };
  // Every other member (S, N, SS, NS, BOOL, NULL) has the same JSON form in both.
  return value as LambdaAttributeValue;
}

function toJsonImage(image: Record<string, AttributeValue>): Record<string, LambdaAttributeValue> {
  return Object.fromEntries(Object.entries(image).map(([name, value]) => [name, toJsonValue(value)]));
}

function toLambdaRecord(record: StreamRecord, streamArn: string): DynamoDBRecord {
  const data = record.dynamodb ?? {};
  return {
    eventID: record.eventID,
    eventName: record.eventName as DynamoDBRecord['eventName'],
    eventVersion: record.eventVersion ?? '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: record.awsRegion ?? REGION,
    eventSourceARN: streamArn,
    dynamodb: {
      ApproximateCreationDateTime: data.ApproximateCreationDateTime ? Math.floor(data.ApproximateCreationDateTime.getTime() / 1000) : undefined,
      Keys: data.Keys && toJsonImage(data.Keys),
      NewImage: data.NewImage && toJsonImage(data.NewImage),
      OldImage: data.OldImage && toJsonImage(data.OldImage),
      SequenceNumber: data.SequenceNumber,
      SizeBytes: data.SizeBytes,
      StreamViewType: data.StreamViewType as NonNullable<DynamoDBRecord['dynamodb']>['StreamViewType'],
    },
  };
}

