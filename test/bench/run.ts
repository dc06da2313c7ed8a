/**
 * `npm run bench`: starts the real local stack (its own ports and data folder), measures raw
 * DynamoDB Local as the baseline, runs each benchmark section against the stack, prints every
 * figure next to its baseline from this same run, and the verdicts against the targets.
 *
 * Benchmarks report, they do not gate: exit 0 whatever the verdicts, 1 only when the harness
 * itself fails. The stack is stopped on every exit path, Ctrl-C included (it runs in its own
 * process group, so it would outlive us otherwise).
 *
 * Environment: BENCH_CONCURRENCY (default 16), BENCH_SECONDS per timed run (default 10),
 * BENCH_WARMUP_SECONDS before each timed run (default 2), BENCH_SECTIONS (comma list of section
 * names, e.g. `sending,tracking`; default all of SECTIONS). What each section measures: test/bench/README.md.
 */
import { cpus, loadavg } from 'node:os';
import { startLocalStack, stopLocalStack, type LocalStack } from '../support/local-stack';
import { measureRawPutItem } from './baseline';
import { pointQueuesAtStack, pointServiceAtStack } from './dynamo';
import { stackStatus, waitUntilStackIdle } from './stack';
import { describeError } from './measure';
import { format, heading, printTable, verdictLine, type BenchContext, type Baseline, type Section, type SectionReport, type StandaloneSection } from './report';
import { SECTIONS, STANDALONE } from './sections';

/** High enough that the bench never meets the per-project rate limit (1000/min by default). */
const RATE_LIMIT_PER_MINUTE = 100_000_000;
/** The sending section measures the pacer at this rate (the stack's default is 14). */
const SEND_RATE_PER_SECOND = 50;

let stack: LocalStack | undefined;
let stopping: Promise<void> | undefined;

function stopStack(): Promise<void> {
  stopping ??= stack ? stopLocalStack(stack) : Promise.resolve();
  return stopping;
}

