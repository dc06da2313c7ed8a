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

export interface OpenLoopResult {
  /** Requests sent in the counted window (the warm-up's excluded). */
  sent: number;
  /** Latency of each counted request that answered the expected status, from its scheduled start to its whole body. */
  latencies: number[];
  p50Ms: number;
  p99Ms: number;
  /** Every status of the whole run, warm-up included, e.g. { 200: 240 }; `error` counts requests that got no answer. */
  statuses: Record<string, number>;
  firstError?: string;
  /** How late the loader started its latest request, against its schedule (the bench process's own lag). */
  maxSendLagMs: number;
}

/**
 * An open loop: one request every 1/`ratePerSecond` s on a fixed schedule, sent whether or not
 * the earlier ones have answered (a slow service does not slow the load down, unlike a closed
 * loop's connections), for `warmupSeconds` uncounted and then `seconds` counted. Each latency runs
 * from the request's scheduled start, so a loader that falls behind cannot hide the wait
 * (coordinated omission); maxSendLagMs tells how far behind it fell. Every request is awaited
 * before this returns.
 */
export async function openLoop(options: {
  ratePerSecond: number;
  seconds: number;
  warmupSeconds: number;
  /** Sends request number `sequence` and reads its whole answer; returns the status. */
  request: (sequence: number) => Promise<number>;
  expectedStatus: number;
}): Promise<OpenLoopResult> {
  const interval = 1000 / options.ratePerSecond;
  const warmup = Math.round(options.warmupSeconds * options.ratePerSecond);
  const total = warmup + Math.round(options.seconds * options.ratePerSecond);
  const statuses: Record<string, number> = {};
  const latencies: number[] = [];
  const pending: Promise<void>[] = [];
  let firstError: string | undefined;
  let maxSendLagMs = 0;
  const start = performance.now() + interval;
  for (let sequence = 0; sequence < total; sequence++) {
    const scheduled = start + sequence * interval;
    const wait = scheduled - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    maxSendLagMs = Math.max(maxSendLagMs, performance.now() - scheduled);
    pending.push(
      options.request(sequence).then(
        (status) => {
          statuses[status] = (statuses[status] ?? 0) + 1;
          if (sequence >= warmup && status === options.expectedStatus) latencies.push(performance.now() - scheduled);
        },
        (error: unknown) => {
          statuses.error = (statuses.error ?? 0) + 1;
          firstError ??= describeError(error);
        },
      ),
    );
  }
  await Promise.all(pending);
  return { sent: total - warmup, latencies, p50Ms: percentile(latencies, 50), p99Ms: percentile(latencies, 99), statuses, firstError, maxSendLagMs };
}
