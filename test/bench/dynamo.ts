import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { GetQueueUrlCommand, SQSClient } from '@aws-sdk/client-sqs';
import { dlqName, queues } from '../../infra/queues';
import { readFunctionEnvironments } from '../../infra/local/lambda/functions';
import { localAwsEnvironment, localSettings } from '../../infra/local/settings';
import type { LocalStack } from '../support/local-stack';

export const TABLE_NAME = 'mailwright';

/**
 * Points this process at the stack the way the stack points its functions, so the service modules
 * imported afterwards behave as they do in the gateway: every variable the template gives any
 * function, resolved by the stack itself (infra/local/lambda/functions.ts leaves them in its data
 * folder: table, secrets, settings…) — the bench runs several functions' code in one process, and
 * the registry (shared/config/variables.ts) names each variable once, with one meaning — then the
 * operator environment of infra/local/settings.ts (the emulators directly, as an administrator)
 * and the bench's own settings. Must run BEFORE any import of shared/: they read the environment
 * at import time (TABLE_NAME, ACCESS_TOKEN_SECRET, RATE_LIMIT_PER_MINUTE, the SDK endpoint).
 */
export function pointServiceAtStack(stack: LocalStack, rateLimitPerMinute: number) {
  // The stack's ports first: the operator environment is derived from them.
  Object.assign(process.env, stack.env);
  Object.assign(process.env, benchEnvironment(readFunctionEnvironments(stack.dataDir), rateLimitPerMinute));
  if (process.env.AWS_ENDPOINT_URL_DYNAMODB !== stack.dynamoDbEndpoint || process.env.TABLE_NAME !== TABLE_NAME) {
    throw new Error(`The bench environment does not point at the stack (${process.env.AWS_ENDPOINT_URL_DYNAMODB}, table ${process.env.TABLE_NAME})`);
  }
}

/** Flags for a function's runtime, not for a process that spawns workers of its own. */
const NOT_FOR_THE_BENCH = new Set(['NODE_OPTIONS']);

/** The bench process's environment, from the functions' template environments (by function name). */
export function benchEnvironment(functionEnvironments: Record<string, Record<string, string>>, rateLimitPerMinute: number): Record<string, string> {
  const templateVariables: Record<string, string> = {};
  for (const variables of Object.values(functionEnvironments)) {
    for (const [name, value] of Object.entries(variables)) if (!NOT_FOR_THE_BENCH.has(name)) templateVariables[name] ??= value;
  }
  return {
    ...templateVariables,
    ...localAwsEnvironment(localSettings()),
    RATE_LIMIT_PER_MINUTE: String(rateLimitPerMinute),
    POWERTOOLS_SERVICE_NAME: 'mailwright-bench',
    POWERTOOLS_LOG_LEVEL: process.env.POWERTOOLS_LOG_LEVEL ?? 'WARN',
    POWERTOOLS_METRICS_DISABLED: process.env.POWERTOOLS_METRICS_DISABLED ?? 'true',
  };
}

/**
 * Sets the queue URLs the stack created (SEND_QUEUE_URL, SEND_DLQ_URL…) in this process as the
 * emulator's own: the template's name the IAM front, which admits only the functions' roles, and
 * this process acts as an administrator. After pointServiceAtStack, before the service's imports.
 */
