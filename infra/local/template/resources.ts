import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ResourceInUseException,
  UpdateTimeToLiveCommand,
  waitUntilTableExists,
  type CreateTableCommandInput,
} from '@aws-sdk/client-dynamodb';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { CreateQueueCommand, GetQueueAttributesCommand, SetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { ACCOUNT, REGION, constructId, type CfnResource, type CfnTemplate } from './cloud-assembly';
import { createResolver, type PhysicalResource, type Resolve } from './intrinsics';

/**
 * Creates what the template declares that has a local emulator — the table (keys, indexes,
 * stream, TTL), every queue with its redrive policy, the buckets — and gives every resource its
 * local physical name and attributes, so intrinsics resolve (infra/local/template/intrinsics.ts). Local
 * names follow the construct ids (`SendQueue` → `send`, `SendDlq` → `send-dlq`); the table and the
 * payload bucket keep the names the admin CLI and the tests know. Safe to run on every start.
 */
export interface LocalResourceNames {
  tableName: string;
  bucketName: string;
}

export interface LocalResources {
  physical: Map<string, PhysicalResource>;
  resolve: Resolve;
  /** Queue URL by queue ARN (event source mappings and the Scheduler name queues by ARN). */
  queueUrlByArn: Map<string, string>;
}

const kebab = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, '$1-$2').replace(/([A-Z])([A-Z][a-z])/g, '$1-$2').toLowerCase();
const arn = (service: string, resource: string, region = REGION, account = ACCOUNT) => `arn:aws:${service}:${region}:${account}:${resource}`;

export async function createLocalResources(template: CfnTemplate, names: LocalResourceNames, secretsFile: string): Promise<LocalResources> {
  const physical = new Map<string, PhysicalResource>();
  const queueUrlByArn = new Map<string, string>();
  const secrets = localSecrets(secretsFile);
  const resolve = createResolver({ physical, secretValue: secrets.value });
  const entries = Object.entries(template.Resources);

  for (const [logicalId, resource] of entries) {
    const found = namedResource(logicalId, resource, names, secrets);
    if (found) physical.set(logicalId, found);
  }
  // Queues first without their redrive policies (a DLQ must exist before a policy names its ARN).
  const sqs = new SQSClient({});
  const queues = entries.filter(([, resource]) => resource.Type === 'AWS::SQS::Queue');
  // The emulator names its queues under an account of its own; the stack's ARNs (policies, mappings) use ours.
  const emulatorArns = new Map<string, string>();
  for (const [logicalId, resource] of queues) {
    const name = localQueueName(constructId(resource, logicalId));
    const properties = resource.Properties ?? {};
    const attributes: Record<string, string> = {};
    for (const key of ['VisibilityTimeout', 'MessageRetentionPeriod', 'DelaySeconds', 'ReceiveMessageWaitTimeSeconds', 'MaximumMessageSize']) {
      if (properties[key] !== undefined) attributes[key] = String(properties[key]);
    }
    const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: name, Attributes: attributes }));
    const { Attributes } = await sqs.send(new GetQueueAttributesCommand({ QueueUrl, AttributeNames: ['QueueArn'] }));
    const queueArn = arn('sqs', name);
    emulatorArns.set(queueArn, Attributes!.QueueArn!);
    physical.set(logicalId, { ref: QueueUrl!, attributes: { Arn: queueArn, QueueName: name, QueueUrl: QueueUrl! } });
    queueUrlByArn.set(queueArn, QueueUrl!);
  }
  for (const [logicalId, resource] of queues) {
    const redrive = resource.Properties?.RedrivePolicy;
    if (!redrive) continue;
    const policy = resolve(redrive) as { deadLetterTargetArn: string; maxReceiveCount: number };
    const RedrivePolicy = JSON.stringify({ ...policy, deadLetterTargetArn: emulatorArns.get(policy.deadLetterTargetArn) ?? policy.deadLetterTargetArn });
    await sqs.send(new SetQueueAttributesCommand({ QueueUrl: physical.get(logicalId)!.ref, Attributes: { RedrivePolicy } }));
  }

  const s3 = new S3Client({ forcePathStyle: true });
  for (const [logicalId, resource] of entries) {
    if (resource.Type !== 'AWS::S3::Bucket') continue;
    await s3.send(new CreateBucketCommand({ Bucket: physical.get(logicalId)!.ref })).catch((error: Error) => {
      if (!['BucketAlreadyOwnedByYou', 'BucketAlreadyExists'].includes(error.name)) throw error;
    });
  }

  for (const [logicalId, resource] of entries) {
    if (resource.Type !== 'AWS::DynamoDB::Table') continue;
    const tableName = physical.get(logicalId)!.ref;
    const streamArn = await createTable(tableName, resource);
    physical.set(logicalId, { ref: tableName, attributes: { Arn: arn('dynamodb', `table/${tableName}`), ...(streamArn ? { StreamArn: streamArn } : {}) } });
  }
  return { physical, resolve, queueUrlByArn };
}

