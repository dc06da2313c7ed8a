/**
 * `npm start`: the deployment itself, on this machine, against a local AWS. The CDK app is
 * synthesized (offline, as `npm run synth` does) and the local stack runs what the template
 * declares: every function from its bundle in its own worker threads with exactly its template
 * environment and its role's credentials (IAM enforced by infra/local/iam/), the table, queues and
 * buckets on DynamoDB Local, local SQS and local S3, the API's routes and authorizer, the event
 * source mappings, the EventBridge rules and the SES events; the Scheduler and SES are emulated
 * (infra/local/emulators/). `--fresh` starts from empty data; `--in-memory` keeps
 * DynamoDB's data in memory (tests and benchmarks); `--no-watch` does not rebuild functions when
 * their source changes. Ctrl-C stops everything.
 */
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readdirSync, rmSync, statSync, type WriteStream } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Server } from 'node:http';
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { SQSClient } from '@aws-sdk/client-sqs';
import { assertJava17, assertPortsFree, startDynamoDb, startS3, startSes, startSqs, StartupError, type Stop } from './emulators/servers';
import { apiDefinition, createLocalGateway } from './emulators/api-gateway';
import { createEventBus, type BusEvent } from './emulators/event-bus';
import { describeLocalFaults, LOCAL_SERVICE_USER_AGENT } from './faults';
import { principalsOf, roleCredentials } from './iam/credentials';
import { createAuthorizer } from './iam/evaluate';
import { collectPolicies } from './iam/policies';
import { startIamProxy } from './iam/proxy';
import type { IamService } from './iam/requests';
import { startStreamPoller, streamMappings } from './lambda/event-sources/dynamodb-streams';
import { sqsMappings, startSqsMapping } from './lambda/event-sources/sqs-queues';
import { localFunctions, writeFunctionEnvironments } from './lambda/functions';
import { lambdaInvokeApi } from './lambda/invoke-api';
import { lambdaPermissions } from './lambda/permissions';
import { FunctionRunner, type LocalFunction } from './lambda/runner';
import { functionEndpoints, localAwsEnvironment, localContext, localSettings, type LocalSettings } from './settings';
import { ACCOUNT, REGION, readCloudAssembly, type CloudAssembly } from './template/cloud-assembly';
import type { Resolve } from './template/intrinsics';
import { createLocalResources, serveQueuesFrom, type LocalResources } from './template/resources';
import { synthesize } from './template/synth';
import { watchSources } from './watch';

const projectRoot = fileURLToPath(new URL('../../', import.meta.url));
/**
 * What Ctrl-C stops, by layer, each layer once the one above it has stopped: first what makes
 * requests (the API, the event sources, schedules, the functions), then the IAM fronts they
 * called through, then the emulators behind those, then the logs. A front that outlived its
 * emulator, or an emulator stopped under a long poll, answered in-flight calls with "socket hang
 * up"; so a clean stop is quiet.
 */
const layers = { logs: 0, emulators: 1, fronts: 2, callers: 3 } as const;
const stopsByLayer: Stop[][] = [[], [], [], []];
const stops = {
  push: (stop: Stop, layer: keyof typeof layers = 'callers') => void stopsByLayer[layers[layer]]!.push(stop),
};
let stopping = false;

/** Environments a function invoked synchronously (API, authorizer, rules) may run at once, locally. */
const SYNCHRONOUS_CONCURRENCY = 4;

