/**
 * Campaign benchmarks (issue "Campaigns", verdicts as revised by issue #19):
 * 1. Fan-out: recipients queued per second by campaign-dispatch's code (read the audience page,
 *    render, write the email records, queue the messages, checkpoint) for a 50,000-recipient
 *    audience — target ≥ 10× the bench stack's configured SES rate (SEND_RATE_PER_SECOND), so that
 *    queueing never holds a campaign back. Raw local SQS SendMessageBatch of as many messages with
 *    the same chunking, and raw BatchWriteItem of the records + their messages, are informational
 *    rows: they measure DynamoDB Local and the SQS emulator, not the design. The fan-out runs in a
 *    child process (test/bench/campaign-dispatch-worker.ts), once for 10,000 and once for 50,000
 *    recipients — target: heap after a forced GC at 50k within 10 % of 10k (nothing held per
 *    recipient); peak RSS, V8's uncollected garbage, is reported beside it. Its messages go to
 *    queues nobody polls, so the stack's campaign-sender does not take them.
 * 2. /v1/send while a campaign drains: POST /v1/send latency from the request to the email's
 *    arrival at the local SES (the SES emulator's arrival log, by email id), one send every
 *    LATENCY_INTERVAL_MS — first with nothing else sending, then while a 20,000-recipient campaign
 *    of the seeded project, sent through the API, drains through the stack's own pipeline. Target:
 *    p99 beside the campaign ≤ 1.5× p99 alone. Measured twice: on the bench stack
 *    (SEND_RATE_PER_SECOND=50, more than two cores sustain, so the machine is the bottleneck) and on
 *    a second stack started here at PACED_SEND_RATE, which the machine sustains, so that the pacer
 *    is the bottleneck and transactional precedence shows. Each campaign is cancelled afterwards.
 *
 * Shared modules are imported lazily: the environment must point at the stack first.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { CreateQueueCommand, SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import { batchWriteAll, benchDocumentClient, TABLE_NAME } from './dynamo';
import { percentile } from './measure';
import { format, heading, printTable, type Section, type SectionReport } from './report';
import { waitUntilStackIdle } from './stack';
import { startLocalStack, stopLocalStack, type LocalStack } from '../support/local-stack';

const FANOUT_SIZES = { small: 10_000, large: 50_000 } as const;
const DRAIN_AUDIENCE = 20_000;
const LATENCY_SAMPLES = 60;
const LATENCY_INTERVAL_MS = 1_000;
/** A sampled send that has not reached SES this long after the last sample is reported as never arrived. */
const ARRIVAL_TIMEOUT_MS = 180_000;
const TARGET = { timesSesRate: 10, heapGrowth: 0.1, sendP99Growth: 1.5 };
/** The second stack's rate: one this machine sustains, so that the pacer, not the CPU, holds the drain. */
const PACED_SEND_RATE = 10;
const FROM = `hello@${process.env.LOCAL_SENDER_DOMAIN || 'example.com'}`;
const runId = Date.now().toString(36);
const fanoutProject = (size: number) => `bench-campaign-${size}-${runId}`;

