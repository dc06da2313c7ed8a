import { Duration, Validations } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';

/** Every dead-letter queue made here: the dashboard graphs their depth (infra/features/observability.ts). */
const deadLetterQueues = new WeakSet<Queue>();
export const isDeadLetterQueue = (queue: Queue) => deadLetterQueues.has(queue);

/**
 * A dead-letter queue (SQS redrive, EventBridge target, asynchronous invocation, stream on-failure
 * destination) kept 14 days, encrypted, TLS only, with an alarm as soon as anything lands in it.
 * Every alarm in the stack notifies the alarm topic (infra/features/observability.ts).
 */
export function deadLetterQueue(scope: Construct, id: string, alarmDescription: string): Queue {
  const queue = new Queue(scope, id, { retentionPeriod: Duration.days(14), encryption: QueueEncryption.SQS_MANAGED, enforceSSL: true });
  const reason = 'A dead-letter queue itself: messages stay 14 days for inspection and redrive, and its alarm reports the first one';
  Validations.of(queue).acknowledge({ id: 'Serverless-SQSRedrivePolicy', reason }, { id: 'AwsSolutions-SQS3', reason });
  new Alarm(scope, `${id}Alarm`, {
    alarmDescription,
    metric: queue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: 'Maximum' }),
    threshold: 1,
    evaluationPeriods: 1,
    comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    treatMissingData: TreatMissingData.NOT_BREACHING,
  });
  deadLetterQueues.add(queue);
  return queue;
}
