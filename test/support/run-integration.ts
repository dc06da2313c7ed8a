import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

/**
 * `npm run test:integration`: two lanes of jest side by side, each on a local stack of its own
 * (the project's globalSetup) and each running its files one at a time. The waiting lane holds
 * the files that mostly wait out real minutes (spreads, local times, A/B waits) and the files
 * that start stacks of their own (restarts, SES and AWS faults), so at most three stacks run at
 * once and those minutes overlap the other files' work instead of adding to it: on two cores the
 * run takes about two thirds as long. Arguments (a file pattern, say) run one lane of just those
 * files, as plain jest would.
 */
const WAITING_LANE = [
  'campaigns-local-time.test.ts',
  'campaigns-spread.test.ts',
  'dashboard-campaign-spread.test.ts',
  'campaigns-ab.test.ts',
  'campaigns-restart.test.ts',
  'send-faults.test.ts',
  'faults.test.ts',
];

const jestArgs = ['--experimental-vm-modules', 'node_modules/jest/bin/jest.js', '--selectProjects', 'integration'];
const filePattern = (files: string[]) => `/test/integration/(${files.map((file) => file.replaceAll('.', '\\.')).join('|')})$`;

const extra = process.argv.slice(2);
const lanes = extra.length > 0 ? [extra] : [['--testPathIgnorePatterns', filePattern(WAITING_LANE)], ['--testPathPattern', filePattern(WAITING_LANE)]];

/**
 * Each lane draws its stacks' ports from a range of its own (infra/local/ports.ts): two lanes
 * starting stacks at once drew the same port, and the second stack's server could not listen.
 */
const PORT_RANGES = ['20000-26383', '26384-32767'];

/** Runs one jest, passing its output on a whole line at a time so that the two lanes' lines never mix mid-line. */
function runLane(args: string[], lane: number): Promise<number> {
  const child = spawn(process.execPath, [...jestArgs, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, MAILWRIGHT_PORT_RANGE: PORT_RANGES[lane] } });
  createInterface({ input: child.stdout! }).on('line', (line) => process.stdout.write(`${line}\n`));
  createInterface({ input: child.stderr! }).on('line', (line) => process.stderr.write(`${line}\n`));
  return new Promise((resolve) => child.once('close', (code) => resolve(code ?? 1)));
}

const codes = await Promise.all(lanes.map((args, lane) => runLane(args, lane)));
process.exitCode = codes.find((code) => code !== 0) ?? 0;
