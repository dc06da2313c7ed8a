import { Aspects, Duration, Stack, Validations } from 'aws-cdk-lib';
import type { RestApi } from 'aws-cdk-lib/aws-apigateway';
import {
  Alarm,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  MathExpression,
  Metric,
  TextWidget,
  TreatMissingData,
  type IMetric,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import type { Construct, IConstruct } from 'constructs';
import { METRIC_SERVICE, metricNames, type MetricName } from '../../shared/observability/metrics';
import type { EmailSourceType } from '../../shared/emails/emails';
import { deadLetterQueue, isDeadLetterQueue } from '../constructs/dead-letter-queue';
import { MailwrightFunction, METRICS_NAMESPACE } from '../constructs/mailwright-function';

const SOURCES: readonly EmailSourceType[] = ['transactional', 'campaign', 'workflow'];
/** Rate alarms ignore windows with fewer sends or requests than this (one bounce in 3 sends is no signal). */
export const MIN_SENDS_FOR_RATE = 100;
const MIN_REQUESTS_FOR_RATE = 20;
export const BOUNCE_RATE_ALARM_PERCENT = 5;
export const COMPLAINT_RATE_ALARM_PERCENT = 0.1;
export const API_5XX_ALARM_PERCENT = 1;
export const SENDER_ERRORS_ALARM_THRESHOLD = 5;

export interface ObservabilityProps {
  api: RestApi;
  sender: MailwrightFunction;
  /** Subscribed to the alarm topic by email (context value alarmEmail). */
  alarmEmail?: string;
}

/** A metric the functions write as EMF (shared/observability/metrics.ts). */
export const emfMetric = (metricName: MetricName, dimensions: Record<string, string>, statistic: string, period: Duration) =>
  new Metric({ namespace: METRICS_NAMESPACE, metricName, dimensionsMap: { service: METRIC_SERVICE, ...dimensions }, statistic, period });

/** The sum over every source type, missing data as 0: `ids` names the parts in a math expression. */
function overSources(metricName: MetricName, prefix: string, period: Duration): { expression: string; usingMetrics: Record<string, IMetric> } {
  const usingMetrics = Object.fromEntries(SOURCES.map((source, index) => [`${prefix}${index}`, emfMetric(metricName, { source }, 'Sum', period)]));
  return { expression: Object.keys(usingMetrics).map((id) => `FILL(${id}, 0)`).join(' + '), usingMetrics };
}

/** 100 × part / sends over the period, 0 below MIN_SENDS_FOR_RATE sends. */
function rateOfSends(part: MetricName, partId: string, label: string, period: Duration): MathExpression {
  const parts = overSources(part, partId, period);
  const sends = overSources(metricNames.emailsSent, 's', period);
  return new MathExpression({
    expression: `IF((${sends.expression}) >= ${MIN_SENDS_FOR_RATE}, 100 * (${parts.expression}) / (${sends.expression}), 0)`,
    usingMetrics: { ...parts.usingMetrics, ...sends.usingMetrics },
    label,
    period,
  });
}

/** Alarms when a rate (%) is above the threshold in one period; no data is no alarm. */
function rateAlarm(scope: Construct, id: string, metric: MathExpression, threshold: number, alarmDescription: string): Alarm {
  return new Alarm(scope, id, {
    alarmDescription,
    metric,
    threshold,
    evaluationPeriods: 1,
    comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
    treatMissingData: TreatMissingData.NOT_BREACHING,
  });
}

/**
 * The alarm topic, the alarms and the dashboard. Every CloudWatch alarm in the stack — these, the
 * DLQ alarms, and any added later — notifies the topic (an aspect at synth), and the dashboard
 * graphs the depth of every dead-letter queue made with deadLetterQueue().
 */
export function addObservability(scope: Construct, props: ObservabilityProps): { topic: Topic; dashboard: Dashboard } {
  const stack = Stack.of(scope);
  const topic = new Topic(scope, 'AlarmTopic', { displayName: 'Mailwright alarms', enforceSSL: true });
  Validations.of(topic).acknowledge({
    id: 'AwsSolutions-SNS2',
    reason: 'Alarm notifications carry no user data; CloudWatch cannot publish to a topic under the AWS-managed SNS key, and a customer key costs $1 a month',
  });
  if (props.alarmEmail) {
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(props.alarmEmail)) throw new Error(`Context value alarmEmail must be an email address, got "${props.alarmEmail}"`);
    const undelivered = deadLetterQueue(scope, 'AlarmEmailDlq', 'Alarm notifications SNS could not deliver to the alarmEmail address');
    topic.addSubscription(new EmailSubscription(props.alarmEmail, { deadLetterQueue: undelivered }));
  }

  const fiveMinutes = Duration.minutes(5);
  const oneDay = Duration.days(1);

  const senderFailures = new MathExpression({
    expression: 'FILL(errors, 0) + FILL(failures, 0)',
    usingMetrics: {
      errors: props.sender.metricErrors({ period: fiveMinutes, statistic: 'Sum' }),
      failures: emfMetric(metricNames.messageFailures, { consumer: 'sender' }, 'Sum', fiveMinutes),
    },
    label: 'Sender errors (invocations and messages)',
    period: fiveMinutes,
  });
  new Alarm(scope, 'SenderErrorsAlarm', {
    alarmDescription: `The sender failed ${SENDER_ERRORS_ALARM_THRESHOLD} or more times in 5 minutes (invocation errors plus messages it could not process; they are retried)`,
    metric: senderFailures,
    threshold: SENDER_ERRORS_ALARM_THRESHOLD,
    evaluationPeriods: 1,
    comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    treatMissingData: TreatMissingData.NOT_BREACHING,
  });

  const api5xxRate = new MathExpression({
    expression: `IF(FILL(requests, 0) >= ${MIN_REQUESTS_FOR_RATE}, 100 * FILL(errors, 0) / requests, 0)`,
    usingMetrics: {
      requests: props.api.metricCount({ period: fiveMinutes, statistic: 'Sum' }),
      errors: props.api.metricServerError({ period: fiveMinutes, statistic: 'Sum' }),
    },
    label: 'API 5xx rate (%)',
    period: fiveMinutes,
  });
  rateAlarm(scope, 'Api5xxRateAlarm', api5xxRate, API_5XX_ALARM_PERCENT, `More than ${API_5XX_ALARM_PERCENT} % of API requests answered 5xx over 5 minutes (at least ${MIN_REQUESTS_FOR_RATE} requests)`);

  const bounceRate = rateOfSends(metricNames.emailsBounced, 'bounced', 'Bounce rate, last 24 h (%)', oneDay);
  rateAlarm(scope, 'BounceRateAlarm', bounceRate, BOUNCE_RATE_ALARM_PERCENT, `Bounces were more than ${BOUNCE_RATE_ALARM_PERCENT} % of sends over the last 24 h (at least ${MIN_SENDS_FOR_RATE} sends); SES reviews accounts from 5 %`);
  const complaintRate = rateOfSends(metricNames.emailsComplained, 'complained', 'Complaint rate, last 24 h (%)', oneDay);
  rateAlarm(scope, 'ComplaintRateAlarm', complaintRate, COMPLAINT_RATE_ALARM_PERCENT, `Complaints were more than ${COMPLAINT_RATE_ALARM_PERCENT} % of sends over the last 24 h (at least ${MIN_SENDS_FOR_RATE} sends); SES reviews accounts from 0.1 %`);

  // The deliverability guard paused a campaign: someone has to look at its list before resuming it.
  new Alarm(scope, 'CampaignPausedAlarm', {
    alarmDescription: 'The deliverability guard paused a campaign (bounce or complaint rate above its threshold); GET /campaigns?status=PAUSED shows it and its pauseReason, POST /campaigns/{id}/send resumes it',
    metric: emfMetric(metricNames.campaignsPaused, {}, 'Sum', fiveMinutes),
    threshold: 1,
    evaluationPeriods: 1,
    comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    treatMissingData: TreatMissingData.NOT_BREACHING,
  });

  const dashboard = new Dashboard(scope, 'Dashboard', { dashboardName: `${stack.stackName}-overview`, defaultInterval: Duration.hours(24) });
  const outcomes = [metricNames.emailsQueued, metricNames.emailsSent, metricNames.emailsDelivered, metricNames.emailsBounced, metricNames.emailsComplained, metricNames.emailsRejected, metricNames.emailsFailed];
  dashboard.addWidgets(
    new TextWidget({ markdown: '# Mailwright\nEmails by outcome (all sources), rates, sending latency, API and queues. Alarms notify the alarm topic.', width: 24, height: 2 }),
    new GraphWidget({
      title: 'Emails by outcome (per 5 minutes, all sources)',
      width: 12,
      left: outcomes.map((name, index) => {
        const sum = overSources(name, `m${index}x`, fiveMinutes);
        return new MathExpression({ expression: sum.expression, usingMetrics: sum.usingMetrics, label: name, period: fiveMinutes });
      }),
    }),
    new GraphWidget({
      title: 'Bounce and complaint rate, last 24 h (%)',
      width: 12,
      left: [bounceRate, complaintRate],
      leftAnnotations: [
        { value: BOUNCE_RATE_ALARM_PERCENT, label: 'bounce alarm' },
        { value: COMPLAINT_RATE_ALARM_PERCENT, label: 'complaint alarm' },
      ],
    }),
    new GraphWidget({
      title: 'Send latency, queued → SES accepted (ms)',
      width: 12,
      left: SOURCES.flatMap((source) => [
        emfMetric(metricNames.sendLatency, { source }, 'p50', fiveMinutes).with({ label: `${source} p50` }),
        emfMetric(metricNames.sendLatency, { source }, 'p99', fiveMinutes).with({ label: `${source} p99` }),
      ]),
    }),
    new GraphWidget({
      title: 'SES throttles and sender errors',
      width: 12,
      left: [emfMetric(metricNames.sesThrottles, {}, 'Sum', fiveMinutes).with({ label: 'SES throttles' }), senderFailures],
    }),
    new GraphWidget({
      title: 'API requests and errors by route',
      width: 12,
      left: [
        new MathExpression({ expression: `SEARCH('{${METRICS_NAMESPACE},route,service} MetricName="${metricNames.apiRequests}"', 'Sum', 300)`, label: 'requests', period: fiveMinutes }),
      ],
      right: [
        new MathExpression({ expression: `SEARCH('{${METRICS_NAMESPACE},route,service} MetricName="${metricNames.apiErrors}"', 'Sum', 300)`, label: '5xx', period: fiveMinutes }),
      ],
    }),
    new GraphWidget({
      title: 'API: requests, 5xx rate, latency',
      width: 12,
      left: [props.api.metricCount({ period: fiveMinutes, statistic: 'Sum' }), props.api.metricLatency({ period: fiveMinutes, statistic: 'p99' })],
      right: [api5xxRate],
    }),
  );

  // At synth, when every construct exists (also those added after this call): alarm actions and
  // the DLQ and function widgets.
  let applied = false;
  Aspects.of(stack).add({
    visit(node: IConstruct) {
      if (node !== stack || applied) return;
      applied = true;
      const all = stack.node.findAll();
      // By name, so the graphs do not follow the order in which the stack composes its features.
      const byName = (a: IConstruct, b: IConstruct) => a.node.id.localeCompare(b.node.id);
      for (const alarm of all) if (alarm instanceof Alarm) alarm.addAlarmAction(new SnsAction(topic));
      const dlqs = all.filter((construct): construct is Queue => construct instanceof Queue && isDeadLetterQueue(construct)).sort(byName);
      const functions = all.filter((construct): construct is MailwrightFunction => construct instanceof MailwrightFunction).sort(byName);
      dashboard.addWidgets(
        new GraphWidget({
          title: 'Dead-letter queues: messages waiting',
          width: 12,
          left: dlqs.map((queue) => queue.metricApproximateNumberOfMessagesVisible({ period: fiveMinutes, statistic: 'Maximum', label: queue.node.id })),
        }),
        new GraphWidget({
          title: 'Function errors and throttles',
          width: 12,
          left: functions.map((fn) => fn.metricErrors({ period: fiveMinutes, statistic: 'Sum', label: fn.node.id })),
          right: functions.map((fn) => fn.metricThrottles({ period: fiveMinutes, statistic: 'Sum', label: fn.node.id })),
        }),
      );
    },
  });
  return { topic, dashboard };
}