async function main() {
  const started = performance.now();
  const fresh = process.argv.includes('--fresh');
  const inMemory = process.argv.includes('--in-memory');
  const watch = !process.argv.includes('--no-watch');
  const settings = localSettings();
  assertJava17();
  await assertPortsFree(settings.ports);
  if (fresh) rmSync(settings.dataDir, { recursive: true, force: true });
  mkdirSync(settings.dataDir, { recursive: true });
  // The stack's own calls (creating resources, seeding, health) act as an administrator.
  Object.assign(process.env, localAwsEnvironment(settings));

  const { ports } = settings;
  const assemblyDir = path.join(settings.dataDir, 'cdk.out');
  // Made once the template is read; the SES front, started before, publishes through it.
  // eslint-disable-next-line prefer-const
  let bus: ReturnType<typeof createEventBus> | undefined;
  const results = await Promise.allSettled([
    // The dashboard function bundles the app's build: make it first when its sources are newer.
    (dashboardBuildIsStale() ? buildDashboard() : Promise.resolve()).then(() => synthesize(assemblyDir, localContext(settings))),
    startDynamoDb(ports.DYNAMODB_PORT, inMemory ? null : path.join(settings.dataDir, 'dynamodb')),
    startSqs(ports.SQS_PORT),
    startSes(ports.SES_PORT, {
      ...settings.sesFaults,
      // The configuration set's EventBridge destination: SES events go onto the default bus.
      publish: async (event) => bus?.put(event as unknown as BusEvent),
      verifySeconds: settings.domainVerifySeconds,
      identitiesFile: path.join(settings.dataDir, 'ses-identities.json'),
    }),
    startS3(ports.S3_PORT, path.join(settings.dataDir, 's3')),
  ]);
  for (const result of results.slice(1)) if (result.status === 'fulfilled') stops.push(result.value as Stop, 'emulators');
  const failure = results.find((result) => result.status === 'rejected');
  if (failure) throw (failure as PromiseRejectedResult).reason;
  const synth = (results[0] as PromiseFulfilledResult<Awaited<ReturnType<typeof synthesize>>>).value;

  const assembly = readCloudAssembly(synth.directory);
  const resources = await createLocalResources(assembly.template, settings, path.join(settings.dataDir, 'secrets.json'));
  const iam = await startIamFronts(assembly, resources, settings);
  const endpoints = functionEndpoints(iam.endpoints);
  /**
   * SDK clients acting as a role, through the same IAM fronts the functions use: the event source
   * mappings' and the deliveries' (AWS's own machinery, marked so that LOCAL_FAULTS spares them).
   */
  const clientConfig = (roleArn: string) => ({ region: REGION, credentials: roleCredentials(roleArn), customUserAgent: LOCAL_SERVICE_USER_AGENT });
  const sqsAs = (roleArn: string) => new SQSClient({ ...clientConfig(roleArn), endpoint: endpoints.AWS_ENDPOINT_URL_SQS });

  const logs = functionLogs(settings);
  const functions = localFunctions(assembly, resources.resolve, endpoints);
  // For the benches, which run some functions' code in their own process (infra/local/lambda/functions.ts).
  writeFunctionEnvironments(settings.dataDir, assembly, resources.resolve);
  const sqs = sqsMappings(assembly.template, resources.resolve, resources.queueUrlByArn);
  const streams = streamMappings(assembly.template, resources.resolve, resources.queueUrlByArn);
  const runners = new Map<string, FunctionRunner>();
  for (const [logicalId, spec] of functions) {
    const mapped = [...sqs, ...streams].filter((mapping) => mapping.functionLogicalId === logicalId);
    const maxConcurrency = mapped.reduce((total, mapping) => total + ('maxConcurrency' in mapping ? mapping.maxConcurrency : 1), 0) || SYNCHRONOUS_CONCURRENCY;
    runners.set(logicalId, new FunctionRunner(spec, { maxConcurrency, log: logs.stream(spec.name) }));
  }
  stops.push(async () => void (await Promise.allSettled([...runners.values()].map((runner) => runner.stop()))));
  const runnerByArn = (arn: string) => [...runners.values()].find((runner) => runner.definition.arn === arn);
  const permissions = lambdaPermissions(iam.authorizer);
  const log = (line: string) => console.error(line);

  bus = createEventBus({ template: assembly.template, resolve: resources.resolve, runnerByArn, permissions, sqsAs, queueUrlByArn: resources.queueUrlByArn, log });
  const { startScheduler } = await import('./emulators/scheduler');
  stops.push(await startScheduler({ port: ports.SCHEDULER_PORT, file: path.join(settings.dataDir, 'scheduler.json'), deliverAs: schedulerDelivery(assembly, resources.resolve, sqsAs), queueUrlByArn: resources.queueUrlByArn }));

  const { seedLocalOwner, seedLocalProject } = await import('./seed');
  const project = await seedLocalProject(path.join(settings.dataDir, 'local-project.json'), {
    secret: process.env.LOCAL_SECRET_KEY || undefined,
    public: process.env.LOCAL_PUBLIC_KEY || undefined,
  }, settings.senderDomain);
  const owner = await seedLocalOwner(path.join(settings.dataDir, 'local-owner.json'), project.projectId, settings.senderDomain);

  const gateway = createLocalGateway({ api: apiDefinition(assembly.template, resources.resolve), runner: (logicalId) => runners.get(logicalId)!, permissions, health: () => health(settings.tableName), lambdaApi: lambdaInvokeApi(() => runners.values()) });
  await listen(gateway, ports.PORT);
  stops.push(() => new Promise((resolve) => { gateway.closeAllConnections(); gateway.close(() => resolve()); }));

  for (const mapping of sqs) {
    const runner = runners.get(mapping.functionLogicalId)!;
    stops.push(startSqsMapping(mapping, runner, sqsAs(runner.definition.roleArn), log));
  }
  for (const mapping of streams) {
    const runner = runners.get(mapping.functionLogicalId)!;
    const { roleArn } = runner.definition;
    stops.push(await startStreamPoller({ mapping, runner, streams: new DynamoDBStreamsClient({ ...clientConfig(roleArn), endpoint: endpoints.AWS_ENDPOINT_URL_DYNAMODB_STREAMS }), sqs: sqsAs(roleArn), log }));
  }
  const everySeconds = process.env.LOCAL_SEGMENT_REFRESH_SECONDS ? settings.segmentRefreshSeconds : undefined;
  stops.push(bus.startSchedules(everySeconds));
  if (watch) stops.push(watchSources((changed) => reloadFunctions(changed, settings, assemblyDir, resources, endpoints, runners)));

  const api = `http://localhost:${ports.PORT}`;
  console.log(
    [
      '',
      `Mailwright is running locally: ${functions.size} functions from the synthesized template (${synth.bundled} bundled, ${functions.size - synth.bundled} unchanged), healthy after ${((performance.now() - started) / 1000).toFixed(1)} s.`,
      `  Dashboard      ${api}/dashboard   (sign in as ${owner.email}${owner.password ? ` with the password ${owner.password}` : ''})`,
      `  API            ${api}   (GET ${api}/health)`,
      `  Mail viewer    http://localhost:${ports.SES_PORT}   (GET /store for JSON)`,
      `  Project        ${project.projectId}   (verified sender domain: ${settings.senderDomain})`,
      `  Secret key     ${project.secretKey}`,
      `  Public key     ${project.publicKey}`,
      `  Data           ${path.resolve(settings.dataDir)}${fresh ? ' (fresh)' : ''}${inMemory ? ' (DynamoDB in memory)' : ''}`,
      `  Function logs  ${logs.where}${watch ? '   (functions are rebuilt when their source changes)' : ''}`,
      ...[...functions.values()].map((spec) => `                 ${spec.name.padEnd(40)} ${logs.fileOf(spec.name)}`),
      ...faultLines(settings),
      '',
      `Try: curl -X POST ${api}/contacts -H "Authorization: Bearer ${project.secretKey}" -H "Content-Type: application/json" -d '{"email":"jane@example.com"}'`,
      'Press Ctrl-C to stop.',
      '',
    ].join('\n'),
  );
}

