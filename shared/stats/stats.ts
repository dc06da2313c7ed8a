import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { addToCounters } from '../db/counters';
import { documentClient } from '../aws/clients';
import { tableName } from '../db/table';
import type { EmailRecord } from '../emails/emails';
import { countMetric, metricNames, type MetricName } from '../observability/metrics';
import { statsKeys } from './keys';

/** What is counted per source. Opens and clicks count every open and click. */
export const statsMetrics = ['sent', 'delivered', 'opened', 'clicked', 'bounced', 'complained', 'rejected', 'failed', 'delayed'] as const;
export type StatsMetric = (typeof statsMetrics)[number];

/**
 * Counts outcomes (one each) for an email's source: an atomic ADD, outside any transaction, because every
 * email of a campaign updates the same item (see countEvents in shared/events/events.ts).
 */
export async function countOutcome(email: Pick<EmailRecord, 'projectId' | 'source'>, ...metrics: StatsMetric[]): Promise<void> {
  await addToCounters(statsKeys.source(email.projectId, email.source.type, email.source.id), Object.fromEntries(metrics.map((metric) => [metric, 1])));
  emitOutcomeMetrics(email, metrics);
}

/** The outcomes' CloudWatch metrics, where the stats themselves are counted from the table stream (shared/delivery/tallies.ts). */
export function emitOutcomeMetrics(email: Pick<EmailRecord, 'source'>, metrics: StatsMetric[]): void {
  for (const metric of metrics) {
    const name = outcomeMetrics[metric];
    if (name) countMetric(name, { source: email.source.type });
  }
}

/** The outcomes that are also CloudWatch metrics (per source type, for the dashboard and the rate alarms). */
const outcomeMetrics: Partial<Record<StatsMetric, MetricName>> = {
  sent: metricNames.emailsSent,
  delivered: metricNames.emailsDelivered,
  bounced: metricNames.emailsBounced,
  complained: metricNames.emailsComplained,
  rejected: metricNames.emailsRejected,
  failed: metricNames.emailsFailed,
};

/** O(1): one GetItem of the source's counters. */
export async function getStats(projectId: string, type: EmailRecord['source']['type'], sourceId?: string): Promise<Record<StatsMetric, number>> {
  const { Item } = await documentClient.send(new GetCommand({ TableName: tableName, Key: statsKeys.source(projectId, type, sourceId) }));
  return Object.fromEntries(statsMetrics.map((metric) => [metric, (Item?.[metric] as number | undefined) ?? 0])) as Record<StatsMetric, number>;
}
