/**
 * One HTTP request to a service endpoint, turned into the IAM authorization requests AWS evaluates
 * for it: `{ action, resource, context }` per action and resource the call touches (a
 * TransactWriteItems checks each item's action on its table, SES SendEmail the identity and the
 * configuration set, Scheduler CreateSchedule the schedule and iam:PassRole of its role).
 * Condition keys are filled where a policy of this stack or CDK's grants can test them
 * (iam:PassedToService, s3:prefix, ses:FromAddress); evaluate.ts adds the global ones.
 */

export type IamService = 'dynamodb' | 'sqs' | 's3' | 'ses' | 'scheduler';

export type AuthorizationContext = Record<string, string | string[]>;

export type AuthorizationRequest = { action: string; resource: string; context: AuthorizationContext };

export type ServiceRequest = {
  method: string;
  /** Path and query string, as in the request line. */
  url: string;
  headers: Record<string, string | string[] | undefined>;
  /** The body, for the JSON services (DynamoDB, SQS, SES, Scheduler); S3's is never read. */
  body?: Buffer | string;
};

export type Where = { region: string; account: string };

/** The request is not one this module knows how to authorize: the proxy refuses it rather than let it through unchecked. */
export class UnmappedRequestError extends Error {
  override name = 'UnmappedRequestError';
}

export function authorizationRequests(service: IamService, request: ServiceRequest, where: Where): AuthorizationRequest[] {
  switch (service) {
    case 'dynamodb':
      return dynamodb(request, where);
    case 'sqs':
      return sqs(request, where);
    case 's3':
      return s3(request);
    case 'ses':
      return ses(request, where);
    case 'scheduler':
      return scheduler(request, where);
  }
}

/** The caller's access key id: from SigV4's Authorization header, or a presigned URL's X-Amz-Credential. */
export function accessKeyIdOf(request: Pick<ServiceRequest, 'url' | 'headers'>): string | undefined {
  const authorization = header(request, 'authorization');
  const signed = authorization && /Credential=([^/,\s]+)\//.exec(authorization);
  if (signed) return signed[1];
  const credential = new URL(request.url, 'http://local').searchParams.get('X-Amz-Credential');
  return credential?.split('/')[0] || undefined;
}

const allow = (action: string, resource: string, context: AuthorizationContext = {}): AuthorizationRequest => ({ action, resource, context });

