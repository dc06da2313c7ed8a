/**
 * Faults in every dependency, full size (issue 28, item 3): a local stack of its own with
 * LOCAL_FAULTS at the issue's rates (test/support/faults-scenario.ts ISSUE_FAULTS; BENCH_FAULTS to
 * try others), and in one run 1,000 transactional emails (one a `/v1/send`, clients retrying 503s
 * with their Idempotency-Key), a 2,000-row CSV import and a campaign to those 2,000 contacts, 200
 * tracked events through a workflow whose first step sends, and the email.sent webhook of every
 * mail. Then PASS/FAIL per guarantee, counted from outside (the mail viewer, the API, the queues):
 * every recipient exactly once, every import row counted once, every execution entered once and
 * its email sent once, every webhook event delivered, every email counted once (by name, by day),
 * campaign stats equal to the mail sent, every DLQ empty, no 500, whatever failed visible with its
 * reason. The scenario is the one
 * test/integration/faults.test.ts runs small.
 *
 * BENCH_FAULTS_SCALE (default 1) scales every size for a quick try (0.1: 100 sends, 200 rows and
 * recipients, 20 events). The section does not use the bench's main stack; alone:
 * `npx tsx test/bench/faults.ts`.
 */
import { loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import { stopLocalStack } from '../support/local-stack';
import { ISSUE_FAULTS, runFaultsScenario, startFaultsReceiver, startFaultsStack } from '../support/faults-scenario';
import { heading, printTable, type Section, type SectionReport } from './report';

const FULL = { sends: 1_000, perSend: 1, campaign: 2_000, tracked: 200, concurrency: 8 };

function scale(): number {
  const raw = process.env.BENCH_FAULTS_SCALE?.trim();
  if (!raw) return 1;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0 || value > 1) throw new Error(`BENCH_FAULTS_SCALE must be a number above 0 and at most 1, got "${raw}"`);
  return value;
}

async function runFaults(): Promise<SectionReport> {
  const factor = scale();
  const faults = process.env.BENCH_FAULTS?.trim() || ISSUE_FAULTS;
  const sizes = { ...FULL, sends: Math.max(1, Math.round(FULL.sends * factor)), campaign: Math.max(1, Math.round(FULL.campaign * factor)), tracked: Math.max(1, Math.round(FULL.tracked * factor)) };
  heading('Faults in every dependency');
  console.log(`LOCAL_FAULTS=${faults}`);
  console.log(`${sizes.sends} transactional emails (${sizes.perSend} a request, ${sizes.concurrency} in flight), a ${sizes.campaign}-row import and a campaign to it, ${sizes.tracked} tracked events through a sending workflow (scale ${factor})`);
  const started = performance.now();
  const loadAtStart = loadavg()[0]!;
  const receiver = await startFaultsReceiver();
  const stack = await startFaultsStack(faults);
  console.log(`  its own stack up in ${((performance.now() - started) / 1000).toFixed(0)} s at ${stack.baseUrl}`);
  try {
    const result = await runFaultsScenario(stack, receiver, sizes, { log: (line) => console.log(`  ${line}`) });
    const figures = [...result.figures, { label: 'load average (1 min) at start → end', value: `${loadAtStart.toFixed(2)} → ${loadavg()[0]!.toFixed(2)}` }];
    printTable(['Figure', 'Value'], figures.map((figure) => [figure.label, figure.value]));
    return {
      rows: figures.map((figure) => ({ figure: `faults: ${figure.label}`, value: figure.value, baseline: '', ratio: '' })),
      verdicts: result.checks.map((check) => ({ target: `faults: ${check.guarantee}`, measured: check.detail, pass: check.pass })),
    };
  } finally {
    await stopLocalStack(stack);
    await receiver.close();
  }
}

export const faultsSection: Section = {
  title: 'Faults',
  run: () => runFaults(),
};

/** Alone: `npx tsx test/bench/faults.ts` (like `npm run bench`, exit 1 only when the harness failed). */
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  let code = 0;
  try {
    const report = await runFaults();
    heading('Verdicts');
    for (const verdict of report.verdicts) console.log(`${verdict.pass ? 'PASS ' : 'FAIL '}  ${verdict.target}: ${verdict.measured}`);
  } catch (error) {
    console.error(error);
    code = 1;
  }
  process.exit(code);
}
