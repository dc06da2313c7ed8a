import { Match, Template } from 'aws-cdk-lib/assertions';
import { MailwrightStack } from '../../infra/stack';
import { type Resource, assertionApp, stackTemplate } from '../support/infra-template';

/** A stack of other context values than the run's shared one (stackTemplate). */
function synth(context: Record<string, unknown> = {}): Template {
  const app = assertionApp(context);
  return Template.fromStack(new MailwrightStack(app, 'Mailwright'));
}

const resources = (template: Template, type: string) => Object.entries(template.findResources(type)) as [string, Resource][];
const alarmByIdPrefix = (template: Template, prefix: string): Resource => {
  const found = resources(template, 'AWS::CloudWatch::Alarm').filter(([id]) => id.startsWith(prefix));
  if (found.length !== 1) throw new Error(`Expected one alarm ${prefix}…, found ${found.length}`);
  return found[0]![1];
};
/** An alarm's metric math: the expression and the metric names it reads. */
const mathOf = (alarm: Resource) => {
  const queries = alarm.Properties.Metrics as { Id: string; Expression?: string; MetricStat?: { Metric: { MetricName: string; Namespace: string }; Period: number; Stat: string }; ReturnData?: boolean }[];
  const result = queries.find((query) => query.Expression && query.ReturnData !== false)!;
  const stats = queries.filter((query) => query.MetricStat).map((query) => query.MetricStat!);
  return { expression: result.Expression!, metricNames: [...new Set(stats.map((stat) => stat.Metric.MetricName))].sort(), periods: [...new Set(stats.map((stat) => stat.Period))] };
};

