/**
 * The IAM policies a synthesized CloudFormation template declares, with every intrinsic resolved
 * to the local stack's physical names and ARNs, in the shapes the simulator evaluates:
 * - identity policies per role ARN (a role's inline `Policies` and every AWS::IAM::Policy that
 *   names the role: CDK puts each grant into `<Role>DefaultPolicy…`);
 * - resource policies per function ARN (AWS::Lambda::Permission, as Lambda turns them into the
 *   function's policy), per queue ARN (AWS::SQS::QueuePolicy) and per bucket ARN
 *   (AWS::S3::BucketPolicy).
 * The queue and bucket policies hold CDK's enforceSSL Deny on `aws:SecureTransport` = false;
 * evaluate.ts passes `true` because the local endpoints are loopback, which stands in for TLS.
 */

/** Deep-resolves CloudFormation intrinsics (Ref, Fn::GetAtt, Fn::Join, Fn::Sub) to plain strings. */
export type Resolve = (value: unknown) => unknown;

export type PolicyStatement = Record<string, unknown>;
export type PolicyDocument = { Version: string; Statement: PolicyStatement[] };
export type NamedPolicy = { name: string; policy: PolicyDocument };

/** The part of a synthesized template this module reads. */
export type CfnTemplate = { Resources: Record<string, { Type: string; Properties?: Record<string, unknown> }> };

export type StackPolicies = {
  /** Role ARN → its identity policies. Roles without any policy are present with an empty list. */
  identity: Map<string, NamedPolicy[]>;
  /** Function ARN → the resource policy its AWS::Lambda::Permission resources make. */
  functions: Map<string, PolicyDocument>;
  /** Queue ARN or bucket ARN → its resource policy. */
  resources: Map<string, PolicyDocument>;
};

export class TemplatePolicyError extends Error {
  override name = 'TemplatePolicyError';
}

const VERSION = '2012-10-17';

