/**
 * Contacts benchmarks: POST /contacts throughput and latency (create and update paths), DynamoDB
 * calls per upsert, and GET /contacts latency as a project grows from 1,000 to 20,000 contacts.
 *
 * Imported by run.ts only AFTER pointServiceAtStack(): the service modules below read TABLE_NAME,
 * RATE_LIMIT_PER_MINUTE and the DynamoDB endpoint when they are first imported.
 */
import type { APIGatewayAuthorizerResult, APIGatewayProxyResult } from 'aws-lambda';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import { handler as authorizer } from '../../functions/authorizer/handler';
import { handler as contactsHandler } from '../../functions/contacts/handler';
import { dynamoDb } from '../../shared/aws/clients';
import { toItem, type Contact } from '../../shared/contacts/contacts';
import { contactKeys } from '../../shared/contacts/keys';
import { createProject, type CreatedProject } from '../../shared/projects/projects';
import type { LocalStack } from '../support/local-stack';
import { batchWriteAll, benchDocumentClient, recordCommands, TABLE_NAME } from './dynamo';
import { authorizerEvent, lambdaContext, proxyEvent, type ApiRequest } from './events';
import { closedLoop, describeError, httpLoad, percentile, type ClosedLoopResult, type LoadResult } from './measure';
import { format, heading, type BenchContext, type Section, type SectionReport, type SummaryRow, type Verdict } from './report';

/** Targets from the issue. */
const TARGET = {
  /** Through the gateway, at least this share of what raw DynamoDB allows for the calls an upsert makes. */
  throughputShareOfCeiling: 0.5,
  maxCallsPerUpsert: 4,
  /** GET /contacts p50 at 20,000 contacts over p50 at 1,000. */
  maxListLatencyGrowth: 1.3,
};
const UPDATE_POOL = 1_000;
const LIST_SIZES = { small: 1_000, large: 20_000 } as const;
const LIST_SAMPLES = 200;
const LIST_WARMUP = 20;
const CALL_SAMPLES = 5;

const runId = Date.now().toString(36);

/** One dedicated project per measurement, so none sees another's contacts, counters or rate window. */
interface Fixtures {
  create: CreatedProject;
  update: CreatedProject;
  updatePool: string[];
  list: Record<ListSize, CreatedProject>;
}

type ListSize = keyof typeof LIST_SIZES;
const listSizes = Object.keys(LIST_SIZES) as ListSize[];

let fixtures: Fixtures | undefined;

export const contactsSection: Section = {
  title: 'Contacts',

  async prepare({ stack }) {
    heading('Contacts: seeding');
    const updatePool = Array.from({ length: UPDATE_POOL }, (_, i) => `pool-${runId}-${i}@bench.example.com`);
    const prepared: Fixtures = {
      create: await createProject(`bench-create-${runId}`),
      update: await createProject(`bench-update-${runId}`),
      updatePool,
      list: { small: await createProject(`bench-list-small-${runId}`), large: await createProject(`bench-list-large-${runId}`) },
    };
    await seedContacts(stack, prepared.update.projectId, updatePool);
    for (const size of listSizes) {
      // 50 domains, as a real list has a few big ones; the list query does not care.
      const emails = Array.from({ length: LIST_SIZES[size] }, (_, i) => `list-${size}-${i}@bench-${i % 50}.example.com`);
      await seedContacts(stack, prepared.list[size].projectId, emails);
    }
    fixtures = prepared;
  },

  async run(context) {
    if (!fixtures) throw new Error('The contacts section runs after its prepare()');
    const record = recordCommands(dynamoDb);
    // Calls first: the throughput target is stated per DynamoDB call an upsert makes.
    const calls = await measureCallsPerUpsert(record);
    const upserts = await measureUpsertThroughput(context, fixtures);
    const inProcess = await measureHandlerThroughput(context, fixtures, record);
    const list = await measureListLatency(context.stack, fixtures);
    return summarize(context, calls, upserts, inProcess, list);
  },
};

// ---------------------------------------------------------------------------------------------
// DynamoDB calls per upsert, in this process

