/**
 * Tracking benchmarks (issue: "`/v1/track` requests/s through the gateway against the raw DynamoDB
 * baseline, and `GET /events/names` latency with 10 and with 10,000 events of the same 10 names
 * (ratio ≤ 1.3)"):
 *
 * - POST /v1/track with a project's PUBLIC key, a fresh email per request (every request creates
 *   its contact, then records the event), the 10 event names in turn; requests/s, p50/p99, against
 *   raw PutItem/s. The DynamoDB calls of one track are counted in this process.
 * - GET /events/names on two fresh projects: 10 events (one per name) and 10,000 events of the same
 *   10 names, seeded through the service's own write path (recordEvents: the event's conditional PutItem,
 *   then its name's counter and the project's total); p50 over sequential requests,
 *   interleaved between the two projects, next to the raw Query of the name counters.
 *
 * Imported by run.ts only AFTER pointServiceAtStack and pointQueuesAtStack (see sending.ts).
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import { handler as publicHandler } from '../../functions/public/handler';
import { newEvent, recordEvents } from '../../shared/events/events';
import { eventKeys } from '../../shared/events/keys';
import { createProject, type CreatedProject } from '../../shared/projects/projects';
import type { LocalStack } from '../support/local-stack';
import { countCalls, describeCalls, type CallCount } from './calls';
import { benchDocumentClient, TABLE_NAME } from './dynamo';
import type { ApiRequest } from './events';
import { describeError, httpLoad, percentile, type LoadResult } from './measure';
import { format, heading, type BenchContext, type Section, type SectionReport, type SummaryRow, type Verdict } from './report';

const NAMES = ['signed_up', 'logged_in', 'viewed_page', 'added_to_cart', 'checkout_started', 'purchased', 'invited_member', 'upgraded', 'downgraded', 'churned'];
const EVENT_COUNTS = { small: 10, large: 10_000 } as const;
/** Synthetic contact ids the seeded events belong to (GET /events/names does not read contacts). */
const SEED_CONTACTS = 1_000;
/** Seeding transactions in flight: they all touch the project's event total, so conflicts are retried. */
const SEED_PARALLEL = 4;
const NAMES_SAMPLES = 200;
const NAMES_WARMUP = 20;
const TARGET = { maxNamesLatencyGrowth: 1.3 };

type Size = keyof typeof EVENT_COUNTS;
const sizes = Object.keys(EVENT_COUNTS) as Size[];
const runId = Date.now().toString(36);

interface Fixtures {
  track: CreatedProject;
  calls: CreatedProject;
  names: Record<Size, CreatedProject>;
  seedSeconds: number;
}
let fixtures: Fixtures | undefined;

export const trackingSection: Section = {
  title: 'Tracking',

  async prepare() {
    heading('Tracking: seeding events through recordEvents');
    const names = { small: await createProject(`bench-names-small-${runId}`), large: await createProject(`bench-names-large-${runId}`) };
    await seedEvents(names.small.projectId, EVENT_COUNTS.small);
    const started = performance.now();
    await seedEvents(names.large.projectId, EVENT_COUNTS.large);
    const seedSeconds = (performance.now() - started) / 1000;
    fixtures = { track: await createProject(`bench-track-${runId}`), calls: await createProject(`bench-track-calls-${runId}`), names, seedSeconds };
  },

  async run(context) {
    if (!fixtures) throw new Error('The tracking section runs after its prepare()');
    const calls = await measureCallsPerTrack(fixtures.calls);
    const load = await measureTrackThroughput(context, fixtures.track);
    const names = await measureNamesLatency(context.stack, fixtures.names);
    return summarize(context, calls, load, names, fixtures.seedSeconds);
  },
};

/** `count` events of the 10 names in turn, each with recordEvents (one conditional PutItem per event). */
async function seedEvents(projectId: string, count: number) {
  const started = performance.now();
  const contacts = Array.from({ length: SEED_CONTACTS }, () => ulid());
  let next = 0;
  let conflicts = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      const event = newEvent({ name: NAMES[i % NAMES.length]!, contactId: contacts[i % SEED_CONTACTS]!, data: { seq: i } });
      // recordEvents retries conflicts 5 times itself; a cancelled transaction wrote nothing, so
      // the same event can be tried again.
      for (let attempt = 1; ; attempt++) {
        try {
          await recordEvents(projectId, [event]);
          break;
        } catch (error) {
          const reasons = (error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
          if (attempt >= 5 || !reasons.some((reason) => reason.Code === 'TransactionConflict')) throw new Error(`Seeding event ${i} failed: ${describeError(error)}`);
          conflicts++;
        }
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(SEED_PARALLEL, count) }, worker));
  const seconds = (performance.now() - started) / 1000;
  console.log(`  ${count.toLocaleString('en')} events of ${NAMES.length} names in ${seconds.toFixed(1)} s (${(count / seconds).toFixed(0)}/s${conflicts ? `, ${conflicts} transactions given up after recordEvents' own retries and tried again` : ''})`);
}

