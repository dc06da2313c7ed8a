import { Stack } from 'aws-cdk-lib';
import { AttributeType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { MailwrightFunction } from '../../infra/constructs/mailwright-function';
import { AUTHORIZER_CACHE_TTL_SECONDS, gatewayResponses } from '../../infra/gateway-responses';
import { dlqName, queues } from '../../infra/queues';
import { streamConsumers } from '../../infra/streams';

const consumerGroups = queues.flatMap((spec) => (spec.consumer ? [spec.consumer.group] : []));
/** Functions outside the route table and the queue specs: the authorizer, event consumers and scheduled functions. */
const otherFunctions = ['authorizer', 'ses-events', 'segment-refresh', ...streamConsumers.map((spec) => spec.group)];
/** Dead-letter queues outside infra/queues.ts (each with an alarm): for event-driven functions. */
const otherDlqs = ['SesEventsDlq', 'SegmentRefreshDlq', ...streamConsumers.map((spec) => `${spec.group}-stream-dlq`)];
const functionCount = functionGroups.length + consumerGroups.length + otherFunctions.length;
import { functionGroups, routes, type Route } from '../../shared/http/routes';
import { MailwrightStack, type MailwrightStackProps } from '../../infra/stack';
import { variables } from '../../shared/config/variables';
import { tableSchema } from '../../shared/db/schema';
import { assertionApp, stackTemplate } from '../support/infra-template';

type Resource = { Type: string; Properties: Record<string, any>; DeletionPolicy?: string; Metadata?: Record<string, any> };

/**
 * A stack of other props or context values than the run's shared one (stackTemplate). Skips esbuild
 * bundling (slow, and covered by `npm run synth`; entries must still exist) and records construct
 * paths, which the tests use to find resources.
 */
function synth(props: MailwrightStackProps = {}, context: Record<string, unknown> = {}): Template {
  return Template.fromStack(new MailwrightStack(assertionApp(context), 'Mailwright', props));
}

const pascal = (name: string) => name.replace(/(^|[^a-zA-Z0-9])([a-zA-Z0-9])/g, (_, __, c: string) => c.toUpperCase());

function only(template: Template, type: string, props: Record<string, unknown> = {}): [string, Resource] {
  const found = Object.entries(template.findResources(type, props)) as [string, Resource][];
  if (found.length !== 1) throw new Error(`Expected one ${type} matching ${JSON.stringify(props)}, found ${found.length}`);
  return found[0]!;
}

/** Logical id of the construct at Mailwright/<path>/Resource. */
function logicalIdAt(template: Template, type: string, path: string): string {
  return only(template, type, { Metadata: { 'aws:cdk:path': `Mailwright/${path}/Resource` } })[0];
}

/** Every API Gateway method as "METHOD /full/path", with its properties. */
function methodsByRoute(template: Template): Map<string, Record<string, any>> {
  const resources = template.findResources('AWS::ApiGateway::Resource') as Record<string, Resource>;
  const pathOf = (ref: any): string => {
    if (ref?.['Fn::GetAtt']?.[1] === 'RootResourceId') return '';
    const resource = resources[ref.Ref];
    if (!resource) throw new Error(`Unknown resource ${JSON.stringify(ref)}`);
    return `${pathOf(resource.Properties.ParentId)}/${resource.Properties.PathPart}`;
  };
  const methods = new Map<string, Record<string, any>>();
  for (const method of Object.values(template.findResources('AWS::ApiGateway::Method')) as Resource[]) {
    methods.set(`${method.Properties.HttpMethod} ${pathOf(method.Properties.ResourceId) || '/'}`, method.Properties);
  }
  return methods;
}

describe('MailwrightStack (default: data retained)', () => {
  let template: Template;
  let tableId: string;
  let authorizerId: string;

  beforeAll(() => {
    template = stackTemplate();
    tableId = logicalIdAt(template, 'AWS::DynamoDB::Table', 'Table');
    authorizerId = logicalIdAt(template, 'AWS::ApiGateway::Authorizer', 'ApiKeyAuthorizer');
  });

  test('the table has PK/SK, three ALL-projected GSIs, TTL, streams, PITR and is retained', () => {
    template.resourceCountIs('AWS::DynamoDB::Table', 1);
    template.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: {
        BillingMode: 'PAY_PER_REQUEST',
        KeySchema: [
          { AttributeName: 'PK', KeyType: 'HASH' },
          { AttributeName: 'SK', KeyType: 'RANGE' },
        ],
        AttributeDefinitions: Match.arrayWith([
          { AttributeName: 'PK', AttributeType: 'S' },
          { AttributeName: 'SK', AttributeType: 'S' },
          { AttributeName: 'GSI3SK', AttributeType: 'S' },
        ]),
        GlobalSecondaryIndexes: ['GSI1', 'GSI2', 'GSI3'].map((name) => ({
          IndexName: name,
          KeySchema: [
            { AttributeName: `${name}PK`, KeyType: 'HASH' },
            { AttributeName: `${name}SK`, KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'ALL' },
        })),
        TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        StreamSpecification: { StreamViewType: 'NEW_AND_OLD_IMAGES' },
      },
    });
    // The literal expectations above are the shared schema, so a schema change shows up here.
    expect(tableSchema.globalSecondaryIndexes.map((index) => index.indexName)).toEqual(['GSI1', 'GSI2', 'GSI3']);
  });

  test('the payload bucket is private, SSL-only, S3-encrypted, expires objects after 7 days and is retained', () => {
    template.hasResource('AWS::S3::Bucket', {
      DeletionPolicy: 'Retain',
      Properties: {
        PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
        BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
        LifecycleConfiguration: { Rules: Match.arrayWith([Match.objectLike({ ExpirationInDays: 7, Status: 'Enabled' })]) },
      },
    });
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Action: 's3:*', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    });
    template.resourceCountIs('Custom::S3AutoDeleteObjects', 0);
  });

  test.each(queues.map((spec) => [spec.name, spec] as const))('queue %s has its encrypted DLQ, redrive and alarm', (_, spec) => {
    const queueId = logicalIdAt(template, 'AWS::SQS::Queue', `${pascal(spec.name)}Queue`);
    const dlqId = logicalIdAt(template, 'AWS::SQS::Queue', pascal(dlqName(spec.name)));
    const resources = template.toJSON().Resources as Record<string, Resource>;

    expect(resources[queueId]!.Properties).toEqual({
      RedrivePolicy: { deadLetterTargetArn: { 'Fn::GetAtt': [dlqId, 'Arn'] }, maxReceiveCount: spec.maxReceiveCount },
      VisibilityTimeout: spec.visibilityTimeoutSeconds,
      SqsManagedSseEnabled: true,
    });
    expect(resources[dlqId]!.Properties).toEqual({ MessageRetentionPeriod: 14 * 24 * 3600, SqsManagedSseEnabled: true });

    for (const id of [queueId, dlqId]) {
      template.hasResourceProperties('AWS::SQS::QueuePolicy', {
        Queues: [{ Ref: id }],
        PolicyDocument: {
          Statement: [Match.objectLike({ Effect: 'Deny', Action: 'sqs:*', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })],
        },
      });
    }

    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'AWS/SQS',
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [dlqId, 'QueueName'] } }],
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      EvaluationPeriods: 1,
    });
    template.hasOutput(`${pascal(spec.name)}QueueUrl`, { Value: { Ref: queueId } });
  });

  test('queue and alarm counts match infra/queues.ts (send has maxReceiveCount 30)', () => {
    template.resourceCountIs('AWS::SQS::Queue', queues.length * 2 + otherDlqs.length);
    template.resourceCountIs('AWS::CloudWatch::Alarm', queues.length + otherDlqs.length + 5); // + sender errors, API 5xx rate, bounce and complaint rates, campaign paused
    expect(queues.find((spec) => spec.name === 'send')?.maxReceiveCount).toBe(30);
  });

  test('one nodejs24.x arm64 function per group plus the authorizer, with the shared settings', () => {
    template.resourceCountIs('AWS::Lambda::Function', functionCount);
    for (const fn of Object.values(template.findResources('AWS::Lambda::Function')) as Resource[]) {
      expect(fn.Properties).toMatchObject({
        Runtime: 'nodejs24.x',
        Architectures: ['arm64'],
        TracingConfig: { Mode: 'Active' },
        Handler: 'index.handler',
        Environment: { Variables: { NODE_OPTIONS: '--enable-source-maps', POWERTOOLS_LOG_LEVEL: 'INFO', TABLE_NAME: { Ref: tableId } } },
        LoggingConfig: { LogGroup: { Ref: expect.any(String) } },
      });
    }
    for (const group of functionGroups) {
      const id = logicalIdAt(template, 'AWS::Lambda::Function', `${pascal(group)}Function`);
      const fn = template.toJSON().Resources[id] as Resource;
      expect(fn.Properties.Environment.Variables.RATE_LIMIT_PER_MINUTE).toBe('1000');
    }
    template.allResourcesProperties('AWS::Logs::LogGroup', { RetentionInDays: 30 });
    template.resourceCountIs('AWS::Logs::LogGroup', functionCount + 1); // + the API's access logs
  });

  test('group functions may read and write the table; emails and analytics read (and admit); the authorizer may only read it and update items', () => {
    const writeActions = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'];
    const tableArn = { 'Fn::GetAtt': [tableId, 'Arn'] };
    const indexArns = tableSchema.globalSecondaryIndexes.map((index) => ({ 'Fn::Join': ['', [tableArn, `/index/${index.indexName}`]] }));
    /** The function's table statement; its indexes are granted by name, Query only (no index/*). */
    const statementOf = (fnPath: string) => {
      const [, policy] = only(template, 'AWS::IAM::Policy', { Metadata: { 'aws:cdk:path': `Mailwright/${fnPath}ServiceRole/DefaultPolicy/Resource` } });
      const statements = policy.Properties.PolicyDocument.Statement as { Effect: string; Action: string | string[]; Resource: unknown }[];
      const tableStatements = statements.filter((statement) => JSON.stringify(statement.Resource) === JSON.stringify(tableArn));
      expect(tableStatements).toHaveLength(1);
      expect(tableStatements[0]!.Effect).toBe('Allow');
      expect(statements.filter((statement) => JSON.stringify(statement.Resource) === JSON.stringify(indexArns))).toEqual([{ Effect: 'Allow', Action: 'dynamodb:Query', Resource: indexArns }]);
      expect(JSON.stringify(statements)).not.toContain('/index/*');
      return tableStatements[0] as { Action: string[] };
    };
    const readOnlyGroups: readonly string[] = ['emails', 'analytics'];
    for (const group of functionGroups.filter((name) => !readOnlyGroups.includes(name))) {
      expect(statementOf(`${pascal(group)}Function`).Action).toEqual(expect.arrayContaining([...writeActions, 'dynamodb:GetItem', 'dynamodb:Query']));
    }
    // The activity log and analytics read; their one write is the admission UpdateItem on the project item.
    for (const group of readOnlyGroups) {
      expect([...statementOf(`${pascal(group)}Function`).Action].sort()).toEqual(['dynamodb:BatchGetItem', 'dynamodb:ConditionCheckItem', 'dynamodb:DescribeTable', 'dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:UpdateItem']);
    }
    // The authorizer reads, and updates one attribute (an API key's lastUsedAt, at most once a minute).
    const authorizer = statementOf('AuthorizerFunction');
    expect(authorizer.Action).toContain('dynamodb:GetItem');
    for (const action of writeActions.filter((action) => action !== 'dynamodb:UpdateItem')) expect(authorizer.Action).not.toContain(action);
  });

  test('the emails and analytics functions get the table and nothing else: no queue, bucket or SES setting, no other grant', () => {
    for (const group of ['emails', 'analytics']) {
      const id = logicalIdAt(template, 'AWS::Lambda::Function', `${pascal(group)}Function`);
      const fn = template.toJSON().Resources[id] as Resource;
      expect(Object.keys(fn.Properties.Environment.Variables).sort()).toEqual([
        'NODE_OPTIONS',
        'POWERTOOLS_LOG_LEVEL',
        'POWERTOOLS_METRICS_NAMESPACE',
        'POWERTOOLS_SERVICE_NAME',
        'POWERTOOLS_TRACER_CAPTURE_ERROR',
        'POWERTOOLS_TRACER_CAPTURE_RESPONSE',
        'RATE_LIMIT_PER_MINUTE',
        'TABLE_NAME',
      ]);
      const [, policy] = only(template, 'AWS::IAM::Policy', { Metadata: { 'aws:cdk:path': `Mailwright/${pascal(group)}FunctionServiceRole/DefaultPolicy/Resource` } });
      const actions = (policy.Properties.PolicyDocument.Statement as { Action: string | string[] }[]).flatMap((statement) => [statement.Action].flat());
      expect(actions.filter((action) => !action.startsWith('dynamodb:') && !action.startsWith('logs:') && !action.startsWith('xray:'))).toEqual([]);
    }
  });

  test('least privilege: no IAM policy allows a wildcard action, and no account-wide API Gateway role', () => {
    const policies = Object.values(template.findResources('AWS::IAM::Policy')) as Resource[];
    expect(policies).toHaveLength(functionCount + 1); // + the scheduler role's (it may send to the schedules' target queues)
    for (const policy of policies) {
      for (const statement of policy.Properties.PolicyDocument.Statement) {
        for (const action of [statement.Action].flat()) expect(action).not.toContain('*');
      }
    }
    template.resourceCountIs('AWS::ApiGateway::Account', 0);
  });

  test('the sender consumes the send queue in batches of 10, at most 8 at once, reporting partial batch failures', () => {
    const senderId = logicalIdAt(template, 'AWS::Lambda::Function', 'SenderFunction');
    const sendQueueId = logicalIdAt(template, 'AWS::SQS::Queue', 'SendQueue');
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: senderId },
      EventSourceArn: { 'Fn::GetAtt': [sendQueueId, 'Arn'] },
      BatchSize: 10,
      ScalingConfig: { MaximumConcurrency: 8 },
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    const sender = template.toJSON().Resources[senderId] as Resource;
    const queue = template.toJSON().Resources[sendQueueId] as Resource;
    expect(queue.Properties.VisibilityTimeout).toBeGreaterThanOrEqual(6 * sender.Properties.Timeout);
    expect(sender.Properties.Environment.Variables).toMatchObject({ SES_CONFIGURATION_SET: { Ref: logicalIdAt(template, 'AWS::SES::ConfigurationSet', 'ConfigurationSet') }, SEND_RATE_PER_SECOND: '14', PAYLOAD_BUCKET: expect.anything() });
  });

  test('the functions each email passes through while billed for waiting (sender, campaign sender, SES events) run at 256 MB, API functions at 512', () => {
    const memoryOf = (path: string) => (template.toJSON().Resources[logicalIdAt(template, 'AWS::Lambda::Function', path)] as Resource).Properties.MemorySize;
    expect(['SenderFunction', 'CampaignSenderFunction', 'SesEventsFunction'].map(memoryOf)).toEqual([256, 256, 256]);
    expect(memoryOf('PublicFunction')).toBe(512);
  });

  test('SES: a configuration set, and the sender may SendEmail only through it', () => {
    template.hasResourceProperties('AWS::SES::ConfigurationSet', { Name: 'mailwright' });
    const [, policy] = only(template, 'AWS::IAM::Policy', { Metadata: { 'aws:cdk:path': 'Mailwright/SenderFunctionServiceRole/DefaultPolicy/Resource' } });
    const ses = policy.Properties.PolicyDocument.Statement.filter((statement: { Action: unknown }) => JSON.stringify(statement.Action).includes('ses:'));
    expect(ses).toHaveLength(1);
    expect(ses[0].Action).toBe('ses:SendEmail');
    const resources = JSON.stringify(ses[0].Resource);
    expect(resources).toContain(':configuration-set/');
    expect(resources).toContain(':identity/*');
    expect(ses[0].Resource).toHaveLength(2);
  });

  test('SES events: the configuration set publishes every outcome to the default bus, and a rule with retries and a DLQ feeds ses-events', () => {
    const configurationSetId = logicalIdAt(template, 'AWS::SES::ConfigurationSet', 'ConfigurationSet');
    template.hasResourceProperties('AWS::SES::ConfigurationSetEventDestination', {
      ConfigurationSetName: { Ref: configurationSetId },
      EventDestination: Match.objectLike({
        Enabled: true,
        MatchingEventTypes: Match.arrayWith(['send', 'delivery', 'bounce', 'complaint', 'reject', 'open', 'click', 'renderingFailure', 'deliveryDelay']),
        EventBridgeDestination: { EventBusArn: Match.anyValue() },
      }),
    });
    const sesEventsId = logicalIdAt(template, 'AWS::Lambda::Function', 'SesEventsFunction');
    const dlqId = logicalIdAt(template, 'AWS::SQS::Queue', 'SesEventsDlq');
    const [, rule] = only(template, 'AWS::Events::Rule', { Properties: { Description: 'SES events of the mailwright configuration set' } });
    expect(rule.Properties.EventPattern).toEqual({
      source: ['aws.ses'],
      'detail-type': expect.arrayContaining(['Email Delivered', 'Email Bounced', 'Email Complaint Received', 'Email Opened', 'Email Clicked']),
      detail: { mail: { tags: { 'ses:configuration-set': [{ Ref: configurationSetId }] } } },
    });
    expect(rule.Properties.Targets).toEqual([
      expect.objectContaining({
        Arn: { 'Fn::GetAtt': [sesEventsId, 'Arn'] },
        DeadLetterConfig: { Arn: { 'Fn::GetAtt': [dlqId, 'Arn'] } },
        RetryPolicy: { MaximumRetryAttempts: 8, MaximumEventAgeInSeconds: 6 * 3600 },
      }),
    ]);
  });

  test('the domains function may manage SES identities of this account, and nothing else in SES', () => {
    const [, policy] = only(template, 'AWS::IAM::Policy', { Metadata: { 'aws:cdk:path': 'Mailwright/DomainsFunctionServiceRole/DefaultPolicy/Resource' } });
    const ses = policy.Properties.PolicyDocument.Statement.filter((statement: { Action: unknown }) => JSON.stringify(statement.Action).includes('ses:'));
    expect(ses).toHaveLength(1);
    expect(ses[0].Action).toEqual(['ses:CreateEmailIdentity', 'ses:DeleteEmailIdentity', 'ses:GetEmailIdentity']);
    expect(JSON.stringify(ses[0].Resource)).toContain(':identity/*');
  });

  test('the public function may queue sends and store attachments', () => {
    const publicFn = template.toJSON().Resources[logicalIdAt(template, 'AWS::Lambda::Function', 'PublicFunction')] as Resource;
    expect(publicFn.Properties.Environment.Variables).toMatchObject({ SEND_QUEUE_URL: { Ref: logicalIdAt(template, 'AWS::SQS::Queue', 'SendQueue') }, PAYLOAD_BUCKET: expect.anything() });
  });

  test('the REST API is "Mailwright", stage "api", stage throttling 200/100, X-Ray tracing, JSON access logs, no binary or compression settings', () => {
    const [, api] = only(template, 'AWS::ApiGateway::RestApi');
    expect(api.Properties.Name).toBe('Mailwright');
    expect(api.Properties).not.toHaveProperty('BinaryMediaTypes');
    expect(api.Properties).not.toHaveProperty('MinimumCompressionSize');
    template.hasResourceProperties('AWS::ApiGateway::Stage', {
      StageName: 'api',
      TracingEnabled: true,
      AccessLogSetting: { DestinationArn: { 'Fn::GetAtt': [logicalIdAt(template, 'AWS::Logs::LogGroup', 'ApiAccessLogs'), 'Arn'] }, Format: Match.stringLikeRegexp('"requestId":"\\$context.requestId"') },
      MethodSettings: [Match.objectLike({ HttpMethod: '*', ResourcePath: '/*', ThrottlingBurstLimit: 200, ThrottlingRateLimit: 100 })],
    });
  });

  test('the REQUEST authorizer reads the Authorization header and caches for 300 s', () => {
    expect(AUTHORIZER_CACHE_TTL_SECONDS).toBe(300);
    const authorizerFn = logicalIdAt(template, 'AWS::Lambda::Function', 'AuthorizerFunction');
    template.hasResourceProperties('AWS::ApiGateway::Authorizer', {
      Type: 'REQUEST',
      IdentitySource: 'method.request.header.Authorization',
      AuthorizerResultTtlInSeconds: 300,
      AuthorizerUri: { 'Fn::Join': ['', Match.arrayWith([{ 'Fn::GetAtt': [authorizerFn, 'Arn'] }])] },
    });
    template.hasResourceProperties('AWS::Lambda::Permission', {
      FunctionName: { 'Fn::GetAtt': [authorizerFn, 'Arn'] },
      Principal: 'apigateway.amazonaws.com',
    });
  });

  test('every route of shared/http/routes.ts is a proxy method on its group function, CUSTOM-authorized unless auth is none, and nothing else', () => {
    const methods = methodsByRoute(template);
    const expected = routes.map((route) => `${route.method} ${route.path}`);
    const corsPaths = new Set(routes.filter((route) => route.cors).map((route) => route.path));
    expect([...methods.keys()].filter((key) => !key.startsWith('OPTIONS ')).sort()).toEqual([...expected].sort());
    expect(methods.has('POST /contacts')).toBe(true);
    expect(methods.has('DELETE /contacts/{id}')).toBe(true);

    for (const route of routes) {
      const fnId = logicalIdAt(template, 'AWS::Lambda::Function', `${pascal(route.group)}Function`);
      const method = methods.get(`${route.method} ${route.path}`);
      if (route.auth === 'none') expect(method?.AuthorizerId).toBeUndefined();
      expect(method).toMatchObject({
        ...(route.auth === 'none' ? { AuthorizationType: 'NONE' } : { AuthorizationType: 'CUSTOM', AuthorizerId: { Ref: authorizerId } }),
        Integration: {
          Type: 'AWS_PROXY',
          IntegrationHttpMethod: 'POST',
          Uri: { 'Fn::Join': ['', expect.arrayContaining([{ 'Fn::GetAtt': [fnId, 'Arn'] }])] },
        },
      });
    }
    // Preflight only where a route asks for CORS, and never behind the authorizer.
    const options = [...methods].filter(([key]) => key.startsWith('OPTIONS '));
    expect(options.map(([key]) => key.slice('OPTIONS '.length)).sort()).toEqual([...corsPaths].sort());
    for (const [, method] of options) expect(method.AuthorizationType).toBe('NONE');
  });

  test('one API-scoped invoke permission per group function (not two per method)', () => {
    for (const group of functionGroups) {
      const fnId = logicalIdAt(template, 'AWS::Lambda::Function', `${pascal(group)}Function`);
      const permissions = template.findResources('AWS::Lambda::Permission', { Properties: { FunctionName: { 'Fn::GetAtt': [fnId, 'Arn'] } } });
      expect(Object.values(permissions)).toHaveLength(1);
      expect(JSON.stringify(Object.values(permissions)[0])).toContain('/*/*/*');
    }
  });

  test.each([
    ['UNAUTHORIZED', '401'],
    ['ACCESS_DENIED', '403'],
    ['MISSING_AUTHENTICATION_TOKEN', '404'],
    ['THROTTLED', '429'],
    ['AUTHORIZER_FAILURE', '503'],
  ])('gateway response %s answers %s with the error envelope', (type, status) => {
    const [, response] = only(template, 'AWS::ApiGateway::GatewayResponse', { Properties: { ResponseType: type } });
    expect(response.Properties.StatusCode).toBe(status);
    expect(response.Properties.ResponseParameters).toEqual({
      'gatewayresponse.header.Access-Control-Allow-Origin': "'*'",
      'gatewayresponse.header.Content-Type': "'application/json'",
      ...(type === 'THROTTLED' || type === 'AUTHORIZER_FAILURE' ? { 'gatewayresponse.header.Retry-After': "'1'" } : {}),
    });
    const body: string = response.Properties.ResponseTemplates['application/json'];
    expect(body).toContain('"success":false');
    expect(body).toContain('"requestId":"$context.requestId"');
    expect(body).toContain(`"statusCode":${status}`);
  });

  test('DEFAULT_4XX / DEFAULT_5XX keep the gateway status and report 400 / 500; every spec is installed', () => {
    template.resourceCountIs('AWS::ApiGateway::GatewayResponse', gatewayResponses.length);
    for (const [type, status] of [['DEFAULT_4XX', 400], ['DEFAULT_5XX', 500]] as const) {
      const [, response] = only(template, 'AWS::ApiGateway::GatewayResponse', { Properties: { ResponseType: type } });
      expect(response.Properties).not.toHaveProperty('StatusCode');
      expect(response.Properties.ResponseTemplates['application/json']).toContain(`"statusCode":${status},`);
    }
  });

  test('outputs: ApiUrl, TableName, PayloadBucketName', () => {
    const bucketId = logicalIdAt(template, 'AWS::S3::Bucket', 'PayloadBucket');
    template.hasOutput('ApiUrl', { Value: { 'Fn::Join': ['', Match.arrayWith(['https://', '/'])] } });
    template.hasOutput('TableName', { Value: { Ref: tableId } });
    template.hasOutput('PayloadBucketName', { Value: { Ref: bucketId } });
    expect(Object.keys(template.toJSON().Outputs).sort()).toEqual(
      ['ApiUrl', 'PayloadBucketName', 'TableName', 'ScheduleGroupName', 'AlarmTopicArn', 'DashboardName', ...queues.map((spec) => `${pascal(spec.name)}QueueUrl`)].sort(),
    );
  });
});

