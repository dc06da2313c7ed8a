import { analyticsKeys, utcDay } from '../analytics/keys';
import { isDaily, type DailyMetric } from '../analytics/counters';
import { counterUpdateInput } from '../db/counters';
import { tableName } from '../db/table';
import { writeOnce } from '../db/transactions';
import type { EmailSourceType } from '../emails/emails';
import { eventKeys } from '../events/keys';
import { projectOfPartition } from '../projects/keys';
import type { StatsMetric } from '../stats/stats';
import { statsKeys } from '../stats/keys';
import { countOnce, placeOf, type Counted, type CounterAdd } from '../streams/counting';
import type { StreamChange } from '../streams/handler';

/**
 * What an email's event is counted as, written on the event item itself (its `tally`): the event
 * counts once on its name's counter and the project's events total, and adds `stats` to its
 * source's delivery stats and `daily` to the project's day counters. The delivery-counters stream
 * consumer adds them up (countTallies, exactly once: shared/streams/counting.ts), off the paths that
 * send and record mail: a few writes per stream batch instead of four per event, and no counter
 * item every email of a project writes.
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

/** What the names' counters need of an email's event. */
interface EventDetail {
  projectId: string;
  name: string;
  createdAt: string;
}

/** A new item that carries a tally: an email's event to count. */
export const isTallied = (change: StreamChange): boolean => tallied(change) !== undefined;

function tallied(change: StreamChange): Counted<EventDetail> | undefined {
  const image = change.newImage;
  if (change.eventName !== 'INSERT' || !image?.tally) return undefined;
  const projectId = projectOfPartition(image.PK);
  if (!projectId) return undefined;
  const detail = { projectId, name: String(image.name), createdAt: String(image.createdAt) };
  return { ...placeOf(change), adds: counterAddsOf(detail, image.tally as Tally), detail };
}

/** Adds the tallies of a stream batch's email events to their counters, exactly once. */
export async function countTallies(changes: StreamChange[]): Promise<void> {
  const entries = changes.map(tallied).filter((entry): entry is Counted<EventDetail> => entry !== undefined);
  await countOnce('delivery-counters', entries, ensureNameCounters);
}

function counterAddsOf({ projectId, name, createdAt }: EventDetail, tally: Tally): CounterAdd[] {
  return [
    { key: eventKeys.nameCounter(projectId, name), adds: { count: 1 }, sets: { name, lastSeenAt: createdAt } },
    { key: eventKeys.total(projectId), adds: { count: 1 } },
    ...(tally.stats ? [{ key: statsKeys.source(projectId, tally.stats.type, tally.stats.id), adds: Object.fromEntries(tally.stats.metrics.map((metric) => [metric, 1])) }] : []),
    ...(tally.daily ?? []).map(({ metric, day }) => ({ key: analyticsKeys.day(projectId, day), adds: { [metric]: 1 } })),
  ];
}

/** Names whose counter is known to exist, per project, for this container's life (counters are never deleted). */
const knownNames = new Set<string>();

/**
 * Makes the counters of names first seen, so the names total counts each name once: per name this
 * container has not met, the counter (count 0) put if absent and the total's ADD, all or none.
 */
async function ensureNameCounters(run: Counted<EventDetail>[]): Promise<void> {
  const unknown = new Map(run.map(({ detail }) => [`${detail.projectId}|${detail.name}`, detail] as const).filter(([id]) => !knownNames.has(id)));
  for (const [id, { projectId, name, createdAt }] of unknown) {
    await writeOnce([
      { Put: { TableName: tableName, Item: { ...eventKeys.nameCounter(projectId, name), name, count: 0, lastSeenAt: createdAt }, ConditionExpression: 'attribute_not_exists(PK)' } },
      { Update: counterUpdateInput(eventKeys.namesTotal(projectId), new Map([['total', 1]]), new Map()) },
    ]);
    knownNames.add(id);
  }
}
