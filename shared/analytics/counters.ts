import { addToCounters } from '../db/counters';
import type { StatsMetric } from '../stats/stats';
import { analyticsKeys, utcDay } from './keys';

/** What the per-day counters count: every open and click; `bounced` only permanent bounces (what SES's bounce rate counts). */
export const dailyMetrics = ['sent', 'delivered', 'opened', 'clicked', 'bounced', 'complained'] as const;
export type DailyMetric = (typeof dailyMetrics)[number];

/** SES reviews an account from these rates on (its reputation dashboard's review thresholds). */
export const sesReviewThresholds = { bounceRate: 0.05, complaintRate: 0.001 } as const;

export const isDaily = (metric: StatsMetric): metric is DailyMetric => (dailyMetrics as readonly string[]).includes(metric);

/**
 * Adds outcomes to the project's day counters, each on the UTC day it happened: atomic ADDs,
 * coalesced per item (shared/db/counters.ts). Callers add only after the conditional write that
 * recorded the outcome succeeded (a campaign test send's SENT), so a redelivered message, whose write
 * is refused, never counts twice. The outcomes of mail that has events are counted from the table
 * stream instead (their tallies: shared/delivery/tallies.ts).
 */
export async function countDaily(projectId: string, outcomes: { metric: StatsMetric; at: string | Date }[]): Promise<void> {
  const byDay = new Map<string, Record<string, number>>();
  for (const { metric, at } of outcomes) {
    if (!isDaily(metric)) continue;
    const adds = byDay.get(utcDay(at)) ?? {};
    adds[metric] = (adds[metric] ?? 0) + 1;
    byDay.set(utcDay(at), adds);
  }
  await Promise.all([...byDay].map(([date, adds]) => addToCounters(analyticsKeys.day(projectId, date), adds)));
}
