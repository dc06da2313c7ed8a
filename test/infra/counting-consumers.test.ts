import type { Template } from 'aws-cdk-lib/assertions';
import { type Resource, idAt, stackTemplate } from '../support/infra-template';

describe('the counting stream consumers', () => {
  let template: Template;
  let resources: Record<string, Resource>;

  beforeAll(() => {
    template = stackTemplate();
    resources = template.toJSON().Resources;
  });

  test('counts emails\' events from the table stream: new email.* events only, whole batches retried until counted, never halved, gathered for 10 s', () => {
    // Prepare
    const fnId = idAt(template, 'AWS::Lambda::Function', 'DeliveryCountersFunction/Resource');
    const tableId = idAt(template, 'AWS::DynamoDB::Table', 'Table/Resource');
    const dlqId = idAt(template, 'AWS::SQS::Queue', 'DeliveryCountersStreamDlq/Resource');

    // Assess
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: fnId },
      EventSourceArn: { 'Fn::GetAtt': [tableId, 'StreamArn'] },
      StartingPosition: 'LATEST',
      BatchSize: 100,
      // Halving a batch would cut it into runs other than those its markers name (shared/delivery/tallies.ts).
      BisectBatchOnFunctionError: false,
      MaximumBatchingWindowInSeconds: 10,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      MaximumRetryAttempts: 10_000,
      DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [dlqId, 'Arn'] } } },
      FilterCriteria: { Filters: [{ Pattern: JSON.stringify({ eventName: ['INSERT'], dynamodb: { Keys: { SK: { S: [{ prefix: 'EVENT#' }] } }, NewImage: { name: { S: [{ prefix: 'email.' }] } } } }) }] },
    });
    expect(resources[fnId]!.Properties.Environment.Variables.TABLE_NAME).toEqual({ Ref: tableId });
  });

  test('counts workflow entries from the table stream: new executions only, as delivery-counters counts', () => {
    // Prepare
    const fnId = idAt(template, 'AWS::Lambda::Function', 'WorkflowFiguresFunction/Resource');

    // Assess
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: fnId },
      BatchSize: 100,
      BisectBatchOnFunctionError: false,
      MaximumBatchingWindowInSeconds: 10,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      MaximumRetryAttempts: 10_000,
      FilterCriteria: { Filters: [{ Pattern: JSON.stringify({ eventName: ['INSERT'], dynamodb: { Keys: { SK: { S: [{ prefix: 'EXECUTION#' }] } } } }) }] },
    });
  });
});
