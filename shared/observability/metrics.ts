import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { optionalEnv } from '../config/env';
import { variables } from '../config/variables';

/**
 * Business and API metrics as CloudWatch EMF (Powertools Metrics): recorded anywhere during an
 * invocation, written as EMF log lines by `flushMetrics()`, which every handler factory calls when
 * an invocation ends. CloudWatch turns the lines into metrics in the `POWERTOOLS_METRICS_NAMESPACE`
 * namespace (set by MailwrightFunction) with the dimension `service=mailwright` plus the ones given.
 * Locally the same code runs: `POWERTOOLS_METRICS_DISABLED=true` (the local stack's default)
 * turns the output off, `false` prints the EMF lines to stdout.
 */
export const METRIC_SERVICE = 'mailwright';

export const metricNames = {
  emailsQueued: 'EmailsQueued',
  emailsSent: 'EmailsSent',
  emailsDelivered: 'EmailsDelivered',
  emailsBounced: 'EmailsBounced',
  emailsComplained: 'EmailsComplained',
  emailsRejected: 'EmailsRejected',
  emailsFailed: 'EmailsFailed',
  /** From the email's creation (queued) to SES accepting it, per source. */
  sendLatency: 'SendLatency',
  /** SES answered "slow down" (rate or daily quota); the email is retried later. */
  sesThrottles: 'SesThrottles',
  apiRequests: 'ApiRequests',
  /** Answers with a 5xx status, by route. */
  apiErrors: 'ApiErrors',
  /** Campaigns the deliverability guard paused (bounce or complaint rate above its threshold). */
  campaignsPaused: 'CampaignsPaused',
  /** Queue messages a consumer failed on (not RetryLater), by consumer: they return and may reach the DLQ. */
  messageFailures: 'MessageFailures',
} as const;

export type MetricName = (typeof metricNames)[keyof typeof metricNames];
type Dimensions = Record<string, string>;
type Unit = (typeof MetricUnit)[keyof typeof MetricUnit];

interface Pending {
  dimensions: Dimensions;
  values: Map<MetricName, { unit: Unit; values: number[] }>;
}

/** Grouped by dimension set: one EMF line per set when flushed. */
const pending = new Map<string, Pending>();

let emitter: Metrics | undefined;
const emitterOf = () => (emitter ??= new Metrics({ namespace: optionalEnv(variables.metricsNamespace) ?? 'Mailwright', serviceName: METRIC_SERVICE }));

function record(name: MetricName, unit: Unit, value: number, dimensions: Dimensions): void {
  const key = JSON.stringify(Object.entries(dimensions).sort(([a], [b]) => a.localeCompare(b)));
  const group = pending.get(key) ?? { dimensions, values: new Map() };
  pending.set(key, group);
  const metric = group.values.get(name) ?? { unit, values: [] };
  group.values.set(name, metric);
  metric.values.push(value);
}

export function countMetric(name: MetricName, dimensions: Dimensions = {}, count = 1): void {
  if (count > 0) record(name, MetricUnit.Count, count, dimensions);
}

export function timeMetric(name: MetricName, milliseconds: number, dimensions: Dimensions = {}): void {
  record(name, MetricUnit.Milliseconds, Math.max(0, milliseconds), dimensions);
}

/**
 * Writes what was recorded and forgets it. Synchronous, so concurrent invocations in one process
 * (the local stack) cannot interleave their dimension sets; each value is written once.
 */
export function flushMetrics(): void {
  if (pending.size === 0) return;
  const metrics = emitterOf();
  const groups = [...pending.values()];
  pending.clear();
  for (const group of groups) {
    metrics.addDimensions(group.dimensions);
    for (const [name, metric] of group.values) for (const value of metric.values) metrics.addMetric(name, metric.unit, value);
    metrics.publishStoredMetrics();
  }
}
