/**
 * Segments benchmarks (issue "Segments"):
 * - on-demand evaluation over 20,000 contacts (GET /segments/{id} through the local gateway):
 *   contacts evaluated per second, against raw DynamoDB Local reading the same items (full items,
 *   one paged Query, this process) — target ratio ≥ 0.5;
 * - memberCount latency of a tracked segment at 20 and at 20,000 members — target ratio ≤ 1.3;
 * - informational: the background build (segment-builder) of a tracked segment of 20,000 members.
 *
 * A Section for run.ts (its SECTIONS), and runnable alone:
 * `npx tsx test/bench/segments.ts` (starts and stops its own local stack).
 * Shared modules are imported lazily: the environment must point at the stack first.
 */
import { pathToFileURL } from 'node:url';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import { startLocalStack, stopLocalStack, type LocalStack } from '../support/local-stack';
import { batchWriteAll, benchDocumentClient, pointServiceAtStack, TABLE_NAME } from './dynamo';
import { percentile, sequentialLatencies } from './measure';
import { format, heading, printTable, type Section, type SectionReport } from './report';

const SIZES = { small: 20, large: 20_000 } as const;
const EVALUATION_RUNS = 5;
const COUNT_SAMPLES = 200;
const TARGET = { evaluationShareOfRaw: 0.5, maxCountLatencyGrowth: 1.3 };
const runId = Date.now().toString(36);
const proFilter = { operator: 'AND', conditions: [{ field: 'data.plan', operator: 'equals', value: 'pro' }] };
const everyone = { operator: 'AND', conditions: [{ field: 'email', operator: 'endsWith', value: '.example.com' }] };

interface Fixture {
  projectId: string;
  secretKey: string;
  segmentId?: string;
}
let fixtures: { onDemand: Fixture; small: Fixture; large: Fixture; buildSeconds: number } | undefined;

async function seed(stack: LocalStack, projectId: string, count: number) {
  const { toItem } = await import('../../shared/contacts/contacts');
  const { contactKeys } = await import('../../shared/contacts/keys');
  const now = new Date().toISOString();
  const items: Record<string, unknown>[] = [];
  for (let i = 0; i < count; i++) {
    const email = `seg-${runId}-${i}@bench-${i % 50}.example.com`;
    const contact = { id: ulid(), email, subscribed: true, data: { plan: i % 3 === 0 ? 'pro' : 'free', seats: i % 7, company: `Company ${i % 500}` }, createdAt: now, updatedAt: now };
    items.push(toItem(projectId, contact), { ...contactKeys.emailLookup(projectId, email), contactId: contact.id });
  }
  items.push({ ...contactKeys.counters(projectId), total: count, subscribed: count });
  const client = benchDocumentClient(stack);
  try {
    await batchWriteAll(client, items);
  } finally {
    client.destroy();
  }
}

async function call(stack: LocalStack, key: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${stack.baseUrl}${path}`, {
    method,
    headers: { Authorization: `Bearer ${key}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = (await response.json()) as { data?: any; error?: unknown };
  if (!response.ok) throw new Error(`${method} ${path} → ${response.status} ${JSON.stringify(json.error)}`);
  return json.data;
}

/** Raw DynamoDB Local: one paged Query reading the project's contacts (full items). */
async function rawReadRate(stack: LocalStack, projectId: string): Promise<number> {
  const client = benchDocumentClient(stack);
  try {
    let read = 0;
    const started = performance.now();
    let ExclusiveStartKey: Record<string, unknown> | undefined;
    do {
      const page = await client.send(
        new QueryCommand({
          TableName: TABLE_NAME,
          KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
          ExpressionAttributeValues: { ':pk': `PROJECT#${projectId}`, ':prefix': 'CONTACT#' },
          ScanIndexForward: false,
          ExclusiveStartKey,
        }),
      );
      read += page.Items?.length ?? 0;
      ExclusiveStartKey = page.LastEvaluatedKey;
    } while (ExclusiveStartKey);
    return read / ((performance.now() - started) / 1000);
  } finally {
    client.destroy();
  }
}

const median = (values: number[]) => percentile(values, 50);

const BUILD_TIMEOUT_MS = 600_000;