/** The faults in force (LOCAL_FAULTS, and the SES front's own variables), or nothing when there are none. */
function faultLines(settings: LocalSettings): string[] {
  const lines = describeLocalFaults(settings.faults).map((line) => `                 ${line}`);
  const { throttleRate, failureRate } = settings.sesFaults;
  if (throttleRate > 0 || failureRate > 0) lines.push(`                 ${'SendEmail'.padEnd(10)} ${+(throttleRate * 100).toFixed(2)} % throttled, ${+(failureRate * 100).toFixed(2)} % failed (LOCAL_SES_THROTTLE_RATE / LOCAL_SES_FAILURE_RATE)`);
  return lines.length ? ['  Faults         injected into the functions\' AWS calls (LOCAL_FAULTS):', ...lines] : [];
}

/**
 * The local IAM: one front per service (DynamoDB with its stream, SQS, S3, SES, the Scheduler) in
 * front of its emulator, all evaluating the template's policies with one authorizer; the
 * functions' endpoints and the queues' URLs name the fronts.
 */
async function startIamFronts(assembly: CloudAssembly, resources: LocalResources, settings: LocalSettings) {
  const authorizer = createAuthorizer(collectPolicies(assembly.template, resources.resolve), { account: ACCOUNT });
  const roles = Object.entries(assembly.template.Resources)
    .filter(([, resource]) => resource.Type === 'AWS::IAM::Role')
    .map(([logicalId]) => String(resources.resolve({ 'Fn::GetAtt': [logicalId, 'Arn'] })));
  const principals = principalsOf(roles);
  const { ports } = settings;
  const targets = { dynamodb: ports.DYNAMODB_PORT, sqs: ports.SQS_PORT, s3: ports.S3_PORT, ses: ports.SES_PORT, scheduler: ports.SCHEDULER_PORT } as const;
  const fronts = await Promise.all(
    (Object.entries(targets) as [IamService, number][]).map(async ([service, port]) => {
      // A call the stop cuts off (a function's, a poller's) is no failure to report.
      const front = await startIamProxy({ service, target: `http://127.0.0.1:${port}`, principals, authorizer, region: REGION, account: ACCOUNT, log: (message) => stopping || console.error(message), faults: settings.faults[service] });
      stops.push(() => front.stop(), 'fronts');
      return [service, front.url] as const;
    }),
  );
  const endpoints = Object.fromEntries(fronts) as Record<IamService, string>;
  serveQueuesFrom(resources, endpoints.sqs);
  return { authorizer, endpoints };
}

