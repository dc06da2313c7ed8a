/**
 * `npm start`: the whole service on this machine against a local AWS.
 * DynamoDB Local, local SQS, local SES (with its mail viewer) and local S3 run as real servers;
 * the API is served through the real authorizer and handlers by the local gateway; queue pollers
 * feed the consumers. `--fresh` starts from empty data; `--in-memory` keeps DynamoDB's data in
 * memory (what tests and benchmarks use). Ctrl-C stops everything.
 */
import { rmSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Server } from 'node:http';
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { queues } from '../queues';
import { assertJava17, assertPortsFree, startDynamoDb, startS3, startSes, startSqs, StartupError, type Stop } from './emulators';
import { localAwsEnvironment, localSettings, localUnsubscribeSecret, localWebhookSecretsKey } from './environment';
import type { AuthorizerHandler, ProxyHandler } from './gateway';
import type { SqsHandler } from './pollers';
import type { Context } from 'aws-lambda';
import type { SesEvent } from '../../shared/deliverability/ses-events';

const stops: Stop[] = [];
let stopping = false;

async function main() {
  const fresh = process.argv.includes('--fresh');
  const inMemory = process.argv.includes('--in-memory');
  const settings = localSettings();
  assertJava17();
  await assertPortsFree(settings.ports);
  if (fresh) rmSync(settings.dataDir, { recursive: true, force: true });
  mkdirSync(settings.dataDir, { recursive: true });
  Object.assign(process.env, localAwsEnvironment(settings), {
    POWERTOOLS_LOG_LEVEL: process.env.POWERTOOLS_LOG_LEVEL ?? 'WARN',
    // EMF metric lines are for CloudWatch; POWERTOOLS_METRICS_DISABLED=false prints them locally.
    POWERTOOLS_METRICS_DISABLED: process.env.POWERTOOLS_METRICS_DISABLED ?? 'true',
    WEBHOOK_SECRETS_KEY: localWebhookSecretsKey(settings.dataDir),
    UNSUBSCRIBE_SECRET: localUnsubscribeSecret(settings.dataDir),
  });

  const { ports } = settings;
  const started = await Promise.allSettled([
    startDynamoDb(ports.DYNAMODB_PORT, inMemory ? null : path.join(settings.dataDir, 'dynamodb')),
    startSqs(ports.SQS_PORT),
    startSes(ports.SES_PORT, {
      ...settings.sesFaults,
      publish: publishSesEvent,
      verifySeconds: settings.domainVerifySeconds,
      identitiesFile: path.join(settings.dataDir, 'ses-identities.json'),
    }),
    startS3(ports.S3_PORT, path.join(settings.dataDir, 's3')),
  ]);
  for (const result of started) if (result.status === 'fulfilled') stops.push(result.value);
  const failure = started.find((result) => result.status === 'rejected');
  if (failure) throw (failure as PromiseRejectedResult).reason;

  const { createResources } = await import('./resources');
  const queueUrls = await createResources(settings);
  Object.assign(process.env, queueUrls);
  // After the queues exist: due schedules (also those missed while stopped) fire into them.
  stops.push(await (await import('./scheduler')).startScheduler({ port: ports.SCHEDULER_PORT, file: path.join(settings.dataDir, 'scheduler.json') }));

  const { seedLocalProject } = await import('./seed');
  const project = await seedLocalProject(path.join(settings.dataDir, 'local-project.json'), {
    secret: process.env.LOCAL_SECRET_KEY || undefined,
    public: process.env.LOCAL_PUBLIC_KEY || undefined,
  }, settings.senderDomain);

  const { createLocalGateway } = await import('./gateway');
  const { handler: authorizer } = (await import('../../functions/authorizer/handler')) as { handler: AuthorizerHandler };
  const handlers = new Map<string, Promise<ProxyHandler>>();
  const handlerFor = (group: string) => {
    if (!handlers.has(group)) handlers.set(group, import(`../../functions/${group}/handler.ts`).then((module) => module.handler as ProxyHandler));
    return handlers.get(group)!;
  };
  const gateway = createLocalGateway({ handlerFor, authorizer, health: () => health(settings.tableName) });
  await listen(gateway, ports.PORT);
  stops.push(() => new Promise((resolve) => { gateway.closeAllConnections(); gateway.close(() => resolve()); }));

  await startConsumers(queueUrls);
  await startStreamConsumers(settings.tableName);
  if (settings.segmentRefreshSeconds > 0) stops.push((await import('./schedules')).startSchedules(settings.segmentRefreshSeconds));

  const api = `http://localhost:${ports.PORT}`;
  console.log(
    [
      '',
      'Mailwright is running locally.',
      `  API            ${api}   (GET ${api}/health)`,
      `  Mail viewer    http://localhost:${ports.SES_PORT}   (GET /store for JSON)`,
      `  Project        ${project.projectId}   (verified sender domain: ${settings.senderDomain})`,
      `  Secret key     ${project.secretKey}`,
      `  Public key     ${project.publicKey}`,
      `  Data           ${path.resolve(settings.dataDir)}${fresh ? ' (fresh)' : ''}${inMemory ? ' (DynamoDB in memory)' : ''}`,
      '',
      `Try: curl -X POST ${api}/contacts -H "Authorization: Bearer ${project.secretKey}" -H "Content-Type: application/json" -d '{"email":"jane@example.com"}'`,
      'Press Ctrl-C to stop.',
      '',
    ].join('\n'),
  );
}

