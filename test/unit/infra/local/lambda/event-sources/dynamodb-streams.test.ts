import { DescribeStreamCommand, DynamoDBStreamsClient, GetRecordsCommand, GetShardIteratorCommand } from '@aws-sdk/client-dynamodb-streams';
import { SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import type { DynamoDBRecord } from 'aws-lambda';
import { startStreamPoller, type StreamMapping } from '../../../../../../infra/local/lambda/event-sources/dynamodb-streams';
import type { FunctionRunner, InvokeOutcome } from '../../../../../../infra/local/lambda/runner';

const streamsMock = mockClient(DynamoDBStreamsClient);
const streamArn = 'arn:aws:dynamodb:us-east-1:000000000000:table/t/stream/2026-01-01T00:00:00.000';
const mapping: StreamMapping = { functionLogicalId: 'Fn', streamArn, batchSize: 100, retryAttempts: 2, bisect: true, reportBatchItemFailures: true, filters: [] };

/** One open shard whose first page holds one record, then nothing new. */
function streamWithOneRecord() {
  streamsMock.on(DescribeStreamCommand).resolves({ StreamDescription: { Shards: [{ ShardId: 'shard-1', SequenceNumberRange: { StartingSequenceNumber: '1' } }] } });
  streamsMock.on(GetShardIteratorCommand).resolves({ ShardIterator: 'page-1' });
  streamsMock
    .on(GetRecordsCommand, { ShardIterator: 'page-1' })
    .resolves({ Records: [{ eventID: 'e1', eventName: 'INSERT', dynamodb: { Keys: { PK: { S: 'P' }, SK: { S: 'S' } }, SequenceNumber: '100' } }], NextShardIterator: 'page-2' });
  streamsMock.on(GetRecordsCommand, { ShardIterator: 'page-2' }).resolves({ Records: [], NextShardIterator: 'page-2' });
}

function fakeRunner(invoke: (event: { Records: DynamoDBRecord[] }) => Promise<InvokeOutcome>) {
  return { definition: { name: 'Mailwright-Fn', arn: 'arn:aws:lambda:us-east-1:000000000000:function:Mailwright-Fn' }, invoke } as unknown as FunctionRunner;
}

async function until(condition: () => boolean, timeoutMs = 5_000) {
  for (const deadline = Date.now() + timeoutMs; !condition() && Date.now() < deadline; ) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe('the local DynamoDB stream event source', () => {
  beforeEach(() => {
    streamsMock.reset();
  });

  it('reads a page again when handing it over fails outright, so none of its records is skipped', async () => {
    // Prepare: the first hand-over throws (as a runner that cannot start a worker would), the next succeeds
    streamWithOneRecord();
    const delivered: string[][] = [];
    let calls = 0;
    const runner = fakeRunner(async (event) => {
      calls += 1;
      if (calls === 1) throw new Error('worker could not start');
      delivered.push(event.Records.map((record) => record.eventID!));
      return { ok: true, result: null };
    });
    const logged: string[] = [];

    // Act
    const stop = await startStreamPoller({ mapping, runner, streams: new DynamoDBStreamsClient({ region: 'us-east-1' }), sqs: new SQSClient({ region: 'us-east-1' }), log: (line) => logged.push(line), idleMs: 10 });
    await until(() => delivered.length > 0);
    await stop();

    // Assess
    expect(delivered).toEqual([['e1']]);
    expect(logged.join('\n')).toContain('worker could not start');
  });

  it('moves past a page once its records are handed over', async () => {
    // Prepare
    streamWithOneRecord();
    const delivered: string[][] = [];
    const runner = fakeRunner(async (event) => {
      delivered.push(event.Records.map((record) => record.eventID!));
      return { ok: true, result: null };
    });

    // Act: long enough for several more reads of the shard
    const stop = await startStreamPoller({ mapping, runner, streams: new DynamoDBStreamsClient({ region: 'us-east-1' }), sqs: new SQSClient({ region: 'us-east-1' }), log: () => undefined, idleMs: 10 });
    await until(() => streamsMock.commandCalls(GetRecordsCommand, { ShardIterator: 'page-2' }).length >= 3);
    await stop();

    // Assess
    expect(delivered).toEqual([['e1']]);
  });
});
