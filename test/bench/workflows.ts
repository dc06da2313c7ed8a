/**
 * Workflow benchmarks (issue #11: "trigger-to-first-email latency locally (p50/p99); /v1/track
 * requests/s with 20 enabled workflows on the tracked event against none, in the same run:
 * ratio ≥ 0.9"):
 *
 * 1. Trigger to first email: a workflow whose first step sends a template, on the seeded project
 *    (its sender domain is verified); one POST /v1/track at a time with a fresh email, timed until
 *    the local SES's store holds the email (polled every 50 ms). The path: the table stream
 *    (polled by the local stream poller), the trigger consumer, the workflow queue, the runner,
 *    the send queue, the sender and its pacer.
 * 2. /v1/track throughput through the gateway, a fresh email per request, on two projects: one
 *    without workflows and one with 20 enabled workflows triggered by the tracked event (each
 *    DELAY 10 minutes → EXIT, so every track starts 20 executions without a flood of mail),
 *    measured alternately (none, 20, none, 20). Locally the trigger consumer and the runner run in
 *    their own worker threads of the stack (each function from its bundle, behind the IAM fronts),
 *    so their work competes with the requests for the same two cores; in AWS they are other
 *    Lambdas. The time the consumer needs to catch up after
 *    the loaded runs is reported too. Beside it, the request path itself: the DynamoDB calls of
 *    one track on each project, counted in-process with the real handlers (the same with or
 *    without workflows: nothing in the request looks for them).
 *
 * Imported by run.ts only AFTER pointServiceAtStack and pointQueuesAtStack.
 */
import { handler as publicHandler } from '../../functions/public/handler';
import { createProject, type CreatedProject } from '../../shared/projects/projects';
import type { LocalStack } from '../support/local-stack';
import { countCalls, describeCalls, type CallCount } from './calls';
import type { ApiRequest } from './events';
import { httpLoad, percentile, type LoadResult } from './measure';
import { format, heading, printTable, type BenchContext, type Section, type SectionReport } from './report';
import { waitUntilStackIdle } from './stack';

const LATENCY_SAMPLES = 20;
const LATENCY_TIMEOUT_MS = 60_000;
const WORKFLOWS_ON_EVENT = 20;
const TARGET = { minTrackRatio: 0.9 };
const LOAD_EVENT = 'bench_load';
const FROM = `hello@${process.env.LOCAL_SENDER_DOMAIN || 'example.com'}`;
const runId = Date.now().toString(36);

interface Fixtures {
  without: CreatedProject;
  with: CreatedProject;
}
let fixtures: Fixtures | undefined;

