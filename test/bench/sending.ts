/**
 * Sending benchmarks (issue: "with 1,000 queued emails and SEND_RATE_PER_SECOND=50, the highest
 * count in any 1-second window of arrivals at the local SES, and the sustained rate as a fraction
 * of 50; POST /v1/send requests/s through the gateway against the raw DynamoDB baseline"):
 *
 * 1. Pacing: 20 POST /v1/send of 50 recipients each, all at once, queue 1,000 emails; the local
 *    SES front records the millisecond arrival of every accepted SendEmail (GET /_local/arrivals,
 *    cleared first). Figures: the most arrivals in any 1-second window (sliding, two pointers over
 *    the sorted times), the sustained rate first → last arrival as a share of the configured rate,
 *    and the median gap between arrivals.
 * 2. POST /v1/send throughput: single-recipient sends (a fresh recipient per request) through the
 *    gateway, against raw PutItem/s; the DynamoDB calls a send makes are counted in this process.
 *    Measured after pacing so that its backlog cannot distort pacing; the backlog it leaves is
 *    drained (and its pacing checked too) before the next section runs.
 *
 * The stack runs with SEND_RATE_PER_SECOND from run.ts (50). Every send goes through the seeded
 * project, from hello@<LOCAL_SENDER_DOMAIN> (example.com): the only verified sender domain.
 *
 * Imported by run.ts only AFTER pointServiceAtStack and pointQueuesAtStack: the public handler
 * reads TABLE_NAME and SEND_QUEUE_URL when it is first imported.
 */
import { handler as publicHandler } from '../../functions/public/handler';
import { carefulFetch } from '../support/careful-fetch';
import type { LocalStack } from '../support/local-stack';
import { countCalls, describeCalls, type CallCount } from './calls';
import type { ApiRequest } from './events';
import { httpLoad, percentile, type LoadResult } from './measure';
import { format, heading, printTable, type BenchContext, type Section, type SectionReport, type SummaryRow, type Verdict } from './report';

const QUEUED_EMAILS = 1_000;
const RECIPIENTS_PER_REQUEST = 50;
const ARRIVAL_TIMEOUT_MS = 120_000;
/** After the throughput run: the backlog is drained when no email arrived for this long. */
const DRAIN_QUIET_MS = 3_000;
const DRAIN_TIMEOUT_MS = 300_000;
const TARGET = { sustainedShare: 0.95 };
const FROM = `hello@${process.env.LOCAL_SENDER_DOMAIN || 'example.com'}`;

const runId = Date.now().toString(36);

function configuredRate(): number {
  const rate = Number(process.env.SEND_RATE_PER_SECOND);
  if (!Number.isInteger(rate) || rate < 1) throw new Error(`SEND_RATE_PER_SECOND is not set for the stack (got "${process.env.SEND_RATE_PER_SECOND}"); run.ts starts it with one`);
  return rate;
}

export const sendingSection: Section = {
  title: 'Sending',

  async run(context) {
    const rate = configuredRate();
    const calls = await measureCallsPerSend(context.stack);
    await measureCallsPerSendToExisting(context.stack);
    const pacing = await measurePacing(context.stack, rate);
    const throughput = await measureSendThroughput(context);
    const drain = await drainBacklog(context.stack, rate, pacing.arrivals.at(-1) ?? pacing.queuedAt);
    return summarize(context, rate, calls, pacing, throughput, drain);
  },
};

// ---------------------------------------------------------------------------------------------
// The local SES front's arrival log

async function arrivalTimes(stack: LocalStack): Promise<number[]> {
  const response = await fetch(`${stack.sesUrl}/_local/arrivals`);
  if (!response.ok) throw new Error(`GET /_local/arrivals answered ${response.status}`);
  const { arrivals } = (await response.json()) as { arrivals: { at: number }[] };
  return arrivals.map(({ at }) => at).sort((a, b) => a - b);
}

async function clearArrivals(stack: LocalStack) {
  const response = await fetch(`${stack.sesUrl}/_local/arrivals/clear`, { method: 'POST' });
  if (!response.ok) throw new Error(`POST /_local/arrivals/clear answered ${response.status}`);
}

/** The most arrivals in any 1-second window [t, t + 1000 ms), over sorted times. */
export function maxInAnySecond(sorted: readonly number[]): { count: number; from: number } {
  let best = { count: 0, from: Number.NaN };
  for (let end = 0, start = 0; end < sorted.length; end++) {
    while (sorted[end]! - sorted[start]! >= 1000) start++;
    if (end - start + 1 > best.count) best = { count: end - start + 1, from: sorted[start]! };
  }
  return best;
}

/** Arrivals per second from the first to the last of `sorted` (n arrivals span n − 1 gaps). */
function rateOf(sorted: readonly number[]): number {
  if (sorted.length < 2) return Number.NaN;
  return (sorted.length - 1) / ((sorted[sorted.length - 1]! - sorted[0]!) / 1000);
}