/**
 * Queue URLs name the endpoint the SDK sends to (it follows a QueueUrl's origin, not
 * AWS_ENDPOINT_URL_SQS): so that functions, pollers and schedules reach the queues through the
 * IAM front, their URLs are given its origin.
 */
export function serveQueuesFrom(resources: LocalResources, origin: string): void {
  const rewrite = (url: string) => `${origin}${new URL(url).pathname}`;
  for (const resource of resources.physical.values()) {
    if (resource.attributes.QueueUrl) {
      resource.ref = rewrite(resource.ref);
      resource.attributes.QueueUrl = resource.ref;
    }
  }
  for (const [arn, url] of resources.queueUrlByArn) resources.queueUrlByArn.set(arn, rewrite(url));
}

function namedResource(logicalId: string, resource: CfnResource, names: LocalResourceNames, secrets: LocalSecrets): PhysicalResource | undefined {
  const id = constructId(resource, logicalId);
  const properties = resource.Properties ?? {};
  switch (resource.Type) {
    case 'AWS::DynamoDB::Table': {
      const name = typeof properties.TableName === 'string' ? properties.TableName : id === 'Table' ? names.tableName : kebab(id);
      return { ref: name, attributes: { Arn: arn('dynamodb', `table/${name}`) } };
    }
    case 'AWS::S3::Bucket': {
      const name = typeof properties.BucketName === 'string' ? properties.BucketName : id === 'PayloadBucket' ? names.bucketName : `mailwright-${kebab(id)}`;
      return { ref: name, attributes: { Arn: `arn:aws:s3:::${name}`, DomainName: `${name}.s3.amazonaws.com`, RegionalDomainName: `${name}.s3.${REGION}.amazonaws.com` } };
    }
    case 'AWS::IAM::Role': {
      const name = `Mailwright-${id}`;
      return { ref: name, attributes: { Arn: `arn:aws:iam::${ACCOUNT}:role/${name}`, RoleId: `AROA${logicalId.toUpperCase().slice(0, 16)}` } };
    }
    case 'AWS::Lambda::Function': {
      const name = localFunctionName(resource, logicalId);
      return { ref: name, attributes: { Arn: arn('lambda', `function:${name}`) } };
    }
    case 'AWS::SecretsManager::Secret': {
      const secretArn = arn('secretsmanager', `secret:Mailwright-${id}-local`);
      secrets.ensure(secretArn, properties.GenerateSecretString as { PasswordLength?: number } | undefined);
      return { ref: secretArn, attributes: {} };
    }
    case 'AWS::Scheduler::ScheduleGroup': {
      const name = typeof properties.Name === 'string' ? properties.Name : `Mailwright-${id}`;
      return { ref: name, attributes: { Arn: arn('scheduler', `schedule-group/${name}`) } };
    }
    case 'AWS::SES::ConfigurationSet':
      return { ref: String(properties.Name ?? kebab(id)), attributes: {} };
    case 'AWS::ApiGateway::RestApi':
      return { ref: 'local', attributes: { RootResourceId: 'root' } };
    case 'AWS::Events::Rule':
      return { ref: `Mailwright-${id}`, attributes: { Arn: arn('events', `rule/Mailwright-${id}`) } };
    case 'AWS::SNS::Topic': {
      const topicArn = arn('sns', `Mailwright-${id}`);
      return { ref: topicArn, attributes: { TopicArn: topicArn, TopicName: `Mailwright-${id}` } };
    }
    case 'AWS::Logs::LogGroup': {
      const name = `/mailwright/local/${id}`;
      return { ref: name, attributes: { Arn: arn('logs', `log-group:${name}:*`) } };
    }
    case 'AWS::SQS::Queue':
      return undefined; // created with their URLs
    default:
      return { ref: logicalId, attributes: { Arn: arn('local', logicalId) } };
  }
}

