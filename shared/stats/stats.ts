import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../aws/clients';
import { tableName } from '../db/table';
import type { EmailRecord } from '../emails/emails';
import { countMetric, metricNames, type MetricName } from '../observability/metrics';
import { statsKeys } from './keys';

/** What is counted per source. Opens and clicks count every open and click. */
export const statsMetrics = ['sent', 'delivered', 'opened', 'clicked', 'bounced', 'complained', 'rejected', 'failed', 'delayed'] as const;
export type StatsMetric = (typeof statsMetrics)[number];

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