// ---------------------------------------------------------------------------------------------
// POST /v1/track

const trackBody = (email: string, n: number) => ({ email, event: NAMES[n % NAMES.length], data: { plan: n % 3 === 0 ? 'pro' : 'free', step: n % 7 } });

async function measureCallsPerTrack(project: CreatedProject): Promise<CallCount> {
  heading('POST /v1/track: DynamoDB calls per track, new contact (in-process, real handlers, one at a time)');
  const request = (n: number): ApiRequest => ({ method: 'POST', resource: '/v1/track', secretKey: project.publicKey, body: trackBody(`calls-${runId}-${n}@bench.example.com`, n) });
  const calls = await countCalls({ handler: publicHandler, functionName: 'mailwright-public', request, expectedStatus: 200 });
  describeCalls('track, new contact (handler)', calls);
  return calls;
}

async function measureTrackThroughput(context: BenchContext, project: CreatedProject): Promise<LoadResult> {
  heading(`POST /v1/track through the gateway, public key, a new email per request, ${context.concurrency} connections`);
  let n = 0;
  const load = await httpLoad({
    url: context.stack.baseUrl,
    method: 'POST',
    path: '/v1/track',
    headers: { Authorization: `Bearer ${project.publicKey}`, 'Content-Type': 'application/json' },
    nextBody: () => JSON.stringify(trackBody(`track-${runId}-${n}@bench.example.com`, n++)),
    connections: context.concurrency,
    seconds: context.seconds,
    warmupSeconds: context.warmupSeconds,
    expectedStatus: 200,
  });
  console.log(`  ${format.rate(load.perSecond)} tracked, p50 ${format.ms(load.p50Ms)}, p99 ${format.ms(load.p99Ms)}`);
  console.log(`  statuses ${JSON.stringify(load.statuses)}, connection errors ${load.errors}, timeouts ${load.timeouts}`);
  return load;
}

// ---------------------------------------------------------------------------------------------
// GET /events/names

interface NamesLatency {
  gateway: Record<Size, number[]>;
  /** One raw Query of the name counters as the service makes it (begins_with EVENT_NAME#). */
  rawQuery: Record<Size, number[]>;
  /** The same with SK BETWEEN, which DynamoDB Local serves differently (see contacts.ts). */
  rawBetween: Record<Size, number[]>;
}

