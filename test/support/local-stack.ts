import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../../infra/local/ports';

/**
 * Starts `npm start --fresh` (the real local stack) as a child process on free ports with its own
 * data folder, for integration tests and benchmarks, and stops every process it started. Its
 * output is kept until it is healthy (to explain a failed start); LOCAL_STACK_LOG=<file> appends
 * all of it to that file, to trace a test or bench run afterwards.
 */
export interface LocalStack {
  baseUrl: string;
  sesUrl: string;
  dynamoDbEndpoint: string;
  sqsEndpoint: string;
  projectId: string;
  secretKey: string;
  publicKey: string;
  /** The environment that points the admin CLI and SDK clients at this stack. */
  env: Record<string, string>;
  pid: number;
  dataDir: string;
}

export interface StackOptions {
  /** Keep DynamoDB's data on disk in the data folder, as `npm start` does, so that the stack can be restarted on it. */
  onDisk?: boolean;
  /**
   * Start again on the data of this stopped stack (stopped with `keepData`), like a second `npm start`. On new
   * ports: while the stack is down, another test's stack may take one of its old ones.
   */
  restartOf?: LocalStack;
}

export async function startLocalStack(extraEnv: Record<string, string> = {}, options: StackOptions = {}): Promise<LocalStack> {
  const { restartOf } = options;
  const ports = { PORT: await freePort(), SES_PORT: await freePort(), DYNAMODB_PORT: await freePort(), SQS_PORT: await freePort(), S3_PORT: await freePort(), SCHEDULER_PORT: await freePort() };
  const dataDir = restartOf?.dataDir ?? mkdtempSync(path.join(tmpdir(), 'mailwright-'));
  const env: Record<string, string> = {
    ...(restartOf ? restartOf.env : { MAILWRIGHT_DATA_DIR: dataDir, ...extraEnv }),
    ...Object.fromEntries(Object.entries(ports).map(([name, port]) => [name, String(port)])),
  };
  const flags = ['--no-watch', ...(restartOf ? [] : options.onDisk ? ['--fresh'] : ['--fresh', '--in-memory'])];
  const child = spawn(process.execPath, [path.resolve('node_modules/tsx/dist/cli.mjs'), 'infra/local/start.ts', ...flags], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const output: string[] = [];
  const log = process.env.LOCAL_STACK_LOG ? createWriteStream(process.env.LOCAL_STACK_LOG, { flags: 'a' }) : undefined;
  let healthy = false;
  const keep = (chunk: Buffer) => {
    if (!healthy) output.push(String(chunk));
    log?.write(chunk);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  child.once('exit', () => log?.end());

  const baseUrl = `http://127.0.0.1:${env.PORT}`;
  await waitForHealth(baseUrl, child, output);
  healthy = true;
  output.length = 0;
  const project = JSON.parse(readFileSync(path.join(dataDir, 'local-project.json'), 'utf8'));
  return {
    baseUrl,
    sesUrl: `http://127.0.0.1:${env.SES_PORT}`,
    dynamoDbEndpoint: `http://127.0.0.1:${env.DYNAMODB_PORT}`,
    sqsEndpoint: `http://127.0.0.1:${env.SQS_PORT}`,
    projectId: project.projectId,
    secretKey: project.secretKey,
    publicKey: project.publicKey,
    env,
    pid: child.pid!,
    dataDir,
  };
}

async function waitForHealth(baseUrl: string, child: ChildProcess, output: string[]) {
  // A first start after `npm ci` bundles every function (about 30 s on two idle cores).
  const deadline = Date.now() + 240_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The local stack exited with ${child.exitCode}:\n${output.join('')}`);
    try {
      const response = await fetch(`${baseUrl}/health`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  stopProcessGroup(child.pid!);
  throw new Error(`The local stack did not become healthy in 240 s:\n${output.join('')}`);
}

/** Stops the stack's whole process group (tsx, node and DynamoDB Local's Java). */
export async function stopLocalStack(stack: Pick<LocalStack, 'pid' | 'dataDir'>, { keepData = false } = {}): Promise<void> {
  stopProcessGroup(stack.pid, 'SIGTERM');
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline && isAlive(stack.pid)) await new Promise((resolve) => setTimeout(resolve, 100));
  stopProcessGroup(stack.pid, 'SIGKILL');
  if (!keepData) rmSync(stack.dataDir, { recursive: true, force: true });
}

function stopProcessGroup(pid: number, signal: NodeJS.Signals = 'SIGKILL') {
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

function isAlive(pid: number) {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}
