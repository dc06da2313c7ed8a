import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { routes } from '../../shared/http/routes';
import { MailwrightStack } from '../../infra/stack';
import { type Resource, assertionApp, idAt } from '../support/infra-template';

describe('dashboard accounts infrastructure', () => {
  let template: Template;
  let resources: Record<string, Resource>;
  const statementsOf = (fnId: string) => {
    const roleId = resources[fnId]!.Properties.Role['Fn::GetAtt'][0];
    return Object.values(resources)
      .filter((resource) => resource.Type === 'AWS::IAM::Policy' && resource.Properties.Roles.some((role: any) => role.Ref === roleId))
      .flatMap((policy) => policy.Properties.PolicyDocument.Statement);
  };
  const variablesOf = (path: string) => resources[idAt(template, 'AWS::Lambda::Function', `${path}/Resource`)]!.Properties.Environment.Variables;

  // A stack of its own: the run's shared one (stackTemplate) has no dashboardMailFrom.
  beforeAll(() => {
    const app = assertionApp({ dashboardMailFrom: 'dashboard@mail.example.com' });
    template = Template.fromStack(new MailwrightStack(app, 'Mailwright'));
    resources = template.toJSON().Resources;
  });

  test('session routes go to the dashboard function without the authorizer; keys and members routes behind it', () => {
    const methodsOf = (path: string) => {
      const fnId = idAt(template, 'AWS::Lambda::Function', `${path}/Resource`);
      return Object.values(resources).filter((resource) => resource.Type === 'AWS::ApiGateway::Method' && JSON.stringify(resource.Properties.Integration ?? {}).includes(fnId));
    };
    const dashboard = methodsOf('DashboardFunction');
    expect(dashboard).toHaveLength(routes.filter((route) => route.group === 'dashboard').length);
    for (const method of dashboard) expect(method.Properties.AuthorizationType).toBe('NONE');
    for (const group of ['KeysFunction', 'MembersFunction']) {
      const methods = methodsOf(group);
      expect(methods.length).toBeGreaterThanOrEqual(4);
      for (const method of methods) expect(method.Properties.AuthorizationType).toBe('CUSTOM');
    }
  });

  test('the functions that hash passwords get 1024 MB (more CPU for scrypt)', () => {
    for (const path of ['DashboardFunction', 'MembersFunction']) {
      expect(resources[idAt(template, 'AWS::Lambda::Function', `${path}/Resource`)]!.Properties.MemorySize).toBe(1024);
    }
    expect(resources[idAt(template, 'AWS::Lambda::Function', 'KeysFunction/Resource')]!.Properties.MemorySize).toBe(512);
  });

  test('the signing key reaches only the dashboard function and the authorizer, by dynamic reference', () => {
    const secretId = idAt(template, 'AWS::SecretsManager::Secret', 'AccessTokenSigningKey/Resource');
    expect(resources[secretId]!.Properties.GenerateSecretString).toMatchObject({ PasswordLength: 64, ExcludePunctuation: true });
    const reference = { 'Fn::Join': ['', ['{{resolve:secretsmanager:', { Ref: secretId }, ':SecretString:::}}']] };
    expect(variablesOf('DashboardFunction').ACCESS_TOKEN_SECRET).toEqual(reference);
    expect(variablesOf('AuthorizerFunction').ACCESS_TOKEN_SECRET).toEqual(reference);
    for (const path of ['MembersFunction', 'KeysFunction', 'ContactsFunction', 'PublicFunction']) expect(variablesOf(path)).not.toHaveProperty('ACCESS_TOKEN_SECRET');
  });

  test('dashboard mail: the dashboard and members functions send to the send queue from the configured address', () => {
    const queueId = idAt(template, 'AWS::SQS::Queue', 'SendQueue/Resource');
    for (const path of ['DashboardFunction', 'MembersFunction']) {
      const variables = variablesOf(path);
      expect(variables.SEND_QUEUE_URL).toEqual({ Ref: queueId });
      expect(variables.DASHBOARD_MAIL_FROM).toBe('dashboard@mail.example.com');
      const fnId = idAt(template, 'AWS::Lambda::Function', `${path}/Resource`);
      const sends = statementsOf(fnId).filter((statement: any) => [statement.Action].flat().includes('sqs:SendMessage'));
      expect(sends.flatMap((statement: any) => [statement.Resource].flat())).toContainEqual({ 'Fn::GetAtt': [queueId, 'Arn'] });
      expect(statementsOf(fnId).flatMap((statement: any) => [statement.Action].flat()).join(' ')).not.toMatch(/ses:/);
    }
    expect(variablesOf('KeysFunction')).not.toHaveProperty('SEND_QUEUE_URL');
  });

  test('the authorizer may read the table and update items (a key\'s lastUsedAt), nothing else of it', () => {
    const fnId = idAt(template, 'AWS::Lambda::Function', 'AuthorizerFunction/Resource');
    const tableId = idAt(template, 'AWS::DynamoDB::Table', 'Table/Resource');
    const onTable = statementsOf(fnId).filter((statement: any) => JSON.stringify(statement.Resource) === JSON.stringify({ 'Fn::GetAtt': [tableId, 'Arn'] }));
    const actions = onTable.flatMap((statement: any) => [statement.Action].flat());
    expect(actions).toContain('dynamodb:UpdateItem');
    expect(actions).toContain('dynamodb:GetItem');
    expect(actions).not.toContain('dynamodb:PutItem');
    expect(actions).not.toContain('dynamodb:DeleteItem');
  });

  test('without dashboardMailFrom the stack warns and sets no sender; a malformed one fails synth', () => {
    // The construct tree, for its warnings: a stack of its own.
    const stack = new MailwrightStack(assertionApp(), 'Mailwright');
    const plain = Template.fromStack(stack);
    const dashboardId = idAt(plain, 'AWS::Lambda::Function', 'DashboardFunction/Resource');
    expect(plain.toJSON().Resources[dashboardId].Properties.Environment.Variables).not.toHaveProperty('DASHBOARD_MAIL_FROM');
    Annotations.fromStack(stack).hasWarning('/Mailwright', Match.stringLikeRegexp('dashboardMailFrom'));

    expect(() => new MailwrightStack(assertionApp({ dashboardMailFrom: 'not an address' }), 'Mailwright')).toThrow('Context value dashboardMailFrom must be an email address');
  });
});
