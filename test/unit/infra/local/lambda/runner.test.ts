import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { FunctionRunner, type LocalFunction } from '../../../../../infra/local/lambda/runner';

/** Functions run as Lambda runs them: their bundle, their environment only, their timeout. */
const bundles = mkdtempSync(path.join(tmpdir(), 'mailwright-runner-'));
afterAll(() => rmSync(bundles, { recursive: true, force: true }));

function bundle(name: string, source: string): string {
  const dir = path.join(bundles, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'index.mjs'), source);
  return dir;
}

function spec(taskRoot: string, overrides: Partial<LocalFunction> = {}): LocalFunction {
  return { logicalId: 'Fn', name: 'Mailwright-Fn', arn: 'arn:aws:lambda:us-east-1:000000000000:function:Mailwright-Fn', handler: 'index.handler', taskRoot, timeoutSeconds: 3, memoryMb: 256, environment: {}, roleArn: 'arn:aws:iam::000000000000:role/r', ...overrides };
}

const runners: FunctionRunner[] = [];
const logged: string[] = [];
let log: PassThrough;
function runner(definition: LocalFunction, maxConcurrency = 2) {
  log = new PassThrough();
  log.on('data', (chunk) => logged.push(String(chunk)));
  const created = new FunctionRunner(definition, { maxConcurrency, log });
  runners.push(created);
  return created;
}
afterEach(async () => {
  await Promise.all(runners.splice(0).map((created) => created.stop()));
  logged.length = 0;
});