interface CallCounts {
  authorizer: Sample;
  create: Sample;
  update: Sample;
  /** Informational: an update that flips `subscribed` (counters move, so it takes a transaction). */
  flip: Sample;
  /** Informational: admission when a project's rate-limit window opens (once per minute per project). */
  windowOpen: Sample;
}

/** Commands of one invocation, and whether every sample sent the same number. */
interface Sample {
  count: number;
  commands: string[];
  varies: boolean;
}

/**
 * Invokes the real authorizer and contacts handler here with API Gateway's event shapes, counting
 * the commands they send through the service's shared DynamoDB client. The gateway cannot be
 * counted from outside (it runs in the stack's process), and the handlers are the same code.
 */
async function measureCallsPerUpsert(record: Recorder): Promise<CallCounts> {
  heading('DynamoDB calls per upsert (in-process, real handlers, one at a time)');
  const project = await createProject(`bench-calls-${runId}`);
  const post = (body: unknown) => postContact(project, body);
  const authorize = (request: ApiRequest) => record(() => authorizer(authorizerEvent(request)));
  const invoke = async (request: ApiRequest, authorization: APIGatewayAuthorizerResult, expectedStatus: number) =>
    (await record(() => callContactsHandler(request, authorization, expectedStatus))).commands;

  // The project's first request opens its rate-limit window; measured apart, as it is once a minute.
  const first = post({ email: `first-${runId}@bench.example.com` });
  const firstAuthorization = (await authorize(first)).result;
  const windowOpen = [await invoke(first, firstAuthorization, 201)];

  const samples = { authorizer: [] as string[][], create: [] as string[][], update: [] as string[][], flip: [] as string[][] };
  for (let i = 0; i < CALL_SAMPLES; i++) {
    const email = `calls-${runId}-${i}@bench.example.com`;
    const created = post({ email, data: { plan: 'pro' } });
    const authorized = await authorize(created);
    samples.authorizer.push(authorized.commands);
    samples.create.push(await invoke(created, authorized.result, 201));
    samples.update.push(await invoke(post({ email, data: { plan: 'team', seats: i } }), authorized.result, 200));
    samples.flip.push(await invoke(post({ email, subscribed: false }), authorized.result, 200));
  }

  const counts: CallCounts = {
    authorizer: worst(samples.authorizer),
    create: worst(samples.create),
    update: worst(samples.update),
    flip: worst(samples.flip),
    windowOpen: worst(windowOpen),
  };
  const show = (label: string, sample: Sample) =>
    console.log(`  ${label.padEnd(44)} ${sample.count}  (${sample.commands.join(' + ')})${sample.varies ? '  [varied between samples; worst shown]' : ''}`);
  show('authorizer, cache miss', counts.authorizer);
  show('upsert, create path (admission + upsert)', counts.create);
  show('upsert, update path (admission + upsert)', counts.update);
  show('upsert, update flipping subscribed', counts.flip);
  show('create, first request of a rate-limit window', counts.windowOpen);
  return counts;
}

const postContact = (project: CreatedProject, body: unknown): ApiRequest => ({ method: 'POST', resource: '/contacts', secretKey: project.secretKey, body });

/** The contacts function as the gateway invokes it once the authorizer allowed the request. */
async function callContactsHandler(request: ApiRequest, authorization: APIGatewayAuthorizerResult, expectedStatus: number) {
  const result = (await contactsHandler(proxyEvent(request, authorization), lambdaContext('mailwright-contacts'))) as APIGatewayProxyResult;
  if (result.statusCode !== expectedStatus) {
    throw new Error(`In-process ${request.method} ${request.resource} answered ${result.statusCode} (expected ${expectedStatus}): ${result.body}`);
  }
  return result;
}

function worst(samples: string[][]): Sample {
  const commands = samples.reduce((most, sample) => (sample.length > most.length ? sample : most), [] as string[]);
  return { count: commands.length, commands, varies: new Set(samples.map((sample) => sample.length)).size > 1 };
}

// ---------------------------------------------------------------------------------------------
// POST /contacts through the gateway

interface UpsertLoad {
  create: LoadResult;
  update: LoadResult;
}