function header(request: Pick<ServiceRequest, 'headers'>, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function jsonBody(request: ServiceRequest): Record<string, unknown> {
  const raw = request.body === undefined ? '' : request.body.toString();
  if (raw.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(raw);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // falls through to the error below
  }
  throw new UnmappedRequestError(`${request.method} ${request.url}: the body is not a JSON object`);
}

/** The operation a JSON-protocol request names in X-Amz-Target (`<prefix>.<Operation>`). */
function target(request: ServiceRequest, prefixes: string[]): { prefix: string; operation: string } {
  const value = header(request, 'x-amz-target') ?? '';
  const dot = value.lastIndexOf('.');
  const prefix = value.slice(0, dot);
  if (dot < 0 || !prefixes.includes(prefix)) throw new UnmappedRequestError(`X-Amz-Target "${value}" is not one of ${prefixes.join(', ')}`);
  return { prefix, operation: value.slice(dot + 1) };
}

function stringField(body: Record<string, unknown>, name: string, operation: string): string {
  const value = body[name];
  if (typeof value !== 'string' || value === '') throw new UnmappedRequestError(`${operation} without ${name}`);
  return value;
}

function dynamodb(request: ServiceRequest, { region, account }: Where): AuthorizationRequest[] {
  const { prefix, operation } = target(request, ['DynamoDB_20120810', 'DynamoDBStreams_20120810']);
  const body = jsonBody(request);
  // TableName may also be the table's ARN.
  const table = (name: string) => (name.startsWith('arn:') ? name : `arn:aws:dynamodb:${region}:${account}:table/${name}`);
  const action = `dynamodb:${operation}`;

  if (prefix === 'DynamoDBStreams_20120810') {
    if (operation === 'ListStreams') return [allow(action, '*')];
    if (operation === 'GetRecords') {
      // A shard iterator starts with its stream's ARN, up to the first "|".
      const iterator = stringField(body, 'ShardIterator', operation);
      const streamArn = /^(arn:[^|]+\/stream\/[^|]+)\|/.exec(iterator)?.[1];
      if (!streamArn) throw new UnmappedRequestError('GetRecords with a shard iterator that does not name its stream');
      return [allow(action, streamArn)];
    }
    return [allow(action, stringField(body, 'StreamArn', operation))];
  }

  switch (operation) {
    case 'BatchGetItem':
    case 'BatchWriteItem': {
      const items = body.RequestItems;
      if (typeof items !== 'object' || items === null || Object.keys(items).length === 0) throw new UnmappedRequestError(`${operation} without RequestItems`);
      return Object.keys(items).map((name) => allow(action, table(name)));
    }
    case 'TransactWriteItems':
    case 'TransactGetItems': {
      const items = body.TransactItems;
      if (!Array.isArray(items) || items.length === 0) throw new UnmappedRequestError(`${operation} without TransactItems`);
      const actions: Record<string, string> = { Put: 'PutItem', Update: 'UpdateItem', Delete: 'DeleteItem', ConditionCheck: 'ConditionCheckItem', Get: 'GetItem' };
      return items.map((item: Record<string, { TableName?: unknown }>) => {
        const [kind, detail] = Object.entries(item ?? {})[0] ?? [];
        const itemAction = kind === undefined ? undefined : actions[kind];
        if (!itemAction || typeof detail?.TableName !== 'string') throw new UnmappedRequestError(`${operation} item ${JSON.stringify(item)} names no action and table`);
        return allow(`dynamodb:${itemAction}`, table(detail.TableName));
      });
    }
    case 'ListTables':
      return [allow(action, '*')];
    case 'Query':
    case 'Scan': {
      const name = stringField(body, 'TableName', operation);
      const index = body.IndexName;
      return [allow(action, typeof index === 'string' ? `${table(name)}/index/${index}` : table(name))];
    }
    default:
      return [allow(action, table(stringField(body, 'TableName', operation)))];
  }
}

function sqs(request: ServiceRequest, { region, account }: Where): AuthorizationRequest[] {
  const { operation } = target(request, ['AmazonSQS']);
  const body = jsonBody(request);
  const batches: Record<string, string> = { SendMessageBatch: 'SendMessage', DeleteMessageBatch: 'DeleteMessage', ChangeMessageVisibilityBatch: 'ChangeMessageVisibility' };
  const action = `sqs:${batches[operation] ?? operation}`;
  const queue = (name: string, owner = account) => `arn:aws:sqs:${region}:${owner}:${name}`;
  if (typeof body.QueueUrl === 'string') {
    const name = new URL(body.QueueUrl, 'http://local').pathname.split('/').filter(Boolean).pop();
    if (!name) throw new UnmappedRequestError(`${operation} with QueueUrl "${body.QueueUrl}", which names no queue`);
    return [allow(action, queue(name))];
  }
  if (typeof body.QueueName === 'string') {
    const owner = typeof body.QueueOwnerAWSAccountId === 'string' && body.QueueOwnerAWSAccountId ? body.QueueOwnerAWSAccountId : account;
    return [allow(action, queue(body.QueueName, owner))];
  }
  if (operation === 'ListQueues') return [allow(action, '*')];
  throw new UnmappedRequestError(`${operation} names no queue`);
}

function s3(request: ServiceRequest): AuthorizationRequest[] {
  // The code base addresses the bucket path-style (shared/payloads: forcePathStyle, and its
  // presigned URLs come from the same client).
  const url = new URL(request.url, 'http://local');
  const [bucketSegment, ...keySegments] = url.pathname.slice(1).split('/');
  const bucket = decodeURIComponent(bucketSegment ?? '');
  const key = keySegments.map(decodeURIComponent).join('/');
  const query = url.searchParams;
  const method = request.method.toUpperCase();
  const refuse = () => new UnmappedRequestError(`S3 ${method} ${url.pathname}${url.search} is not an operation the local IAM knows`);

  if (bucket === '') {
    if (method === 'GET') return [allow('s3:ListAllMyBuckets', '*')];
    throw refuse();
  }
  const bucketArn = `arn:aws:s3:::${bucket}`;
  if (key === '') {
    const prefix = query.get('prefix');
    switch (method) {
      case 'GET':
        if (query.has('uploads')) return [allow('s3:ListBucketMultipartUploads', bucketArn)];
        if (query.has('location')) return [allow('s3:GetBucketLocation', bucketArn)];
        return [allow('s3:ListBucket', bucketArn, prefix === null ? {} : { 's3:prefix': prefix })];
      case 'HEAD':
        return [allow('s3:ListBucket', bucketArn)];
      case 'PUT':
        return [allow('s3:CreateBucket', bucketArn)];
      case 'DELETE':
        return [allow('s3:DeleteBucket', bucketArn)];
      default:
        throw refuse();
    }
  }
  const objectArn = `${bucketArn}/${key}`;
  switch (method) {
    case 'GET':
      return [allow(query.has('uploadId') ? 's3:ListMultipartUploadParts' : 's3:GetObject', objectArn)];
    case 'HEAD':
      return [allow('s3:GetObject', objectArn)];
    case 'PUT': {
      // CopyObject and UploadPartCopy also read their source.
      const source = header(request, 'x-amz-copy-source');
      const sourcePath = source && decodeURIComponent(source.split('?')[0]!).replace(/^\//, '');
      return [allow('s3:PutObject', objectArn), ...(sourcePath ? [allow('s3:GetObject', `arn:aws:s3:::${sourcePath}`)] : [])];
    }
    case 'POST':
      // CreateMultipartUpload (?uploads) and CompleteMultipartUpload (?uploadId) are authorized as PutObject.
      if (query.has('uploads') || query.has('uploadId')) return [allow('s3:PutObject', objectArn)];
      throw refuse();
    case 'DELETE':
      return [allow(query.has('uploadId') ? 's3:AbortMultipartUpload' : 's3:DeleteObject', objectArn)];
    default:
      throw refuse();
  }
}

const IDENTITIES = '/v2/email/identities';

function ses(request: ServiceRequest, { region, account }: Where): AuthorizationRequest[] {
  const url = new URL(request.url, 'http://local');
  const method = request.method.toUpperCase();
  const arn = (resource: string) => `arn:aws:ses:${region}:${account}:${resource}`;
  if (method === 'POST' && url.pathname === '/v2/email/outbound-emails') {
    const body = jsonBody(request);
    const address = bareAddress(stringField(body, 'FromEmailAddress', 'SendEmail'));
    const domain = address.slice(address.lastIndexOf('@') + 1);
    const identity = typeof body.FromEmailAddressIdentityArn === 'string' ? body.FromEmailAddressIdentityArn : arn(`identity/${domain}`);
    const context = { 'ses:FromAddress': address };
    const configurationSet = body.ConfigurationSetName;
    return [
      allow('ses:SendEmail', identity, context),
      ...(typeof configurationSet === 'string' && configurationSet ? [allow('ses:SendEmail', arn(`configuration-set/${configurationSet}`), context)] : []),
    ];
  }
  if (url.pathname === IDENTITIES) {
    if (method === 'POST') return [allow('ses:CreateEmailIdentity', arn(`identity/${stringField(jsonBody(request), 'EmailIdentity', 'CreateEmailIdentity')}`))];
    if (method === 'GET') return [allow('ses:ListEmailIdentities', '*')];
  }
  const identity = url.pathname.startsWith(`${IDENTITIES}/`) ? decodeURIComponent(url.pathname.slice(IDENTITIES.length + 1)) : '';
  if (identity && !identity.includes('/')) {
    if (method === 'GET') return [allow('ses:GetEmailIdentity', arn(`identity/${identity}`))];
    if (method === 'DELETE') return [allow('ses:DeleteEmailIdentity', arn(`identity/${identity}`))];
  }
  if (method === 'GET' && url.pathname === '/v2/email/account') return [allow('ses:GetAccount', '*')];
  throw new UnmappedRequestError(`SES ${method} ${url.pathname} is not an operation the local IAM knows`);
}

/** `"Name" <a@b.example>` or `a@b.example` → `a@b.example`. */
function bareAddress(from: string): string {
  return (/<([^<>]+)>\s*$/.exec(from)?.[1] ?? from).trim();
}

function scheduler(request: ServiceRequest, { region, account }: Where): AuthorizationRequest[] {
  const url = new URL(request.url, 'http://local');
  const method = request.method.toUpperCase();
  if (url.pathname === '/schedules' && method === 'GET') return [allow('scheduler:ListSchedules', '*')];
  const match = /^\/schedules\/([^/]+)$/.exec(url.pathname);
  const actions: Record<string, string> = { POST: 'CreateSchedule', PUT: 'UpdateSchedule', GET: 'GetSchedule', DELETE: 'DeleteSchedule' };
  const operation = actions[method];
  if (!match || !operation) throw new UnmappedRequestError(`Scheduler ${method} ${url.pathname} is not an operation the local IAM knows`);
  const name = decodeURIComponent(match[1]!);
  const writes = method === 'POST' || method === 'PUT';
  const body = writes ? jsonBody(request) : {};
  // Like the Scheduler, the group comes from the body on writes and from the query otherwise.
  const group = (writes ? (typeof body.GroupName === 'string' ? body.GroupName : undefined) : url.searchParams.get('groupName')) || 'default';
  const requests = [allow(`scheduler:${operation}`, `arn:aws:scheduler:${region}:${account}:schedule/${group}/${name}`)];
  if (writes) {
    const roleArn = (body.Target as { RoleArn?: unknown } | undefined)?.RoleArn;
    if (typeof roleArn !== 'string' || !roleArn) throw new UnmappedRequestError(`${operation} without Target.RoleArn`);
    requests.push(allow('iam:PassRole', roleArn, { 'iam:PassedToService': 'scheduler.amazonaws.com' }));
  }
  return requests;
}