export function collectPolicies(template: CfnTemplate, resolve: Resolve): StackPolicies {
  const resources = Object.entries(template.Resources);
  const ofType = (type: string) => resources.filter(([, resource]) => resource.Type === type).map(([id, resource]) => [id, resource.Properties ?? {}] as const);
  const arnOf = (logicalId: string) => text(resolve({ 'Fn::GetAtt': [logicalId, 'Arn'] }), `${logicalId}.Arn`);

  const identity = new Map<string, NamedPolicy[]>();
  const roleArnByName = new Map<string, string>();
  for (const [id, properties] of ofType('AWS::IAM::Role')) {
    // A managed policy's document is not in the template, and a permissions boundary would narrow
    // what the role's policies allow: evaluating without either would differ from AWS, so say so
    // instead of guessing.
    const managed = properties.ManagedPolicyArns as unknown[] | undefined;
    if (managed?.length) throw new TemplatePolicyError(`Role ${id} attaches managed policies (${JSON.stringify(resolve(managed))}), which the local IAM simulation cannot read`);
    if (properties.PermissionsBoundary !== undefined) throw new TemplatePolicyError(`Role ${id} has a permissions boundary, which the local IAM simulation does not apply`);
    const arn = arnOf(id);
    roleArnByName.set(text(resolve({ Ref: id }), `${id} name`), arn);
    const inline = (properties.Policies as { PolicyName: unknown; PolicyDocument: unknown }[] | undefined) ?? [];
    identity.set(
      arn,
      inline.map((policy) => ({ name: text(resolve(policy.PolicyName), `${id} policy name`), policy: documentOf(resolve(policy.PolicyDocument)) })),
    );
  }
  for (const [id, properties] of ofType('AWS::IAM::Policy')) {
    const policy: NamedPolicy = { name: id, policy: documentOf(resolve(properties.PolicyDocument)) };
    for (const role of (properties.Roles as unknown[] | undefined) ?? []) {
      const arn = isRef(role) ? arnOf(role.Ref) : roleArnByName.get(text(resolve(role), `${id} role`));
      const policies = arn === undefined ? undefined : identity.get(arn);
      if (!policies) throw new TemplatePolicyError(`Policy ${id} names role ${JSON.stringify(role)}, which the template does not declare`);
      policies.push(policy);
    }
  }

  const functions = new Map<string, PolicyDocument>();
  for (const [id, properties] of ofType('AWS::Lambda::Permission')) {
    const functionArn = text(resolve(properties.FunctionName), `${id} FunctionName`);
    const statement: PolicyStatement = {
      Sid: id,
      Effect: 'Allow',
      Principal: { Service: text(resolve(properties.Principal), `${id} Principal`) },
      Action: text(resolve(properties.Action), `${id} Action`),
      Resource: functionArn,
    };
    // Lambda turns SourceArn into ArnLike and SourceAccount into StringEquals on the global keys.
    const condition: Record<string, Record<string, string>> = {};
    if (properties.SourceArn !== undefined) condition.ArnLike = { 'AWS:SourceArn': text(resolve(properties.SourceArn), `${id} SourceArn`) };
    if (properties.SourceAccount !== undefined) condition.StringEquals = { 'AWS:SourceAccount': text(resolve(properties.SourceAccount), `${id} SourceAccount`) };
    if (Object.keys(condition).length) statement.Condition = condition;
    const existing = functions.get(functionArn);
    if (existing) existing.Statement.push(statement);
    else functions.set(functionArn, { Version: VERSION, Statement: [statement] });
  }

  const resourcePolicies = new Map<string, PolicyDocument>();
  const addResourcePolicy = (arn: string, document: PolicyDocument) => {
    const existing = resourcePolicies.get(arn);
    if (existing) existing.Statement.push(...document.Statement);
    else resourcePolicies.set(arn, { Version: document.Version, Statement: [...document.Statement] });
  };
  for (const [id, properties] of ofType('AWS::SQS::QueuePolicy')) {
    const document = documentOf(resolve(properties.PolicyDocument));
    for (const queue of (properties.Queues as unknown[] | undefined) ?? []) {
      // A queue's Ref is its URL; the policy applies to the queue's ARN.
      if (!isRef(queue)) throw new TemplatePolicyError(`QueuePolicy ${id} names a queue by ${JSON.stringify(queue)}; only { Ref } to a queue of the template is supported`);
      addResourcePolicy(arnOf(queue.Ref), document);
    }
  }
  for (const [id, properties] of ofType('AWS::S3::BucketPolicy')) {
    const bucket = properties.Bucket;
    const arn = isRef(bucket) ? arnOf(bucket.Ref) : `arn:aws:s3:::${text(resolve(bucket), `${id} Bucket`)}`;
    addResourcePolicy(arn, documentOf(resolve(properties.PolicyDocument)));
  }

  return { identity, functions, resources: resourcePolicies };
}

/**
 * The resource policy that governs `arn`, if any: a queue's own, or for an S3 object
 * (`arn:aws:s3:::bucket/key`) its bucket's.
 */
export function resourcePolicyFor(policies: StackPolicies, arn: string): PolicyDocument | undefined {
  const own = policies.resources.get(arn) ?? policies.functions.get(arn);
  if (own || !arn.startsWith('arn:aws:s3:::')) return own;
  const bucket = arn.slice('arn:aws:s3:::'.length).split('/')[0];
  return policies.resources.get(`arn:aws:s3:::${bucket}`);
}

function isRef(value: unknown): value is { Ref: string } {
  return typeof value === 'object' && value !== null && typeof (value as { Ref?: unknown }).Ref === 'string';
}

function text(value: unknown, what: string): string {
  if (typeof value !== 'string') throw new TemplatePolicyError(`${what} did not resolve to a string: ${JSON.stringify(value)}`);
  return value;
}

function documentOf(value: unknown): PolicyDocument {
  const document = value as { Version?: unknown; Statement?: unknown } | undefined;
  if (!document || document.Statement === undefined) throw new TemplatePolicyError(`Not a policy document: ${JSON.stringify(value)}`);
  const statements = Array.isArray(document.Statement) ? document.Statement : [document.Statement];
  return { Version: typeof document.Version === 'string' ? document.Version : VERSION, Statement: statements as PolicyStatement[] };
}