describe('dashboard, alarms and the alarm topic', () => {
  let template: Template;
  let topicId: string;
  beforeAll(() => {
    template = synth({ alarmEmail: 'ops@example.com' });
    const topics = resources(template, 'AWS::SNS::Topic');
    expect(topics).toHaveLength(1);
    topicId = topics[0]![0];
  });

  test('the alarmEmail context value subscribes the address, with a DLQ for notifications SNS cannot deliver', () => {
    template.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: 'ops@example.com',
      TopicArn: { Ref: topicId },
      RedrivePolicy: { deadLetterTargetArn: { 'Fn::GetAtt': [Match.stringLikeRegexp('^AlarmEmailDlq'), 'Arn'] } },
    });
    expect(resources(stackTemplate(), 'AWS::SNS::Subscription')).toHaveLength(0);
    expect(() => synth({ alarmEmail: 'not an address' })).toThrow(/alarmEmail/);
  });

  test('every alarm notifies the topic, and every dead-letter queue has a "not empty" alarm', () => {
    const alarms = resources(template, 'AWS::CloudWatch::Alarm');
    for (const [id, alarm] of alarms) expect({ id, actions: alarm.Properties.AlarmActions }).toEqual({ id, actions: [{ Ref: topicId }] });

    const queues = resources(template, 'AWS::SQS::Queue');
    const redriveTargets = new Set(queues.flatMap(([, queue]) => (queue.Properties.RedrivePolicy ? [queue.Properties.RedrivePolicy.deadLetterTargetArn['Fn::GetAtt'][0]] : [])));
    const dlqIds = queues.map(([id]) => id).filter((id) => redriveTargets.has(id) || /Dlq/.test(id));
    expect(dlqIds.length).toBeGreaterThanOrEqual(6);
    for (const dlqId of dlqIds) {
      const watching = alarms.filter(([, alarm]) => alarm.Properties.MetricName === 'ApproximateNumberOfMessagesVisible' && JSON.stringify(alarm.Properties.Dimensions).includes(dlqId));
      expect({ dlqId, alarms: watching.length }).toEqual({ dlqId, alarms: 1 });
      expect(watching[0]![1].Properties).toMatchObject({ Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold', EvaluationPeriods: 1 });
    }
  });

  test('bounce rate over 5 % and complaint rate over 0.1 % of the last 24 h of sends, by metric math over every source', () => {
    const bounce = alarmByIdPrefix(template, 'BounceRateAlarm');
    const complaint = alarmByIdPrefix(template, 'ComplaintRateAlarm');
    expect(bounce.Properties).toMatchObject({ Threshold: 5, ComparisonOperator: 'GreaterThanThreshold', EvaluationPeriods: 1, TreatMissingData: 'notBreaching' });
    expect(complaint.Properties).toMatchObject({ Threshold: 0.1, ComparisonOperator: 'GreaterThanThreshold', EvaluationPeriods: 1 });
    expect(mathOf(bounce)).toEqual({ expression: expect.stringMatching(/^IF\(.*>= 100, 100 \* \(.*\) \/ \(.*\), 0\)$/), metricNames: ['EmailsBounced', 'EmailsSent'], periods: [86400] });
    expect(mathOf(complaint).metricNames).toEqual(['EmailsComplained', 'EmailsSent']);
    const sources = (bounce.Properties.Metrics as { MetricStat?: { Metric: { Dimensions: { Name: string; Value: string }[] } } }[])
      .flatMap((query) => query.MetricStat?.Metric.Dimensions ?? [])
      .filter((dimension) => dimension.Name === 'source')
      .map((dimension) => dimension.Value);
    expect(new Set(sources)).toEqual(new Set(['transactional', 'campaign', 'workflow']));
  });

  test('sender errors (invocation errors plus failed messages) and the API 5xx rate', () => {
    const sender = alarmByIdPrefix(template, 'SenderErrorsAlarm');
    expect(mathOf(sender)).toEqual({ expression: 'FILL(errors, 0) + FILL(failures, 0)', metricNames: ['Errors', 'MessageFailures'], periods: [300] });
    expect(sender.Properties.Threshold).toBe(5);
    const api = alarmByIdPrefix(template, 'Api5xxRateAlarm');
    expect(mathOf(api)).toEqual({ expression: expect.stringContaining('100 * FILL(errors, 0) / requests'), metricNames: ['5XXError', 'Count'], periods: [300] });
    expect(api.Properties.Threshold).toBe(1);
  });

  test('a campaign paused by the deliverability guard raises an alarm at the first CampaignsPaused in 5 minutes', () => {
    // Prepare
    const alarm = alarmByIdPrefix(template, 'CampaignPausedAlarm');
    // Assess
    expect(alarm.Properties).toMatchObject({
      MetricName: 'CampaignsPaused',
      Namespace: 'Mailwright',
      Dimensions: [{ Name: 'service', Value: 'mailwright' }],
      Statistic: 'Sum',
      Period: 300,
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      EvaluationPeriods: 1,
      TreatMissingData: 'notBreaching',
      AlarmActions: [{ Ref: topicId }],
    });
  });

  test('the dashboard graphs outcomes, rates, latency, throttles, API routes, and every DLQ and function', () => {
    const dashboards = resources(template, 'AWS::CloudWatch::Dashboard');
    expect(dashboards).toHaveLength(1);
    const body = JSON.stringify(dashboards[0]![1].Properties.DashboardBody);
    for (const text of ['EmailsSent', 'EmailsDelivered', 'EmailsBounced', 'EmailsComplained', 'EmailsFailed', 'EmailsQueued', 'SendLatency', 'SesThrottles', 'MessageFailures', 'ApiRequests', 'ApiErrors', '5XXError', 'Bounce rate', 'Complaint rate']) {
      expect({ text, found: body.includes(text) }).toEqual({ text, found: true });
    }
    const dlqIds = resources(template, 'AWS::SQS::Queue').map(([id]) => id).filter((id) => /Dlq/.test(id));
    for (const dlqId of dlqIds) expect({ dlqId, graphed: body.includes(`"${dlqId}"`) }).toEqual({ dlqId, graphed: true });
    for (const [functionId] of resources(template, 'AWS::Lambda::Function')) expect({ functionId, graphed: body.includes(`"${functionId}"`) }).toEqual({ functionId, graphed: true });
  });

  test('X-Ray: active tracing on every function and on the API stage; functions know the metrics namespace', () => {
    for (const [id, fn] of resources(template, 'AWS::Lambda::Function')) {
      expect({ id, tracing: fn.Properties.TracingConfig, namespace: fn.Properties.Environment?.Variables?.POWERTOOLS_METRICS_NAMESPACE }).toEqual({ id, tracing: { Mode: 'Active' }, namespace: 'Mailwright' });
    }
    template.hasResourceProperties('AWS::ApiGateway::Stage', { TracingEnabled: true });
  });
});