async function measureUpsertThroughput(context: BenchContext, { create: createTarget, update: updateTarget, updatePool: pool }: Fixtures): Promise<UpsertLoad> {
  const load = (project: CreatedProject, nextBody: () => string, expectedStatus: number) =>
    httpLoad({
      url: context.stack.baseUrl,
      method: 'POST',
      path: '/contacts',
      headers: { Authorization: `Bearer ${project.secretKey}`, 'Content-Type': 'application/json' },
      nextBody,
      connections: context.concurrency,
      seconds: context.seconds,
      warmupSeconds: context.warmupSeconds,
      expectedStatus,
    });

  heading(`POST /contacts through the gateway, create path, ${context.concurrency} connections`);
  let created = 0;
  // A fresh email per request (setupRequest), so every request takes the create path.
  const create = await load(createTarget, () => JSON.stringify({ email: `create-${runId}-${created++}@bench.example.com`, data: { plan: 'pro', source: 'bench' } }), 201);
  printLoad(create, 'created');

  heading(`POST /contacts through the gateway, update path (${UPDATE_POOL.toLocaleString('en')} existing emails), ${context.concurrency} connections`);
  let updated = 0;
  // Round-robin over the pool: each email is updated again only after 999 others.
  const update = await load(updateTarget, () => JSON.stringify({ email: pool[updated % UPDATE_POOL], data: { visits: updated++ } }), 200);
  printLoad(update, 'updated');
  return { create, update };
}

type Recorder = ReturnType<typeof recordCommands>;

interface HandlerRun extends ClosedLoopResult {
  /** DynamoDB commands per successful upsert under this concurrency, by command name. */
  callsPerUpsert: Record<string, number>;
}

interface HandlerLoad {
  create: HandlerRun;
  update: HandlerRun;
}

/**
 * The same upserts with the contacts handler invoked in this process at the same concurrency: the
 * same DynamoDB work without HTTP, the gateway and its event building. Tells whether a shortfall
 * through the gateway is the gateway's or the DynamoDB work's. It also counts the commands sent
 * under concurrency, where lost races (e.g. transactions conflicting on the project's counters
 * item) are retried and cost calls that the one-at-a-time count cannot see.
 */
async function measureHandlerThroughput(context: BenchContext, { create: createTarget, update: updateTarget, updatePool: pool }: Fixtures, record: Recorder): Promise<HandlerLoad> {
  const run = async (project: CreatedProject, body: (n: number) => unknown, expectedStatus: number, label: string): Promise<HandlerRun> => {
    heading(`POST /contacts ${label}, handler in-process (no HTTP, no gateway), concurrency ${context.concurrency}`);
    // Authorized once, as the gateway's authorizer cache does under load.
    const authorization = await authorizer(authorizerEvent(postContact(project, body(0))));
    const { result, commands } = await record(() =>
      closedLoop({
        concurrency: context.concurrency,
        seconds: context.seconds,
        warmupSeconds: context.warmupSeconds,
        operation: (n) => callContactsHandler(postContact(project, body(n)), authorization, expectedStatus),
      }),
    );
    const callsPerUpsert: Record<string, number> = { total: commands.length / result.succeeded };
    for (const command of commands) callsPerUpsert[command] = (callsPerUpsert[command] ?? 0) + 1 / result.succeeded;
    const breakdown = Object.entries(callsPerUpsert)
      .filter(([name]) => name !== 'total')
      .map(([name, perUpsert]) => `${name} ${perUpsert.toFixed(2)}`)
      .join(', ');
    console.log(`  ${format.rate(result.perSecond)} ${label === 'create' ? 'created' : 'updated'}, p50 ${format.ms(result.p50Ms)}, p99 ${format.ms(result.p99Ms)}`);
    console.log(`  ${callsPerUpsert.total!.toFixed(2)} DynamoDB calls per ${label} under this load (${breakdown})`);
    if (result.errors > 0) console.log(`  ${result.errors} failed, first: ${describeError(result.firstError)}`);
    return { ...result, callsPerUpsert };
  };
  return {
    create: await run(createTarget, (n) => ({ email: `inproc-${runId}-${n}@bench.example.com`, data: { plan: 'pro', source: 'bench' } }), 201, 'create'),
    update: await run(updateTarget, (n) => ({ email: pool[n % UPDATE_POOL], data: { visits: n } }), 200, 'update'),
  };
}