describe('a local function', () => {
  it('sees exactly its own environment, not the stack process\'s, and keeps module state per environment', async () => {
    // Prepare
    process.env.STACK_ONLY_VARIABLE = 'leaked';
    const dir = bundle('env', "let calls = 0; export const handler = async (event, context) => ({ env: { ...process.env }, calls: ++calls, remaining: context.getRemainingTimeInMillis(), memory: context.memoryLimitInMB, event });");
    const fn = runner(spec(dir, { environment: { TABLE_NAME: 'mailwright' } }), 1);
    // Act
    const first = await fn.invoke({ n: 1 });
    const second = await fn.invoke({ n: 2 });
    // Assess
    expect(first).toMatchObject({ ok: true, result: { env: { TABLE_NAME: 'mailwright' }, calls: 1, memory: '256', event: { n: 1 } } });
    expect((first as { result: { env: Record<string, string> } }).result.env.STACK_ONLY_VARIABLE).toBeUndefined();
    expect((first as { result: { remaining: number } }).result.remaining).toBeGreaterThan(2000);
    expect(second).toMatchObject({ ok: true, result: { calls: 2 } });
    delete process.env.STACK_ONLY_VARIABLE;
  });

  it('counts the function\'s remaining time from the invocation, even when its environment takes the event late', async () => {
    // Prepare: after answering, the first invocation blocks its environment (saying so with a
    // file) until a release file appears, so the second event waits in the worker's queue as it
    // would on a loaded machine.
    const blocked = path.join(bundles, 'late-blocked');
    const release = path.join(bundles, 'late-release');
    const dir = bundle(
      'late',
      "import { existsSync, writeFileSync } from 'node:fs'; const nap = new Int32Array(new SharedArrayBuffer(4)); export const handler = async (event, context) => { if (event.hold) setImmediate(() => { writeFileSync(event.hold.blocked, ''); while (!existsSync(event.hold.release)) Atomics.wait(nap, 0, 0, 10); }); return context.getRemainingTimeInMillis(); };",
    );
    const fn = runner(spec(dir, { timeoutSeconds: 10 }), 1);
    await fn.invoke({ hold: { blocked, release } });
    while (!existsSync(blocked)) await new Promise((resolve) => setTimeout(resolve, 10));

    // Act: invoke the blocked environment, and free it 800 ms later
    const invoked = fn.invoke({});
    await new Promise((resolve) => setTimeout(resolve, 800));
    writeFileSync(release, '');
    const late = await invoked;

    // Assess: the handler knows it has at most what the runner will give it.
    expect(late).toMatchObject({ ok: true });
    expect((late as { result: number }).result).toBeLessThanOrEqual(10_000 - 800);
  });

  it('fails an invocation past its Timeout as Lambda does, and the next one starts a fresh environment', async () => {
    // Prepare
    const dir = bundle('slow', "let calls = 0; export const handler = async (event) => { calls++; if (event.wait) await new Promise((resolve) => setTimeout(resolve, 5000)); return calls; };");
    const fn = runner(spec(dir, { timeoutSeconds: 1 }), 1);
    // Act
    const slow = await fn.invoke({ wait: true });
    const next = await fn.invoke({});
    // Assess
    expect(slow).toEqual({ ok: false, error: { errorType: 'Sandbox.Timedout', errorMessage: 'Task timed out after 1.00 seconds' } });
    expect(next).toEqual({ ok: true, result: 1 });
  });

  it('reports a cold-start failure (a missing variable) as a failure at init, before any handler runs', async () => {
    // Prepare
    const dir = bundle('config', "if (!process.env.QUEUE_URL) { const error = new Error('Environment variable QUEUE_URL is required but not set'); error.name = 'ConfigError'; throw error; } export const handler = async () => 'ok';");
    const fn = runner(spec(dir));
    // Act
    const outcome = await fn.invoke({});
    // Assess
    expect(outcome).toMatchObject({ ok: false, atInit: true, error: { errorType: 'ConfigError', errorMessage: 'Environment variable QUEUE_URL is required but not set' } });
    expect(logged.join('')).toMatch(/\tERROR\tInit Error \t\{"errorType":"ConfigError","errorMessage":"Environment variable QUEUE_URL is required but not set"/);
  });

  it('answers a handler error as the invocation\'s error without ending the environment, and an uncaught crash by ending it', async () => {
    // Prepare
    const dir = bundle('errors', "let calls = 0; export const handler = async (event) => { calls++; if (event.throw) throw new TypeError('bad input'); if (event.crash) setTimeout(() => { throw new Error('boom'); }); return calls; };");
    const fn = runner(spec(dir), 1);
    // Act
    const thrown = await fn.invoke({ throw: true });
    const after = await fn.invoke({});
    await fn.invoke({ crash: true });
    // The crash comes after the answer: wait until the runner has seen it end the environment.
    for (let waited = 0; !logged.join('').includes('Uncaught Error: boom') && waited < 10_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    const fresh = await fn.invoke({});
    // Assess
    expect(thrown).toMatchObject({ ok: false, error: { errorType: 'TypeError', errorMessage: 'bad input' } });
    expect(thrown).not.toHaveProperty('atInit');
    expect(logged.join('')).toMatch(/\tERROR\tInvoke Error \t\{"errorType":"TypeError","errorMessage":"bad input"/);
    expect(after).toEqual({ ok: true, result: 2 });
    expect(fresh).toEqual({ ok: true, result: 1 });
  });

  it('runs up to maxConcurrency invocations at once, each environment one at a time', async () => {
    // Prepare
    const dir = bundle('concurrent', "const id = Math.random(); export const handler = async () => { await new Promise((resolve) => setTimeout(resolve, 300)); return id; };");
    const fn = runner(spec(dir), 2);
    // Act
    const results = await Promise.all([fn.invoke({}), fn.invoke({}), fn.invoke({}), fn.invoke({})]);
    // Assess: four invocations shared two environments, two each
    const ids = results.map((outcome) => (outcome as { result: number }).result);
    expect(new Set(ids).size).toBe(2);
    for (const id of new Set(ids)) expect(ids.filter((candidate) => candidate === id)).toHaveLength(2);
  });

  it('writes what every environment logs to the function\'s one log, adding no listener there per environment', async () => {
    // Prepare: eight environments at once (piped, each added its listeners to the log: Node's warning past five)
    const dir = bundle('chatty', "const id = Math.random().toString(36).slice(2); export const handler = async () => { await new Promise((resolve) => setTimeout(resolve, 200)); console.log(`hello from ${id}`); return id; };");
    const fn = runner(spec(dir), 8);

    // Act
    const results = await Promise.all(Array.from({ length: 8 }, () => fn.invoke({})));
    for (let waited = 0; logged.join('').split('hello from').length < 9 && waited < 5_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));

    // Assess
    const ids = results.map((outcome) => (outcome as { result: string }).result);
    expect(new Set(ids).size).toBe(8);
    for (const id of ids) expect(logged.join('')).toContain(`hello from ${id}`);
    expect(['unpipe', 'error', 'close', 'finish', 'drain'].map((event) => log.listenerCount(event))).toEqual([0, 0, 0, 0, 0]);
  });
});