describe('MailwrightStack (throwaway, custom rate limit)', () => {
  let template: Template;
  beforeAll(() => {
    template = synth({ retainData: false }, { rateLimitPerMinute: '250' });
  });

  test('table, bucket and logs are deleted with the stack; no PITR; bucket emptied first', () => {
    template.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Delete',
      UpdateReplacePolicy: 'Delete',
      Properties: { PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: false } },
    });
    template.hasResource('AWS::S3::Bucket', { DeletionPolicy: 'Delete' });
    template.resourceCountIs('Custom::S3AutoDeleteObjects', 2); // the payload and access-log buckets
    template.allResources('AWS::Logs::LogGroup', { DeletionPolicy: 'Delete' });
  });

  test('rateLimitPerMinute context reaches every group function', () => {
    for (const group of functionGroups) {
      template.hasResourceProperties('AWS::Lambda::Function', {
        Environment: { Variables: Match.objectLike({ RATE_LIMIT_PER_MINUTE: '250' }) },
        LoggingConfig: { LogGroup: { Ref: Match.stringLikeRegexp(`^${pascal(group)}FunctionLogs`) } },
      });
    }
  });

  test('a malformed rateLimitPerMinute fails synth', () => {
    expect(() => synth({}, { rateLimitPerMinute: 'lots' })).toThrow(/rateLimitPerMinute/);
  });
});

