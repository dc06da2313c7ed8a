import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type AttributeValue,
  type _Record as StreamRecord,
} from '@aws-sdk/client-dynamodb-streams';
import type { Context, DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { passesFilter, type StreamConsumerSpec } from '../streams';
import { lambdaContext } from './lambda-context';

/**
 * The local stand-in for Lambda's DynamoDB event source mapping, over DynamoDB Local's stream
 * (AWS_ENDPOINT_URL_DYNAMODB_STREAMS): shards open at start are read from LATEST, shards that
 * appear later from TRIM_HORIZON; each shard is read in order; records pass the consumer's
 * filter criteria (infra/streams.ts) and are handed over in batches of `batchSize` with the
 * Lambda event shape. A batch item failure retries from the failed record (as Lambda's
 * checkpointing does) up to `retryAttempts` times; then the records are logged and skipped — the
 * deployed mapping sends them to its DLQ instead. No bisection locally.
 */
export type StreamHandler = (event: DynamoDBStreamEvent, context: Context) => Promise<DynamoDBBatchResponse | void>;

export interface StreamPollerOptions {
  tableName: string;
  spec: StreamConsumerSpec;
  handler: StreamHandler;
  /** Idle wait between reads of a shard with no new records (ms). */
  idleMs?: number;
}

interface ShardState {
  iterator?: string;
  lastSequence?: string;
  done: boolean;
}

export async function startStreamPoller(options: StreamPollerOptions): Promise<() => Promise<void>> {
  const streams = new DynamoDBStreamsClient({});
  const { Table } = await new DynamoDBClient({}).send(new DescribeTableCommand({ TableName: options.tableName }));
  const streamArn = Table?.LatestStreamArn;
  if (!streamArn) throw new Error(`The table ${options.tableName} has no stream`);
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

  async function deliver(records: DynamoDBRecord[]) {
    let pending = records;
    for (let attempt = 0; pending.length > 0; attempt++) {
      let failedAt: number;
      try {
        const response = await options.handler({ Records: pending }, lambdaContext(options.spec.group, 30_000));
        const failure = response?.batchItemFailures?.[0]?.itemIdentifier;
        if (!failure) return;
        failedAt = Math.max(0, pending.findIndex((record) => record.dynamodb?.SequenceNumber === failure));
      } catch (error) {
        console.error(`Stream consumer ${options.spec.group} threw; retrying the batch`, error);
        failedAt = 0;
      }
      if (attempt >= options.spec.retryAttempts) {
        console.error(`Stream consumer ${options.spec.group}: ${pending.length - failedAt} records failed ${attempt + 1} times and are skipped (the DLQ in AWS)`);
        return;
      }
      pending = pending.slice(failedAt);
      await sleep(Math.min(5_000, 100 * 2 ** attempt));
    }
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
    state.iterator = result.NextShardIterator;
    if (!state.iterator) state.done = true;
    if (records.length) state.lastSequence = records[records.length - 1]!.dynamodb?.SequenceNumber;
    const wanted = records.filter((record) => passesFilter(options.spec, String(record.dynamodb?.Keys?.SK?.S ?? ''))).map((record) => toLambdaRecord(record, streamArn!));
    for (let start = 0; start < wanted.length; start += options.spec.batchSize) await deliver(wanted.slice(start, start + options.spec.batchSize));
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
        console.error(`Stream poller ${options.spec.group} failed; retrying`, error);
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
function toJsonValue(value: AttributeValue): unknown {
  // The SDK's deserializer returns an empty map as {} (its union tag lost); Lambda delivers {"M":{}}.
  if (Object.keys(value).length === 0) return { M: {} };
  if (value.B) return { B: Buffer.from(value.B).toString('base64') };
  if (value.BS) return { BS: value.BS.map((item) => Buffer.from(item).toString('base64')) };
  if (value.M) return { M: toJsonImage(value.M) };
  if (value.L) return { L: value.L.map(toJsonValue) };
  return value;
}

function toJsonImage(image: Record<string, AttributeValue> | undefined): Record<string, any> | undefined {
  return image && Object.fromEntries(Object.entries(image).map(([name, value]) => [name, toJsonValue(value)]));
}

function toLambdaRecord(record: StreamRecord, streamArn: string): DynamoDBRecord {
  const data = record.dynamodb ?? {};
  return {
    eventID: record.eventID,
    eventName: record.eventName as DynamoDBRecord['eventName'],
    eventVersion: record.eventVersion ?? '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: record.awsRegion ?? process.env.AWS_REGION ?? 'us-east-1',
    eventSourceARN: streamArn,
    dynamodb: {
      ApproximateCreationDateTime: data.ApproximateCreationDateTime ? Math.floor(data.ApproximateCreationDateTime.getTime() / 1000) : undefined,
      Keys: toJsonImage(data.Keys),
      NewImage: toJsonImage(data.NewImage),
      OldImage: toJsonImage(data.OldImage),
      SequenceNumber: data.SequenceNumber,
      SizeBytes: data.SizeBytes,
      StreamViewType: data.StreamViewType as NonNullable<DynamoDBRecord['dynamodb']>['StreamViewType'],
    },
  };
}

