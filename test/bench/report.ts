import type { LocalStack } from '../support/local-stack';

/**
 * What every benchmark section receives and returns, so run.ts can orchestrate sections it does
 * not know about (contacts today; send pipeline, events and segments later) and print one summary.
 */
export interface BenchContext {
  stack: LocalStack;
  /** Concurrent requests or calls in flight (BENCH_CONCURRENCY, default 16). */
  concurrency: number;
  /** Length of each timed run (BENCH_SECONDS, default 10). */
  seconds: number;
  /** Untimed run before each timed one: JIT, connection pools and DynamoDB Local's page cache. */
  warmupSeconds: number;
  /** Raw DynamoDB figures measured at the start of this run: every throughput is judged against them. */
  baseline: Baseline;
}

export interface Baseline {
  putItemPerSecond: number;
  putItemP50Ms: number;
  putItemP99Ms: number;
}

/** One line of the final summary: a figure next to the baseline it is judged against. */
export interface SummaryRow {
  figure: string;
  value: string;
  baseline: string;
  ratio: string;
}

export interface Verdict {
  target: string;
  measured: string;
  pass: boolean;
  /** Why this run cannot judge the target (the machine, too few samples…): printed REJECTED instead of PASS or FAIL. */
  rejected?: string;
}

/** How a verdict is printed: PASS, FAIL, or REJECTED with its reason. */
export function verdictLine(verdict: Verdict): string {
  if (verdict.rejected) return `REJECTED  ${verdict.target}: ${verdict.measured} — ${verdict.rejected}`;
  return `${verdict.pass ? 'PASS ' : 'FAIL '}  ${verdict.target}: ${verdict.measured}`;
}

export interface SectionReport {
  rows: SummaryRow[];
  verdicts: Verdict[];
}

/** Before the baseline: the stack is up but nothing is measured yet. */
export type PrepareContext = Omit<BenchContext, 'baseline'>;

export interface Section {
  title: string;
  /**
   * Untimed setup (projects, seeded data), run for every section before the baseline. Seeding is
   * heavy DynamoDB Local work, so it also warms the emulator's JVM, which otherwise runs its first
   * minute measurably slower and would skew whichever figure came first.
   */
  prepare?(context: PrepareContext): Promise<void>;
  run(context: BenchContext): Promise<SectionReport>;
}

/** A unit-level section that needs no stack: run before one starts, or without one. */
export interface StandaloneSection {
  title: string;
  standalone: true;
  run(): Promise<SectionReport>;
}

export const format = {
  rate: (perSecond: number) => `${perSecond.toFixed(0)}/s`,
  ms: (ms: number) => `${ms < 10 ? ms.toFixed(2) : ms.toFixed(1)} ms`,
  ratio: (ratio: number) => `${ratio.toFixed(2)}×`,
};

export function heading(title: string) {
  console.log(`\n== ${title} ${'='.repeat(Math.max(0, 76 - title.length))}`);
}

/** A plain-text table: the output is read in terminals and pasted into issues. */
export function printTable(header: string[], rows: string[][]) {
  const widths = header.map((cell, column) => Math.max(cell.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: string[]) => cells.map((cell, column) => cell.padEnd(widths[column]!)).join('  ').trimEnd();
  console.log(line(header));
  console.log(line(widths.map((width) => '-'.repeat(width))));
  for (const row of rows) console.log(line(row));
}