describe('MailwrightStack CORS preflight', () => {
  const group = functionGroups[0];
  const corsRoutes: Route[] = [
    { method: 'POST', path: '/v1/track', group, keys: ['public', 'secret'], cors: true },
    { method: 'GET', path: '/v1/items/{id}', group, keys: ['secret'], cors: true },
    { method: 'DELETE', path: '/v1/items/{id}', group, keys: ['secret'], cors: true },
    { method: 'GET', path: '/v1/items', group, keys: ['secret'] },
  ];
  let methods: Map<string, Record<string, any>>;
  beforeAll(() => {
    methods = methodsByRoute(synth({ routes: corsRoutes }));
  });

  test('cors routes get one unauthenticated OPTIONS per path with their methods; others get none', () => {
    expect([...methods.keys()].sort()).toEqual(
      ['DELETE /v1/items/{id}', 'GET /v1/items', 'GET /v1/items/{id}', 'OPTIONS /v1/items/{id}', 'OPTIONS /v1/track', 'POST /v1/track'].sort(),
    );
    const expectPreflight = (path: string, allowMethods: string) =>
      expect(methods.get(`OPTIONS ${path}`)).toMatchObject({
        AuthorizationType: 'NONE',
        Integration: {
          Type: 'MOCK',
          IntegrationResponses: [
            {
              StatusCode: '204',
              ResponseParameters: {
                'method.response.header.Access-Control-Allow-Origin': "'*'",
                'method.response.header.Access-Control-Allow-Headers': "'Authorization,Content-Type,Idempotency-Key'",
                'method.response.header.Access-Control-Allow-Methods': allowMethods,
                'method.response.header.Access-Control-Max-Age': "'600'",
              },
            },
          ],
        },
      });
    expectPreflight('/v1/track', "'POST,OPTIONS'");
    expectPreflight('/v1/items/{id}', "'GET,DELETE,OPTIONS'");
    expect(methods.get('POST /v1/track')).toMatchObject({ AuthorizationType: 'CUSTOM' });
  });
});