const sqsOf = (stack: LocalStack) => new SQSClient({ endpoint: stack.sqsEndpoint, region: 'us-east-1', credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The stack's unsubscribe-link signing secret: Secrets Manager's generated value, kept locally in
 * `<dataDir>/secrets.json` (ARN → value). The in-process dispatch only needs some signing value;
 * the stack's own makes its links valid ones.
 */
function unsubscribeSecret(stack: LocalStack): string {
  const secrets = JSON.parse(readFileSync(path.join(stack.dataDir, 'secrets.json'), 'utf8')) as Record<string, string>;
  const value = Object.entries(secrets).find(([arn]) => arn.includes('UnsubscribeSigningSecret'))?.[1];
  if (!value) throw new Error(`No unsubscribe signing secret in ${path.join(stack.dataDir, 'secrets.json')} (ARNs: ${Object.keys(secrets).join(', ')})`);
  return value;
}

async function createQueue(stack: LocalStack, name: string): Promise<string> {
  const { QueueUrl } = await sqsOf(stack).send(new CreateQueueCommand({ QueueName: name }));
  return QueueUrl!;
}

/** `count` subscribed contacts of `projectId`, written directly (untimed seeding). */
async function seedContacts(stack: LocalStack, projectId: string, count: number, data: (index: number) => Record<string, unknown>): Promise<void> {
  const { toItem } = await import('../../shared/contacts/contacts');
  const now = new Date().toISOString();
  const items = Array.from({ length: count }, (_, index) =>
    toItem(projectId, { id: ulid(Date.now() - 60_000), email: `reader${index}-${runId}@${projectId === stack.projectId ? 'drain' : 'fanout'}.example.com`, subscribed: true, data: data(index), createdAt: now, updatedAt: now }),
  );
  await batchWriteAll(benchDocumentClient(stack), items, 8);
}

async function api(stack: LocalStack, method: string, route: string, body?: unknown): Promise<any> {
  const response = await fetch(`${stack.baseUrl}${route}`, {
    method,
    headers: { Authorization: `Bearer ${stack.secretKey}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await response.json()) as { data: any; error?: unknown };
  if (!response.ok) throw new Error(`${method} ${route} answered ${response.status}: ${JSON.stringify(json.error)}`);
  return json.data;
}

// ---------------------------------------------------------------------------------------------
// 1. Fan-out

/** Raw SendMessageBatch of `count` messages, 25 batches of 10 in flight at a time (a dispatch page's chunking). */
async function rawFanout(stack: LocalStack, queueUrl: string, count: number): Promise<number> {
  const sqs = sqsOf(stack);
  const started = performance.now();
  for (let page = 0; page < count; page += 250) {
    const size = Math.min(250, count - page);
    await Promise.all(
      Array.from({ length: Math.ceil(size / 10) }, (_, batch) =>
        sqs.send(new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: Array.from({ length: Math.min(10, size - batch * 10) }, (__, index) => ({ Id: String(index), MessageBody: JSON.stringify({ projectId: 'raw', emailId: ulid() }) })) })),
      ),
    );
  }
  return count / ((performance.now() - started) / 1000);
}

/**
 * The same page-by-page work done raw: for every 250, BatchWriteItem of 250 email-sized items
 * (10 chunks of 25 at once), then their messages (25 SendMessageBatch at once) — the fan-out less
 * its own logic (the audience read, rendering, checkpoints). Shows what DynamoDB Local's writes
 * cost beside the SQS-only baseline.
 */
async function rawRecordsAndMessages(stack: LocalStack, queueUrl: string, count: number): Promise<number> {
  const sqs = sqsOf(stack);
  const client = benchDocumentClient(stack);
  const { emailKeys } = await import('../../shared/emails/keys');
  const projectId = `bench-campaign-raw-${runId}`;
  const now = new Date().toISOString();
  const started = performance.now();
  for (let page = 0; page < count; page += 250) {
    const items = Array.from({ length: Math.min(250, count - page) }, (_, index) => {
      const id = ulid();
      return {
        ...emailKeys.email(projectId, id), id, projectId, status: 'QUEUED', to: `reader${page + index}@fanout.example.com`, from: { email: 'news@example.com' }, subject: `Hello Reader ${page + index}`,
        html: `<p>Hi Reader ${page + index} (reader${page + index}@fanout.example.com) <a href="${stack.baseUrl}/unsubscribe/${'x'.repeat(120)}">unsubscribe</a></p>`, source: { type: 'campaign', id: 'raw' }, createdAt: now, updatedAt: now,
      };
    });
    await batchWriteAll(client, items, 10);
    await Promise.all(
      Array.from({ length: Math.ceil(items.length / 10) }, (_, batch) =>
        sqs.send(new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: items.slice(batch * 10, batch * 10 + 10).map((item, index) => ({ Id: String(index), MessageBody: JSON.stringify({ projectId, emailId: item.id }) })) })),
      ),
    );
  }
  return count / ((performance.now() - started) / 1000);
}

interface DispatchRun {
  recipients: number;
  done: boolean;
  seconds: number;
  peakRssMb: number;
  baselineRssMb: number;
  invocations: number;
  retainedHeapMb: number;
  startHeapMb: number;
  /** AWS calls of the whole fan-out, by service and command. */
  calls: Record<string, number>;
  /** DynamoDB capacity units those calls consumed, as DynamoDB Local reports them. */
  units: { read: number; write: number };
}

/** A SENDING campaign to every subscribed contact of `projectId`, as POST /send leaves it, fanned out by the worker process. */
async function runDispatch(size: number): Promise<DispatchRun & { perSecond: number }> {
  const projectId = fanoutProject(size);
  const { toItem, startFields } = await import('../../shared/campaigns/store');
  const { documentClient } = await import('../../shared/aws/clients');
  const { tableName } = await import('../../shared/db/table');
  const { PutCommand } = await import('@aws-sdk/lib-dynamodb');
  const campaignId = ulid();
  const sentAt = new Date().toISOString();
  const subject = 'Hello {{contact.data.name}}';
  const html = '<p>Hi {{contact.data.name}} ({{contact.email}}) <a href="{{unsubscribeUrl}}">unsubscribe</a></p>';
  const from = { email: 'news@example.com' };
  const campaign = {
    id: campaignId, name: 'bench', description: null, subject, body: html, text: null, templateId: null, from, replyTo: null, segmentId: null, status: 'SENDING' as const,
    scheduledFor: null, cancelledAt: null, pausedAt: null, pauseReason: null, createdAt: sentAt, updatedAt: sentAt, version: 1, ...startFields(sentAt, { subject, html, from, replyTo: null }),
  };
  await documentClient.send(new PutCommand({ TableName: tableName, Item: toItem(projectId, campaign) }));
  const { stdout } = await promisify(execFile)(process.execPath, [path.resolve('node_modules/tsx/dist/cli.mjs'), 'test/bench/campaign-dispatch-worker.ts', projectId, campaignId], {
    env: { ...process.env, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --expose-gc`.trim() },
    maxBuffer: 16 * 1024 * 1024,
    timeout: 1_800_000,
  });
  const run = JSON.parse(stdout.trim().split('\n').pop()!) as DispatchRun;
  if (!run.done || run.recipients !== size) throw new Error(`The ${size}-recipient fan-out ended done=${run.done} with ${run.recipients} recipients queued`);
  const perSecond = run.recipients / run.seconds;
  console.log(`  ${size.toLocaleString('en')} recipients: ${format.rate(perSecond)} (${run.seconds.toFixed(1)} s, ${run.invocations} invocation(s)), peak RSS ${run.peakRssMb.toFixed(1)} MB (${run.baselineRssMb.toFixed(1)} MB at start), heap after GC at the end ${run.retainedHeapMb.toFixed(1)} MB (${run.startHeapMb.toFixed(1)} MB at start)`);
  const perRecipient = (count: number) => (count / run.recipients).toFixed(3);
  console.log(`  calls per recipient: ${Object.entries(run.calls).sort(([a], [b]) => a.localeCompare(b)).map(([name, count]) => `${name} ${perRecipient(count)}`).join(', ')}; DynamoDB units per recipient: ${perRecipient(run.units.write)} WRU, ${perRecipient(run.units.read)} RRU`);
  return { ...run, perSecond };
}

// ---------------------------------------------------------------------------------------------
// 2. /v1/send latency to SES, alone and beside a draining campaign

async function arrivals(stack: LocalStack): Promise<{ at: number; emailId?: string }[]> {
  const response = await fetch(`${stack.sesUrl}/_local/arrivals`);
  if (!response.ok) throw new Error(`GET /_local/arrivals answered ${response.status}`);
  return ((await response.json()) as { arrivals: { at: number; emailId?: string }[] }).arrivals;
}

interface LatencySample {
  latencies: number[];
  lost: number;
  from: number;
  to: number;
}

/** LATENCY_SAMPLES single-recipient sends, one every LATENCY_INTERVAL_MS; each timed from its request to its arrival at SES. */
async function sampleSendLatency(stack: LocalStack, label: string): Promise<LatencySample> {
  const sent: { emailId: string; at: number }[] = [];
  const from = Date.now();
  for (let index = 0; index < LATENCY_SAMPLES; index++) {
    const tick = from + index * LATENCY_INTERVAL_MS;
    await sleep(Math.max(0, tick - Date.now()));
    const at = Date.now();
    const data = await api(stack, 'POST', '/v1/send', { from: FROM, to: `urgent-${label.replace(/\W+/g, '-')}-${index}-${runId}@latency.example.com`, subject: 'Reset your password', body: '<p>Your code is 123456.</p>' });
    sent.push({ emailId: data.emails[0].email, at });
  }
  const to = Date.now();
  const arrivedAt = new Map<string, number>();
  const deadline = Date.now() + ARRIVAL_TIMEOUT_MS;
  // The arrivals hold the campaign's mail too: wait on the samples themselves.
  const allArrived = () => sent.every(({ emailId }) => arrivedAt.has(emailId));
  while (Date.now() < deadline) {
    for (const arrival of await arrivals(stack)) if (arrival.emailId) arrivedAt.set(arrival.emailId, arrival.at);
    if (allArrived()) break;
    await sleep(1_000);
  }
  const latencies = sent.filter(({ emailId }) => arrivedAt.has(emailId)).map(({ emailId, at }) => arrivedAt.get(emailId)! - at);
  const lost = sent.length - latencies.length;
  console.log(`  ${label}: p50 ${format.ms(percentile(latencies, 50))}, p99 ${format.ms(percentile(latencies, 99))}, max ${format.ms(Math.max(...latencies))}${lost ? `, ${lost} not at SES ${ARRIVAL_TIMEOUT_MS / 1000} s after the last sample` : ''}`);
  // Where each missing one is, to trace it in the stack's log (LOCAL_STACK_LOG).
  const { emailKeys } = await import('../../shared/emails/keys');
  for (const { emailId, at } of sent.filter(({ emailId }) => !arrivedAt.has(emailId))) {
    const { Item } = await benchDocumentClient(stack).send(new GetCommand({ TableName: TABLE_NAME, Key: emailKeys.email(stack.projectId, emailId), ConsistentRead: true }));
    console.log(`    missing ${emailId} (sent ${new Date(at).toISOString()}): ${Item ? `${Item.status}, updated ${Item.updatedAt}${Item.failureReason ? `, ${Item.failureReason}` : ''}` : 'no record'}`);
  }
  return { latencies, lost, from, to };
}

/** Sends the 20,000-recipient campaign through the API and waits until its mail flows; returns its id. */
async function startDrain(stack: LocalStack): Promise<string> {
  const segment = await api(stack, 'POST', '/segments', { name: `bench drain ${runId}`, filters: { operator: 'AND', conditions: [{ field: 'data.benchDrain', operator: 'equals', value: runId }] } });
  const campaign = await api(stack, 'POST', '/campaigns', {
    name: `bench drain ${runId}`,
    subject: 'News for {{contact.data.name}}',
    body: '<p>Hi {{contact.data.name}}</p><p><a href="{{unsubscribeUrl}}">Unsubscribe</a></p>',
    from: FROM,
    segmentId: segment.id,
  });
  const started = Date.now();
  await api(stack, 'POST', `/campaigns/${campaign.id}/send`);
  for (;;) {
    const stats = await api(stack, 'GET', `/campaigns/${campaign.id}/stats`);
    if (stats.sentCount >= 100) break;
    if (Date.now() - started > 120_000) throw new Error(`The campaign had sent ${stats.sentCount} emails 120 s after POST /send`);
    await sleep(1_000);
  }
  console.log(`  campaign ${campaign.id} to ${DRAIN_AUDIENCE.toLocaleString('en')} contacts: mail flowing ${((Date.now() - started) / 1000).toFixed(1)} s after POST /send`);
  return campaign.id;
}

/** The drain audience: contacts of the stack's seeded project that the drain's segment selects. */
const seedDrainAudience = (stack: LocalStack) => seedContacts(stack, stack.projectId, DRAIN_AUDIENCE, (index) => ({ name: `Reader ${index}`, benchDrain: runId }));

interface LatencyPair {
  rate: number;
  alone: LatencySample;
  beside: LatencySample;
  /** The campaign's status when the sampling beside it ended: SENDING, or it did not compete for all of it. */
  status: string;
  /** Every SES arrival per second while sampling beside the campaign, the campaign's and the samples'. */
  sesRate: number;
}

/**
 * /v1/send → SES alone, then beside the drain campaign of `stack` (whose audience is seeded), at
 * the stack's `rate`. `settle`: wait for the stack to go idle after the cancel, when the rest of
 * the run goes on using it.
 */
async function latencyPair(stack: LocalStack, rate: number, { settle }: { settle: boolean }): Promise<LatencyPair> {
  heading(`campaigns: POST /v1/send latency to SES, alone and while a ${DRAIN_AUDIENCE.toLocaleString('en')}-recipient campaign drains at SEND_RATE_PER_SECOND=${rate}`);
  await waitUntilStackIdle(stack, { maxSeconds: 300 });
  const alone = await sampleSendLatency(stack, `alone, ${rate}/s`);
  const campaignId = await startDrain(stack);
  const beside = await sampleSendLatency(stack, `beside the campaign, ${rate}/s`);
  const { status } = await api(stack, 'GET', `/campaigns/${campaignId}`);
  const arrivalsWhileSampling = (await arrivals(stack)).filter(({ at }) => at >= beside.from && at <= beside.to).length;
  const sesRate = arrivalsWhileSampling / ((beside.to - beside.from) / 1000);
  console.log(`  the campaign was ${status} when sampling ended; SES took ${format.rate(sesRate)} in all during the sampling (configured ${rate}/s)`);
  // Cancelled so that the rest of the run does not wait for its drain.
  if (status === 'SENDING') await api(stack, 'POST', `/campaigns/${campaignId}/cancel`);
  if (settle) await waitUntilStackIdle(stack, { maxSeconds: 300 });
  return { rate, alone, beside, status, sesRate };
}

/**
 * The latency pair on a second stack whose pacer is the bottleneck (SEND_RATE_PER_SECOND is a
 * deploy-time setting, so another rate is another stack). It is stopped on every exit path, a
 * Ctrl-C of the bench included (it runs in its own process group).
 */
async function latencyPairOnPacedStack(main: LocalStack, rate: number): Promise<LatencyPair> {
  heading(`campaigns: a second local stack at SEND_RATE_PER_SECOND=${rate}, ${DRAIN_AUDIENCE.toLocaleString('en')} drain contacts seeded on it`);
  const starting = performance.now();
  const paced = await startLocalStack({ RATE_LIMIT_PER_MINUTE: main.env.RATE_LIMIT_PER_MINUTE ?? '', SEND_RATE_PER_SECOND: String(rate) });
  const killOnExit = () => {
    try {
      process.kill(-paced.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  };
  process.once('exit', killOnExit);
  try {
    console.log(`  up in ${((performance.now() - starting) / 1000).toFixed(1)} s at ${paced.baseUrl}`);
    await seedDrainAudience(paced);
    await waitUntilStackIdle(paced, { maxSeconds: 600 });
    return await latencyPair(paced, rate, { settle: false });
  } finally {
    process.off('exit', killOnExit);
    await stopLocalStack(paced);
  }
}

const p99 = (sample: LatencySample) => (sample.lost > 0 ? Number.POSITIVE_INFINITY : percentile(sample.latencies, 99));

/** The verdict on one pair: p99 beside at most TARGET.sendP99Growth × alone, the campaign sending throughout. */
function latencyVerdict({ rate, alone, beside, status }: LatencyPair) {
  const growth = p99(beside) / p99(alone);
  return {
    target: `/v1/send → SES p99 beside a draining ${DRAIN_AUDIENCE.toLocaleString('en')}-recipient campaign ≤ ${TARGET.sendP99Growth}× alone at ${rate}/s (campaign still sending: ${status === 'SENDING' ? 'yes' : 'no'})`,
    measured: `${format.ms(p99(beside))} vs ${format.ms(p99(alone))} (${format.ratio(growth)})`,
    pass: status === 'SENDING' && growth <= TARGET.sendP99Growth,
  };
}

export const campaignsSection: Section = {
  title: 'campaigns',
  async prepare({ stack }) {
    heading(`campaigns: seeding ${FANOUT_SIZES.small.toLocaleString('en')} + ${FANOUT_SIZES.large.toLocaleString('en')} fan-out contacts and ${DRAIN_AUDIENCE.toLocaleString('en')} on the seeded project`);
    for (const size of [FANOUT_SIZES.small, FANOUT_SIZES.large]) await seedContacts(stack, fanoutProject(size), size, (index) => ({ name: `Reader ${index}` }));
    await seedDrainAudience(stack);
    // The table stream's consumers look at every new contact; the baseline waits for them.
    await waitUntilStackIdle(stack, { maxSeconds: 600 });
  },
  async run({ stack }): Promise<SectionReport> {
    const sendRate = Number(stack.env.SEND_RATE_PER_SECOND);
    if (!(sendRate > 0)) throw new Error(`The bench stack was started without SEND_RATE_PER_SECOND (${stack.env.SEND_RATE_PER_SECOND})`);
    heading(`campaigns: fan-out of ${FANOUT_SIZES.large.toLocaleString('en')} recipients (and ${FANOUT_SIZES.small.toLocaleString('en')} for memory), against the configured SES rate ${sendRate}/s and raw SendMessageBatch`);
    // The worker inherits this environment: queues nobody polls, the stack's signing key for links.
    process.env.CAMPAIGN_SEND_QUEUE_URL = await createQueue(stack, `bench-campaign-send-${runId}`);
    process.env.CAMPAIGN_FANOUT_QUEUE_URL = await createQueue(stack, `bench-campaign-fanout-${runId}`);
    process.env.UNSUBSCRIBE_SECRET = unsubscribeSecret(stack);
    process.env.PUBLIC_API_URL = stack.baseUrl;
    const raw = await rawFanout(stack, await createQueue(stack, `bench-raw-${runId}`), FANOUT_SIZES.large);
    console.log(`  raw SendMessageBatch: ${format.rate(raw)}`);
    const rawWithRecords = await rawRecordsAndMessages(stack, await createQueue(stack, `bench-raw-records-${runId}`), FANOUT_SIZES.large);
    console.log(`  raw BatchWriteItem of the records + SendMessageBatch: ${format.rate(rawWithRecords)}`);
    const small = await runDispatch(FANOUT_SIZES.small);
    const large = await runDispatch(FANOUT_SIZES.large);
    const ofSesRate = large.perSecond / sendRate;
    const rssGrowth = large.peakRssMb / small.peakRssMb - 1;
    const heapGrowth = large.retainedHeapMb / small.retainedHeapMb - 1;

    const pairs = [await latencyPair(stack, sendRate, { settle: true }), await latencyPairOnPacedStack(stack, PACED_SEND_RATE)];

    const rows = [
      [`campaign fan-out, 50k recipients (records + messages + checkpoints)`, `${format.rate(large.perSecond)} (${format.ratio(ofSesRate)} the SES rate ${sendRate}/s)`],
      ['raw SQS SendMessageBatch, same chunking (informational)', `${format.rate(raw)} (fan-out ${format.ratio(large.perSecond / raw)} of it)`],
      ['raw BatchWriteItem of as many email records + SendMessageBatch (informational)', `${format.rate(rawWithRecords)} (fan-out ${format.ratio(large.perSecond / rawWithRecords)} of it)`],
      ['dispatch heap after GC at the end, 10k / 50k', `${small.retainedHeapMb.toFixed(1)} / ${large.retainedHeapMb.toFixed(1)} MB (${(heapGrowth * 100).toFixed(1)} %)`],
      ['dispatch peak RSS, 10k / 50k (informational)', `${small.peakRssMb.toFixed(1)} / ${large.peakRssMb.toFixed(1)} MB (${(rssGrowth * 100).toFixed(1)} %)`],
      ['dispatch calls per recipient, 50k (for the README cost page)', `${(Object.values(large.calls).reduce((sum, count) => sum + count, 0) / large.recipients).toFixed(3)} (${(large.units.write / large.recipients).toFixed(2)} WRU, ${(large.units.read / large.recipients).toFixed(2)} RRU)`],
      ...pairs.flatMap(({ rate, alone, beside, sesRate }) => [
        [`/v1/send → SES p50 / p99 at ${rate}/s, alone`, `${format.ms(percentile(alone.latencies, 50))} / ${format.ms(p99(alone))}`],
        [`/v1/send → SES p50 / p99 at ${rate}/s, beside the campaign`, `${format.ms(percentile(beside.latencies, 50))} / ${format.ms(p99(beside))}`],
        [`all SES arrivals/s while sampling beside the campaign at ${rate}/s`, format.rate(sesRate)],
      ]),
    ];
    heading('campaigns summary');
    printTable(['figure', 'value'], rows);
    return {
      rows: [
        { figure: `campaign fan-out of ${FANOUT_SIZES.large.toLocaleString('en')} recipients`, value: format.rate(large.perSecond), baseline: `SES rate ${sendRate}/s`, ratio: format.ratio(ofSesRate) },
        { figure: 'the same against raw SQS SendMessageBatch (informational)', value: format.rate(large.perSecond), baseline: `${format.rate(raw)} raw`, ratio: format.ratio(large.perSecond / raw) },
        { figure: 'campaign dispatch heap after GC at 50k', value: `${large.retainedHeapMb.toFixed(1)} MB`, baseline: `${small.retainedHeapMb.toFixed(1)} MB at 10k`, ratio: format.ratio(large.retainedHeapMb / small.retainedHeapMb) },
        { figure: 'campaign dispatch peak RSS at 50k (informational)', value: `${large.peakRssMb.toFixed(1)} MB`, baseline: `${small.peakRssMb.toFixed(1)} MB at 10k`, ratio: format.ratio(large.peakRssMb / small.peakRssMb) },
        ...pairs.map(({ rate, alone, beside }) => ({ figure: `/v1/send → SES p99 beside a draining campaign at ${rate}/s`, value: format.ms(p99(beside)), baseline: `${format.ms(p99(alone))} alone`, ratio: format.ratio(p99(beside) / p99(alone)) })),
      ],
      verdicts: [
        { target: `fan-out ≥ ${TARGET.timesSesRate}× the configured SES rate (${sendRate}/s)`, measured: `${format.rate(large.perSecond)} (${format.ratio(ofSesRate)})`, pass: ofSesRate >= TARGET.timesSesRate },
        { target: `dispatch heap after GC at 50k within ${TARGET.heapGrowth * 100} % of 10k`, measured: `${(heapGrowth * 100).toFixed(1)} %`, pass: Math.abs(heapGrowth) <= TARGET.heapGrowth },
        ...pairs.map(latencyVerdict),
      ],
    };
  },
};
