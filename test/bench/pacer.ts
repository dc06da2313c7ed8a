/**
 * The `pacer` section: transactional precedence measured at the unit level, without a stack —
 * shared/sending/pacer.ts on a virtual clock with mocked DynamoDB (test/bench/pacer-worker.ts, in
 * a child process), at 10/s and 50/s:
 *  - beside: a transactional sender beside a saturating campaign (four campaign instances).
 *    Target (issue 27): its slot wait ≤ 2 send intervals, the account's rate kept;
 *  - alone: the same campaign without transactional mail keeps the full rate (≥ 0.95 of it);
 *  - slow: the campaign alone with a round trip of 1.5 and 3 intervals, on one instance and four:
 *    campaign mail keeps going (a bound less a whole round trip stopped it there).
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import type { PacerResult } from './pacer-worker';
import { format, heading, printTable, type StandaloneSection, type SummaryRow, type Verdict } from './report';

/** Virtual seconds per scenario: 120 s gives ≈ 300 transactional samples per rate in seconds of CPU. */
const VIRTUAL_SECONDS = 120;
/** The least share of the paced rate campaign mail keeps when a round trip exceeds an interval. */
const SLOW_PROGRESS = 0.75;

const kind = (result: PacerResult) => (result.transactional ? 'beside' : result.oneWayIntervals ? 'slow' : 'alone');
const paced = (result: PacerResult) => 1000 / result.intervalMs;

export const pacerSection: StandaloneSection = {
  title: 'Pacer',
  standalone: true,
  async run() {
    heading(`Pacer on a virtual clock, mocked DynamoDB: transactional slot wait beside a saturating campaign (${VIRTUAL_SECONDS} s per scenario)`);
    const { stdout } = await promisify(execFile)(process.execPath, [path.resolve('node_modules/tsx/dist/cli.mjs'), 'test/bench/pacer-worker.ts', String(VIRTUAL_SECONDS)], { maxBuffer: 1 << 20 });
    const results = JSON.parse(stdout.trim().split('\n').at(-1)!) as PacerResult[];
    const intervals = (ms: number, result: PacerResult) => `${(ms / result.intervalMs).toFixed(2)} intervals`;
    printTable(
      ['rate', 'scenario', 'campaign instances', 'round trip', 'samples', 'slot wait p50', 'p99', 'max', 'sent/s (campaign)', 'of paced', 'busiest second', 'writes', 'failed conditions'],
      results.map((result) => [
        `${result.rate}/s`,
        kind(result),
        String(result.campaignInstances),
        result.roundTripMs[0] === result.roundTripMs[1] ? format.ms(result.roundTripMs[0]!) : `${format.ms(result.roundTripMs[0]!)}–${format.ms(result.roundTripMs[1]!)}`,
        String(result.samples),
        result.samples ? format.ms(result.waitP50Ms) : '',
        result.samples ? format.ms(result.waitP99Ms) : '',
        result.samples ? `${format.ms(result.waitMaxMs)} (${intervals(result.waitMaxMs, result)})` : '',
        `${result.sentPerSecond.toFixed(2)} (${result.campaignPerSecond.toFixed(2)})`,
        format.ratio(result.sentPerSecond / paced(result)),
        String(result.busiestSecond),
        String(result.writes),
        Object.entries(result.failed).map(([condition, count]) => `${count} × ${condition}`).join('; ') || '0',
      ]),
    );
    const beside = results.filter((result) => kind(result) === 'beside');
    const rows: SummaryRow[] = beside.map((result) => ({
      figure: `Pacer (virtual clock), ${result.rate}/s: transactional slot wait beside a campaign, p99 / max`,
      value: `${format.ms(result.waitP99Ms)} / ${format.ms(result.waitMaxMs)}`,
      baseline: `2 intervals ${format.ms(2 * result.intervalMs)}`,
      ratio: `${(result.waitMaxMs / result.intervalMs).toFixed(2)} intervals`,
    }));
    const verdicts: Verdict[] = results.flatMap((result): Verdict[] => {
      const name = `pacer at ${result.rate}/s, ${kind(result)}, ${result.campaignInstances} campaign instance(s), round trip ${format.ms(result.roundTripMs[1]!)}`;
      const sent = `${result.sentPerSecond.toFixed(2)}/s = ${format.ratio(result.sentPerSecond / paced(result))} the paced ${paced(result).toFixed(1)}/s (campaign ${result.campaignPerSecond.toFixed(2)}/s), busiest second ${result.busiestSecond}`;
      if (kind(result) === 'beside')
        return [
          {
            target: `${name}: transactional slot wait ≤ 2 send intervals (${format.ms(2 * result.intervalMs)})`,
            measured: `max ${format.ms(result.waitMaxMs)} (${intervals(result.waitMaxMs, result)}), p99 ${format.ms(result.waitP99Ms)}, p50 ${format.ms(result.waitP50Ms)}, ${result.samples} samples`,
            pass: result.samples > 0 && result.waitMaxMs <= 2 * result.intervalMs,
          },
          { target: `${name}: ≤ ${result.rate} sends in any second, sustained ≥ 0.95 of the paced rate`, measured: sent, pass: result.busiestSecond <= result.rate && result.sentPerSecond >= 0.95 * paced(result) },
        ];
      if (kind(result) === 'alone') return [{ target: `${name}: campaign mail alone at the full rate (≥ 0.95 of the paced rate), ≤ ${result.rate} in any second`, measured: sent, pass: result.busiestSecond <= result.rate && result.sentPerSecond >= 0.95 * paced(result) }];
      return [{ target: `${name}: campaign mail keeps going (≥ ${SLOW_PROGRESS} of the paced rate)`, measured: sent, pass: result.sentPerSecond >= SLOW_PROGRESS * paced(result) }];
    });
    return { rows, verdicts };
  },
};
