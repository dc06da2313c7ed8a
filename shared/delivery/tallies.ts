import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { analyticsKeys, utcDay } from '../analytics/keys';
import { isDaily, type DailyMetric } from '../analytics/counters';
import { documentClient } from '../aws/clients';
import { counterUpdateInput } from '../db/counters';
import { tableName } from '../db/table';
import { transactWrite, writeOnce, type TransactItem } from '../db/transactions';
import type { EmailSourceType } from '../emails/emails';
import { eventKeys } from '../events/keys';
import { projectOfPartition } from '../projects/keys';
import type { StatsMetric } from '../stats/stats';
import { statsKeys } from '../stats/keys';
import type { StreamChange } from '../streams/handler';
import { countedRunKeys } from './keys';

/**
 * What an email's event is counted as, written on the event item itself (its `tally`): the event
 * counts once on its name's counter and the project's events total, and adds `stats` to its
 * source's delivery stats and `daily` to the project's day counters. The delivery-counters stream
 * consumer adds them up (countTallies), off the paths that send and record mail: a few writes per
 * stream batch instead of four per event, and no counter item every email of a project writes.
 */
export interface Tally {
  stats?: { type: EmailSourceType; id?: string; metrics: StatsMetric[] };
  daily: { metric: DailyMetric; day: string }[];
}

/** The tally of an outcome's stats and day counts (which happen on the UTC day given with each). */
export function tallyOf(source: { type: EmailSourceType; id?: string } | undefined, metrics: StatsMetric[], daily: { metric: StatsMetric; at: string | Date }[]): Tally {
  return {
    ...(source && metrics.length > 0 ? { stats: { type: source.type, ...(source.id ? { id: source.id } : {}), metrics } } : {}),
    daily: daily.flatMap(({ metric, at }) => (isDaily(metric) ? [{ metric, day: utcDay(at) }] : [])),
  };
}

/** The sum a run of tallies adds to one counter item. */
interface CounterAdd {
  key: Record<string, string>;
  adds: Map<string, number>;
  /** Attributes to SET; the greatest value wins (names, ISO times). */
  sets: Map<string, string>;
}

/** The events of new items with a tally, in stream order; other changes are not counted. */
interface Tallied {
  /** The stream record's id, unique in the stream: the key of a run's marker. */
  recordId: string;
  sequenceNumber: string;
  projectId: string;
  name: string;
  createdAt: string;
  tally: Tally;
}

/** A new item that carries a tally: an email's event to count. */
export const isTallied = (change: StreamChange): boolean => tallied(change) !== undefined;

function tallied(change: StreamChange): Tallied | undefined {
  const image = change.newImage;
  if (change.eventName !== 'INSERT' || !image?.tally) return undefined;
  const projectId = projectOfPartition(image.PK);
  if (!projectId) return undefined;
  return { recordId: change.record.eventID ?? change.sequenceNumber, sequenceNumber: change.sequenceNumber, projectId, name: String(image.name), createdAt: String(image.createdAt), tally: image.tally as Tally };
}

/** A transaction holds at most 100 items: the run's marker and 99 counters. */
const COUNTERS_PER_RUN = 99;

/** Markers outlive the stream's 24-hour retention, so any redelivery finds its run's. */
const MARKER_TTL_SECONDS = 2 * 24 * 3600;

/**
 * Adds the tallies of a stream batch to their counters, exactly once. The batch is cut, from its
 * first change on, into runs whose counters fit one transaction; each run is one TransactWriteItems
 * of one ADD per counter and a marker keyed by the run's first record (with its last sequence number), put
 * only if absent. A retried batch (Lambda retries from its first record, with as many records or
 * more) meets the markers of the runs it already counted: a refused marker is read, and counting
 * goes on after the last record it covers. So a record is counted by one run only.
 */
export async function countTallies(changes: StreamChange[]): Promise<void> {
  const pending = changes.map(tallied).filter((entry): entry is Tallied => entry !== undefined);
  let start = 0;
  while (start < pending.length) {
    const { counters, end } = nextRun(pending, start);
    const run = pending.slice(start, end);
    await ensureNameCounters(run);
    const counted = await commitRun(run, counters);
    if (counted === 'counted') {
      start = end;
      continue;
    }
    // This run's first record began a run counted before: go on after that run's last record.
    const after = BigInt(counted.lastSequence);
    start = pending.findIndex((entry, index) => index >= start && BigInt(entry.sequenceNumber) > after);
    if (start < 0) return;
  }
}

