import { Match, type Template } from 'aws-cdk-lib/assertions';
import { routes } from '../../shared/http/routes';
import { streamConsumers } from '../../infra/streams';
import { type Resource, idAt, stackTemplate } from '../support/infra-template';

describe('segments infrastructure', () => {
  let template: Template;
  let resources: Record<string, Resource>;

  beforeAll(() => {
    template = stackTemplate();
    resources = template.toJSON().Resources;
  });

  test('the seven segment routes are served by the segments function with secret keys only', () => {
    const segmentRoutes = routes.filter((route) => route.group === 'segments');
    expect(segmentRoutes.map((route) => `${route.method} ${route.path}`).sort()).toEqual(
      ['DELETE /segments/{id}', 'GET /segments', 'GET /segments/{id}', 'GET /segments/{id}/contacts', 'PATCH /segments/{id}', 'POST /segments', 'POST /segments/preview'].sort(),
    );
    for (const route of segmentRoutes) expect(route.keys).toEqual(['secret']);
    const fnId = idAt(template, 'AWS::Lambda::Function', 'SegmentsFunction/Resource');
    // On-demand evaluation gets API Gateway's whole window and more memory.
    expect(resources[fnId]!.Properties).toMatchObject({ Timeout: 29, MemorySize: 1024 });
    const methods = Object.values(resources).filter((resource) => resource.Type === 'AWS::ApiGateway::Method' && JSON.stringify(resource.Properties.Integration ?? {}).includes(fnId));
    expect(methods).toHaveLength(7);
    for (const method of methods) expect(method.Properties.AuthorizationType).toBe('CUSTOM');
  });

  test('the segment-membership function consumes the table stream: LATEST, 100, bisect, partial failures, 10 retries, DLQ', () => {
    const spec = streamConsumers.find((consumer) => consumer.group === 'segment-membership')!;
    const fnId = idAt(template, 'AWS::Lambda::Function', 'SegmentMembershipFunction/Resource');
    const tableId = idAt(template, 'AWS::DynamoDB::Table', 'Table/Resource');
    const dlqId = idAt(template, 'AWS::SQS::Queue', 'SegmentMembershipStreamDlq/Resource');

    template.resourceCountIs('AWS::Lambda::EventSourceMapping', Object.values(resources).filter((resource) => resource.Type === 'AWS::Lambda::EventSourceMapping').length);
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: fnId },
      EventSourceArn: { 'Fn::GetAtt': [tableId, 'StreamArn'] },
      StartingPosition: 'LATEST',
      BatchSize: spec.batchSize,
      BisectBatchOnFunctionError: true,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      MaximumRetryAttempts: 10,
      DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [dlqId, 'Arn'] } } },
      FilterCriteria: {
        Filters: [
          { Pattern: JSON.stringify({ dynamodb: { Keys: { SK: { S: [{ prefix: 'CONTACT#' }] } } } }) },
          { Pattern: JSON.stringify({ dynamodb: { Keys: { SK: { S: [{ prefix: 'EVENT#' }] } } } }) },
          // A deleted segment (its REMOVE only: memberCount updates never invoke it) queues its member cleanup.
          { Pattern: JSON.stringify({ eventName: ['REMOVE'], dynamodb: { Keys: { SK: { S: [{ prefix: 'SEGMENT#' }] } } } }) },
        ],
      },
    });
    expect(resources[fnId]!.Properties.Timeout).toBe(30);
    expect(resources[fnId]!.Properties.Environment.Variables.TABLE_NAME).toEqual({ Ref: tableId });
  });

  test('it may read the stream and send failed-record metadata to its DLQ, which has an alarm', () => {
    const fnId = idAt(template, 'AWS::Lambda::Function', 'SegmentMembershipFunction/Resource');
    const roleId = resources[fnId]!.Properties.Role['Fn::GetAtt'][0];
    const policies = Object.values(resources).filter(
      (resource) => resource.Type === 'AWS::IAM::Policy' && resource.Properties.Roles.some((role: any) => role.Ref === roleId),
    );
    const statements = policies.flatMap((policy) => policy.Properties.PolicyDocument.Statement);
    const actions = statements.flatMap((statement: any) => [statement.Action].flat());
    expect(actions).toEqual(expect.arrayContaining(['dynamodb:GetRecords', 'dynamodb:GetShardIterator', 'dynamodb:DescribeStream', 'sqs:SendMessage']));

    const dlqId = idAt(template, 'AWS::SQS::Queue', 'SegmentMembershipStreamDlq/Resource');
    expect(resources[dlqId]!.Properties).toEqual({ MessageRetentionPeriod: 14 * 24 * 3600, SqsManagedSseEnabled: true });
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [dlqId, 'QueueName'] } }],
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
  });

  test('large tracked segments are built by the segment-builder from the segment-builds queue (one job at a time, partial failures, DLQ with an alarm)', () => {
    const builderId = idAt(template, 'AWS::Lambda::Function', 'SegmentBuilderFunction/Resource');
    const segmentsId = idAt(template, 'AWS::Lambda::Function', 'SegmentsFunction/Resource');
    const queueId = idAt(template, 'AWS::SQS::Queue', 'SegmentBuildsQueue/Resource');
    const dlqId = idAt(template, 'AWS::SQS::Queue', 'SegmentBuildsDlq/Resource');

    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: builderId },
      EventSourceArn: { 'Fn::GetAtt': [queueId, 'Arn'] },
      BatchSize: 1,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      ScalingConfig: { MaximumConcurrency: 2 },
    });
    // The visibility timeout covers six times the builder's timeout (AWS guidance for SQS sources).
    expect(resources[queueId]!.Properties).toMatchObject({ VisibilityTimeout: 180, RedrivePolicy: { maxReceiveCount: 5, deadLetterTargetArn: { 'Fn::GetAtt': [dlqId, 'Arn'] } } });
    expect(resources[builderId]!.Properties.Timeout).toBeLessThanOrEqual(180 / 6);
    template.hasResourceProperties('AWS::CloudWatch::Alarm', { Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [dlqId, 'QueueName'] } }], Threshold: 1 });

    // The segments function queues builds, the builder queues its continuations, the membership
    // consumer queues a deleted segment's member cleanup: each gets the URL and SendMessage.
    const membershipId = idAt(template, 'AWS::Lambda::Function', 'SegmentMembershipFunction/Resource');
    for (const fnId of [segmentsId, builderId, membershipId]) {
      expect(resources[fnId]!.Properties.Environment.Variables.SEGMENT_BUILD_QUEUE_URL).toEqual({ Ref: queueId });
      const roleId = resources[fnId]!.Properties.Role['Fn::GetAtt'][0];
      const statements = Object.values(resources)
        .filter((resource) => resource.Type === 'AWS::IAM::Policy' && resource.Properties.Roles.some((role: any) => role.Ref === roleId))
        .flatMap((policy) => policy.Properties.PolicyDocument.Statement);
      const sends = statements.filter((statement: any) => [statement.Action].flat().includes('sqs:SendMessage'));
      expect(sends.flatMap((statement: any) => [statement.Resource].flat())).toContainEqual({ 'Fn::GetAtt': [queueId, 'Arn'] });
    }
    // It neither sends email nor reads attachments.
    expect(JSON.stringify(Object.values(resources).filter((resource) => resource.Type === 'AWS::IAM::Policy' && JSON.stringify(resource.Properties.Roles).includes(resources[builderId]!.Properties.Role['Fn::GetAtt'][0])))).not.toMatch(/ses:|s3:/);
  });

  test('a daily schedule invokes the segment-refresh function, which may read the table and queue builds', () => {
    const fnId = idAt(template, 'AWS::Lambda::Function', 'SegmentRefreshFunction/Resource');
    const queueId = idAt(template, 'AWS::SQS::Queue', 'SegmentBuildsQueue/Resource');
    template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'cron(0 3 * * ? *)',
      State: 'ENABLED',
      Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [fnId, 'Arn'] }, RetryPolicy: { MaximumRetryAttempts: 2 } })],
    });
    expect(resources[fnId]!.Properties.Environment.Variables.SEGMENT_BUILD_QUEUE_URL).toEqual({ Ref: queueId });
    const roleId = resources[fnId]!.Properties.Role['Fn::GetAtt'][0];
    const actions = Object.values(resources)
      .filter((resource) => resource.Type === 'AWS::IAM::Policy' && resource.Properties.Roles.some((role: any) => role.Ref === roleId))
      .flatMap((policy) => policy.Properties.PolicyDocument.Statement)
      .flatMap((statement: any) => [statement.Action].flat());
    expect(actions).toEqual(expect.arrayContaining(['dynamodb:Query', 'sqs:SendMessage']));
    expect(actions).not.toEqual(expect.arrayContaining(['dynamodb:PutItem']));
  });
});