function positiveIntegerEnv(name: string, fallback: number, min = 1): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be an integer ≥ ${min}, got "${raw}"`);
  return value;
}

/** BENCH_SECTIONS, checked before the stack starts so that a typo costs nothing. */
function selectedSections(): string[] {
  const raw = process.env.BENCH_SECTIONS?.trim();
  if (!raw) return Object.keys(SECTIONS);
  const names = raw.split(',').map((name) => name.trim().toLowerCase()).filter(Boolean);
  const unknown = names.filter((name) => !(name in SECTIONS));
  if (unknown.length > 0 || names.length === 0) throw new Error(`BENCH_SECTIONS: unknown section(s) "${unknown.join(', ')}"; choose from ${Object.keys(SECTIONS).join(', ')}`);
  // Running order is the table's, whatever the order given.
  return Object.keys(SECTIONS).filter((name) => names.includes(name));
}

async function main(): Promise<number> {
  const concurrency = positiveIntegerEnv('BENCH_CONCURRENCY', 16);
  const seconds = positiveIntegerEnv('BENCH_SECONDS', 10);
  const warmupSeconds = positiveIntegerEnv('BENCH_WARMUP_SECONDS', 2, 0);
  const names = selectedSections();
  const loadAtStart = loadavg()[0]!;
  console.log(`Mailwright bench: concurrency ${concurrency}, ${seconds} s per timed run (+${warmupSeconds} s warm-up), ${cpus().length} CPUs (load average ${loadAtStart.toFixed(2)}), Node ${process.version}`);
  console.log(`Sections: ${names.join(', ')}`);

  const reports: { title: string; report?: SectionReport; error?: unknown }[] = [];
  const failed = async (title: string, error: unknown) => {
    console.error(`\nSection ${title} failed:`, error);
    if (stack) console.error(`  ${await stackStatus(stack)}`);
    reports.push({ title, error });
  };
  // Sections that need no stack first, before one starts.
  for (const name of names.filter((name) => STANDALONE.has(name))) {
    try {
      const section = (await SECTIONS[name]!()) as StandaloneSection;
      reports.push({ title: section.title, report: await section.run() });
    } catch (error) {
      await failed(name, error);
    }
  }
  const stackNames = names.filter((name) => !STANDALONE.has(name));
  if (stackNames.length === 0) return summarize(reports, loadAtStart);

  const starting = performance.now();
  // WEBHOOK_ALLOWED_HOSTS: the webhooks section delivers to a receiver on 127.0.0.1 in this process.
  stack = await startLocalStack({ RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT_PER_MINUTE), SEND_RATE_PER_SECOND: String(SEND_RATE_PER_SECOND), WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' });
  console.log(`Local stack up in ${((performance.now() - starting) / 1000).toFixed(1)} s at ${stack.baseUrl} (DynamoDB Local ${stack.dynamoDbEndpoint}), SEND_RATE_PER_SECOND=${SEND_RATE_PER_SECOND}`);
  pointServiceAtStack(stack, RATE_LIMIT_PER_MINUTE);
  await pointQueuesAtStack(stack);

  const sections: Section[] = [];
  for (const name of stackNames) {
    try {
      sections.push((await SECTIONS[name]!()) as Section);
    } catch (error) {
      await failed(name, error);
    }
  }

  // Every section seeds first: it is untimed, and it warms DynamoDB Local's JVM before the baseline.
  const prepared: Section[] = [];
  for (const section of sections) {
    try {
      await section.prepare?.({ stack, concurrency, seconds, warmupSeconds });
      prepared.push(section);
    } catch (error) {
      await failed(section.title, error);
    }
  }

  heading('Waiting for the stack to go idle');
  await waitUntilStackIdle(stack);
  const baseline = await measureRawPutItem(stack, { concurrency, seconds, warmupSeconds });
  const context: BenchContext = { stack, concurrency, seconds, warmupSeconds, baseline };
  for (const section of prepared) {
    try {
      reports.push({ title: section.title, report: await section.run(context) });
    } catch (error) {
      await failed(section.title, error);
    }
  }

  // The machine may be shared: measuring the baseline again shows whether its capacity held.
  const after = await measureRawPutItem(stack, { concurrency, seconds, warmupSeconds }, 'Drift check');
  return summarize(reports, loadAtStart, { baseline, after, concurrency });
}

/** The summary table and the verdicts; the raw PutItem rows when a stack ran. */
function summarize(reports: { title: string; report?: SectionReport; error?: unknown }[], loadAtStart: number, raw?: { baseline: Baseline; after: Baseline; concurrency: number }): number {
  heading('Summary');
  const drift = raw ? raw.after.putItemPerSecond / raw.baseline.putItemPerSecond : 1;
  const rows = [
    ...(raw ? [[`Raw DynamoDB Local PutItem/s (concurrency ${raw.concurrency})`, format.rate(raw.baseline.putItemPerSecond), '(baseline)', '']] : []),
    ...reports.flatMap(({ report }) => (report?.rows ?? []).map((row) => [row.figure, row.value, row.baseline, row.ratio])),
    ...(raw ? [['Raw PutItem/s again, after the sections', format.rate(raw.after.putItemPerSecond), `at start ${format.rate(raw.baseline.putItemPerSecond)}`, format.ratio(drift)]] : []),
  ];
  printTable(['Figure', 'Value', 'Baseline (this run)', 'Ratio'], rows);
  console.log(`Load average (1 min) at start ${loadAtStart.toFixed(2)}, at end ${loadavg()[0]!.toFixed(2)}, on ${cpus().length} CPUs.`);
  if (drift < 0.8 || drift > 1.25) {
    console.log(`WARNING: raw PutItem/s moved ${format.ratio(drift)} during the run (other load on this machine?): the ratios are unreliable; run again on a quiet machine.`);
  }

  heading('Verdicts');
  for (const { title, report, error } of reports) {
    if (error) console.log(`ERROR  ${title}: ${describeError(error)}`);
    for (const verdict of report?.verdicts ?? []) console.log(verdictLine(verdict));
  }
  return reports.some(({ error }) => error) ? 1 : 0;
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`\n${signal}: stopping the local stack`);
    void stopStack().finally(() => process.exit(130));
  });
}

main()
  .catch(async (error) => {
    console.error('\nThe bench harness failed:', error);
    if (stack) console.error(`  ${await stackStatus(stack)}`);
    return 1;
  })
  .then(async (code) => {
    await stopStack();
    // Exit explicitly: SDK clients keep sockets open that would hold the event loop.
    process.exit(code);
  });
