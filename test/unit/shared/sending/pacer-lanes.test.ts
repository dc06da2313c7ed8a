import { jest } from '@jest/globals';
import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { campaignReachMs, campaignRun, pacerRestartInput, roundTripAllowance, SendPacer, slotIntervalMs } from '../../../../shared/sending/pacer';
import { mockPacerTable } from '../../../support/pacer-table';
import { virtualClock } from '../../../support/virtual-clock';

const ddb = mockClient(DynamoDBDocumentClient);
/** Virtual seconds per simulation: each runs in a few seconds of CPU, more on a loaded machine. */
const SIMULATED_MS = 20_000;
jest.setTimeout(60_000);

beforeEach(() => {
  ddb.reset();
});

describe('the campaign lane bound', () => {
  const interval = 100;

  it('allows for a round trip, but never more than half an interval', () => {
    expect(roundTripAllowance(8, interval)).toBe(8);
    expect(roundTripAllowance(50, interval)).toBe(50);
    expect(roundTripAllowance(80, interval)).toBe(50);
    expect(roundTripAllowance(-3, interval)).toBe(0);
  });

  it.each([
    ['a busy pacer, a short round trip: one interval less it', 10, false, 90],
    ['an idle pacer: one interval', 10, true, 100],
    ['a round trip of one interval: half an interval', 100, false, 50],
    ['a round trip of three intervals: the round trip less half an interval, busy or idle', 300, false, 250],
    ['the same on an idle pacer', 300, true, 250],
  ])('reaches %s', (_, roundTrip, idle, expected) => {
    expect(campaignReachMs(roundTrip, interval, idle)).toBe(expected);
  });

  it.each([
    ['an idle pacer: a run starting now of two slots, now and one interval later', 1_000, 10, 0, true, 2],
    ['tat one interval less the round trip ahead: that one slot', 1_090, 10, 10, false, 1],
    ['tat just past that: none yet', 1_091, 10, 10, false, 0],
    ['tat due now, no round trip: two slots', 1_000, 10, 0, false, 2],
    ['a round trip of two intervals (the stall case): one slot when the next one is due now', 1_000, 10, 200, false, 2],
    ['a round trip far longer than the interval: still progress, a run up to the round trip', 1_000, 10, 1_000, false, 10],
    ['a single waiting caller', 1_000, 1, 0, true, 1],
  ])('runs %s', (_, first, wanted, roundTrip, idle, expected) => {
    expect(campaignRun(first, 1_000, interval, wanted, roundTrip, idle).count).toBe(expected);
  });

  it('always allows one slot when the next free slot is due now, whatever the round trip', () => {
    for (const roundTrip of [0, 40, 60, 99, 100, 101, 150, 199, 250, 1_000]) {
      expect(campaignRun(1_000, 1_000, interval, 10, roundTrip).count).toBeGreaterThanOrEqual(1);
      expect(campaignRun(999, 1_000, interval, 10, roundTrip).count).toBeGreaterThanOrEqual(1);
    }
  });

  it('bounds the stored tat at landing so that the run still ends within the reach', () => {
    // Prepare: a busy pacer, a 10-ms round trip; the run's last slot may be at 1_000 + 90
    const run = campaignRun(1_000, 1_000, interval, 10, 10);

    // Assess: one slot (1_000); the tat may have moved to 1_090 when the increment lands
    expect(run.count).toBe(1);
    expect(run.latest).toBeCloseTo(1_090, 2);
  });
});

/** A campaign-sender instance with a full batch waiting again as soon as its last batch got slots. */
function saturate(pacer: SendPacer, rate: number, until: () => boolean, slots: number[], now: () => number) {
  return (async () => {
    while (!until()) {
      await Promise.all(Array.from({ length: 10 }, () => pacer.acquire(rate, 'campaign').then(() => slots.push(now()))));
    }
  })();
}

/** The most sends in any 1-second window, from each send's time. */
function busiestSecond(times: number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  let busiest = 0;
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while (j < sorted.length && sorted[j]! < sorted[i]! + 1000) j++;
    busiest = Math.max(busiest, j - i);
  }
  return busiest;
}

