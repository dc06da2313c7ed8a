import type { Template } from 'aws-cdk-lib/assertions';
import { routes } from '../../shared/http/routes';
import { type Resource, idAt, stackTemplate } from '../support/infra-template';

describe('webhooks infrastructure', () => {
  let template: Template;
  let resources: Record<string, Resource>;
  const statementsOf = (fnId: string) => {
    const roleId = resources[fnId]!.Properties.Role['Fn::GetAtt'][0];
    return Object.values(resources)
      .filter((resource) => resource.Type === 'AWS::IAM::Policy' && resource.Properties.Roles.some((role: any) => role.Ref === roleId))
      .flatMap((policy) => policy.Properties.PolicyDocument.Statement);
  };
  const actionsOf = (fnId: string) => statementsOf(fnId).flatMap((statement: any) => [statement.Action].flat());

  beforeAll(() => {
    template = stackTemplate();
    resources = template.toJSON().Resources;
  });

  test('the nine webhook routes are served by the webhooks function with secret keys behind the authorizer', () => {
    const webhookRoutes = routes.filter((route) => route.group === 'webhooks');
    expect(webhookRoutes.map((route) => `${route.method} ${route.path}`).sort()).toEqual(
      [
        'DELETE /webhooks/{id}',
        'GET /webhooks',
        'GET /webhooks/{id}',
        'GET /webhooks/{id}/deliveries',
        'POST /webhooks/{id}/deliveries/{deliveryId}/replay',
        'PATCH /webhooks/{id}',
        'POST /webhooks',
        'POST /webhooks/{id}/rotate-secret',
        'POST /webhooks/{id}/test',
      ].sort(),
    );
    for (const route of webhookRoutes) expect(route.keys).toEqual(['secret']);
    const fnId = idAt(template, 'AWS::Lambda::Function', 'WebhooksFunction/Resource');
    const methods = Object.values(resources).filter((resource) => resource.Type === 'AWS::ApiGateway::Method' && JSON.stringify(resource.Properties.Integration ?? {}).includes(fnId));
    expect(methods).toHaveLength(9);
    for (const method of methods) expect(method.Properties.AuthorizationType).toBe('CUSTOM');
  });

  test('the delivery queue feeds webhook-delivery (10 a batch, at most 10 at once, partial failures) and has a DLQ with an alarm', () => {
    const fnId = idAt(template, 'AWS::Lambda::Function', 'WebhookDeliveryFunction/Resource');
    const queueId = idAt(template, 'AWS::SQS::Queue', 'WebhookDeliveriesQueue/Resource');
    const dlqId = idAt(template, 'AWS::SQS::Queue', 'WebhookDeliveriesDlq/Resource');
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: fnId },
      EventSourceArn: { 'Fn::GetAtt': [queueId, 'Arn'] },
      BatchSize: 10,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      ScalingConfig: { MaximumConcurrency: 10 },
    });
    expect(resources[queueId]!.Properties).toMatchObject({ VisibilityTimeout: 180, RedrivePolicy: { maxReceiveCount: 5, deadLetterTargetArn: { 'Fn::GetAtt': [dlqId, 'Arn'] } } });
    expect(resources[fnId]!.Properties.Timeout).toBeLessThanOrEqual(180 / 6);
    template.hasResourceProperties('AWS::CloudWatch::Alarm', { Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [dlqId, 'QueueName'] } }], Threshold: 1 });
  });

  test('the webhook-events function consumes the table stream for events, contacts and notifications, with a DLQ', () => {
    const fnId = idAt(template, 'AWS::Lambda::Function', 'WebhookEventsFunction/Resource');
    const tableId = idAt(template, 'AWS::DynamoDB::Table', 'Table/Resource');
    const dlqId = idAt(template, 'AWS::SQS::Queue', 'WebhookEventsStreamDlq/Resource');
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: fnId },
      EventSourceArn: { 'Fn::GetAtt': [tableId, 'StreamArn'] },
      StartingPosition: 'LATEST',
      BisectBatchOnFunctionError: true,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      MaximumRetryAttempts: 10,
      DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [dlqId, 'Arn'] } } },
      FilterCriteria: {
        Filters: ['EVENT#', 'CONTACT#', 'NOTIFICATION#'].map((prefix) => ({ Pattern: JSON.stringify({ dynamodb: { Keys: { SK: { S: [{ prefix }] } } } }) })),
      },
    });
    template.hasResourceProperties('AWS::CloudWatch::Alarm', { Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [dlqId, 'QueueName'] } }], Threshold: 1 });
  });

  test('the functions that queue deliveries get the queue; only those that read secrets get the encryption key, by dynamic reference', () => {
    const queueId = idAt(template, 'AWS::SQS::Queue', 'WebhookDeliveriesQueue/Resource');
    const secretId = idAt(template, 'AWS::SecretsManager::Secret', 'WebhookSecretsKey/Resource');
    expect(resources[secretId]!.Properties.GenerateSecretString).toMatchObject({ PasswordLength: 64, ExcludePunctuation: true });
    const keyReference = { 'Fn::Join': ['', ['{{resolve:secretsmanager:', { Ref: secretId }, ':SecretString:::}}']] };
    for (const path of ['WebhooksFunction', 'WebhookDeliveryFunction', 'WebhookEventsFunction']) {
      const fnId = idAt(template, 'AWS::Lambda::Function', `${path}/Resource`);
      const variables = resources[fnId]!.Properties.Environment.Variables;
      expect(variables.WEBHOOK_DELIVERY_QUEUE_URL).toEqual({ Ref: queueId });
      const sends = statementsOf(fnId).filter((statement: any) => [statement.Action].flat().includes('sqs:SendMessage'));
      expect(sends.flatMap((statement: any) => [statement.Resource].flat())).toContainEqual({ 'Fn::GetAtt': [queueId, 'Arn'] });
      if (path === 'WebhookEventsFunction') expect(variables).not.toHaveProperty('WEBHOOK_SECRETS_KEY');
      else expect(variables.WEBHOOK_SECRETS_KEY).toEqual(keyReference);
    }
    // Nothing webhook-related may send email or read the payload bucket.
    for (const path of ['WebhooksFunction', 'WebhookDeliveryFunction', 'WebhookEventsFunction']) {
      expect(actionsOf(idAt(template, 'AWS::Lambda::Function', `${path}/Resource`)).join(' ')).not.toMatch(/ses:|s3:/);
    }
  });

  test("webhook-events can queue the owners' mail about a disabled endpoint: the send queue with its send right, and the API's address for the link", () => {
    const fnId = idAt(template, 'AWS::Lambda::Function', 'WebhookEventsFunction/Resource');
    const sendQueueId = idAt(template, 'AWS::SQS::Queue', 'SendQueue/Resource');
    const variables = resources[fnId]!.Properties.Environment.Variables;
    expect(variables.SEND_QUEUE_URL).toEqual({ Ref: sendQueueId });
    expect(variables.PUBLIC_API_URL).toBeDefined();
    const sends = statementsOf(fnId).filter((statement: any) => [statement.Action].flat().includes('sqs:SendMessage'));
    expect(sends.flatMap((statement: any) => [statement.Resource].flat())).toContainEqual({ 'Fn::GetAtt': [sendQueueId, 'Arn'] });
  });
});