async function measureNamesLatency(stack: LocalStack, projects: Record<Size, CreatedProject>): Promise<NamesLatency> {
  heading(`GET /events/names with ${EVENT_COUNTS.small} and ${EVENT_COUNTS.large.toLocaleString('en')} events of the same ${NAMES.length} names`);
  const get = async (size: Size) => {
    const response = await fetch(`${stack.baseUrl}/events/names`, { headers: { Authorization: `Bearer ${projects[size].secretKey}` } });
    const text = await response.text();
    if (response.status !== 200) throw new Error(`GET /events/names (${size}) answered ${response.status}: ${text}`);
    return JSON.parse(text) as { data: { items: { name: string; count: number }[] } };
  };
  // What was seeded is what the service reads: every name, and the counts add up.
  for (const size of sizes) {
    const { items } = (await get(size)).data;
    const total = items.reduce((sum, item) => sum + item.count, 0);
    if (items.length !== NAMES.length || total !== EVENT_COUNTS[size]) {
      throw new Error(`Seeded ${EVENT_COUNTS[size]} events of ${NAMES.length} names but GET /events/names returned ${items.length} names counting ${total}`);
    }
  }

  const client = benchDocumentClient(stack);
  const query = async (size: Size, condition: 'begins_with' | 'between') => {
    const { PK } = eventKeys.total(projects[size].projectId);
    const prefix = eventKeys.nameCounterPrefix;
    const { Items = [] } = await client.send(
      new QueryCommand({
        TableName: TABLE_NAME,
        ...(condition === 'begins_with'
          ? { KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)', ExpressionAttributeValues: { ':pk': PK, ':prefix': prefix } }
          : { KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to', ExpressionAttributeValues: { ':pk': PK, ':from': prefix, ':to': `${prefix}\uffff` } }),
      }),
    );
    if (Items.length !== NAMES.length) throw new Error(`Raw Query (${condition}, ${size}) returned ${Items.length} name counters, expected ${NAMES.length}`);
  };

  // Interleaved, so that drift over the run hits every series alike.
  const latencies: NamesLatency = { gateway: { small: [], large: [] }, rawQuery: { small: [], large: [] }, rawBetween: { small: [], large: [] } };
  const time = async (samples: number[], keep: boolean, call: () => Promise<unknown>) => {
    const started = performance.now();
    await call();
    if (keep) samples.push(performance.now() - started);
  };
  try {
    for (let i = 0; i < NAMES_WARMUP + NAMES_SAMPLES; i++) {
      for (const size of sizes) {
        await time(latencies.gateway[size], i >= NAMES_WARMUP, () => get(size));
        await time(latencies.rawQuery[size], i >= NAMES_WARMUP, () => query(size, 'begins_with'));
        await time(latencies.rawBetween[size], i >= NAMES_WARMUP, () => query(size, 'between'));
      }
    }
  } finally {
    client.destroy();
  }

  for (const size of sizes) {
    const { gateway, rawQuery, rawBetween } = { gateway: latencies.gateway[size], rawQuery: latencies.rawQuery[size], rawBetween: latencies.rawBetween[size] };
    console.log(
      `  ${EVENT_COUNTS[size].toLocaleString('en').padStart(6)} events: GET p50 ${format.ms(percentile(gateway, 50))}, p99 ${format.ms(percentile(gateway, 99))}` +
        ` | raw Query p50 ${format.ms(percentile(rawQuery, 50))} | raw Query with BETWEEN p50 ${format.ms(percentile(rawBetween, 50))} (${gateway.length} sequential each)`,
    );
  }
  return latencies;
}

// ---------------------------------------------------------------------------------------------
// Summary and verdicts

function summarize(context: BenchContext, calls: CallCount, load: LoadResult, names: NamesLatency, seedSeconds: number): SectionReport {
  const raw = context.baseline.putItemPerSecond;
  const callsPerTrack = calls.typical.length;
  const p50 = (samples: Record<Size, number[]>) => ({ small: percentile(samples.small, 50), large: percentile(samples.large, 50) });
  const gateway = p50(names.gateway);
  const rawQuery = p50(names.rawQuery);
  const rawBetween = p50(names.rawBetween);
  const growth = gateway.large / gateway.small;
  const [small, large] = [EVENT_COUNTS.small.toLocaleString('en'), EVENT_COUNTS.large.toLocaleString('en')];

  const rows: SummaryRow[] = [
    { figure: 'POST /v1/track (public key, new contact): tracks/s', value: format.rate(load.perSecond), baseline: `raw PutItem ${format.rate(raw)}`, ratio: format.ratio(load.perSecond / raw) },
    { figure: 'POST /v1/track: p50 latency', value: format.ms(load.p50Ms), baseline: `raw PutItem ${format.ms(context.baseline.putItemP50Ms)}`, ratio: format.ratio(load.p50Ms / context.baseline.putItemP50Ms) },
    { figure: 'POST /v1/track: p99 latency', value: format.ms(load.p99Ms), baseline: `raw PutItem ${format.ms(context.baseline.putItemP99Ms)}`, ratio: format.ratio(load.p99Ms / context.baseline.putItemP99Ms) },
    {
      figure: `  raw ceiling for ${callsPerTrack} DynamoDB calls/track`,
      value: format.rate(raw / callsPerTrack),
      baseline: calls.typical.join(' + '),
      ratio: format.ratio(load.perSecond / (raw / callsPerTrack)),
    },
    { figure: 'DynamoDB calls per track (new contact)', value: `${calls.authorizer.length + callsPerTrack} (cache miss), ${callsPerTrack} (cached)`, baseline: '(informational)', ratio: '' },
    { figure: `GET /events/names p50, ${large} events`, value: format.ms(gateway.large), baseline: `${small} events ${format.ms(gateway.small)}`, ratio: format.ratio(growth) },
    { figure: `  raw Query (name counters) p50, ${large}`, value: format.ms(rawQuery.large), baseline: `${small} events ${format.ms(rawQuery.small)}`, ratio: format.ratio(rawQuery.large / rawQuery.small) },
    { figure: `  raw Query, BETWEEN for begins_with, ${large}`, value: format.ms(rawBetween.large), baseline: `${small} events ${format.ms(rawBetween.small)}`, ratio: format.ratio(rawBetween.large / rawBetween.small) },
    { figure: `  seeding ${large} events (recordEvents, ${SEED_PARALLEL} in flight)`, value: format.rate(EVENT_COUNTS.large / seedSeconds), baseline: '(informational, before the baseline)', ratio: '' },
  ];
  const verdicts: Verdict[] = [
    {
      target: `GET /events/names p50 at ${large} ÷ p50 at ${small} events (same ${NAMES.length} names) ≤ ${TARGET.maxNamesLatencyGrowth}`,
      measured: `${format.ratio(growth)} (raw Query alone: ${format.ratio(rawQuery.large / rawQuery.small)}; with BETWEEN: ${format.ratio(rawBetween.large / rawBetween.small)})`,
      pass: growth <= TARGET.maxNamesLatencyGrowth,
    },
  ];
  const unexpected = Object.keys(load.statuses).filter((status) => status !== '200');
  if (unexpected.length > 0 || load.errors > 0) {
    verdicts.push({ target: 'POST /v1/track: every response 200', measured: `statuses ${JSON.stringify(load.statuses)}, ${load.errors} connection errors`, pass: false });
  }
  return { rows, verdicts };
}
