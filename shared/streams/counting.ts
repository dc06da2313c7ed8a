import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { documentClient } from '../aws/clients';
import { counterUpdateInput } from '../db/counters';
import { tableName } from '../db/table';
import { transactWrite, type TransactItem } from '../db/transactions';
import type { StreamChange } from './handler';

/** What one stream record adds to one counter item. */
export interface CounterAdd {
  key: Record<string, string>;
  adds: Record<string, number>;
  /** Attributes to SET; within a run the greatest value wins (names, ISO times). */
  sets?: Record<string, string>;
}

/** A stream record to count: where it is in the stream, and what it adds. */
export interface Counted<Detail = undefined> {
  /** The stream record's id, unique in the stream: the key of a run's marker. */
  recordId: string;
  sequenceNumber: string;
  adds: CounterAdd[];
  /** What the consumer needs of the record besides (`beforeRun` reads it). */
  detail: Detail;
}

/** The record's place in the stream, for a Counted made of it. */
export const placeOf = (change: StreamChange) => ({ recordId: change.record.eventID ?? change.sequenceNumber, sequenceNumber: change.sequenceNumber });

/** A transaction holds at most 100 items: the run's marker and 99 counters. */
const COUNTERS_PER_RUN = 99;

/** Markers outlive the stream's 24-hour retention, so any redelivery finds its run's. */
const MARKER_TTL_SECONDS = 2 * 24 * 3600;

/**
 * Table keys of the counting consumers' markers: one item per run of stream records a consumer
 * counted, keyed by the consumer and the id of the run's first record, kept two days (TTL).
 * | item       | PK                                | SK          |
 * |------------|-----------------------------------|-------------|
 * | run marker | COUNTED_RUN#<consumer>#<record id> | COUNTED_RUN |
 */
export const countedRunKeys = {
  run: (consumer: string, firstRecordId: string) => ({ PK: `COUNTED_RUN#${consumer}#${firstRecordId}`, SK: 'COUNTED_RUN' }),
};

/**
 * Adds what a stream batch's records add to counters, exactly once, for a consumer that counts
 * (counters kept off the paths that write what they count: DESIGN 14). The records are cut, from the
 * first on, into runs whose counters fit one transaction; each run is one TransactWriteItems of one
 * ADD per counter item and a marker keyed by the consumer and the run's first record (with the
 * run's last sequence number), put only if absent. A retried batch (Lambda retries a batch from its
 * first record, never halved for these consumers, with as many records or more) meets the markers
 * of the runs it counted already: a refused marker is read, and counting goes on after the last
 * record it covers. So a record is counted by one run only. `beforeRun` runs before each run's
 * transaction (to make items the counters need).
 */
export async function countOnce<Detail>(consumer: string, entries: Counted<Detail>[], beforeRun: (run: Counted<Detail>[]) => Promise<void> = async () => {}): Promise<void> {
  let start = 0;
  while (start < entries.length) {
    const { counters, end } = nextRun(entries, start);
    const run = entries.slice(start, end);
    await beforeRun(run);
    const counted = await commitRun(consumer, run, counters);
    if (counted === 'counted') {
      start = end;
      continue;
    }
    // This run's first record began a run counted before: go on after that run's last record.
    const after = BigInt(counted.lastSequence);
    start = entries.findIndex((entry, index) => index >= start && BigInt(entry.sequenceNumber) > after);
    if (start < 0) return;
  }
}

/** The sum a run adds to one counter item. */
interface RunCounter {
  key: Record<string, string>;
  adds: Map<string, number>;
  sets: Map<string, string>;
}

/** The counters of the records from `start` on, as many records as fit one transaction. */
function nextRun<Detail>(entries: Counted<Detail>[], start: number): { counters: RunCounter[]; end: number } {
  const counters = new Map<string, RunCounter>();
  let end = start;
  for (; end < entries.length; end++) {
    const adds = entries[end]!.adds;
    const fresh = new Set(adds.map((add) => JSON.stringify(add.key)).filter((id) => !counters.has(id))).size;
    if (end > start && counters.size + fresh > COUNTERS_PER_RUN) break;
    for (const add of adds) merge(counters, add);
  }
  return { counters: [...counters.values()].filter((counter) => counter.adds.size + counter.sets.size > 0), end };
}

function merge(counters: Map<string, RunCounter>, add: CounterAdd): void {
  const id = JSON.stringify(add.key);
  const into = counters.get(id) ?? { key: add.key, adds: new Map<string, number>(), sets: new Map<string, string>() };
  counters.set(id, into);
  // Only numbers are added: a malformed tally must not make every retry of its batch fail (it is never halved).
  for (const [name, value] of Object.entries(add.adds)) if (Number.isFinite(value)) into.adds.set(name, (into.adds.get(name) ?? 0) + value);
  for (const [name, value] of Object.entries(add.sets ?? {})) if (value > (into.sets.get(name) ?? '')) into.sets.set(name, value);
}

async function commitRun<Detail>(consumer: string, run: Counted<Detail>[], counters: RunCounter[]): Promise<'counted' | { lastSequence: string }> {
  const first = run[0]!.recordId;
  const last = run[run.length - 1]!.sequenceNumber;
  const marker: TransactItem = {
    Put: {
      TableName: tableName,
      Item: { ...countedRunKeys.run(consumer, first), lastSequence: last, records: run.length, expiresAt: Math.floor(Date.now() / 1000) + MARKER_TTL_SECONDS },
      ConditionExpression: 'attribute_not_exists(PK)',
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  };
  const updates: TransactItem[] = counters.map(({ key, adds, sets }) => ({ Update: counterUpdateInput(key, adds, sets) }));
  try {
    // A try whose answer was lost and is made again meets its own marker, as a redelivered batch does.
    await transactWrite([marker, ...updates]);
    return 'counted';
  } catch (error) {
    // A cancellation's items come in DynamoDB's wire format: the document client does not unmarshall errors.
    const [markerReason] = (error as { CancellationReasons?: { Code?: string; Item?: Record<string, AttributeValue> }[] }).CancellationReasons ?? [];
    if (markerReason?.Code !== 'ConditionalCheckFailed') throw error;
    const lastSequence = markerReason.Item ? unmarshall(markerReason.Item).lastSequence : await readMarker(consumer, first);
    if (typeof lastSequence !== 'string') throw new Error(`The counted run marker of stream record ${first} has no last sequence number`);
    return { lastSequence };
  }
}

async function readMarker(consumer: string, first: string): Promise<unknown> {
  const { Item } = await documentClient.send(new GetCommand({ TableName: tableName, Key: countedRunKeys.run(consumer, first), ConsistentRead: true }));
  return Item?.lastSequence;
}
