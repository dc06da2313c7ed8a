import { Template } from 'aws-cdk-lib/assertions';
import { MailwrightStack } from '../../infra/stack';
import { routes } from '../../shared/http/routes';
import { type Resource, assertionApp, idAt, stackTemplate } from '../support/infra-template';

/** Every statement of the policies attached to a role. */
function statementsOf(resources: Record<string, Resource>, roleId: string): { Action: string | string[]; Resource: unknown; Condition?: unknown }[] {
  return Object.values(resources)
    .filter((resource) => resource.Type === 'AWS::IAM::Policy' && JSON.stringify(resource.Properties.Roles).includes(roleId))
    .flatMap((resource) => resource.Properties.PolicyDocument.Statement);
}

const actionsOf = (statement: { Action: string | string[] }) => [statement.Action].flat();

describe('campaigns infrastructure', () => {
  let template: Template;
  let resources: Record<string, Resource>;
  let json: string;

  beforeAll(() => {
    template = stackTemplate();
    resources = template.toJSON().Resources;
    json = JSON.stringify(resources);
  });

  const functionId = (name: string) => idAt(template, 'AWS::Lambda::Function', `${name}/Resource`);
  const roleOf = (name: string) => (resources[functionId(name)]!.Properties.Role['Fn::GetAtt'] as string[])[0]!;
  const envOf = (name: string) => resources[functionId(name)]!.Properties.Environment.Variables as Record<string, unknown>;

  test('the fan-out and campaign send queues have DLQs and feed campaign-dispatch and campaign-sender with partial batch failures', () => {
    for (const [queue, consumer] of [
      ['CampaignFanoutQueue', 'CampaignDispatchFunction'],
      ['CampaignSendQueue', 'CampaignSenderFunction'],
    ] as const) {
      const queueId = idAt(template, 'AWS::SQS::Queue', `${queue}/Resource`);
      expect(resources[queueId]!.Properties.RedrivePolicy.deadLetterTargetArn).toBeDefined();
      const mappings = Object.values(resources).filter((resource) => resource.Type === 'AWS::Lambda::EventSourceMapping' && JSON.stringify(resource.Properties.EventSourceArn).includes(queueId));
      expect(mappings).toHaveLength(1);
      expect(mappings[0]!.Properties).toMatchObject({ FunctionResponseTypes: ['ReportBatchItemFailures'] });
      expect(JSON.stringify(mappings[0]!.Properties.FunctionName)).toContain(functionId(consumer));
    }
    expect(envOf('CampaignSenderFunction').SEND_RATE_PER_SECOND).toBeDefined();
  });

  test('the ses-events function runs the deliverability guard with the documented default thresholds', () => {
    // Assess
    expect(envOf('SesEventsFunction')).toMatchObject({ PAUSE_BOUNCE_RATE: '0.05', PAUSE_BOUNCE_MIN_SENDS: '200', PAUSE_COMPLAINT_RATE: '0.001', PAUSE_COMPLAINT_MIN_SENDS: '1000' });
  });

  test('the guard thresholds are context values, checked at synth', () => {
    // Prepare
    const synthWith = (context: Record<string, unknown>) => Template.fromStack(new MailwrightStack(assertionApp(context), 'Mailwright')).toJSON().Resources as Record<string, Resource>;
    // Act
    const custom = synthWith({ pauseBounceRate: '0.03', pauseBounceMinSends: 500, pauseComplaintRate: 0.0005, pauseComplaintMinSends: '2000' });
    // Assess
    const sesEvents = Object.values(custom).find((resource) => resource.Type === 'AWS::Lambda::Function' && resource.Properties.Environment?.Variables?.PAUSE_BOUNCE_RATE)!;
    expect(sesEvents.Properties.Environment.Variables).toMatchObject({ PAUSE_BOUNCE_RATE: '0.03', PAUSE_BOUNCE_MIN_SENDS: '500', PAUSE_COMPLAINT_RATE: '0.0005', PAUSE_COMPLAINT_MIN_SENDS: '2000' });
    expect(() => synthWith({ pauseBounceRate: '5' })).toThrow(/Context value pauseBounceRate must be a fraction above 0 and below 1/);
    expect(() => synthWith({ pauseComplaintMinSends: '0' })).toThrow(/Context value pauseComplaintMinSends must be a whole number from 1/);
  });

  test('the Scheduler role is assumed only by EventBridge Scheduler of this account and may only send messages, to the queues bound as targets (the fan-out queue among them)', () => {
    const roleId = idAt(template, 'AWS::IAM::Role', 'SchedulerRole/Resource');
    const trust = resources[roleId]!.Properties.AssumeRolePolicyDocument.Statement;
    expect(trust).toEqual([expect.objectContaining({ Principal: { Service: 'scheduler.amazonaws.com' }, Condition: { StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } } } })]);
    const fanoutId = idAt(template, 'AWS::SQS::Queue', 'CampaignFanoutQueue/Resource');
    const statements = statementsOf(resources, roleId);
    expect(statements.flatMap(actionsOf).every((action) => action.startsWith('sqs:SendMessage') || action.startsWith('sqs:GetQueue') || action.startsWith('kms:'))).toBe(true);
    expect(JSON.stringify(statements)).toContain(fanoutId);
    template.resourceCountIs('AWS::Scheduler::ScheduleGroup', 1);
  });

  test('campaign-dispatch makes an A/B test\'s one-time schedule: schedules in the group only, passing the Scheduler role only, the fan-out queue its target', () => {
    const statements = statementsOf(resources, roleOf('CampaignDispatchFunction'));
    const scheduling = statements.find((statement) => actionsOf(statement).includes('scheduler:CreateSchedule'))!;
    expect(JSON.stringify(scheduling.Resource)).toContain(':schedule/');
    expect(statements.filter((statement) => actionsOf(statement).includes('iam:PassRole'))).toEqual([
      expect.objectContaining({ Resource: { 'Fn::GetAtt': [idAt(template, 'AWS::IAM::Role', 'SchedulerRole/Resource'), 'Arn'] }, Condition: { StringEquals: { 'iam:PassedToService': 'scheduler.amazonaws.com' } } }),
    ]);
    const env = envOf('CampaignDispatchFunction');
    for (const name of ['SCHEDULE_GROUP_NAME', 'SCHEDULER_ROLE_ARN', 'CAMPAIGN_FANOUT_QUEUE_ARN']) expect(env[name]).toBeDefined();
  });

  test('the campaigns function manages schedules in the group only and passes the Scheduler role only', () => {
    const statements = statementsOf(resources, roleOf('CampaignsFunction'));
    const scheduling = statements.find((statement) => actionsOf(statement).includes('scheduler:CreateSchedule'))!;
    expect(actionsOf(scheduling).sort()).toEqual(['scheduler:CreateSchedule', 'scheduler:DeleteSchedule', 'scheduler:GetSchedule', 'scheduler:UpdateSchedule']);
    expect(JSON.stringify(scheduling.Resource)).toContain(':schedule/');
    const passRole = statements.filter((statement) => actionsOf(statement).includes('iam:PassRole'));
    expect(passRole).toEqual([
      expect.objectContaining({ Resource: { 'Fn::GetAtt': [idAt(template, 'AWS::IAM::Role', 'SchedulerRole/Resource'), 'Arn'] }, Condition: { StringEquals: { 'iam:PassedToService': 'scheduler.amazonaws.com' } } }),
    ]);
    const env = envOf('CampaignsFunction');
    for (const name of ['SCHEDULE_GROUP_NAME', 'SCHEDULER_ROLE_ARN', 'CAMPAIGN_FANOUT_QUEUE_URL', 'CAMPAIGN_FANOUT_QUEUE_ARN', 'UNSUBSCRIBE_SECRET', 'PUBLIC_API_URL']) expect(env[name]).toBeDefined();
    // No other function may pass roles to Scheduler than those bound to it.
    expect(statementsOf(resources, roleOf('UnsubscribeFunction')).some((statement) => actionsOf(statement).includes('iam:PassRole'))).toBe(false);
  });

  test('the unsubscribe routes have no authorizer; the campaign routes do', () => {
    const unsubscribeFn = functionId('UnsubscribeFunction');
    const campaignsFn = functionId('CampaignsFunction');
    const methods = (fnId: string) => Object.values(resources).filter((resource) => resource.Type === 'AWS::ApiGateway::Method' && JSON.stringify(resource.Properties.Integration ?? {}).includes(fnId));
    expect(methods(unsubscribeFn)).toHaveLength(3);
    for (const method of methods(unsubscribeFn)) {
      expect(method.Properties.AuthorizationType).toBe('NONE');
      expect(method.Properties.AuthorizerId).toBeUndefined();
    }
    // Every campaigns route of the table (shared/http/routes.ts), each behind the authorizer
    expect(methods(campaignsFn)).toHaveLength(routes.filter((route) => route.group === 'campaigns').length);
    expect(methods(campaignsFn).length).toBeGreaterThanOrEqual(11);
    for (const method of methods(campaignsFn)) expect(method.Properties.AuthorizationType).toBe('CUSTOM');
  });

  test('the unsubscribe signing secret is generated by the stack and reaches only the functions that sign or check links (campaign and workflow mail), as a dynamic reference', () => {
    const secretId = idAt(template, 'AWS::SecretsManager::Secret', 'UnsubscribeSigningSecret/Resource');
    expect(resources[secretId]!.Properties.GenerateSecretString).toMatchObject({ PasswordLength: 64 });
    const holders = Object.entries(resources)
      .filter(([, resource]) => resource.Type === 'AWS::Lambda::Function' && resource.Properties.Environment?.Variables?.UNSUBSCRIBE_SECRET)
      .map(([id]) => id)
      .sort();
    expect(holders).toEqual([functionId('CampaignDispatchFunction'), functionId('CampaignsFunction'), functionId('UnsubscribeFunction'), functionId('WorkflowRunnerFunction')].sort());
    expect(JSON.stringify(envOf('UnsubscribeFunction').UNSUBSCRIBE_SECRET)).toContain('resolve:secretsmanager');
    expect(json).not.toMatch(/"UNSUBSCRIBE_SECRET":"[A-Za-z0-9]{64}"/);
  });
});
