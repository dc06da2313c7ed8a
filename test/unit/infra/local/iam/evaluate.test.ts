import type { Template } from 'aws-cdk-lib/assertions';
import { createAuthorizer, roleSessionArn, type Authorizer } from '../../../../../infra/local/iam/evaluate';
import { collectPolicies, type CfnTemplate, type StackPolicies } from '../../../../../infra/local/iam/policies';
import { authorizationRequests, type AuthorizationRequest } from '../../../../../infra/local/iam/requests';
import { idAt } from '../../../../support/infra-template';
import { ACCOUNT, API_ID, AUTHORIZER_ID, CONFIGURATION_SET, functionArn, REGION, STREAM_ARN, TABLE_ARN } from '../../../../support/local-iam-fixture';
import { queueOf, roleOf, synthesize } from '../../../../support/local-iam-template';

const request = (action: string, resource: string, context: AuthorizationRequest['context'] = {}): AuthorizationRequest => ({ action, resource, context });
const SES_IDENTITY = `arn:aws:ses:${REGION}:${ACCOUNT}:identity/example.com`;
const SES_CONFIGURATION_SET = `arn:aws:ses:${REGION}:${ACCOUNT}:configuration-set/${CONFIGURATION_SET}`;

describe('createAuthorizer against the synthesized template', () => {
  let template: Template;
  let json: CfnTemplate;
  let policies: StackPolicies;
  let authorizer: Authorizer;
  let payloadBucket: string;
  const role = (name: string) => roleOf(template, json, name);

  beforeAll(() => {
    const synthesized = synthesize();
    ({ template, json } = synthesized);
    policies = collectPolicies(json, synthesized.resolve);
    authorizer = createAuthorizer(policies, { account: ACCOUNT });
    payloadBucket = `arn:aws:s3:::${idAt(template, 'AWS::S3::Bucket', 'PayloadBucket/Resource').toLowerCase()}`;
  });

  it('collects every role’s policies, each function’s permissions and each queue’s and bucket’s policy', () => {
    // Prepare
    const count = (type: string) => Object.values(json.Resources).filter((resource) => resource.Type === type).length;

    // Assess
    expect(policies.identity.size).toBe(count('AWS::IAM::Role'));
    expect([...policies.identity].filter(([, attached]) => attached.length === 0).map(([roleArn]) => roleArn)).toEqual([]);
    expect([...policies.functions.values()].flatMap((document) => document.Statement)).toHaveLength(count('AWS::Lambda::Permission'));
    expect(policies.resources.size).toBe(count('AWS::SQS::QueuePolicy') + count('AWS::S3::BucketPolicy'));
  });

  it('lets the sender role send through the configuration set, and not the contacts role', async () => {
    // Prepare
    const send = [request('ses:SendEmail', SES_IDENTITY), request('ses:SendEmail', SES_CONFIGURATION_SET)];

    // Act
    const sender = await authorizer.authorize(role('SenderFunction'), send);
    const contacts = await authorizer.authorize(role('ContactsFunction'), send);

    // Assess
    expect(sender).toEqual({ allowed: true });
    expect(contacts).toEqual({ allowed: false, request: send[0], reason: 'because no identity-based policy allows the ses:SendEmail action' });
  });

  it('lets the transfers role upload under imports/ but not exports/', async () => {
    // Act
    const imports = await authorizer.authorize(role('TransfersFunction'), [request('s3:PutObject', `${payloadBucket}/imports/p1/i1.csv`)]);
    const exports = await authorizer.authorize(role('TransfersFunction'), [request('s3:PutObject', `${payloadBucket}/exports/p1/e1.csv`)]);

    // Assess: the bucket's enforceSSL Deny is in the simulation and does not match over loopback
    expect(policies.resources.get(payloadBucket)?.Statement).toEqual([expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]);
    expect(imports).toEqual({ allowed: true });
    expect(exports).toMatchObject({ allowed: false, request: { action: 's3:PutObject', resource: `${payloadBucket}/exports/p1/e1.csv` } });
  });

  it('does not let the contact-exports role send to the imports queue', async () => {
    // Prepare
    const imports = queueOf(template, 'ContactImportsQueue');

    // Act
    const decision = await authorizer.authorize(role('ContactExportsFunction'), [request('sqs:SendMessage', imports.arn)]);

    // Assess
    expect(decision).toEqual({ allowed: false, request: request('sqs:SendMessage', imports.arn), reason: 'because no identity-based policy allows the sqs:SendMessage action' });
  });

  it('lets the workflow functions pass the scheduler role, to the Scheduler only, and no other role', async () => {
    // Prepare
    const schedulerRole = `arn:aws:iam::${ACCOUNT}:role/${idAt(template, 'AWS::IAM::Role', 'SchedulerRole/Resource')}`;
    const pass = (roleArn: string, service = 'scheduler.amazonaws.com') => [request('iam:PassRole', roleArn, { 'iam:PassedToService': service })];

    // Act
    const decisions = await Promise.all([
      authorizer.authorize(role('WorkflowsFunction'), pass(schedulerRole)),
      authorizer.authorize(role('WorkflowRunnerFunction'), pass(schedulerRole)),
      authorizer.authorize(role('WorkflowRunnerFunction'), pass(schedulerRole, 'lambda.amazonaws.com')),
      authorizer.authorize(role('WorkflowRunnerFunction'), pass(role('SenderFunction'))),
      authorizer.authorize(role('ContactsFunction'), pass(schedulerRole)),
    ]);

    // Assess
    expect(decisions.map((decision) => decision.allowed)).toEqual([true, true, false, false, false]);
  });

  it('lets the scheduler role send to the workflow and fan-out queues only', async () => {
    // Prepare
    const schedulerRole = `arn:aws:iam::${ACCOUNT}:role/${idAt(template, 'AWS::IAM::Role', 'SchedulerRole/Resource')}`;
    const sendTo = (queue: string) => authorizer.authorize(schedulerRole, [request('sqs:SendMessage', queueOf(template, queue).arn)]);

    // Act
    const decisions = await Promise.all(['WorkflowsQueue', 'CampaignFanoutQueue', 'SendQueue', 'CampaignSendQueue', 'ContactImportsQueue'].map(sendTo));

    // Assess
    expect(decisions.map((decision) => decision.allowed)).toEqual([true, true, false, false, false]);
  });

  it('authorizes a DynamoDB call as the proxy maps it: a transaction item by item, an index by its ARN', async () => {
    // Prepare
    const call = (target: string, body: object) => authorizationRequests('dynamodb', { method: 'POST', url: '/', headers: { 'x-amz-target': `DynamoDB_20120810.${target}` }, body: JSON.stringify(body) }, { region: REGION, account: ACCOUNT });
    const transaction = call('TransactWriteItems', { TransactItems: [{ Put: { TableName: 'mailwright', Item: {} } }, { ConditionCheck: { TableName: 'mailwright', Key: {} } }] });

    // Act
    const contacts = await authorizer.authorize(role('ContactsFunction'), transaction);
    const authorizerWrite = await authorizer.authorize(role('AuthorizerFunction'), transaction);
    const onIndex = await authorizer.authorize(role('ContactsFunction'), call('Query', { TableName: 'mailwright', IndexName: 'GSI2' }));
    const onUnknownIndex = await authorizer.authorize(role('ContactsFunction'), call('Query', { TableName: 'mailwright', IndexName: 'GSI9' }));

    // Assess
    expect(contacts).toEqual({ allowed: true });
    expect(authorizerWrite).toMatchObject({ allowed: false, request: { action: 'dynamodb:PutItem', resource: TABLE_ARN } });
    expect(onIndex).toEqual({ allowed: true });
    expect(onUnknownIndex).toMatchObject({ allowed: false, request: { action: 'dynamodb:Query', resource: `${TABLE_ARN}/index/GSI9` } });
  });

  it('lets a stream consumer read the table’s stream, and not a function without a stream', async () => {
    // Prepare
    const read = [request('dynamodb:DescribeStream', STREAM_ARN), request('dynamodb:GetShardIterator', STREAM_ARN), request('dynamodb:GetRecords', STREAM_ARN), request('dynamodb:ListStreams', '*')];

    // Act
    const consumer = await authorizer.authorize(role('SegmentMembershipFunction'), read);
    const other = await authorizer.authorize(role('SenderFunction'), read);

    // Assess
    expect(consumer).toEqual({ allowed: true });
    expect(other).toMatchObject({ allowed: false, request: { action: 'dynamodb:DescribeStream' } });
  });

  it('lets API Gateway invoke a route’s function from the API, and EventBridge a target from its own rule', async () => {
    // Prepare
    const contacts = functionArn(idAt(template, 'AWS::Lambda::Function', 'ContactsFunction/Resource'));
    const authorizerFunction = functionArn(idAt(template, 'AWS::Lambda::Function', 'AuthorizerFunction/Resource'));
    const refresh = functionArn(idAt(template, 'AWS::Lambda::Function', 'SegmentRefreshFunction/Resource'));
    const rule = (path: string) => `arn:aws:events:${REGION}:${ACCOUNT}:rule/${idAt(template, 'AWS::Events::Rule', `${path}/Resource`)}`;
    const api = `arn:aws:execute-api:${REGION}:${ACCOUNT}:${API_ID}`;

    // Act
    const decisions = await Promise.all([
      authorizer.authorizeInvoke({ functionArn: contacts, principal: 'apigateway.amazonaws.com', sourceArn: `${api}/prod/GET/contacts` }),
      authorizer.authorizeInvoke({ functionArn: contacts, principal: 'apigateway.amazonaws.com', sourceArn: `arn:aws:execute-api:${REGION}:${ACCOUNT}:other/prod/GET/contacts` }),
      authorizer.authorizeInvoke({ functionArn: contacts, principal: 'events.amazonaws.com', sourceArn: `${api}/prod/GET/contacts` }),
      authorizer.authorizeInvoke({ functionArn: authorizerFunction, principal: 'apigateway.amazonaws.com', sourceArn: `${api}/authorizers/${AUTHORIZER_ID}` }),
      authorizer.authorizeInvoke({ functionArn: refresh, principal: 'events.amazonaws.com', sourceArn: rule('SegmentRefreshSchedule') }),
      authorizer.authorizeInvoke({ functionArn: refresh, principal: 'events.amazonaws.com', sourceArn: rule('SesEventsRule') }),
    ]);

    // Assess
    expect(decisions.map((decision) => decision.allowed)).toEqual([true, false, false, true, true, false]);
    expect(decisions[1]).toMatchObject({ reason: 'because no resource-based policy allows the lambda:InvokeFunction action' });
  });

  it('answers a repeated decision from the cache', async () => {
    // Prepare
    const own = createAuthorizer(policies, { account: ACCOUNT });
    const send = [request('ses:SendEmail', SES_IDENTITY)];

    // Act
    await own.authorize(role('SenderFunction'), send);
    await own.authorize(role('SenderFunction'), send);
    await own.authorize(role('CampaignSenderFunction'), send);

    // Assess
    expect(own.stats()).toMatchObject({ decisions: 3, cacheHits: 1, simulations: 2 });
  });

  it('forgets the least recently used decision beyond its cache size', async () => {
    // Prepare
    const own = createAuthorizer(policies, { account: ACCOUNT, cacheSize: 2 });
    const object = (key: string) => [request('s3:GetObject', `${payloadBucket}/${key}`)];
    const sender = role('SenderFunction');

    // Act
    await own.authorize(sender, object('a'));
    await own.authorize(sender, object('b'));
    await own.authorize(sender, object('a'));
    await own.authorize(sender, object('c'));
    await own.authorize(sender, object('a'));
    await own.authorize(sender, object('b'));

    // Assess: a stayed (used last), b was evicted by c
    expect(own.stats()).toMatchObject({ decisions: 6, cacheHits: 2, simulations: 4 });
  });
});