function gaps(sorted: readonly number[]): number[] {
  return sorted.slice(1).map((at, i) => at - sorted[i]!);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------------------------------------
// DynamoDB calls per single-recipient send, in this process

const sendRequest = (secretKey: string, to: string | string[]): ApiRequest => ({
  method: 'POST',
  resource: '/v1/send',
  secretKey,
  body: { from: FROM, to, subject: 'Bench {{email}}', body: '<p>Hello {{email}}, this is a benchmark.</p>' },
});

async function measureCallsPerSend(stack: LocalStack): Promise<CallCount> {
  heading('POST /v1/send: DynamoDB calls per single-recipient send (in-process, real handlers, one at a time)');
  const calls = await countCalls({
    handler: publicHandler,
    functionName: 'mailwright-public',
    request: (n) => sendRequest(stack.secretKey, `calls-${runId}-${n}@bench.example.com`),
    expectedStatus: 200,
  });
  describeCalls('send, 1 new recipient (handler)', calls);
  console.log('  (plus one SQS SendMessageBatch; the sender later makes its own calls per email)');
  return calls;
}

/** The same for a recipient who is a contact already (every sample to one address). */
async function measureCallsPerSendToExisting(stack: LocalStack): Promise<CallCount> {
  const calls = await countCalls({
    handler: publicHandler,
    functionName: 'mailwright-public',
    request: () => sendRequest(stack.secretKey, `calls-${runId}-existing@bench.example.com`),
    expectedStatus: 200,
  });
  describeCalls('send, 1 existing contact (handler)', calls);
  return calls;
}

// ---------------------------------------------------------------------------------------------
// Pacing

interface Pacing {
  /** Sorted arrival times (ms since the epoch). */
  arrivals: number[];
  queueMs: number;
  /** When the last queueing request returned. */
  queuedAt: number;
  started: number;
  timedOut: boolean;
}

async function measurePacing(stack: LocalStack, rate: number): Promise<Pacing> {
  heading(`Pacing: ${QUEUED_EMAILS.toLocaleString('en')} emails queued at once, SEND_RATE_PER_SECOND=${rate}`);
  // The in-process sends above go through the same sender: let them arrive before the clear.
  await waitForQuiet(stack, 1_000, 30_000);
  await clearArrivals(stack);

  const requests = QUEUED_EMAILS / RECIPIENTS_PER_REQUEST;
  const started = Date.now();
  await Promise.all(
    Array.from({ length: requests }, async (_, r) => {
      const to = Array.from({ length: RECIPIENTS_PER_REQUEST }, (_, i) => `pace-${runId}-${r * RECIPIENTS_PER_REQUEST + i}@bench.example.com`);
      // A loaded machine may answer 503: retried with the request's Idempotency-Key, as the API asks of clients.
      const response = await carefulFetch(
        `${stack.baseUrl}/v1/send`,
        {
          method: 'POST',
          headers: { Authorization: `Bearer ${stack.secretKey}`, 'Content-Type': 'application/json', 'Idempotency-Key': `pace-${runId}-${rate}-${r}` },
          body: JSON.stringify(sendRequest(stack.secretKey, to).body as object),
        },
        { repeatable: true },
      );
      const json = response.body as { data?: { emails?: unknown[] }; error?: unknown };
      if (response.status !== 200 || json.data?.emails?.length !== RECIPIENTS_PER_REQUEST) {
        throw new Error(`POST /v1/send (${RECIPIENTS_PER_REQUEST} recipients) answered ${response.status}: ${JSON.stringify(json.error ?? json.data)}`);
      }
    }),
  );
  const queuedAt = Date.now();
  console.log(`  ${requests} requests × ${RECIPIENTS_PER_REQUEST} recipients queued in ${((queuedAt - started) / 1000).toFixed(2)} s`);

  let arrivals: number[] = [];
  let timedOut = false;
  while ((arrivals = await arrivalTimes(stack)).length < QUEUED_EMAILS) {
    if (Date.now() - queuedAt > ARRIVAL_TIMEOUT_MS) {
      timedOut = true;
      console.log(`  only ${arrivals.length} of ${QUEUED_EMAILS} arrived ${ARRIVAL_TIMEOUT_MS / 1000} s after queueing; measuring those`);
      break;
    }
    await sleep(500);
  }
  const window = maxInAnySecond(arrivals);
  const gapsMs = gaps(arrivals);
  const afterQueued = arrivals.filter((at) => at >= queuedAt);
  console.log(
    `  ${arrivals.length} arrivals: first ${((arrivals[0]! - started) / 1000).toFixed(2)} s after the first request, last ${((arrivals.at(-1)! - started) / 1000).toFixed(2)} s`,
  );
  console.log(`  max in any 1-second window ${window.count} (from +${((window.from - started) / 1000).toFixed(2)} s)`);
  console.log(
    `  sustained ${rateOf(arrivals).toFixed(2)}/s first → last arrival (${format.ratio(rateOf(arrivals) / rate)} of ${rate}); ` +
      `after the last queueing request returned ${rateOf(afterQueued).toFixed(2)}/s over ${afterQueued.length} arrivals`,
  );
  const slotMs = 1000 / (rate * 0.97);
  console.log(`  gaps between arrivals: p50 ${format.ms(percentile(gapsMs, 50))}, p1 ${format.ms(percentile(gapsMs, 1))}, p99 ${format.ms(percentile(gapsMs, 99))}, max ${format.ms(Math.max(...gapsMs))} (pacer slot interval ${format.ms(slotMs)})`);
  // Gaps of several slots mean the pacer had slots to give and no sender asked: the shortfall is upstream of it.
  const idle = gapsMs.filter((gap) => gap > 5 * slotMs);
  const span = arrivals.length > 1 ? arrivals.at(-1)! - arrivals[0]! : 0;
  console.log(`  gaps over 5 slots (pacer idle): ${idle.length}, totalling ${(idle.reduce((sum, gap) => sum + gap, 0) / 1000).toFixed(1)} s of the ${(span / 1000).toFixed(1)} s span`);
  return { arrivals, queueMs: queuedAt - started, queuedAt, started, timedOut };
}

/** Waits until no email arrived for `quietMs` (or `timeoutMs` passed); returns the sorted arrivals. */
async function waitForQuiet(stack: LocalStack, quietMs: number, timeoutMs: number): Promise<{ arrivals: number[]; timedOut: boolean }> {
  const started = Date.now();
  let arrivals = await arrivalTimes(stack);
  let lastChange = Date.now();
  while (Date.now() - lastChange < quietMs) {
    if (Date.now() - started > timeoutMs) return { arrivals, timedOut: true };
    await sleep(250);
    const now = await arrivalTimes(stack);
    if (now.length !== arrivals.length) lastChange = Date.now();
    arrivals = now;
  }
  return { arrivals, timedOut: false };
}

// ---------------------------------------------------------------------------------------------
// POST /v1/send through the gateway

async function measureSendThroughput(context: BenchContext): Promise<LoadResult> {
  heading(`POST /v1/send through the gateway, 1 new recipient per request, ${context.concurrency} connections`);
  let sent = 0;
  const { body } = sendRequest(context.stack.secretKey, '');
  const load = await httpLoad({
    url: context.stack.baseUrl,
    method: 'POST',
    path: '/v1/send',
    headers: { Authorization: `Bearer ${context.stack.secretKey}`, 'Content-Type': 'application/json' },
    nextBody: () => JSON.stringify({ ...(body as object), to: `load-${runId}-${sent++}@bench.example.com` }),
    connections: context.concurrency,
    seconds: context.seconds,
    warmupSeconds: context.warmupSeconds,
    expectedStatus: 200,
  });
  console.log(`  ${format.rate(load.perSecond)} sends, p50 ${format.ms(load.p50Ms)}, p99 ${format.ms(load.p99Ms)}`);
  console.log(`  statuses ${JSON.stringify(load.statuses)}, connection errors ${load.errors}, timeouts ${load.timeouts}`);
  console.log('  (the stack\'s sender delivers the pacing backlog\'s tail and these sends meanwhile, in the same process as the gateway)');
  return load;
}

interface Drain {
  /** Arrivals since the pacing run ended (throughput run and drain). */
  arrivals: number[];
  seconds: number;
  timedOut: boolean;
}

/** The throughput run queued emails faster than the pacer lets them out: let them go before the next section. */
async function drainBacklog(stack: LocalStack, rate: number, pacingEnd: number): Promise<Drain> {
  heading('Draining the backlog of the throughput run');
  const started = Date.now();
  const { arrivals: all, timedOut } = await waitForQuiet(stack, DRAIN_QUIET_MS, DRAIN_TIMEOUT_MS);
  const arrivals = all.filter((at) => at > pacingEnd);
  const seconds = (Date.now() - started) / 1000;
  const window = maxInAnySecond(arrivals);
  console.log(
    `  ${arrivals.length} more arrivals, drained ${timedOut ? 'NOT (timed out) ' : ''}after ${seconds.toFixed(0)} s; ` +
      `max in any 1-second window ${window.count}, sustained ${rateOf(arrivals).toFixed(2)}/s (${format.ratio(rateOf(arrivals) / rate)} of ${rate})`,
  );
  return { arrivals, seconds, timedOut };
}

// ---------------------------------------------------------------------------------------------
// Summary and verdicts

function summarize(context: BenchContext, rate: number, calls: CallCount, pacing: Pacing, load: LoadResult, drain: Drain): SectionReport {
  const raw = context.baseline.putItemPerSecond;
  const window = maxInAnySecond(pacing.arrivals);
  const sustained = rateOf(pacing.arrivals);
  const gapP50 = percentile(gaps(pacing.arrivals), 50);
  const drainWindow = maxInAnySecond(drain.arrivals);
  const callsPerSend = calls.typical.length;
  const n = QUEUED_EMAILS.toLocaleString('en');

  printTable(
    ['Pacing figure', 'Value'],
    [
      ['emails arrived', `${pacing.arrivals.length} of ${n}`],
      ['queueing time (20 × 50 recipients)', `${(pacing.queueMs / 1000).toFixed(2)} s`],
      ['max arrivals in any 1-second window', String(window.count)],
      ['sustained rate, first → last arrival', `${sustained.toFixed(2)}/s`],
      ['inter-arrival gap p50', format.ms(gapP50)],
    ],
  );

  const rows: SummaryRow[] = [
    { figure: `Pacing: max SES arrivals in any 1 s (${n} queued)`, value: String(window.count), baseline: `rate ${rate}/s`, ratio: format.ratio(window.count / rate) },
    { figure: 'Pacing: sustained send rate', value: `${sustained.toFixed(2)}/s`, baseline: `rate ${rate}/s`, ratio: format.ratio(sustained / rate) },
    { figure: 'Pacing: inter-arrival gap p50', value: format.ms(gapP50), baseline: `1/rate ${format.ms(1000 / rate)}`, ratio: format.ratio(gapP50 / (1000 / rate)) },
    { figure: 'POST /v1/send (1 recipient): sends/s', value: format.rate(load.perSecond), baseline: `raw PutItem ${format.rate(raw)}`, ratio: format.ratio(load.perSecond / raw) },
    { figure: 'POST /v1/send: p50 latency', value: format.ms(load.p50Ms), baseline: `raw PutItem ${format.ms(context.baseline.putItemP50Ms)}`, ratio: format.ratio(load.p50Ms / context.baseline.putItemP50Ms) },
    { figure: 'POST /v1/send: p99 latency', value: format.ms(load.p99Ms), baseline: `raw PutItem ${format.ms(context.baseline.putItemP99Ms)}`, ratio: format.ratio(load.p99Ms / context.baseline.putItemP99Ms) },
    {
      figure: `  raw ceiling for ${callsPerSend} DynamoDB calls/send`,
      value: format.rate(raw / callsPerSend),
      baseline: `${calls.typical.join(' + ')}`,
      ratio: format.ratio(load.perSecond / (raw / callsPerSend)),
    },
    { figure: 'DynamoDB calls per 1-recipient send', value: `${calls.authorizer.length + callsPerSend} (cache miss), ${callsPerSend} (cached)`, baseline: '(informational)', ratio: '' },
    {
      figure: '  pacing during the throughput run + drain',
      value: `max ${drainWindow.count} in 1 s`,
      baseline: `${drain.arrivals.length} emails, ${rateOf(drain.arrivals).toFixed(1)}/s`,
      ratio: format.ratio(rateOf(drain.arrivals) / rate),
    },
  ];

  const verdicts: Verdict[] = [
    { target: `pacing: max SES arrivals in any 1-second window ≤ ${rate} (${n} queued)`, measured: `${window.count}`, pass: window.count <= rate && !pacing.timedOut },
    {
      target: `pacing: sustained rate ≥ ${TARGET.sustainedShare} × ${rate} = ${(TARGET.sustainedShare * rate).toFixed(1)}/s`,
      measured: `${sustained.toFixed(2)}/s (${format.ratio(sustained / rate)})`,
      pass: sustained >= TARGET.sustainedShare * rate && !pacing.timedOut,
    },
  ];
  if (pacing.timedOut) verdicts.push({ target: `all ${n} queued emails reach SES within ${ARRIVAL_TIMEOUT_MS / 1000} s`, measured: `${pacing.arrivals.length} arrived`, pass: false });
  if (drainWindow.count > rate) verdicts.push({ target: `pacing under load (throughput run + drain): max in any 1 s ≤ ${rate}`, measured: String(drainWindow.count), pass: false });
  if (drain.timedOut) verdicts.push({ target: `the throughput run's backlog drains within ${DRAIN_TIMEOUT_MS / 1000} s`, measured: `still arriving after ${drain.seconds.toFixed(0)} s`, pass: false });
  const unexpected = Object.keys(load.statuses).filter((status) => status !== '200');
  if (unexpected.length > 0 || load.errors > 0) {
    verdicts.push({ target: 'POST /v1/send: every response 200', measured: `statuses ${JSON.stringify(load.statuses)}, ${load.errors} connection errors`, pass: false });
  }
  return { rows, verdicts };
}
