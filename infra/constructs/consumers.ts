import { Duration, type RemovalPolicy } from 'aws-cdk-lib';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import { FilterCriteria, FilterRule, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { pascal } from '../names';
import { queues } from '../queues';
import { streamConsumers } from '../streams';
import { deadLetterQueue } from './dead-letter-queue';
import { MailwrightFunction, type MailwrightFunctionProps } from './mailwright-function';

/** Queue and stream consumers' timeout; each queue's visibility timeout is at least 6× this (AWS guidance). */
export const CONSUMER_TIMEOUT_SECONDS = 30;

/**
 * The consumer of a queue of infra/queues.ts, as its spec declares it: partial batch failures,
 * bounded concurrency, read/write access to the table. Its feature binds what else it sends to.
 */
export function queueConsumer(
  scope: Construct,
  queueName: string,
  queue: IQueue,
  table: Table,
  { logRemovalPolicy, environment }: Pick<MailwrightFunctionProps, 'logRemovalPolicy' | 'environment'>,
): MailwrightFunction {
  const consumer = queues.find((spec) => spec.name === queueName)?.consumer;
  if (!consumer) throw new Error(`infra/queues.ts declares no consumer of ${queueName}`);
  const fn = new MailwrightFunction(scope, `${pascal(consumer.group)}Function`, {
    group: consumer.group,
    timeout: Duration.seconds(consumer.timeoutSeconds ?? CONSUMER_TIMEOUT_SECONDS),
    ...(consumer.memorySize ? { memorySize: consumer.memorySize } : {}),
    ...(logRemovalPolicy ? { logRemovalPolicy } : {}),
    ...(environment ? { environment } : {}),
  });
  fn.bindTable(table);
  fn.addEventSource(new SqsEventSource(queue, { batchSize: consumer.batchSize, maxConcurrency: consumer.maxConcurrency, reportBatchItemFailures: true }));
  return fn;
}

/**
 * A consumer of the table stream (infra/streams.ts): a function reading from LATEST, with
 * partial batch failures, bisection and bounded retries; records that still fail go (as stream
 * metadata) to a DLQ with an alarm. Filter criteria keep other items from invoking it at all.
 */
export function streamConsumer(scope: Construct, group: string, table: Table, logRemovalPolicy: RemovalPolicy): MailwrightFunction {
  const spec = streamConsumers.find((consumer) => consumer.group === group);
  if (!spec) throw new Error(`infra/streams.ts declares no stream consumer ${group}`);
  const id = pascal(spec.group);
  const fn = new MailwrightFunction(scope, `${id}Function`, {
    group: spec.group,
    timeout: Duration.seconds(CONSUMER_TIMEOUT_SECONDS),
    logRemovalPolicy,
  });
  fn.bindTable(table);
  const dlq = deadLetterQueue(scope, `${id}StreamDlq`, `Stream records ${spec.group} could not process after ${spec.retryAttempts} retries`);
  fn.addEventSource(
    new DynamoEventSource(table, {
      startingPosition: StartingPosition.LATEST,
      batchSize: spec.batchSize,
      bisectBatchOnError: spec.bisect ?? true,
      ...(spec.batchingWindowSeconds ? { maxBatchingWindow: Duration.seconds(spec.batchingWindowSeconds) } : {}),
      reportBatchItemFailures: true,
      retryAttempts: spec.retryAttempts,
      onFailure: new SqsDlq(dlq),
      filters: [
        ...spec.sortKeyPrefixes.map((prefix) => FilterCriteria.filter({ dynamodb: { Keys: { SK: { S: FilterRule.beginsWith(prefix) } } } })),
        ...(spec.removalPrefixes ?? []).map((prefix) => FilterCriteria.filter({ eventName: FilterRule.isEqual('REMOVE'), dynamodb: { Keys: { SK: { S: FilterRule.beginsWith(prefix) } } } })),
        ...(spec.insertions
          ? [
              FilterCriteria.filter({
                eventName: FilterRule.isEqual('INSERT'),
                dynamodb: {
                  Keys: { SK: { S: FilterRule.beginsWith(spec.insertions.sortKeyPrefix) } },
                  ...(spec.insertions.attribute ? { NewImage: { [spec.insertions.attribute.name]: { S: FilterRule.beginsWith(spec.insertions.attribute.valuePrefix) } } } : {}),
                },
              }),
            ]
          : []),
      ],
    }),
  );
  return fn;
}