describe('createAuthorizer on a resource policy', () => {
  const QUEUE = `arn:aws:sqs:${REGION}:${ACCOUNT}:locked`;
  const ROLE = `arn:aws:iam::${ACCOUNT}:role/Sender`;
  const allowAll = { name: 'all', policy: { Version: '2012-10-17', Statement: [{ Effect: 'Allow', Action: 'sqs:*', Resource: '*' }] } };

  it('lets an explicit Deny in the queue’s policy win over the role’s Allow', async () => {
    // Prepare
    const policies: StackPolicies = {
      identity: new Map([[ROLE, [allowAll]]]),
      functions: new Map(),
      resources: new Map([[QUEUE, { Version: '2012-10-17', Statement: [{ Effect: 'Deny', Principal: { AWS: ROLE }, Action: 'sqs:SendMessage', Resource: QUEUE }] }]]),
    };

    // Act
    const decision = await createAuthorizer(policies, { account: ACCOUNT }).authorize(ROLE, [request('sqs:SendMessage', QUEUE)]);

    // Assess
    expect(decision).toEqual({ allowed: false, request: request('sqs:SendMessage', QUEUE), reason: 'with an explicit deny in a resource-based policy' });
  });

  it('lets a same-account resource policy Allow what the role’s policies do not', async () => {
    // Prepare
    const policies: StackPolicies = {
      identity: new Map([[ROLE, []]]),
      functions: new Map(),
      resources: new Map([[QUEUE, { Version: '2012-10-17', Statement: [{ Effect: 'Allow', Principal: { AWS: ROLE }, Action: 'sqs:SendMessage', Resource: QUEUE }] }]]),
    };

    // Act
    const decision = await createAuthorizer(policies, { account: ACCOUNT }).authorize(ROLE, [request('sqs:SendMessage', QUEUE)]);

    // Assess
    expect(decision).toEqual({ allowed: true });
  });
});

describe('roleSessionArn', () => {
  it('names the role session as AWS does in its messages', () => {
    // Act
    const arn = roleSessionArn(`arn:aws:iam::${ACCOUNT}:role/service/SenderRole`, 'SenderFunction');

    // Assess
    expect(arn).toBe(`arn:aws:sts::${ACCOUNT}:assumed-role/SenderRole/SenderFunction`);
  });
});