/**
 * The role a schedule names is assumed by the Scheduler only when its trust policy lets
 * scheduler.amazonaws.com assume it; the delivery then acts as that role.
 */
function schedulerDelivery(assembly: CloudAssembly, resolve: Resolve, sqsAs: (roleArn: string) => SQSClient) {
  const trusted = new Set<string>();
  for (const [logicalId, resource] of Object.entries(assembly.template.Resources)) {
    if (resource.Type !== 'AWS::IAM::Role') continue;
    const statements = (resource.Properties?.AssumeRolePolicyDocument?.Statement ?? []) as { Effect: string; Principal?: { Service?: string | string[] } }[];
    if (statements.some((statement) => statement.Effect === 'Allow' && [statement.Principal?.Service].flat().includes('scheduler.amazonaws.com'))) {
      trusted.add(String(resolve({ 'Fn::GetAtt': [logicalId, 'Arn'] })));
    }
  }
  const clients = new Map<string, SQSClient>();
  return (roleArn: string) => {
    if (!trusted.has(roleArn)) throw new Error(`EventBridge Scheduler cannot assume ${roleArn}: no role of the stack lets scheduler.amazonaws.com assume it`);
    if (!clients.has(roleArn)) clients.set(roleArn, sqsAs(roleArn));
    return clients.get(roleArn)!;
  };
}