/**
 * The configuration set's EventBridge destination, locally: SES events go straight into the
 * ses-events handler (loaded on first use, after the environment is set), with the two retries
 * Lambda gives an asynchronous invocation.
 */
async function publishSesEvent(event: SesEvent): Promise<void> {
  const { handler } = (await import('../../functions/ses-events/handler')) as { handler: (event: SesEvent, context: Context) => Promise<void> };
  for (let attempt = 1; ; attempt++) {
    try {
      return await handler(event, { awsRequestId: event.id } as Context);
    } catch (error) {
      if (attempt === 3) throw error;
      await new Promise((resolve) => setTimeout(resolve, 1000 * attempt));
    }
  }
}

/** The table stream's consumers (infra/streams.ts), fed like Lambda's DynamoDB event source mapping. */
async function startStreamConsumers(tableName: string) {
  const { startStreamPoller } = await import('./streams');
  const { streamConsumers } = await import('../streams');
  for (const spec of streamConsumers) {
    const module = (await import(`../../functions/${spec.group}/handler.ts`)) as { handler: import('./streams').StreamHandler };
    stops.push(await startStreamPoller({ tableName, spec, handler: module.handler }));
  }
}

async function startConsumers(queueUrls: Record<string, string>) {
  const { startPoller } = await import('./pollers');
  const sqs = new SQSClient({});
  for (const queue of queues) {
    if (!queue.consumer) continue;
    const queueUrl = queueUrls[queue.envVar]!;
    const { Attributes } = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['QueueArn'] }));
    const module = (await import(`../../functions/${queue.consumer.group}/handler.ts`)) as { handler: SqsHandler };
    stops.push(
      startPoller({
        name: queue.consumer.group,
        queueUrl,
        queueArn: Attributes!.QueueArn!,
        batchSize: queue.consumer.batchSize,
        maxConcurrency: queue.consumer.maxConcurrency,
        ...(queue.consumer.timeoutSeconds ? { timeoutMs: queue.consumer.timeoutSeconds * 1000 } : {}),
        handler: module.handler,
      }),
    );
  }
}

async function health(tableName: string) {
  try {
    await new DynamoDBClient({}).send(new DescribeTableCommand({ TableName: tableName }));
    return { ok: true, detail: { dynamodb: 'up' } };
  } catch {
    return { ok: false, detail: { dynamodb: 'down' } };
  }
}

function listen(server: Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, () => resolve());
  });
}

async function shutdown(code: number) {
  if (stopping) return;
  stopping = true;
  await Promise.allSettled(stops.reverse().map((stop) => stop()));
  process.exit(code);
}

process.on('SIGINT', () => void shutdown(0));
process.on('SIGTERM', () => void shutdown(0));

main().catch(async (error) => {
  console.error(error instanceof StartupError ? error.message : error);
  await shutdown(1);
});
