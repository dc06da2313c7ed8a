import { collectPolicies, resourcePolicyFor, TemplatePolicyError, type CfnTemplate } from '../../../../../infra/local/iam/policies';
import { fixtureResolver } from '../../../../support/local-iam-fixture';

const ACCOUNT = '123456789012';
const doc = (...Statement: object[]) => ({ Version: '2012-10-17', Statement });
const allowSend = { Effect: 'Allow', Action: 'sqs:SendMessage', Resource: { 'Fn::GetAtt': ['Queue', 'Arn'] } };
const denyInsecure = { Effect: 'Deny', Principal: { AWS: '*' }, Action: 'sqs:*', Resource: { 'Fn::GetAtt': ['Queue', 'Arn'] }, Condition: { Bool: { 'aws:SecureTransport': 'false' } } };

function collect(resources: CfnTemplate['Resources']) {
  const template = { Resources: resources };
  return collectPolicies(template, fixtureResolver(template));
}

describe('collectPolicies', () => {
  it('gives a role its inline policies and every AWS::IAM::Policy that names it, by Ref or by name', () => {
    // Prepare
    const resources: CfnTemplate['Resources'] = {
      Queue: { Type: 'AWS::SQS::Queue' },
      Role: { Type: 'AWS::IAM::Role', Properties: { Policies: [{ PolicyName: 'inline', PolicyDocument: doc(allowSend) }] } },
      Other: { Type: 'AWS::IAM::Role', Properties: {} },
      RoleDefaultPolicy: { Type: 'AWS::IAM::Policy', Properties: { Roles: [{ Ref: 'Role' }], PolicyDocument: { Statement: allowSend } } },
      Shared: { Type: 'AWS::IAM::Policy', Properties: { Roles: ['Role', { Ref: 'Other' }], PolicyDocument: doc(allowSend) } },
    };
    const resolved = { ...allowSend, Resource: `arn:aws:sqs:us-east-1:${ACCOUNT}:Queue` };

    // Act
    const { identity } = collect(resources);

    // Assess
    expect(identity.get(`arn:aws:iam::${ACCOUNT}:role/Role`)).toEqual([
      { name: 'inline', policy: doc(resolved) },
      { name: 'RoleDefaultPolicy', policy: doc(resolved) },
      { name: 'Shared', policy: doc(resolved) },
    ]);
    expect(identity.get(`arn:aws:iam::${ACCOUNT}:role/Other`)).toEqual([{ name: 'Shared', policy: doc(resolved) }]);
  });

  it('turns AWS::Lambda::Permission resources into the function’s resource policy', () => {
    // Prepare
    const resources: CfnTemplate['Resources'] = {
      Fn: { Type: 'AWS::Lambda::Function' },
      Rule: { Type: 'AWS::Events::Rule' },
      FromApi: {
        Type: 'AWS::Lambda::Permission',
        Properties: { Action: 'lambda:InvokeFunction', FunctionName: { 'Fn::GetAtt': ['Fn', 'Arn'] }, Principal: 'apigateway.amazonaws.com', SourceArn: { 'Fn::Sub': 'arn:aws:execute-api:${AWS::Region}:${AWS::AccountId}:api/*' } },
      },
      FromRule: {
        Type: 'AWS::Lambda::Permission',
        Properties: { Action: 'lambda:InvokeFunction', FunctionName: { 'Fn::GetAtt': ['Fn', 'Arn'] }, Principal: 'events.amazonaws.com', SourceArn: { 'Fn::GetAtt': ['Rule', 'Arn'] }, SourceAccount: { Ref: 'AWS::AccountId' } },
      },
    };
    const fn = `arn:aws:lambda:us-east-1:${ACCOUNT}:function:Fn`;

    // Act
    const { functions } = collect(resources);

    // Assess
    expect(functions.get(fn)).toEqual(
      doc(
        { Sid: 'FromApi', Effect: 'Allow', Principal: { Service: 'apigateway.amazonaws.com' }, Action: 'lambda:InvokeFunction', Resource: fn, Condition: { ArnLike: { 'AWS:SourceArn': `arn:aws:execute-api:us-east-1:${ACCOUNT}:api/*` } } },
        {
          Sid: 'FromRule',
          Effect: 'Allow',
          Principal: { Service: 'events.amazonaws.com' },
          Action: 'lambda:InvokeFunction',
          Resource: fn,
          Condition: { ArnLike: { 'AWS:SourceArn': `arn:aws:events:us-east-1:${ACCOUNT}:rule/Rule` }, StringEquals: { 'AWS:SourceAccount': ACCOUNT } },
        },
      ),
    );
  });

  it('keys queue policies by queue ARN and bucket policies by bucket ARN, objects falling under their bucket', () => {
    // Prepare
    const resources: CfnTemplate['Resources'] = {
      Queue: { Type: 'AWS::SQS::Queue' },
      Bucket: { Type: 'AWS::S3::Bucket' },
      QueuePolicy: { Type: 'AWS::SQS::QueuePolicy', Properties: { Queues: [{ Ref: 'Queue' }], PolicyDocument: doc(denyInsecure) } },
      BucketPolicy: { Type: 'AWS::S3::BucketPolicy', Properties: { Bucket: { Ref: 'Bucket' }, PolicyDocument: doc({ Effect: 'Deny', Principal: { AWS: '*' }, Action: 's3:*', Resource: '*' }) } },
    };

    // Act
    const policies = collect(resources);

    // Assess
    expect(resourcePolicyFor(policies, `arn:aws:sqs:us-east-1:${ACCOUNT}:Queue`)).toEqual(doc({ ...denyInsecure, Resource: `arn:aws:sqs:us-east-1:${ACCOUNT}:Queue` }));
    expect(resourcePolicyFor(policies, 'arn:aws:s3:::bucket/imports/a.csv')).toBe(policies.resources.get('arn:aws:s3:::bucket'));
    expect(resourcePolicyFor(policies, 'arn:aws:s3:::bucket')).toBeDefined();
    expect(resourcePolicyFor(policies, 'arn:aws:s3:::other/a.csv')).toBeUndefined();
    expect(resourcePolicyFor(policies, `arn:aws:dynamodb:us-east-1:${ACCOUNT}:table/t`)).toBeUndefined();
  });

  it('refuses a role with managed policies, whose documents the template does not hold', () => {
    // Prepare
    const resources: CfnTemplate['Resources'] = {
      Role: { Type: 'AWS::IAM::Role', Properties: { ManagedPolicyArns: ['arn:aws:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole'] } },
    };

    // Act
    const act = () => collect(resources);

    // Assess
    expect(act).toThrow(
      new TemplatePolicyError('Role Role attaches managed policies (["arn:aws:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole"]), which the local IAM simulation cannot read'),
    );
  });

  it('refuses a role with a permissions boundary, which it does not apply', () => {
    // Prepare
    const resources: CfnTemplate['Resources'] = { Role: { Type: 'AWS::IAM::Role', Properties: { PermissionsBoundary: 'arn:aws:iam::123456789012:policy/boundary' } } };

    // Act
    const act = () => collect(resources);

    // Assess
    expect(act).toThrow(new TemplatePolicyError('Role Role has a permissions boundary, which the local IAM simulation does not apply'));
  });

  it('refuses a policy naming a role the template does not declare', () => {
    // Prepare
    const resources: CfnTemplate['Resources'] = { Policy: { Type: 'AWS::IAM::Policy', Properties: { Roles: ['elsewhere'], PolicyDocument: doc(allowSend) } } };

    // Act
    const act = () => collect(resources);

    // Assess
    expect(act).toThrow(new TemplatePolicyError('Policy Policy names role "elsewhere", which the template does not declare'));
  });
});
