import { Duration, type RemovalPolicy } from 'aws-cdk-lib';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import { FilterCriteria, FilterRule, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { Construct } from 'constructs';
import { streamConsumers } from '../streams';
import { deadLetterQueue } from './dead-letter-queue';
import { MailwrightFunction } from './mailwright-function';

const pascal = (name: string) => name.replace(/(^|[^a-zA-Z0-9])([a-zA-Z0-9])/g, (_, __, c: string) => c.toUpperCase());

/**
 * Every consumer of the table stream (infra/streams.ts): a function reading from LATEST, with
 * partial batch failures, bisection and bounded retries; records that still fail go (as stream
 * metadata) to a DLQ with an alarm. Filter criteria keep other items from invoking it at all.
 */
export function addStreamConsumers(scope: Construct, table: Table, options: { timeoutSeconds: number; logRemovalPolicy: RemovalPolicy }): Map<string, MailwrightFunction> {
  const functions = new Map<string, MailwrightFunction>();
  for (const spec of streamConsumers) {
    const id = pascal(spec.group);
    const fn = new MailwrightFunction(scope, `${id}Function`, {
      group: spec.group,
      timeout: Duration.seconds(options.timeoutSeconds),
      logRemovalPolicy: options.logRemovalPolicy,
    });
    fn.bindTable(table);
    const dlq = deadLetterQueue(scope, `${id}StreamDlq`, `Stream records ${spec.group} could not process after ${spec.retryAttempts} retries`);
    fn.addEventSource(
      new DynamoEventSource(table, {
        startingPosition: StartingPosition.LATEST,
        batchSize: spec.batchSize,
        bisectBatchOnError: true,
        reportBatchItemFailures: true,
        retryAttempts: spec.retryAttempts,
        onFailure: new SqsDlq(dlq),
        filters: spec.sortKeyPrefixes.map((prefix) => FilterCriteria.filter({ dynamodb: { Keys: { SK: { S: FilterRule.beginsWith(prefix) } } } })),
      }),
    );
    functions.set(spec.group, fn);
  }
  return functions;
}
