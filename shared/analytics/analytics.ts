import { countContacts } from '../contacts/contacts';
import { queryAll } from '../db/query';
import { validationFailed } from '../http/errors';
import { dailyMetrics, sesReviewThresholds, type DailyMetric } from './counters';
import { analyticsKeys, utcDay } from './keys';
import { MAX_ANALYTICS_DAYS, type AnalyticsQuery } from './schemas';

export type DayCounts = { date: string } & Record<DailyMetric, number>;

export interface Analytics {
  from: string;
  to: string;
  days: DayCounts[];
  totals: Record<DailyMetric, number>;
  bounceRate: number;
  complaintRate: number;
  thresholds: typeof sesReviewThresholds;
  contacts: number;
  subscribers: number;
}

const DAY_MS = 86_400_000;
const DEFAULT_DAYS = 30;

/**
 * GET /analytics: one Query over the range's day items (at most 366, ascending) and the
 * contact counters' GetItem — no scan. Days without an item are zeros. Rates are of `sent`.
 */
export async function getAnalytics(projectId: string, query: AnalyticsQuery, now = new Date()): Promise<Analytics> {
  const to = query.to ?? utcDay(now);
  const from = query.from ?? utcDay(Date.parse(`${to}T00:00:00Z`) - (DEFAULT_DAYS - 1) * DAY_MS);
  const span = (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS + 1;
  if (span < 1) throw validationFailed([{ field: 'query.from', code: 'INVALID_RANGE', message: 'from must not be after to' }]);
  if (span > MAX_ANALYTICS_DAYS) throw validationFailed([{ field: 'query.to', code: 'INVALID_RANGE', message: `from and to may span at most ${MAX_ANALYTICS_DAYS} days` }]);

  const [items, contacts] = await Promise.all([
    queryAll({
      KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': analyticsKeys.day(projectId, from).PK, ':from': analyticsKeys.day(projectId, from).SK, ':to': analyticsKeys.day(projectId, to).SK },
    }),
    countContacts(projectId),
  ]);
  const stored = new Map(items.map((item) => [(item.SK as string).slice(analyticsKeys.dayPrefix.length), item]));
  const days: DayCounts[] = Array.from({ length: span }, (_, index) => {
    const date = utcDay(Date.parse(`${from}T00:00:00Z`) + index * DAY_MS);
    const item = stored.get(date);
    return { date, ...(Object.fromEntries(dailyMetrics.map((metric) => [metric, (item?.[metric] as number | undefined) ?? 0])) as Record<DailyMetric, number>) };
  });
  const totals = Object.fromEntries(dailyMetrics.map((metric) => [metric, days.reduce((sum, day) => sum + day[metric], 0)])) as Record<DailyMetric, number>;
  const rate = (count: number) => (totals.sent === 0 ? 0 : count / totals.sent);
  return {
    from,
    to,
    days,
    totals,
    bounceRate: rate(totals.bounced),
    complaintRate: rate(totals.complained),
    thresholds: sesReviewThresholds,
    contacts: contacts.total,
    subscribers: contacts.subscribed,
  };
}