/** The counters of the changes from `start` on, as many changes as fit one transaction. */
function nextRun(pending: Tallied[], start: number): { counters: CounterAdd[]; end: number } {
  const counters = new Map<string, CounterAdd>();
  let end = start;
  for (; end < pending.length; end++) {
    const adds = counterAddsOf(pending[end]!);
    const fresh = adds.filter((add) => !counters.has(JSON.stringify(add.key))).length;
    if (end > start && counters.size + fresh > COUNTERS_PER_RUN) break;
    for (const add of adds) merge(counters, add);
  }
  return { counters: [...counters.values()], end };
}

function counterAddsOf({ projectId, name, createdAt, tally }: Tallied): CounterAdd[] {
  const one = (key: Record<string, string>, adds: Record<string, number>, sets: Record<string, string> = {}): CounterAdd => ({ key, adds: new Map(Object.entries(adds)), sets: new Map(Object.entries(sets)) });
  return [
    one(eventKeys.nameCounter(projectId, name), { count: 1 }, { name, lastSeenAt: createdAt }),
    one(eventKeys.total(projectId), { count: 1 }),
    ...(tally.stats ? [one(statsKeys.source(projectId, tally.stats.type, tally.stats.id), Object.fromEntries(tally.stats.metrics.map((metric) => [metric, 1])))] : []),
    ...(tally.daily ?? []).map(({ metric, day }) => one(analyticsKeys.day(projectId, day), { [metric]: 1 })),
  ];
}

function merge(counters: Map<string, CounterAdd>, add: CounterAdd): void {
  const id = JSON.stringify(add.key);
  const into = counters.get(id);
  if (!into) {
    counters.set(id, { key: add.key, adds: new Map(add.adds), sets: new Map(add.sets) });
    return;
  }
  for (const [name, value] of add.adds) into.adds.set(name, (into.adds.get(name) ?? 0) + value);
  for (const [name, value] of add.sets) if (value > (into.sets.get(name) ?? '')) into.sets.set(name, value);
}

async function commitRun(run: Tallied[], counters: CounterAdd[]): Promise<'counted' | { lastSequence: string }> {
  const first = run[0]!.recordId;
  const last = run[run.length - 1]!.sequenceNumber;
  const marker: TransactItem = {
    Put: {
      TableName: tableName,
      Item: { ...countedRunKeys.run(first), lastSequence: last, records: run.length, expiresAt: Math.floor(Date.now() / 1000) + MARKER_TTL_SECONDS },
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
    const lastSequence = markerReason.Item ? unmarshall(markerReason.Item).lastSequence : await readMarker(first);
    if (typeof lastSequence !== 'string') throw new Error(`The counted run marker of stream record ${first} has no last sequence number`);
    return { lastSequence };
  }
}

async function readMarker(first: string): Promise<unknown> {
  const { Item } = await documentClient.send(new GetCommand({ TableName: tableName, Key: countedRunKeys.run(first), ConsistentRead: true }));
  return Item?.lastSequence;
}

/** Names whose counter is known to exist, per project, for this container's life (counters are never deleted). */
const knownNames = new Set<string>();

/**
 * Makes the counters of names first seen, so the names total counts each name once: per name this
 * container has not met, the counter (count 0) put if absent and the total's ADD, all or none.
 */
async function ensureNameCounters(run: Tallied[]): Promise<void> {
  const unknown = new Map(run.map((entry) => [`${entry.projectId}|${entry.name}`, entry] as const).filter(([id]) => !knownNames.has(id)));
  for (const [id, { projectId, name, createdAt }] of unknown) {
    await writeOnce([
      { Put: { TableName: tableName, Item: { ...eventKeys.nameCounter(projectId, name), name, count: 0, lastSeenAt: createdAt }, ConditionExpression: 'attribute_not_exists(PK)' } },
      { Update: counterUpdateInput(eventKeys.namesTotal(projectId), new Map([['total', 1]]), new Map()) },
    ]);
    knownNames.add(id);
  }
}
