import { randomUUID } from 'node:crypto';
import type { Writable } from 'node:stream';
import { Worker } from 'node:worker_threads';
import { REGION } from '../template/cloud-assembly';

/**
 * One deployed function, run locally as Lambda runs it: each execution environment is a worker
 * thread with its own `process.env` (exactly the function's environment), its own module state
 * and its own cold start, loading the function's bundle; an environment serves one invocation at
 * a time, and more start (up to `maxConcurrency`) while all are busy. An invocation past the
 * function's Timeout is stopped (the environment is discarded) and fails as on Lambda; a failed
 * cold start fails the invocation and the next one starts a fresh environment.
 */
export interface LocalFunction {
  logicalId: string;
  name: string;
  arn: string;
  /** `file.export`, relative to the task root. */
  handler: string;
  /** The bundle's folder (the asset CDK built). */
  taskRoot: string;
  timeoutSeconds: number;
  memoryMb: number;
  /** The template's variables, resolved, plus the runtime's (credentials of its role, endpoints). */
  environment: Record<string, string>;
  roleArn: string;
  /** The function's DeadLetterConfig target (asynchronous invocations), if any. */
  deadLetterArn?: string;
}

export interface InvokeError {
  errorType: string;
  errorMessage: string;
  stack?: string[];
}

/** `atInit`: the environment's cold start failed (the handler was never called). */
export type InvokeOutcome = { ok: true; result: unknown } | { ok: false; error: InvokeError; atInit?: boolean };

interface Environment {
  worker: Worker;
  ready: Promise<InvokeError | undefined>;
  busy: boolean;
  /** Started from code or configuration that has since changed: discarded when its invocation ends. */
  stale?: boolean;
  pending?: { requestId: string; settle: (outcome: InvokeOutcome) => void };
}

const RUNTIME = new URL('./bootstrap.mjs', import.meta.url);

export class FunctionRunner {
  private spec: LocalFunction;
  private readonly environments = new Set<Environment>();
  private readonly waiting: (() => void)[] = [];
  private stopped = false;

  constructor(
    spec: LocalFunction,
    private readonly options: { maxConcurrency: number; log: Writable },
  ) {
    this.spec = spec;
  }

  get definition(): LocalFunction {
    return this.spec;
  }

  /** New code or configuration (a rebuilt bundle): environments started from now on use it; busy ones finish first. */
  update(spec: LocalFunction): void {
    this.spec = spec;
    for (const environment of this.environments) {
      if (environment.busy) environment.stale = true;
      else this.discard(environment);
    }
  }

  async invoke(event: unknown): Promise<InvokeOutcome> {
    const environment = await this.acquire();
    const spec = this.spec;
    const requestId = randomUUID();
    const started = performance.now();
    this.options.log.write(`START RequestId: ${requestId} Version: $LATEST\n`);
    try {
      const initError = await environment.ready;
      if (initError) {
        this.discard(environment);
        this.logError(requestId, 'Init Error', initError);
        return { ok: false, error: initError, atInit: true };
      }
      const outcome = await new Promise<InvokeOutcome>((resolve) => {
        // The function's own clock (getRemainingTimeInMillis) counts to this same moment: a worker
        // that takes the event late on a busy machine must not think it has longer than it has.
        const deadlineMs = Date.now() + spec.timeoutSeconds * 1000;
        const timer = setTimeout(() => {
          this.options.log.write(`${new Date().toISOString()} ${requestId} Task timed out after ${spec.timeoutSeconds.toFixed(2)} seconds\n`);
          this.discard(environment);
          resolve({ ok: false, error: { errorType: 'Sandbox.Timedout', errorMessage: `Task timed out after ${spec.timeoutSeconds.toFixed(2)} seconds` } });
        }, spec.timeoutSeconds * 1000);
        environment.pending = {
          requestId,
          settle: (outcome) => {
            clearTimeout(timer);
            resolve(outcome);
          },
        };
        environment.worker.postMessage({
          requestId,
          event,
          context: {
            functionName: spec.name,
            functionVersion: '$LATEST',
            invokedFunctionArn: spec.arn,
            memoryLimitInMB: String(spec.memoryMb),
            logGroupName: spec.environment.AWS_LAMBDA_LOG_GROUP_NAME,
            logStreamName: spec.environment.AWS_LAMBDA_LOG_STREAM_NAME,
            deadlineMs,
          },
        });
      });
      // A timeout's own line is written above.
      if (!outcome.ok && outcome.error.errorType !== 'Sandbox.Timedout') this.logError(requestId, 'Invoke Error', outcome.error);
      return outcome;
    } finally {
      environment.pending = undefined;
      this.options.log.write(`END RequestId: ${requestId}\nREPORT RequestId: ${requestId}\tDuration: ${(performance.now() - started).toFixed(2)} ms\tMemory Size: ${spec.memoryMb} MB\n`);
      this.release(environment);
    }
  }

