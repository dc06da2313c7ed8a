import autocannon from 'autocannon';

/** Nearest-rank percentile (p in 0–100) of unsorted samples. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

export interface ClosedLoopResult {
  perSecond: number;
  /** Calls completed inside the timed window. */
  completed: number;
  /** Calls that succeeded over the whole run, warm-up included. */
  succeeded: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  firstError?: unknown;
}

/**
 * Runs `operation` from `concurrency` workers, each starting its next call when the previous one
 * ends (a closed loop, like autocannon's connections), for `warmupSeconds` untimed and then
 * `seconds` timed. Only calls that complete inside the timed window count, so the rate is not
 * inflated by the warm-up or by calls still in flight at the end.
 */
export async function closedLoop(options: {
  concurrency: number;
  seconds: number;
  warmupSeconds: number;
  operation: (sequence: number) => Promise<unknown>;
}): Promise<ClosedLoopResult> {
  const measureFrom = performance.now() + options.warmupSeconds * 1000;
  const measureUntil = measureFrom + options.seconds * 1000;
  const latencies: number[] = [];
  let sequence = 0;
  let succeeded = 0;
  let errors = 0;
  let firstError: unknown;

  const worker = async () => {
    while (performance.now() < measureUntil) {
      const started = performance.now();
      try {
        await options.operation(sequence++);
      } catch (error) {
        errors++;
        firstError ??= error;
        continue;
      }
      succeeded++;
      const ended = performance.now();
      if (started >= measureFrom && ended <= measureUntil) latencies.push(ended - started);
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));

  return {
    perSecond: latencies.length / options.seconds,
    completed: latencies.length,
    succeeded,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    errors,
    firstError,
  };
}

export interface LoadResult {
  /** Responses with the expected status per second. */
  perSecond: number;
  expected: number;
  p50Ms: number;
  p99Ms: number;
  /** Every status code seen, e.g. { 201: 4810, 500: 3 }: unexpected ones are service problems. */
  statuses: Record<string, number>;
  errors: number;
  timeouts: number;
}

/**
 * HTTP load through the local gateway with autocannon's programmatic API: `connections` keep one
 * request each in flight. `nextBody` is called for every request (autocannon's setupRequest), so
 * each request can carry a fresh email. A warm-up run precedes the timed one; its requests are real
 * (they write), which is fine for upserts.
 */
export async function httpLoad(options: {
  url: string;
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  nextBody?: () => string;
  connections: number;
  seconds: number;
  warmupSeconds: number;
  expectedStatus: number;
}): Promise<LoadResult> {
  const request: autocannon.Request = {
    method: options.method,
    path: options.path,
    headers: options.headers,
    ...(options.nextBody ? { setupRequest: (req: autocannon.Request) => ({ ...req, body: options.nextBody!() }) } : {}),
  };
  const run = (seconds: number) =>
    autocannon({ url: options.url, connections: options.connections, duration: seconds, requests: [request], timeout: 30 });

  if (options.warmupSeconds > 0) await run(options.warmupSeconds);
  const result = await run(options.seconds);

  const statuses = Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([status, stats]) => [status, stats.count ?? 0]));
  const expected = statuses[String(options.expectedStatus)] ?? 0;
  return {
    perSecond: expected / result.duration,
    expected,
    // autocannon's latency histogram covers every response, expected or not.
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    statuses,
    errors: result.errors,
    timeouts: result.timeouts,
  };
}

/** Sequential timed calls after an untimed warm-up: latency without queueing. */
export async function sequentialLatencies(count: number, warmup: number, call: () => Promise<void>): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await call();
  const latencies: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    await call();
    latencies.push(performance.now() - started);
  }
  return latencies;
}

export function describeError(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}