function printLoad(result: LoadResult, verb: string) {
  console.log(`  ${format.rate(result.perSecond)} ${verb}, p50 ${format.ms(result.p50Ms)}, p99 ${format.ms(result.p99Ms)}`);
  console.log(`  statuses ${JSON.stringify(result.statuses)}, connection errors ${result.errors}, timeouts ${result.timeouts}`);
}

// ---------------------------------------------------------------------------------------------
// GET /contacts as the project grows

interface ListLatency {
  /** GET /contacts?limit=100 through the gateway, ms per request. */
  gateway: Record<ListSize, number[]>;
  /** The same page as one raw Query (the service's default plan), ms: how DynamoDB Local itself scales. */
  rawQuery: Record<ListSize, number[]>;
  /**
   * The same page with `SK BETWEEN prefix AND prefix + U+FFFF` instead of begins_with (the same
   * items): DynamoDB Local runs a descending begins_with by walking past the partition's
   * CONTACT_EMAIL# items, which sort after CONTACT#; this shows how much of the growth that is.
   */
  rawBetween: Record<ListSize, number[]>;
}

async function measureListLatency(stack: LocalStack, { list: projects }: Fixtures): Promise<ListLatency> {
  heading(`GET /contacts?limit=100 with ${LIST_SIZES.small.toLocaleString('en')} and ${LIST_SIZES.large.toLocaleString('en')} contacts`);
  const get = async (size: ListSize) => {
    const response = await fetch(`${stack.baseUrl}/contacts?limit=100`, { headers: { Authorization: `Bearer ${projects[size].secretKey}` } });
    const text = await response.text();
    if (response.status !== 200) throw new Error(`GET /contacts (${size}) answered ${response.status}: ${text}`);
    return JSON.parse(text) as { data: { items: unknown[]; total: number } };
  };
  // The seeded shape must be what the service reads: a full page and the seeded total.
  for (const size of listSizes) {
    const { data } = await get(size);
    if (data.items.length !== 100 || data.total !== LIST_SIZES[size]) {
      throw new Error(`Seeded ${LIST_SIZES[size]} contacts but GET /contacts returned ${data.items.length} items, total ${data.total}`);
    }
  }

  const client = benchDocumentClient(stack);
  const query = async (size: ListSize, condition: 'begins_with' | 'between') => {
    const partition = contactKeys.contact(projects[size].projectId, '').PK;
    const prefix = contactKeys.contactPrefix;
    const { Items = [] } = await client.send(
      new QueryCommand({
        TableName: TABLE_NAME,
        ...(condition === 'begins_with'
          ? { KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)', ExpressionAttributeValues: { ':pk': partition, ':prefix': prefix } }
          : { KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to', ExpressionAttributeValues: { ':pk': partition, ':from': prefix, ':to': `${prefix}\uffff` } }),
        ScanIndexForward: false,
        Limit: 101,
      }),
    );
    if (Items.length !== 101) throw new Error(`Raw Query (${condition}, ${size}) returned ${Items.length} items, expected 101`);
  };

  // Interleaved, so that drift over the run (GC, JIT, DynamoDB Local's caches) hits every series alike.
  const latencies: ListLatency = { gateway: { small: [], large: [] }, rawQuery: { small: [], large: [] }, rawBetween: { small: [], large: [] } };
  const time = async (samples: number[], keep: boolean, call: () => Promise<unknown>) => {
    const started = performance.now();
    await call();
    if (keep) samples.push(performance.now() - started);
  };
  for (let i = 0; i < LIST_WARMUP + LIST_SAMPLES; i++) {
    for (const size of listSizes) {
      await time(latencies.gateway[size], i >= LIST_WARMUP, () => get(size));
      await time(latencies.rawQuery[size], i >= LIST_WARMUP, () => query(size, 'begins_with'));
      await time(latencies.rawBetween[size], i >= LIST_WARMUP, () => query(size, 'between'));
    }
  }
  client.destroy();

  for (const size of listSizes) {
    const gateway = latencies.gateway[size];
    const raw = latencies.rawQuery[size];
    const between = latencies.rawBetween[size];
    console.log(
      `  ${LIST_SIZES[size].toLocaleString('en').padStart(6)} contacts: GET p50 ${format.ms(percentile(gateway, 50))}, p99 ${format.ms(percentile(gateway, 99))}` +
        ` | raw Query p50 ${format.ms(percentile(raw, 50))} | raw Query with BETWEEN p50 ${format.ms(percentile(between, 50))} (${gateway.length} sequential each)`,
    );
  }
  return latencies;
}

/**
 * Writes contacts straight to the table in the service's own item shapes: the contact through
 * toItem(), its email lookup and the project's counters under contactKeys (their attributes as
 * createContact() and its counter update write them). Far faster than the API, and the list and
 * upsert paths read them exactly as if the API had written them (checked in measureListLatency).
 */
async function seedContacts(stack: LocalStack, projectId: string, emails: string[]) {
  const started = performance.now();
  const now = new Date().toISOString();
  const items: Record<string, unknown>[] = [];
  let subscribed = 0;
  emails.forEach((email, i) => {
    const contact: Contact = { id: ulid(), email, subscribed: i % 10 !== 0, data: { plan: i % 3 === 0 ? 'pro' : 'free', seats: i % 7 }, createdAt: now, updatedAt: now };
    if (contact.subscribed) subscribed++;
    items.push(toItem(projectId, contact), { ...contactKeys.emailLookup(projectId, email), contactId: contact.id });
  });
  items.push({ ...contactKeys.counters(projectId), total: emails.length, subscribed });

  const client = benchDocumentClient(stack);
  try {
    await batchWriteAll(client, items);
  } catch (error) {
    throw new Error(`Seeding ${emails.length} contacts failed: ${describeError(error)}`);
  } finally {
    client.destroy();
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(`  seeded ${emails.length.toLocaleString('en')} contacts (${items.length.toLocaleString('en')} items) in ${seconds.toFixed(1)} s`);
}

// ---------------------------------------------------------------------------------------------
// Summary and verdicts

function summarize(context: BenchContext, calls: CallCounts, upserts: UpsertLoad, inProcess: HandlerLoad, list: ListLatency): SectionReport {
  const raw = context.baseline.putItemPerSecond;
  const rows: SummaryRow[] = [];
  const verdicts: Verdict[] = [];

  for (const path of ['create', 'update'] as const) {
    const load = upserts[path];
    // The gateway caches the authorizer per key, so under load each upsert makes the cached-path
    // calls: that is the ceiling raw DynamoDB allows for it.
    const callsPerUpsert = calls[path].count;
    const ceiling = raw / callsPerUpsert;
    rows.push(
      { figure: `POST /contacts ${path}: upserts/s`, value: format.rate(load.perSecond), baseline: `raw PutItem ${format.rate(raw)}`, ratio: format.ratio(load.perSecond / raw) },
      { figure: `POST /contacts ${path}: p50 latency`, value: format.ms(load.p50Ms), baseline: `raw PutItem ${format.ms(context.baseline.putItemP50Ms)}`, ratio: format.ratio(load.p50Ms / context.baseline.putItemP50Ms) },
      { figure: `POST /contacts ${path}: p99 latency`, value: format.ms(load.p99Ms), baseline: `raw PutItem ${format.ms(context.baseline.putItemP99Ms)}`, ratio: format.ratio(load.p99Ms / context.baseline.putItemP99Ms) },
      { figure: `  same, handler in-process (no gateway)`, value: format.rate(inProcess[path].perSecond), baseline: `raw PutItem ${format.rate(raw)}`, ratio: format.ratio(inProcess[path].perSecond / raw) },
      {
        figure: `  DynamoDB calls per ${path}, under load`,
        value: `${inProcess[path].callsPerUpsert.total!.toFixed(2)} (cached)`,
        baseline: `one at a time ${calls[path].count}`,
        ratio: format.ratio(inProcess[path].callsPerUpsert.total! / calls[path].count),
      },
    );
    verdicts.push({
      target: `${path} upserts/s ≥ ${TARGET.throughputShareOfCeiling} × raw PutItem/s ÷ ${callsPerUpsert} calls (cached authorizer) = ${format.rate(TARGET.throughputShareOfCeiling * ceiling)}`,
      measured: `${format.rate(load.perSecond)} (${format.ratio(load.perSecond / ceiling)} of the ${format.rate(ceiling)} ceiling)`,
      pass: load.perSecond >= TARGET.throughputShareOfCeiling * ceiling,
    });
    const unexpected = Object.entries(load.statuses).filter(([status]) => status !== String(path === 'create' ? 201 : 200));
    if (unexpected.length > 0 || load.errors > 0) {
      verdicts.push({ target: `${path} path: every response ${path === 'create' ? 201 : 200}`, measured: `statuses ${JSON.stringify(load.statuses)}, ${load.errors} connection errors`, pass: false });
    }
  }

  for (const path of ['create', 'update'] as const) {
    const cacheMiss = calls.authorizer.count + calls[path].count;
    rows.push({
      figure: `DynamoDB calls per ${path} upsert`,
      value: `${cacheMiss} (cache miss), ${calls[path].count} (cached)`,
      baseline: `target ≤ ${TARGET.maxCallsPerUpsert}`,
      ratio: format.ratio(cacheMiss / TARGET.maxCallsPerUpsert),
    });
    verdicts.push({ target: `${path} path ≤ ${TARGET.maxCallsPerUpsert} DynamoDB calls, authorizer cache miss`, measured: `${calls.authorizer.count} + ${calls[path].count} = ${cacheMiss}`, pass: cacheMiss <= TARGET.maxCallsPerUpsert });
  }
  rows.push(
    { figure: 'DynamoDB calls, update flipping subscribed', value: `${calls.authorizer.count + calls.flip.count} (cache miss), ${calls.flip.count} (cached)`, baseline: '(informational)', ratio: '' },
    { figure: 'DynamoDB calls, create opening a rate window', value: `${calls.authorizer.count + calls.windowOpen.count} (cache miss), ${calls.windowOpen.count} (cached)`, baseline: '(informational)', ratio: '' },
  );

  const p50 = (samples: Record<ListSize, number[]>) => ({ small: percentile(samples.small, 50), large: percentile(samples.large, 50) });
  const gateway = p50(list.gateway);
  const rawQuery = p50(list.rawQuery);
  const rawBetween = p50(list.rawBetween);
  const growth = gateway.large / gateway.small;
  const [small, large] = [LIST_SIZES.small.toLocaleString('en'), LIST_SIZES.large.toLocaleString('en')];
  rows.push(
    { figure: `GET /contacts?limit=100 p50, ${large} contacts`, value: format.ms(gateway.large), baseline: `${small} contacts ${format.ms(gateway.small)}`, ratio: format.ratio(growth) },
    { figure: `  raw Query (same page) p50, ${large} contacts`, value: format.ms(rawQuery.large), baseline: `${small} contacts ${format.ms(rawQuery.small)}`, ratio: format.ratio(rawQuery.large / rawQuery.small) },
    { figure: `  raw Query, BETWEEN for begins_with, ${large}`, value: format.ms(rawBetween.large), baseline: `${small} contacts ${format.ms(rawBetween.small)}`, ratio: format.ratio(rawBetween.large / rawBetween.small) },
  );
  verdicts.push({
    target: `GET /contacts p50 at ${large} ÷ p50 at ${small} contacts ≤ ${TARGET.maxListLatencyGrowth}`,
    measured: `${format.ratio(growth)} (raw Query alone: ${format.ratio(rawQuery.large / rawQuery.small)}; with BETWEEN: ${format.ratio(rawBetween.large / rawBetween.small)})`,
    pass: growth <= TARGET.maxListLatencyGrowth,
  });

  return { rows, verdicts };
}