export async function pointQueuesAtStack(stack: LocalStack) {
  const sqs = new SQSClient({ endpoint: stack.sqsEndpoint, region: 'us-east-1', credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
  try {
    const urls = new Map<string, string>();
    for (const queue of queues) {
      for (const name of [queue.name, dlqName(queue.name)]) {
        const { QueueUrl: url } = await sqs.send(new GetQueueUrlCommand({ QueueName: name }));
        if (!url) throw new Error(`The stack has no queue ${name}`);
        urls.set(name, url);
      }
    }
    Object.assign(process.env, queueEnvironment((name) => urls.get(name)!));
  } finally {
    sqs.destroy();
  }
}

/** What pointQueuesAtStack sets: every queue's URL variable and its DLQ's, given the URL of a queue by name. */
export function queueEnvironment(urlOf: (queueName: string) => string): Record<string, string> {
  return Object.fromEntries(
    queues.flatMap((queue) => [
      [queue.envVar, urlOf(queue.name)],
      [`${queue.envVar.replace(/_URL$/, '')}_DLQ_URL`, urlOf(dlqName(queue.name))],
    ]),
  );
}

/**
 * The harness's own client, separate from the service's shared one, so that seeding and the raw
 * baseline never show up in the service's call counts. Same settings as the service's client.
 */
export function benchDocumentClient(stack: LocalStack) {
  const client = new DynamoDBClient({
    endpoint: stack.dynamoDbEndpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  return DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
}

/**
 * Writes items with BatchWriteItem (25 per call, `parallel` calls in flight), retrying whatever
 * DynamoDB hands back as unprocessed. Returns the number of items written.
 */
export async function batchWriteAll(
  client: DynamoDBDocumentClient,
  items: Record<string, unknown>[],
  parallel = 8,
  onProgress?: (written: number) => void,
): Promise<number> {
  const batches: Record<string, unknown>[][] = [];
  for (let i = 0; i < items.length; i += 25) batches.push(items.slice(i, i + 25));
  let next = 0;
  let written = 0;

  const worker = async () => {
    while (next < batches.length) {
      let pending = batches[next++]!.map((Item) => ({ PutRequest: { Item } }));
      for (let attempt = 0; pending.length > 0; attempt++) {
        if (attempt > 10) throw new Error(`BatchWrite left ${pending.length} items unprocessed after 10 retries`);
        if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 20 * 2 ** attempt));
        const { UnprocessedItems } = await client.send(new BatchWriteCommand({ RequestItems: { [TABLE_NAME]: pending } }));
        const left = (UnprocessedItems?.[TABLE_NAME] ?? []) as typeof pending;
        written += pending.length - left.length;
        pending = left;
      }
      onProgress?.(written);
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, batches.length) }, worker));
  return written;
}

/** The part of an SDK client this needs: its middleware stack. */
interface WithMiddleware {
  middlewareStack: { add: (middleware: never, options: { step: 'initialize'; name: string }) => void };
}

type Recorder = <T>(work: () => Promise<T>) => Promise<{ result: T; commands: string[] }>;
const recorders = new WeakMap<WithMiddleware, Recorder>();

/**
 * Records every command sent through a client, by name, while armed. Added at the `initialize`
 * step it sees each command once (retries happen later, in finalizeRequest). The service's
 * DynamoDBDocumentClient shares the base client's middleware stack (lib-dynamodb:
 * `this.middlewareStack = client.middlewareStack`), so one recorder on `dynamoDb` sees both.
 */
export function recordCommands(client: WithMiddleware) {
  // One recorder per client: sections share the service's client, and a middleware name may be
  // added to a stack only once.
  const existing = recorders.get(client);
  if (existing) return existing;
  let recording: string[] | null = null;
  const middleware =
    (next: (args: unknown) => Promise<unknown>, context: { commandName?: string }) =>
    async (args: unknown) => {
      recording?.push((context.commandName ?? 'UnknownCommand').replace(/Command$/, ''));
      return next(args);
    };
  client.middlewareStack.add(middleware as never, { step: 'initialize', name: 'benchCommandRecorder' });

  /** Runs `work` and returns its result with the commands it sent, in order. */
  const record = async function record<T>(work: () => Promise<T>): Promise<{ result: T; commands: string[] }> {
    if (recording) throw new Error('recordCommands: recordings may not overlap');
    recording = [];
    try {
      const result = await work();
      return { result, commands: recording };
    } finally {
      recording = null;
    }
  };
  recorders.set(client, record);
  return record;
}

/**
 * The stack's unsubscribe-link signing secret: Secrets Manager's generated value, kept locally in
 * `<dataDir>/secrets.json` (ARN → value). The in-process dispatch only needs some signing value;
 * the stack's own makes its links valid ones.
 */
export function unsubscribeSecret(stack: LocalStack): string {
  const secrets = JSON.parse(readFileSync(path.join(stack.dataDir, 'secrets.json'), 'utf8')) as Record<string, string>;
  const value = Object.entries(secrets).find(([arn]) => arn.includes('UnsubscribeSigningSecret'))?.[1];
  if (!value) throw new Error(`No unsubscribe signing secret in ${path.join(stack.dataDir, 'secrets.json')} (ARNs: ${Object.keys(secrets).join(', ')})`);
  return value;
}
