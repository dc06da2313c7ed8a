import { Match, type Template } from 'aws-cdk-lib/assertions';
import { queues } from '../../infra/queues';
import { routes } from '../../shared/http/routes';
import { type Resource, idAt, stackTemplate } from '../support/infra-template';

/** Every statement of the policies attached to a function's role. */
function statementsOf(resources: Record<string, Resource>, fnId: string): any[] {
  const role = resources[fnId]!.Properties.Role['Fn::GetAtt'][0];
  return Object.values(resources)
    .filter((resource) => resource.Type === 'AWS::IAM::Policy' && resource.Properties.Roles.some((ref: any) => ref.Ref === role))
    .flatMap((policy) => policy.Properties.PolicyDocument.Statement);
}

const actionsOf = (statement: any) => [statement.Action].flat();

describe('workflows infrastructure', () => {
  let template: Template;
  let resources: Record<string, Resource>;

  beforeAll(() => {
    template = stackTemplate();
    resources = template.toJSON().Resources;
  });

  test('the nine workflow routes are served by the workflows function with secret keys', () => {
    const workflowRoutes = routes.filter((route) => route.group === 'workflows');
    expect(workflowRoutes.map((route) => `${route.method} ${route.path}`).sort()).toEqual(
      [
        'DELETE /workflows/{id}',
        'GET /workflows',
        'GET /workflows/{id}',
        'GET /workflows/{id}/executions',
        'GET /workflows/{id}/executions/{executionId}',
        'GET /workflows/{id}/stats',
        'PATCH /workflows/{id}',
        'POST /workflows',
        'POST /workflows/{id}/executions/{executionId}/cancel',
      ].sort(),
    );
    const fnId = idAt(template, 'AWS::Lambda::Function', 'WorkflowsFunction/Resource');
    const methods = Object.values(resources).filter((resource) => resource.Type === 'AWS::ApiGateway::Method' && JSON.stringify(resource.Properties.Integration ?? {}).includes(fnId));
    expect(methods).toHaveLength(9);
    for (const method of methods) expect(method.Properties.AuthorizationType).toBe('CUSTOM');
  });

  test('the workflow queue has a DLQ and feeds the runner with partial batch failures and bounded concurrency', () => {
    const spec = queues.find((queue) => queue.name === 'workflows')!;
    const queueId = idAt(template, 'AWS::SQS::Queue', 'WorkflowsQueue/Resource');
    const dlqId = idAt(template, 'AWS::SQS::Queue', 'WorkflowsDlq/Resource');
    const runnerId = idAt(template, 'AWS::Lambda::Function', 'WorkflowRunnerFunction/Resource');

    expect(resources[queueId]!.Properties).toMatchObject({
      VisibilityTimeout: spec.visibilityTimeoutSeconds,
      RedrivePolicy: { deadLetterTargetArn: { 'Fn::GetAtt': [dlqId, 'Arn'] }, maxReceiveCount: spec.maxReceiveCount },
    });
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: runnerId },
      EventSourceArn: { 'Fn::GetAtt': [queueId, 'Arn'] },
      BatchSize: spec.consumer!.batchSize,
      ScalingConfig: { MaximumConcurrency: spec.consumer!.maxConcurrency },
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [dlqId, 'QueueName'] } }],
    });
  });

  test('the runner knows its queue (URL and ARN as schedule target), the send queue and the schedule group', () => {
    const runnerId = idAt(template, 'AWS::Lambda::Function', 'WorkflowRunnerFunction/Resource');
    const queueId = idAt(template, 'AWS::SQS::Queue', 'WorkflowsQueue/Resource');
    const variables = resources[runnerId]!.Properties.Environment.Variables;
    expect(variables).toMatchObject({
      WORKFLOW_QUEUE_URL: { Ref: queueId },
      WORKFLOW_QUEUE_ARN: { 'Fn::GetAtt': [queueId, 'Arn'] },
      SEND_QUEUE_URL: { Ref: idAt(template, 'AWS::SQS::Queue', 'SendQueue/Resource') },
      SCHEDULE_GROUP_NAME: expect.anything(),
      SCHEDULER_ROLE_ARN: expect.anything(),
      TABLE_NAME: expect.anything(),
    });
  });

  test('Scheduler permissions are least privilege: the group’s schedules, PassRole of the scheduler role only, which may only send to the workflow queue (and other schedule targets)', () => {
    const runnerId = idAt(template, 'AWS::Lambda::Function', 'WorkflowRunnerFunction/Resource');
    const roleId = idAt(template, 'AWS::IAM::Role', 'SchedulerRole/Resource');
    const queueId = idAt(template, 'AWS::SQS::Queue', 'WorkflowsQueue/Resource');
    const statements = statementsOf(resources, runnerId);

    const scheduling = statements.find((statement) => actionsOf(statement).includes('scheduler:CreateSchedule'))!;
    expect(actionsOf(scheduling).sort()).toEqual(['scheduler:CreateSchedule', 'scheduler:DeleteSchedule', 'scheduler:GetSchedule', 'scheduler:UpdateSchedule']);
    expect(JSON.stringify(scheduling.Resource)).toContain('schedule/');
    expect(JSON.stringify(scheduling.Resource)).not.toContain('"*"');
    const passRole = statements.find((statement) => actionsOf(statement).includes('iam:PassRole'))!;
    expect(passRole).toMatchObject({ Resource: { 'Fn::GetAtt': [roleId, 'Arn'] }, Condition: { StringEquals: { 'iam:PassedToService': 'scheduler.amazonaws.com' } } });
    expect(statements.some((statement) => actionsOf(statement).some((action: string) => action === '*' || action === 'scheduler:*' || action === 'iam:*'))).toBe(false);

    const roleStatements = statementsOf({ ...resources, fake: { Type: 'AWS::Lambda::Function', Properties: { Role: { 'Fn::GetAtt': [roleId, 'Arn'] } } } }, 'fake');
    expect(roleStatements.every((statement) => actionsOf(statement).every((action: string) => action.startsWith('sqs:') || action.startsWith('kms:')))).toBe(true);
    expect(JSON.stringify(roleStatements)).toContain(queueId);
  });

  test('the trigger consumer reads the table stream (contacts, events, and workflows\' deletions) with bisection, retries and a DLQ, and may send to the workflow queue', () => {
    const fnId = idAt(template, 'AWS::Lambda::Function', 'WorkflowTriggersFunction/Resource');
    const tableId = idAt(template, 'AWS::DynamoDB::Table', 'Table/Resource');
    const dlqId = idAt(template, 'AWS::SQS::Queue', 'WorkflowTriggersStreamDlq/Resource');
    const queueId = idAt(template, 'AWS::SQS::Queue', 'WorkflowsQueue/Resource');

    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: fnId },
      EventSourceArn: { 'Fn::GetAtt': [tableId, 'StreamArn'] },
      StartingPosition: 'LATEST',
      BisectBatchOnFunctionError: true,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      MaximumRetryAttempts: 10,
      DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [dlqId, 'Arn'] } } },
      FilterCriteria: {
        Filters: Match.arrayWith([{ Pattern: JSON.stringify({ dynamodb: { Keys: { SK: { S: [{ prefix: 'EVENT#' }] } } } }) }]),
      },
    });
    // A deleted workflow's REMOVE (and no other change of a workflow item) queues the cancellation of its executions.
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: fnId },
      FilterCriteria: {
        Filters: Match.arrayWith([{ Pattern: JSON.stringify({ eventName: ['REMOVE'], dynamodb: { Keys: { SK: { S: [{ prefix: 'WORKFLOW#' }] } } } }) }]),
      },
    });
    expect(resources[fnId]!.Properties.Environment.Variables).toMatchObject({ WORKFLOW_QUEUE_URL: { Ref: queueId } });
    const sends = statementsOf(resources, fnId).filter((statement) => actionsOf(statement).includes('sqs:SendMessage'));
    expect(JSON.stringify(sends)).toContain(queueId);
    expect(statementsOf(resources, fnId).some((statement) => actionsOf(statement).includes('scheduler:CreateSchedule'))).toBe(false);
  });
});