  /** A failed invoke's error in the function's log, as Lambda's runtime writes it. */
  private logError(requestId: string, kind: string, error: InvokeError) {
    this.options.log.write(`${new Date().toISOString()}\t${requestId}\tERROR\t${kind} \t${JSON.stringify(error)}\n`);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.allSettled([...this.environments].map((environment) => environment.worker.terminate()));
    this.environments.clear();
  }

  private async acquire(): Promise<Environment> {
    for (;;) {
      if (this.stopped) throw new Error(`${this.spec.name} is stopped`);
      const idle = [...this.environments].find((environment) => !environment.busy);
      if (idle) {
        idle.busy = true;
        return idle;
      }
      if (this.environments.size < this.options.maxConcurrency) {
        const environment = this.start();
        environment.busy = true;
        return environment;
      }
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
  }

  private release(environment: Environment) {
    environment.busy = false;
    if (environment.stale) return this.discard(environment);
    this.waiting.shift()?.();
  }

  private discard(environment: Environment) {
    if (!this.environments.delete(environment)) return;
    void environment.worker.terminate();
    this.waiting.shift()?.();
  }

  private start(): Environment {
    const spec = this.spec;
    const worker = new Worker(RUNTIME, {
      env: spec.environment,
      workerData: { taskRoot: spec.taskRoot, handler: spec.handler },
      // Lambda's memory is the environment's limit; V8's old generation here.
      resourceLimits: { maxOldGenerationSizeMb: spec.memoryMb },
      stdout: true,
      stderr: true,
      execArgv: [],
    });
    // Written, not piped: every pipe into the function's one log stream adds its listeners there (the warning past ten, five environments).
    const log = (chunk: Buffer) => this.options.log.write(chunk);
    worker.stdout.on('data', log);
    worker.stderr.on('data', log);
    const environment: Environment = { worker, busy: false, ready: undefined as never };
    environment.ready = new Promise((resolve) => {
      worker.once('message', (message: { type: string; error?: InvokeError }) => resolve(message.type === 'ready' ? undefined : message.error));
      worker.once('error', (error) => resolve({ errorType: error.name, errorMessage: error.message }));
    });
    worker.on('message', (message: { type: string; requestId?: string; result?: unknown; error?: InvokeError }) => {
      const pending = environment.pending;
      if (!pending || message.requestId !== pending.requestId) return;
      pending.settle(message.type === 'result' ? { ok: true, result: message.result } : { ok: false, error: message.error! });
    });
    // An uncaught exception or a crash ends the environment, as it ends a Lambda sandbox.
    const crashed = (error: InvokeError) => {
      environment.pending?.settle({ ok: false, error });
      this.discard(environment);
    };
    worker.on('error', (error) => {
      this.options.log.write(`${new Date().toISOString()} ERROR Uncaught ${error.stack ?? error.message}\n`);
      crashed({ errorType: 'Runtime.ExitError', errorMessage: `${error.name}: ${error.message}` });
    });
    worker.on('exit', (code) => crashed({ errorType: 'Runtime.ExitError', errorMessage: `RequestId: ${environment.pending?.requestId ?? '-'} Error: Runtime exited with error: exit status ${code}` }));
    this.environments.add(environment);
    return environment;
  }
}

/** The variables Lambda's runtime adds to a function's own: region, identity, task root, log names. */
export function runtimeEnvironment(spec: Pick<LocalFunction, 'name' | 'memoryMb' | 'taskRoot'>, credentials: { accessKeyId: string; secretAccessKey: string; sessionToken: string }): Record<string, string> {
  return {
    AWS_REGION: REGION,
    AWS_DEFAULT_REGION: REGION,
    AWS_LAMBDA_FUNCTION_NAME: spec.name,
    AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(spec.memoryMb),
    AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
    AWS_LAMBDA_INITIALIZATION_TYPE: 'on-demand',
    AWS_LAMBDA_LOG_GROUP_NAME: `/aws/lambda/${spec.name}`,
    AWS_LAMBDA_LOG_STREAM_NAME: 'local',
    LAMBDA_TASK_ROOT: spec.taskRoot,
    AWS_ACCESS_KEY_ID: credentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
    AWS_SESSION_TOKEN: credentials.sessionToken,
  };
}