async function waitUntilReady(stack: LocalStack, key: string, segmentId: string): Promise<{ memberCount: number }> {
  const deadline = Date.now() + BUILD_TIMEOUT_MS;
  for (;;) {
    const segment = await call(stack, key, 'GET', `/segments/${segmentId}`);
    if (segment.membershipStatus === 'READY') return segment;
    if (Date.now() > deadline) throw new Error(`The tracked segment was not built in ${BUILD_TIMEOUT_MS / 1000} s (memberCount ${segment.memberCount})`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

export const segmentsSection: Section = {
  title: 'Segments',

  async prepare({ stack }) {
    heading('Segments: seeding');
    const { createProject } = await import('../../shared/projects/projects');
    const onDemand = await createProject(`bench-seg-ondemand-${runId}`);
    const small = await createProject(`bench-seg-small-${runId}`);
    const large = await createProject(`bench-seg-large-${runId}`);
    await seed(stack, onDemand.projectId, SIZES.large);
    await seed(stack, small.projectId, SIZES.small);
    await seed(stack, large.projectId, SIZES.large);
    console.log(`  seeded ${SIZES.large.toLocaleString('en')} + ${SIZES.small} + ${SIZES.large.toLocaleString('en')} contacts`);

    const segment = await call(stack, onDemand.secretKey, 'POST', '/segments', { name: 'pro', filters: proFilter });
    const smallSegment = await call(stack, small.secretKey, 'POST', '/segments', { name: 'all', trackMembership: true, filters: everyone });
    // A project of 20,000 contacts is past SEGMENT_INLINE_BUILD_MAX_CONTACTS: the API answers at
    // once with BUILDING and the segment-builder function builds it; wait for READY.
    const started = performance.now();
    const largeSegment = await call(stack, large.secretKey, 'POST', '/segments', { name: 'all', trackMembership: true, filters: everyone });
    console.log(`  POST /segments (tracked, 20,000 contacts) answered ${largeSegment.membershipStatus} in ${format.ms(performance.now() - started)}`);
    const built = await waitUntilReady(stack, large.secretKey, largeSegment.id);
    const buildSeconds = (performance.now() - started) / 1000;
    if (built.memberCount !== SIZES.large) throw new Error(`memberCount ${built.memberCount} after the build, expected ${SIZES.large}`);
    console.log(`  tracked segment of ${built.memberCount.toLocaleString('en')} members built in the background in ${buildSeconds.toFixed(1)} s`);
    fixtures = {
      onDemand: { ...onDemand, segmentId: segment.id },
      small: { ...small, segmentId: smallSegment.id },
      large: { ...large, segmentId: largeSegment.id },
      buildSeconds,
    };
  },

  async run({ stack }): Promise<SectionReport> {
    if (!fixtures) throw new Error('The segments section runs after its prepare()');
    const { onDemand, small, large, buildSeconds } = fixtures;
    heading('Segments: on-demand evaluation over 20,000 contacts');
    const raw: number[] = [];
    const evaluated: number[] = [];
    for (let run = 0; run < EVALUATION_RUNS; run++) {
      raw.push(await rawReadRate(stack, onDemand.projectId));
      const started = performance.now();
      const segment = await call(stack, onDemand.secretKey, 'GET', `/segments/${onDemand.segmentId}`);
      evaluated.push(SIZES.large / ((performance.now() - started) / 1000));
      if (segment.memberCount !== Math.ceil(SIZES.large / 3)) throw new Error(`memberCount ${segment.memberCount}, expected ${Math.ceil(SIZES.large / 3)}`);
    }
    const rawRate = median(raw);
    const evaluationRate = median(evaluated);

    heading('Segments: memberCount latency of tracked segments');
    const latency = async (fixture: Fixture) =>
      median(await sequentialLatencies(COUNT_SAMPLES, 20, async () => void (await call(stack, fixture.secretKey, 'GET', `/segments/${fixture.segmentId}`))));
    const smallP50 = await latency(small);
    const largeP50 = await latency(large);

    printTable(
      ['figure', 'value'],
      [
        ['raw DynamoDB Local read of 20,000 contacts', format.rate(rawRate)],
        ['on-demand evaluation (GET /segments/{id})', format.rate(evaluationRate)],
        ['memberCount p50 at 20 members', format.ms(smallP50)],
        ['memberCount p50 at 20,000 members', format.ms(largeP50)],
        ['tracked build of 20,000 members (background)', `${buildSeconds.toFixed(1)} s`],
      ],
    );
    const share = evaluationRate / rawRate;
    const growth = largeP50 / smallP50;
    return {
      rows: [
        { figure: 'segment evaluation, contacts/s', value: format.rate(evaluationRate), baseline: `raw read ${format.rate(rawRate)}`, ratio: format.ratio(share) },
        { figure: 'memberCount p50 at 20,000 vs 20', value: format.ms(largeP50), baseline: format.ms(smallP50), ratio: format.ratio(growth) },
      ],
      verdicts: [
        { target: `evaluation ≥ ${TARGET.evaluationShareOfRaw}× raw read rate`, measured: format.ratio(share), pass: share >= TARGET.evaluationShareOfRaw },
        { target: `memberCount latency growth ≤ ${TARGET.maxCountLatencyGrowth}×`, measured: format.ratio(growth), pass: growth <= TARGET.maxCountLatencyGrowth },
      ],
    };
  },
};

/** Alone: `npx tsx test/bench/segments.ts`. */
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const rateLimit = 100_000_000;
  const stack = await startLocalStack({ RATE_LIMIT_PER_MINUTE: String(rateLimit) });
  let code = 0;
  try {
    pointServiceAtStack(stack, rateLimit);
    await segmentsSection.prepare!({ stack, concurrency: 1, seconds: 10, warmupSeconds: 2 });
    const report = await segmentsSection.run({ stack, concurrency: 1, seconds: 10, warmupSeconds: 2, baseline: { putItemPerSecond: 0, putItemP50Ms: 0, putItemP99Ms: 0 } });
    printTable(['target', 'measured', 'pass'], report.verdicts.map((verdict) => [verdict.target, verdict.measured, verdict.pass ? 'yes' : 'NO']));
  } catch (error) {
    console.error(error);
    code = 1;
  } finally {
    await stopLocalStack(stack);
  }
  process.exit(code);
}