/** Each function's log (its CloudWatch log group, locally): one file per function, or the console with LOCAL_FUNCTION_LOGS=console. */
function functionLogs(settings: LocalSettings) {
  const toConsole = process.env.LOCAL_FUNCTION_LOGS === 'console';
  const dir = path.resolve(settings.dataDir, 'logs');
  mkdirSync(dir, { recursive: true });
  const streams = new Map<string, WriteStream>();
  const fileOf = (name: string) => path.join(dir, `${name}.log`);
  stops.push(async () => streams.forEach((stream) => stream.end()), 'logs');
  return {
    where: toConsole ? 'the console (LOCAL_FUNCTION_LOGS=console)' : dir,
    fileOf: (name: string) => (toConsole ? '' : path.relative(process.cwd(), fileOf(name))),
    stream(name: string): WriteStream | NodeJS.WriteStream {
      if (toConsole) return process.stdout;
      if (!streams.has(name)) streams.set(name, createWriteStream(fileOf(name), { flags: 'a' }));
      return streams.get(name)!;
    },
  };
}

/**
 * After a source change: synthesize again (only changed functions are bundled) and give each
 * function whose bundle or configuration changed fresh environments; busy ones finish first.
 */
async function reloadFunctions(changedFiles: string[], settings: LocalSettings, assemblyDir: string, resources: LocalResources, endpoints: Record<string, string>, runners: Map<string, FunctionRunner>) {
  try {
    // The dashboard function bundles the app's build: build it first when its sources changed.
    if (changedFiles.some((file) => file.startsWith(path.join('functions', 'dashboard', 'app')))) await buildDashboard();
    const synth = await synthesize(assemblyDir, localContext(settings));
    const assembly = readCloudAssembly(synth.directory);
    const functions = localFunctions(assembly, resources.resolve, endpoints);
    writeFunctionEnvironments(settings.dataDir, assembly, resources.resolve);
    const rebuilt: string[] = [];
    for (const [logicalId, spec] of functions) {
      const runner = runners.get(logicalId);
      if (!runner) {
        console.error(`${spec.name} is new in the template: restart npm start to run it.`);
        continue;
      }
      if (!sameFunction(runner.definition, spec)) {
        runner.update(spec);
        rebuilt.push(spec.name);
      }
    }
    console.log(rebuilt.length ? `Rebuilt in ${synth.seconds.toFixed(1)} s: ${rebuilt.join(', ')}` : `Synthesized again in ${synth.seconds.toFixed(1)} s: no function changed.`);
  } catch (error) {
    console.error(`The change could not be built; the functions keep their previous bundles.\n${(error as Error).message}`);
  }
}

/** Whether a source of the dashboard's build (the app, or the API document it is typed from) is newer than the build. */
function dashboardBuildIsStale(): boolean {
  const built = path.join(projectRoot, 'functions/dashboard/dist/index.html');
  if (!existsSync(built)) return true;
  const builtAt = statSync(built).mtimeMs;
  const newer = (folder: string): boolean =>
    readdirSync(folder, { recursive: true, withFileTypes: true }).some(
      (entry) => entry.isFile() && !entry.parentPath.includes('node_modules') && !entry.name.endsWith('schema.d.ts') && statSync(path.join(entry.parentPath, entry.name)).mtimeMs > builtAt,
    );
  return newer(path.join(projectRoot, 'functions/dashboard/app')) || newer(path.join(projectRoot, 'shared'));
}

function buildDashboard(): Promise<void> {
  return new Promise((resolve, reject) => {
    // A production build whoever starts the stack: under jest NODE_ENV is `test`, which makes Vite bundle React's development build.
    const child = spawn('npm', ['run', '--silent', 'build:dashboard'], { cwd: projectRoot, stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, NODE_ENV: 'production' } });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`npm run build:dashboard exited with ${code}`))));
  });
}

const sameFunction = (a: LocalFunction, b: LocalFunction) => JSON.stringify(a) === JSON.stringify(b);

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
  for (const layer of [...stopsByLayer].reverse()) await Promise.allSettled(layer.map((stop) => stop()));
  process.exit(code);
}

process.on('SIGINT', () => void shutdown(0));
process.on('SIGTERM', () => void shutdown(0));

main().catch(async (error) => {
  console.error(error instanceof StartupError ? error.message : error);
  await shutdown(1);
});