describe('MailwrightFunction bind methods', () => {
  let template: Template;
  beforeAll(() => {
    const stack = new Stack(assertionApp(), 'Bind');
    const fn = new MailwrightFunction(stack, 'Fn', { group: functionGroups[0] });
    fn.bindTable(new Table(stack, 'T', { partitionKey: { name: 'PK', type: AttributeType.STRING } }), 'read');
    fn.bindQueue(new Queue(stack, 'Q'), variables.sendQueueUrl);
    fn.bindBucket(new Bucket(stack, 'B'));
    template = Template.fromStack(stack);
  });

  test('each bind sets its variable and grants exactly the named actions, no wildcards', () => {
    const [tableId] = only(template, 'AWS::DynamoDB::Table');
    const [queueId] = only(template, 'AWS::SQS::Queue');
    const [bucketId] = only(template, 'AWS::S3::Bucket');
    template.hasResourceProperties('AWS::Lambda::Function', {
      Environment: { Variables: { TABLE_NAME: { Ref: tableId }, SEND_QUEUE_URL: { Ref: queueId }, PAYLOAD_BUCKET: { Ref: bucketId } } },
    });
    const [, policy] = only(template, 'AWS::IAM::Policy');
    const statements = policy.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[];
    const actions = statements.flatMap((statement) => [statement.Action].flat()).sort();
    expect(actions).toEqual(
      [
        ...['BatchGetItem', 'ConditionCheckItem', 'DescribeTable', 'GetItem', 'Query', 'Query'].map((a) => `dynamodb:${a}`), // Query: the table, and its indexes by name
        'logs:CreateLogStream',
        'logs:PutLogEvents',
        's3:DeleteObject',
        's3:GetObject',
        's3:PutObject',
        'sqs:GetQueueAttributes',
        'sqs:GetQueueUrl',
        'sqs:SendMessage',
        'xray:PutTelemetryRecords',
        'xray:PutTraceSegments',
      ].sort(),
    );
    const s3 = statements.find((statement) => [statement.Action].flat().includes('s3:GetObject'));
    expect(s3?.Resource).toEqual({ 'Fn::Join': ['', [{ 'Fn::GetAtt': [bucketId, 'Arn'] }, '/*']] });
  });
});