/** A pacer table whose round trip is `oneWayMs` each way on the virtual clock. */
function slowTable(clock: ReturnType<typeof virtualClock>, oneWayMs: number) {
  return mockPacerTable(ddb, { delay: () => clock.sleep(oneWayMs) });
}

describe('transactional precedence across instances', () => {
  it.each([10, 50])('a transactional send beside a saturating campaign waits at most two intervals for its slot, at %i/s', async (rate) => {
    // Prepare: four campaign-sender instances and a sender instance, one pacer item, 3 ms each way
    const clock = virtualClock(1_700_000_000_000);
    const table = slowTable(clock, 3);
    const options = { clock: clock.now, sleep: clock.sleep };
    const interval = slotIntervalMs(rate);
    const start = clock.now();
    const end = start + SIMULATED_MS;
    const slots: number[] = [];
    const waits: number[] = [];
    const done = () => clock.now() >= end;
    const campaigns = Array.from({ length: 4 }, () => new SendPacer(options)).map((pacer) => saturate(pacer, rate, done, slots, clock.now));
    const sender = new SendPacer(options);
    const transactional = (async () => {
      // Act: a transactional send every 0.37 s, at every phase of the campaign's slots
      while (!done()) {
        await clock.sleep(370);
        const arrived = clock.now();
        await sender.acquire(rate, 'transactional');
        waits.push(clock.now() - arrived);
        slots.push(clock.now());
      }
    })();
    await clock.runUntil(end + 5_000);
    await Promise.all([...campaigns, transactional]);

    // Assess: every wait within two intervals; no more than the rate in any second; the rate kept
    expect(waits.length).toBeGreaterThan(SIMULATED_MS / 600); // one every 0.37 s plus its wait
    expect(Math.max(...waits)).toBeLessThanOrEqual(2 * interval + 1e-3);
    expect(busiestSecond(slots)).toBeLessThanOrEqual(rate);
    expect(slots.filter((slot) => slot < end).length).toBeGreaterThanOrEqual(0.95 * (SIMULATED_MS / interval));
    // Transactional increments never lost a race: only campaign runs wait their turn.
    expect(table.failed['tat >= :now'] ?? 0).toBe(0);
  });

  it.each([
    [10, 1, 0.75],
    [50, 1, 0.75],
    [10, 4, 0.75],
    [50, 4, 0.75],
    // Three intervals: an instance's batch ends before its next write returns, so the tat it saw has always passed.
    [10, 4, 1.5],
    [50, 4, 1.5],
  ])('campaign mail alone keeps the full rate at %i/s on %i instance(s) with a round trip of %f intervals each way', async (rate, instances, oneWayIntervals) => {
    // Prepare: no transactional mail; a round trip of 1.5 intervals, where a bound of one interval
    // less the whole round trip never let campaign mail reserve
    const clock = virtualClock(1_700_000_000_000);
    const interval = slotIntervalMs(rate);
    slowTable(clock, oneWayIntervals * interval);
    const options = { clock: clock.now, sleep: clock.sleep };
    const end = clock.now() + SIMULATED_MS;
    const slots: number[] = [];

    // Act
    const campaigns = Array.from({ length: instances }, () => new SendPacer(options)).map((pacer) => saturate(pacer, rate, () => clock.now() >= end, slots, clock.now));
    await clock.runUntil(end + 5_000);
    await Promise.all(campaigns);

    // Assess: within 10 % of the paced rate (one instance loses the gaps between its batches)
    const sent = slots.filter((slot) => slot < end).length;
    expect(sent).toBeGreaterThanOrEqual((instances === 1 ? 0.9 : 0.97) * (SIMULATED_MS / interval));
  });

  it.each([10, 50])('campaign mail still progresses at %i/s when a round trip takes three intervals (the stall case)', async (rate) => {
    // Prepare: one campaign instance, 1.5 intervals each way
    const clock = virtualClock(1_700_000_000_000);
    const interval = slotIntervalMs(rate);
    slowTable(clock, 1.5 * interval);
    const pacer = new SendPacer({ clock: clock.now, sleep: clock.sleep });
    const end = clock.now() + SIMULATED_MS;
    const slots: number[] = [];

    // Act
    const campaign = saturate(pacer, rate, () => clock.now() >= end, slots, clock.now);
    await clock.runUntil(end + 5_000);
    await campaign;

    // Assess: most of the rate (each write reserves the slots due before it returns), never above it
    const sent = slots.filter((slot) => slot < end).length;
    expect(sent).toBeGreaterThanOrEqual(0.75 * (SIMULATED_MS / interval));
    expect(sent).toBeLessThanOrEqual(SIMULATED_MS / interval + 1);
  });

  it('lets campaign mail on an idle pacer take a run starting now, in one write', async () => {
    // Prepare: 20/s (an interval of 51.5 ms), a round trip of 80 ms; one campaign caller's restart
    // is in flight while two more arrive, and the pacer is idle again when it returns
    const clock = virtualClock(1_000_000);
    const table = slowTable(clock, 40);
    const pacer = new SendPacer({ clock: clock.now, sleep: clock.sleep });
    const interval = slotIntervalMs(20);

    // Act
    const first = pacer.acquire(20, 'campaign');
    await clock.runUntil(1_000_010);
    const others = Promise.all([pacer.acquire(20, 'campaign'), pacer.acquire(20, 'campaign')]);
    await clock.runUntil(1_001_000);
    await Promise.all([first, others]);

    // Assess: the two share one restart at the time it left, a run of two slots
    const writes = ddb.commandCalls(UpdateCommand).map((call) => call.args[0].input);
    expect(writes).toEqual([pacerRestartInput(interval, 1_000_000), pacerRestartInput(2 * interval, 1_000_080)]);
    expect(table.failed).toEqual({});
    expect(table.tat()).toBeCloseTo(1_000_080 + 2 * interval, 6);
  });

  it('lets a transactional sender that saw a campaign keep the pacer busy increment at once when it asks again, in one write', async () => {
    // Prepare: a saturating campaign on one instance; a sender instance that asks now and then
    const clock = virtualClock(1_000_000);
    mockPacerTable(ddb);
    const options = { clock: clock.now, sleep: clock.sleep };
    const slots: number[] = [];
    const campaign = saturate(new SendPacer(options), 20, () => clock.now() >= 1_003_000, slots, clock.now);
    const sender = new SendPacer(options);
    const writes = () => ddb.commandCalls(UpdateCommand).map((call) => call.args[0].input.ConditionExpression);

    // Act: a first transactional send, then another 400 ms later, when the tat it saw has passed
    await clock.runUntil(1_000_100);
    const first = sender.acquire(20, 'transactional');
    await clock.runUntil(1_000_300);
    await first;
    const before = writes().filter((condition) => condition !== 'tat BETWEEN :now AND :latest');
    await clock.runUntil(1_000_700);
    const second = sender.acquire(20, 'transactional');
    await clock.runUntil(1_001_000);
    await second;
    await clock.runUntil(1_004_000);
    await campaign;

    // Assess: the first ask lost its restart to the busy pacer and incremented; the second only incremented
    expect(before).toEqual(['attribute_not_exists(tat) OR tat < :now', 'attribute_not_exists(tat) OR tat < :now', 'tat >= :now']);
    expect(writes().filter((condition) => condition !== 'tat BETWEEN :now AND :latest')).toEqual([...before, 'tat >= :now']);
  });

  it('serves a transactional caller of the same instance before its waiting campaign mail', async () => {
    // Prepare: campaign mail already holds the next slots
    const clock = virtualClock(1_000_000);
    mockPacerTable(ddb);
    const pacer = new SendPacer({ clock: clock.now, sleep: clock.sleep });
    const order: string[] = [];
    const campaign = Array.from({ length: 6 }, () => pacer.acquire(20, 'campaign').then(() => order.push('campaign')));
    await clock.runUntil(1_000_001);

    // Act
    const transactional = pacer.acquire(20, 'transactional').then(() => order.push('transactional'));
    await clock.runUntil(1_010_000);
    await Promise.all([...campaign, transactional]);

    // Assess: the two slots reserved before it arrived went to campaign mail, the next one to it
    expect(order.indexOf('transactional')).toBeLessThanOrEqual(2);
  });
});
