/**
 * The `pacer` section: transactional precedence measured at the unit level, without a stack —
 * shared/sending/pacer.ts on a virtual clock with mocked DynamoDB (test/bench/pacer-worker.ts, in
 * a child process), a transactional sender beside a saturating campaign at 10/s and 50/s. Target
 * (issue 27): its slot wait ≤ 2 send intervals; the rate kept.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { format, heading, printTable, type StandaloneSection, type SummaryRow, type Verdict } from './report';

/** Virtual seconds per rate: 120 s gives ≈ 300 transactional samples in under a minute of CPU. */
const VIRTUAL_SECONDS = 120;

interface PacerResult {
  rate: number;
  intervalMs: number;
  samples: number;
  waitP50Ms: number;
  waitP99Ms: number;
  waitMaxMs: number;
  sentPerSecond: number;
  campaignPerSecond: number;
  busiestSecond: number;
  writes: number;
  failed: Record<string, number>;
}

export const pacerSection: StandaloneSection = {
  title: 'Pacer',
  standalone: true,
  async run() {
    heading(`Pacer on a virtual clock: a transactional send beside a saturating campaign (${VIRTUAL_SECONDS} s per rate)`);
    const { stdout } = await promisify(execFile)(process.execPath, [path.resolve('node_modules/tsx/dist/cli.mjs'), 'test/bench/pacer-worker.ts', String(VIRTUAL_SECONDS)], { maxBuffer: 1 << 20 });
    const results = JSON.parse(stdout.trim().split('\n').at(-1)!) as PacerResult[];
    const intervals = (ms: number, result: PacerResult) => `${(ms / result.intervalMs).toFixed(2)} intervals`;
    printTable(
      ['rate', 'interval', 'samples', 'slot wait p50', 'p99', 'max', 'sent/s (campaign)', 'busiest second', 'writes', 'failed conditions'],
      results.map((result) => [
        `${result.rate}/s`,
        format.ms(result.intervalMs),
        String(result.samples),
        format.ms(result.waitP50Ms),
        format.ms(result.waitP99Ms),
        `${format.ms(result.waitMaxMs)} (${intervals(result.waitMaxMs, result)})`,
        `${result.sentPerSecond.toFixed(2)} (${result.campaignPerSecond.toFixed(2)})`,
        String(result.busiestSecond),
        String(result.writes),
        Object.entries(result.failed).map(([condition, count]) => `${count} × ${condition}`).join('; ') || '0',
      ]),
    );
    const rows: SummaryRow[] = results.map((result) => ({
      figure: `Pacer (virtual clock), ${result.rate}/s: transactional slot wait p99 / max`,
      value: `${format.ms(result.waitP99Ms)} / ${format.ms(result.waitMaxMs)}`,
      baseline: `2 intervals ${format.ms(2 * result.intervalMs)}`,
      ratio: `${(result.waitMaxMs / result.intervalMs).toFixed(2)} intervals`,
    }));
    const verdicts: Verdict[] = results.flatMap((result) => [
      {
        target: `pacer at ${result.rate}/s: transactional slot wait beside a saturating campaign ≤ 2 send intervals (${format.ms(2 * result.intervalMs)})`,
        measured: `max ${format.ms(result.waitMaxMs)} (${intervals(result.waitMaxMs, result)}), p99 ${format.ms(result.waitP99Ms)}, p50 ${format.ms(result.waitP50Ms)}, ${result.samples} samples`,
        pass: result.waitMaxMs <= 2 * result.intervalMs,
      },
      {
        target: `pacer at ${result.rate}/s: ≤ ${result.rate} sends in any second, sustained ≥ 0.95 × ${(result.rate * 0.97).toFixed(1)}/s`,
        measured: `busiest second ${result.busiestSecond}, ${result.sentPerSecond.toFixed(2)}/s (campaign ${result.campaignPerSecond.toFixed(2)}/s)`,
        pass: result.busiestSecond <= result.rate && result.sentPerSecond >= 0.95 * result.rate * 0.97,
      },
    ]);
    return { rows, verdicts };
  },
};