/** A function's local name: what AWS_LAMBDA_FUNCTION_NAME says and its log file is named after. */
export const localFunctionName = (resource: CfnResource, logicalId: string) =>
  typeof resource.Properties?.FunctionName === 'string' ? resource.Properties.FunctionName : `Mailwright-${constructId(resource, logicalId)}`;

const localQueueName = (id: string) => kebab(id).replace(/-queue$/, '');

async function createTable(tableName: string, resource: CfnResource): Promise<string | undefined> {
  const properties = resource.Properties ?? {};
  const dynamoDb = new DynamoDBClient({});
  const input: CreateTableCommandInput = {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: properties.AttributeDefinitions,
    KeySchema: properties.KeySchema,
    ...(properties.GlobalSecondaryIndexes ? { GlobalSecondaryIndexes: properties.GlobalSecondaryIndexes.map((index: Record<string, unknown>) => ({ IndexName: index.IndexName, KeySchema: index.KeySchema, Projection: index.Projection })) } : {}),
    ...(properties.StreamSpecification ? { StreamSpecification: { StreamEnabled: true, StreamViewType: properties.StreamSpecification.StreamViewType } } : {}),
  };
  try {
    await dynamoDb.send(new CreateTableCommand(input));
    await waitUntilTableExists({ client: dynamoDb, maxWaitTime: 60 }, { TableName: tableName });
    const ttl = properties.TimeToLiveSpecification as { AttributeName?: string; Enabled?: boolean } | undefined;
    if (ttl?.Enabled && ttl.AttributeName) {
      await dynamoDb.send(new UpdateTimeToLiveCommand({ TableName: tableName, TimeToLiveSpecification: { AttributeName: ttl.AttributeName, Enabled: true } }));
    }
  } catch (error) {
    if (!(error instanceof ResourceInUseException)) throw error;
  }
  const { Table } = await dynamoDb.send(new DescribeTableCommand({ TableName: tableName }));
  return Table?.LatestStreamArn;
}

interface LocalSecrets {
  ensure(secretArn: string, generate: { PasswordLength?: number } | undefined): void;
  value(secretArn: string): string;
}

/** Secrets Manager's generated secrets, locally: made once and kept in the data folder (mode 600). */
function localSecrets(file: string): LocalSecrets {
  const values: Record<string, string> = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  return {
    ensure(secretArn, generate) {
      if (values[secretArn]) return;
      const length = generate?.PasswordLength ?? 32;
      values[secretArn] = randomBytes(length).toString('base64').replace(/[^a-zA-Z0-9]/g, '').padEnd(length, '0').slice(0, length);
      writeFileSync(file, JSON.stringify(values, null, 2), { mode: 0o600 });
    },
    value(secretArn) {
      const value = values[secretArn];
      if (value === undefined) throw new Error(`The local stack has no secret ${secretArn}`);
      return value;
    },
  };
}
