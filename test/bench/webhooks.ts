/**
 * Webhook benchmarks (issue #12: "deliveries per second to a local receiver against raw HTTP
 * POSTs from the same process (ratio reported), and the /v1/send request rate with and without
 * 10 endpoints subscribed to every kind, in the same run: ratio ≥ 0.9"):
 *
 * 1. Deliveries per second to one endpoint: DELIVERIES test events queued at once
 *    (POST /webhooks/{id}/test, which writes the delivery and queues it as the stream consumer
 *    does), timed from the first request until the receiver holds them all. Each delivery is the
 *    whole path: the delivery queue, the consumer's reads (delivery, endpoint, secret decryption),
 *    a concurrency slot, signing, the POST and the recorded outcome — at most
 *    WEBHOOK_ENDPOINT_CONCURRENCY (5) at once to one endpoint, by design. Against it: the same
 *    number of raw POSTs of the same body from this process, 5 at a time.
 * 2. POST /v1/send requests/s on the seeded project (its sender domain is verified), alternately
 *    without endpoints and with 10 endpoints subscribed to "*" (each send then fans out
 *    contact.created, email.sent and email.delivered to 10 endpoints: 30 deliveries per send).
 *    Nothing in the request looks for endpoints; locally the stream consumer and the deliveries
 *    run in the stack's process beside the gateway and compete with it for the same two cores,
 *    which the ratio shows. In AWS they are other Lambdas.
 *
 * The bench stack allows 127.0.0.1 (WEBHOOK_ALLOWED_HOSTS, run.ts). Imported by run.ts only
 * AFTER pointServiceAtStack and pointQueuesAtStack.
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LocalStack } from '../support/local-stack';
import { httpLoad, type LoadResult } from './measure';
import { format, heading, printTable, type BenchContext, type Section, type SectionReport } from './report';
import { waitUntilStackIdle } from './stack';

const DELIVERIES = 300;
const RAW_CONCURRENCY = 5;
const ENDPOINTS_ON_SEND = 10;
const TARGET = { minSendRatio: 0.9 };
const FROM = `hello@${process.env.LOCAL_SENDER_DOMAIN || 'example.com'}`;
const runId = Date.now().toString(36);

let receiver: { server: Server; url: string; count: (path: string) => number } | undefined;

async function startReceiver() {
  const counts = new Map<string, number>();
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const path = request.url ?? '/';
      counts.set(path, (counts.get(path) ?? 0) + 1);
      response.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, count: (path: string) => counts.get(path) ?? 0 };
}

async function call(stack: LocalStack, method: string, path: string, body?: unknown): Promise<any> {
  const response = await fetch(`${stack.baseUrl}${path}`, {
    method,
    headers: { Authorization: `Bearer ${stack.secretKey}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await response.json()) as { data: any; error?: unknown };
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${JSON.stringify(json.error)}`);
  return json.data;
}

export const webhooksSection: Section = {
  title: 'Webhooks',

  async prepare() {
    receiver = await startReceiver();
  },

  async run(context) {
    if (!receiver) throw new Error('The webhooks section runs after its prepare()');
    try {
      const delivery = await measureDeliveries(context, receiver);
      const raw = await measureRawPosts(receiver);
      const sends = await measureSendRates(context, receiver);
      return summarize(delivery, raw, sends);
    } finally {
      receiver.server.closeAllConnections();
      receiver.server.close();
    }
  },
};

async function waitForCount(path: string, expected: number, timeoutMs: number): Promise<number> {
  const started = performance.now();
  while (receiver!.count(path) < expected) {
    if (performance.now() - started > timeoutMs) throw new Error(`Only ${receiver!.count(path)} of ${expected} deliveries to ${path} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return performance.now();
}

async function measureDeliveries(context: BenchContext, target: NonNullable<typeof receiver>): Promise<number> {
  heading(`Deliveries to one local endpoint: ${DELIVERIES} test events queued at once, until the receiver has them all`);
  const path = `/deliveries-${runId}`;
  const endpoint = await call(context.stack, 'POST', '/webhooks', { url: `${target.url}${path}`, events: ['event:bench_none'] });
  await waitUntilStackIdle(context.stack);
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < DELIVERIES) {
        next++;
        await call(context.stack, 'POST', `/webhooks/${endpoint.id}/test`);
      }
    }),
  );
  const queued = performance.now();
  const deliveredWhileQueueing = target.count(path);
  const finished = await waitForCount(path, DELIVERIES, 300_000);
  const overall = DELIVERIES / ((finished - started) / 1000);
  // The API queueing the tests shares the stack's CPU; after it, the consumer has the CPU to itself.
  const perSecond = finished > queued && deliveredWhileQueueing < DELIVERIES ? (DELIVERIES - deliveredWhileQueueing) / ((finished - queued) / 1000) : overall;
  console.log(
    `  queued in ${((queued - started) / 1000).toFixed(1)} s (${deliveredWhileQueueing} delivered meanwhile), all delivered after ${((finished - started) / 1000).toFixed(1)} s: ${format.rate(overall)} overall, ${format.rate(perSecond)} once queued`,
  );
  await call(context.stack, 'DELETE', `/webhooks/${endpoint.id}`);
  return perSecond;
}

async function measureRawPosts(target: NonNullable<typeof receiver>): Promise<number> {
  heading(`Raw POSTs of the same size from this process to the same receiver, ${RAW_CONCURRENCY} at a time`);
  const path = `/raw-${runId}`;
  const body = JSON.stringify({ type: 'webhook.test', timestamp: new Date().toISOString(), data: { webhookId: '0'.repeat(26), url: `${target.url}${path}`, message: 'A test event from Mailwright' } });
  const post = () =>
    new Promise<void>((resolve, reject) => {
      const request = httpRequest(`${target.url}${path}`, { method: 'POST', agent: false, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (response) => {
        response.resume();
        response.on('end', () => resolve());
      });
      request.on('error', reject);
      request.end(body);
    });
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: RAW_CONCURRENCY }, async () => {
      while (next < DELIVERIES) {
        next++;
        await post();
      }
    }),
  );
  const perSecond = DELIVERIES / ((performance.now() - started) / 1000);
  console.log(`  ${format.rate(perSecond)}`);
  return perSecond;
}

async function sendLoad(context: BenchContext, label: string, counter: { n: number }): Promise<LoadResult> {
  const load = await httpLoad({
    url: context.stack.baseUrl,
    method: 'POST',
    path: '/v1/send',
    headers: { Authorization: `Bearer ${context.stack.secretKey}`, 'Content-Type': 'application/json' },
    nextBody: () => JSON.stringify({ to: `wh-${runId}-${counter.n++}@bench.example.com`, from: FROM, subject: 'Bench', body: '<p>hi</p>' }),
    connections: context.concurrency,
    seconds: context.seconds,
    warmupSeconds: context.warmupSeconds,
    expectedStatus: 200,
  });
  console.log(`  ${label}: ${format.rate(load.perSecond)} sends, p50 ${format.ms(load.p50Ms)}, p99 ${format.ms(load.p99Ms)}, statuses ${JSON.stringify(load.statuses)}`);
  return load;
}

async function measureSendRates(context: BenchContext, target: NonNullable<typeof receiver>) {
  heading(`POST /v1/send, ${context.concurrency} connections: no endpoints vs ${ENDPOINTS_ON_SEND} endpoints on "*" (alternating)`);
  const path = `/sends-${runId}`;
  const endpoints: string[] = [];
  for (let index = 0; index < ENDPOINTS_ON_SEND; index++) {
    const endpoint = await call(context.stack, 'POST', '/webhooks', { url: `${target.url}${path}`, events: ['*'], description: `bench ${index}` });
    await call(context.stack, 'PATCH', `/webhooks/${endpoint.id}`, { enabled: false });
    endpoints.push(endpoint.id);
  }
  const setEnabled = (enabled: boolean) => Promise.all(endpoints.map((id) => call(context.stack, 'PATCH', `/webhooks/${id}`, { enabled })));
  const counter = { n: 0 };
  const none: LoadResult[] = [];
  const loaded: LoadResult[] = [];
  let catchUpSeconds = 0;
  for (let round = 0; round < 2; round++) {
    await waitUntilStackIdle(context.stack, { maxSeconds: 300 });
    none.push(await sendLoad(context, 'no endpoints', counter));
    await waitUntilStackIdle(context.stack, { maxSeconds: 300 });
    await setEnabled(true);
    loaded.push(await sendLoad(context, `${ENDPOINTS_ON_SEND} endpoints`, counter));
    // The loaded run's deliveries (and the email events the paced sender records later) all go out
    // before the endpoints are disabled for the next run without them.
    const started = performance.now();
    await waitUntilStackIdle(context.stack, { maxSeconds: 300 });
    catchUpSeconds = Math.max(catchUpSeconds, (performance.now() - started) / 1000);
    await setEnabled(false);
  }
  for (const id of endpoints) await call(context.stack, 'DELETE', `/webhooks/${id}`);
  console.log(`  ${target.count(path)} deliveries received from the loaded runs`);
  return { none, loaded, catchUpSeconds, received: target.count(path) };
}

function summarize(delivery: number, raw: number, sends: Awaited<ReturnType<typeof measureSendRates>>): SectionReport {
  const mean = (loads: LoadResult[]) => loads.reduce((sum, load) => sum + load.perSecond, 0) / loads.length;
  const sendRatio = mean(sends.loaded) / mean(sends.none);
  const rows = [
    ['deliveries/s to one endpoint (5 at once), after the queueing', format.rate(delivery)],
    ['raw POSTs/s from this process (5 at once)', format.rate(raw)],
    ['ratio', format.ratio(delivery / raw)],
    ['/v1/send, no endpoints', format.rate(mean(sends.none))],
    [`/v1/send, ${ENDPOINTS_ON_SEND} endpoints on "*"`, format.rate(mean(sends.loaded))],
    ['ratio', format.ratio(sendRatio)],
    ['deliveries received from the loaded runs', String(sends.received)],
    ['stack catching up after a loaded run', `${sends.catchUpSeconds.toFixed(0)} s`],
  ];
  heading('Webhooks summary');
  printTable(['figure', 'value'], rows);
  return {
    rows: [
      { figure: 'webhook deliveries/s to one endpoint', value: format.rate(delivery), baseline: `raw POSTs ${format.rate(raw)}`, ratio: format.ratio(delivery / raw) },
      { figure: `/v1/send with ${ENDPOINTS_ON_SEND} endpoints on "*"`, value: format.rate(mean(sends.loaded)), baseline: `${format.rate(mean(sends.none))} without`, ratio: format.ratio(sendRatio) },
    ],
    verdicts: [
      { target: `/v1/send with ${ENDPOINTS_ON_SEND} endpoints on "*" ≥ ${TARGET.minSendRatio} × without (locally the deliveries share the CPU)`, measured: format.ratio(sendRatio), pass: sendRatio >= TARGET.minSendRatio },
    ],
  };
}
