/**
 * The pacer section's measurement (test/bench/pacer.ts), in a child process of its own: it mocks
 * the DynamoDB document client (aws-sdk-client-mock) and drives shared/sending/pacer.ts on a
 * virtual clock, which would disturb the sections that use the real ones. Prints one JSON line.
 *
 * Per rate, three scenarios of SECONDS virtual seconds each, every DynamoDB call taking a random
 * one-way delay each way:
 *  - beside: four campaign-sender instances each keep a batch of 10 waiting (a saturating
 *    campaign), and a sender instance asks for a transactional slot every 0.2–0.6 s; 2–6 ms each way;
 *  - alone: the same campaign without transactional mail, 2–6 ms each way;
 *  - slow: the campaign alone on one instance and on four, with a round trip of 1.5 and 3 send
 *    intervals (a loaded DynamoDB), where a bound less a whole round trip stalled campaign mail.
 */
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { mockPacerTable } from '../support/pacer-table';
import { virtualClock } from '../support/virtual-clock';

process.env.TABLE_NAME ??= 'mailwright-bench';
process.env.AWS_REGION ??= 'us-east-1';
const { SendPacer, slotIntervalMs } = await import('../../shared/sending/pacer');

const SECONDS = Number(process.argv[2] ?? 120);
const ddb = mockClient(DynamoDBDocumentClient);

/** Deterministic pseudo-random numbers (mulberry32), so that two runs measure the same arrivals. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

export interface Scenario {
  rate: number;
  /** Campaign-sender instances, each keeping a batch of 10 waiting. */
  campaignInstances: number;
  /** Whether a sender instance asks for a transactional slot every 0.2–0.6 s. */
  transactional: boolean;
  /** Each way of a DynamoDB round trip, in send intervals: [min, max]. Undefined: 2–6 ms. */
  oneWayIntervals?: [number, number];
}

async function measure(scenario: Scenario) {
  const { rate } = scenario;
  ddb.reset();
  const clock = virtualClock(1_700_000_000_000);
  const next = random(rate * 31 + scenario.campaignInstances);
  const interval = slotIntervalMs(rate);
  const [low, high] = scenario.oneWayIntervals ? scenario.oneWayIntervals.map((share) => share * interval) : [2, 6];
  const table = mockPacerTable(ddb, { delay: () => clock.sleep(low! + (high! - low!) * next()) });
  const options = { clock: clock.now, sleep: clock.sleep };
  const start = clock.now();
  const end = start + SECONDS * 1000;
  const done = () => clock.now() >= end;
  const campaignSlots: number[] = [];
  const slots: number[] = [];
  const waits: number[] = [];
  const campaigns = Array.from({ length: scenario.campaignInstances }, () => new SendPacer(options)).map(async (pacer) => {
    while (!done()) {
      await Promise.all(Array.from({ length: 10 }, () => pacer.acquire(rate, 'campaign').then(() => campaignSlots.push(clock.now()))));
    }
  });
  const sender = new SendPacer(options);
  const transactional = (async () => {
    while (scenario.transactional && !done()) {
      await clock.sleep(200 + 400 * next());
      const arrived = clock.now();
      await sender.acquire(rate, 'transactional');
      waits.push(clock.now() - arrived);
      slots.push(clock.now());
    }
  })();
  await clock.runUntil(end + 10_000);
  await Promise.all([...campaigns, transactional]);

  const all = [...slots, ...campaignSlots].filter((slot) => slot < end).sort((a, b) => a - b);
  // The account's limit: sends in any 1-second window (each from one send's time).
  let busiestSecond = 0;
  for (let i = 0, j = 0; i < all.length; i++) {
    while (j < all.length && all[j]! < all[i]! + 1000) j++;
    busiestSecond = Math.max(busiestSecond, j - i);
  }
  const sorted = [...waits].sort((a, b) => a - b);
  return {
    ...scenario,
    roundTripMs: [2 * low!, 2 * high!],
    intervalMs: interval,
    samples: waits.length,
    waitP50Ms: quantile(sorted, 0.5),
    waitP99Ms: quantile(sorted, 0.99),
    waitMaxMs: sorted.at(-1) ?? 0,
    sentPerSecond: all.length / SECONDS,
    campaignPerSecond: campaignSlots.filter((slot) => slot < end).length / SECONDS,
    busiestSecond,
    writes: table.writes,
    failed: table.failed,
  };
}

export type PacerResult = Awaited<ReturnType<typeof measure>>;

const scenarios: Scenario[] = process.argv[3]
  ? (JSON.parse(process.argv[3]) as Scenario[])
  : [10, 50].flatMap((rate) => [
      { rate, campaignInstances: 4, transactional: true },
      { rate, campaignInstances: 4, transactional: false },
      { rate, campaignInstances: 1, transactional: false, oneWayIntervals: [0.75, 0.75] as [number, number] },
      { rate, campaignInstances: 4, transactional: false, oneWayIntervals: [0.75, 0.75] as [number, number] },
      { rate, campaignInstances: 1, transactional: false, oneWayIntervals: [1.5, 1.5] as [number, number] },
      { rate, campaignInstances: 4, transactional: false, oneWayIntervals: [1.5, 1.5] as [number, number] },
    ]);
const results: PacerResult[] = [];
for (const scenario of scenarios) results.push(await measure(scenario));
console.log(JSON.stringify(results));
process.exit(0);