async function call(stack: LocalStack, key: string, method: string, path: string, body?: unknown): Promise<any> {
  const response = await fetch(`${stack.baseUrl}${path}`, {
    method,
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await response.json()) as { success: boolean; data: any; error?: unknown };
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${JSON.stringify(json.error)}`);
  return json.data;
}

export const workflowsSection: Section = {
  title: 'Workflows',

  async prepare(context) {
    heading(`Workflows: two projects, one with ${WORKFLOWS_ON_EVENT} workflows on "${LOAD_EVENT}"`);
    fixtures = { without: await createProject(`bench-wf-none-${runId}`), with: await createProject(`bench-wf-20-${runId}`) };
    for (let index = 0; index < WORKFLOWS_ON_EVENT; index++) {
      await call(context.stack, fixtures.with.secretKey, 'POST', '/workflows', {
        name: `bench ${index}`,
        trigger: { type: 'EVENT', event: LOAD_EVENT },
        steps: [
          { id: 'pause', type: 'DELAY', amount: 10, unit: 'minutes', next: 'end' },
          { id: 'end', type: 'EXIT' },
        ],
      });
    }
  },

  async run(context) {
    if (!fixtures) throw new Error('The workflows section runs after its prepare()');
    const latencies = await measureTriggerToEmail(context);
    const calls = await measureCallsPerTrack(fixtures);
    const { none, loaded, catchUpSeconds } = await measureTrackThroughput(context, fixtures);
    return summarize(latencies, calls, none, loaded, catchUpSeconds);
  },
};

async function measureTriggerToEmail(context: BenchContext): Promise<number[]> {
  const { stack } = context;
  heading(`Trigger to first email: ${LATENCY_SAMPLES} tracks one at a time (track → stream → trigger consumer → runner → sender → SES)`);
  const event = `bench_signed_up_${runId}`;
  const template = await call(stack, stack.secretKey, 'POST', '/templates', { name: 'Bench welcome', subject: 'Welcome {{contact.email}}', body: '<p>Hi</p>', type: 'TRANSACTIONAL', from: FROM });
  await call(stack, stack.secretKey, 'POST', '/workflows', { name: 'bench latency', trigger: { type: 'EVENT', event }, steps: [{ id: 'welcome', type: 'SEND_EMAIL', templateId: template.id }] });
  const latencies: number[] = [];
  for (let index = 0; index < LATENCY_SAMPLES; index++) {
    const email = `wf-latency-${runId}-${index}@bench.example.com`;
    const started = performance.now();
    await call(stack, stack.secretKey, 'POST', '/v1/track', { email, event });
    for (;;) {
      const store = (await (await fetch(`${stack.sesUrl}/store`)).json()) as { emails: { destination: { to: string[] } }[] };
      if (store.emails.some((stored) => stored.destination.to.some((to) => to.includes(email)))) break;
      if (performance.now() - started > LATENCY_TIMEOUT_MS) throw new Error(`No email to ${email} within ${LATENCY_TIMEOUT_MS} ms`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    latencies.push(performance.now() - started);
  }
  console.log(`  p50 ${format.ms(percentile(latencies, 50))}, p99 ${format.ms(percentile(latencies, 99))}, max ${format.ms(Math.max(...latencies))}`);
  return latencies;
}

async function measureCallsPerTrack(projects: Fixtures): Promise<{ none: CallCount; loaded: CallCount }> {
  heading(`POST /v1/track: DynamoDB calls of the request, without and with ${WORKFLOWS_ON_EVENT} workflows on the event (in-process, real handlers)`);
  const count = (project: CreatedProject, label: string) =>
    countCalls({
      handler: publicHandler,
      functionName: 'mailwright-public',
      request: (n): ApiRequest => ({ method: 'POST', resource: '/v1/track', secretKey: project.publicKey, body: { email: `wf-calls-${label}-${runId}-${n}@bench.example.com`, event: LOAD_EVENT } }),
      expectedStatus: 200,
    });
  const none = await count(projects.without, 'none');
  describeCalls('track, no workflows', none);
  const loaded = await count(projects.with, 'loaded');
  describeCalls(`track, ${WORKFLOWS_ON_EVENT} workflows`, loaded);
  return { none, loaded };
}

async function trackLoad(context: BenchContext, project: CreatedProject, label: string): Promise<LoadResult> {
  let n = 0;
  const load = await httpLoad({
    url: context.stack.baseUrl,
    method: 'POST',
    path: '/v1/track',
    headers: { Authorization: `Bearer ${project.publicKey}`, 'Content-Type': 'application/json' },
    nextBody: () => JSON.stringify({ email: `wf-${project.projectId.toLowerCase()}-${n++}@bench.example.com`, event: LOAD_EVENT }),
    connections: context.concurrency,
    seconds: context.seconds,
    warmupSeconds: context.warmupSeconds,
    expectedStatus: 200,
  });
  console.log(`  ${label}: ${format.rate(load.perSecond)} tracked, p50 ${format.ms(load.p50Ms)}, p99 ${format.ms(load.p99Ms)}, statuses ${JSON.stringify(load.statuses)}${load.errors || load.timeouts ? `, ${load.errors} errors (${load.timeouts} timeouts)` : ''}`);
  return load;
}

async function measureTrackThroughput(context: BenchContext, projects: Fixtures) {
  heading(`POST /v1/track, public key, new email per request, ${context.concurrency} connections: no workflows vs ${WORKFLOWS_ON_EVENT} on the event (alternating)`);
  const none: LoadResult[] = [];
  const loaded: LoadResult[] = [];
  let catchUpSeconds = 0;
  for (let round = 0; round < 2; round++) {
    await waitUntilStackIdle(context.stack, { maxSeconds: 300 });
    none.push(await trackLoad(context, projects.without, 'none'));
    await waitUntilStackIdle(context.stack, { maxSeconds: 300 });
    loaded.push(await trackLoad(context, projects.with, `${WORKFLOWS_ON_EVENT} workflows`));
    const started = performance.now();
    await waitUntilStackIdle(context.stack, { maxSeconds: 300 });
    catchUpSeconds = Math.max(catchUpSeconds, (performance.now() - started) / 1000);
  }
  return { none, loaded, catchUpSeconds };
}

function summarize(latencies: number[], calls: { none: CallCount; loaded: CallCount }, none: LoadResult[], loaded: LoadResult[], catchUpSeconds: number): SectionReport {
  const mean = (loads: LoadResult[]) => loads.reduce((sum, load) => sum + load.perSecond, 0) / loads.length;
  const ratio = mean(loaded) / mean(none);
  const rows = [
    ['trigger → first email p50 / p99', `${format.ms(percentile(latencies, 50))} / ${format.ms(percentile(latencies, 99))}`],
    ['/v1/track, no workflows', format.rate(mean(none))],
    [`/v1/track, ${WORKFLOWS_ON_EVENT} workflows on the event`, format.rate(mean(loaded))],
    ['ratio', format.ratio(ratio)],
    ['DynamoDB calls of one track: none / 20 workflows', `${calls.none.typical.length} / ${calls.loaded.typical.length}`],
    ['trigger consumer and runner catching up after a loaded run', `${catchUpSeconds.toFixed(0)} s`],
  ];
  heading('Workflows summary');
  printTable(['figure', 'value'], rows);
  return {
    rows: [
      { figure: 'workflow trigger → first email p50', value: format.ms(percentile(latencies, 50)), baseline: '-', ratio: '-' },
      { figure: 'workflow trigger → first email p99', value: format.ms(percentile(latencies, 99)), baseline: '-', ratio: '-' },
      { figure: `/v1/track with ${WORKFLOWS_ON_EVENT} workflows on the event`, value: format.rate(mean(loaded)), baseline: `${format.rate(mean(none))} without`, ratio: format.ratio(ratio) },
    ],
    verdicts: [
      { target: `/v1/track with ${WORKFLOWS_ON_EVENT} workflows ≥ ${TARGET.minTrackRatio} × without (locally the engine shares the CPU)`, measured: format.ratio(ratio), pass: ratio >= TARGET.minTrackRatio },
      { target: 'the track request makes no more DynamoDB calls with workflows', measured: `${calls.none.typical.length} / ${calls.loaded.typical.length}`, pass: calls.loaded.typical.length <= calls.none.typical.length },
    ],
  };
}
