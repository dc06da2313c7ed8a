import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { campaignRunLength, SendPacer, slotIntervalMs } from '../../../../shared/sending/pacer';
import { mockPacerTable } from '../../../support/pacer-table';
import { virtualClock } from '../../../support/virtual-clock';

const ddb = mockClient(DynamoDBDocumentClient);

beforeEach(() => {
  ddb.reset();
});

describe('campaignRunLength', () => {
  const interval = 100;
  it.each([
    ['an idle pacer: the slots at now and one interval later', 1_000, 10, 2],
    ['tat one interval ahead: that one slot', 1_100, 10, 1],
    ['tat just past one interval ahead: none yet', 1_100.5, 10, 0],
    ['half an interval ahead: one', 1_050, 10, 1],
    ['a single waiting caller', 1_000, 1, 1],
  ])('%s', (_, first, wanted, expected) => {
    expect(campaignRunLength(first, 1_000, interval, wanted)).toBe(expected);
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

describe('transactional precedence across instances', () => {
  it.each([10, 50])('a transactional send beside a saturating campaign waits at most two intervals for its slot, at %i/s', async (rate) => {
    // Prepare: two campaign-sender instances and a sender instance, one pacer item
    const clock = virtualClock(1_700_000_000_000);
    const table = mockPacerTable(ddb);
    const options = { clock: clock.now, sleep: clock.sleep };
    const interval = slotIntervalMs(rate);
    const start = clock.now();
    const end = start + 30_000;
    const slots: number[] = [];
    const waits: number[] = [];
    const done = () => clock.now() >= end;
    const campaigns = [new SendPacer(options), new SendPacer(options)].map((pacer) => saturate(pacer, rate, done, slots, clock.now));
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

    // Assess: every wait within two intervals; slots at least one interval apart; the rate kept
    expect(waits.length).toBeGreaterThan(50);
    expect(Math.max(...waits)).toBeLessThanOrEqual(2 * interval + 1e-3);
    const sorted = slots.sort((a, b) => a - b);
    for (let i = 1; i < sorted.length; i++) expect(sorted[i]! - sorted[i - 1]!).toBeGreaterThanOrEqual(interval - 1e-3);
    const inWindow = sorted.filter((slot) => slot < end).length;
    expect(inWindow).toBeGreaterThanOrEqual(0.95 * (30_000 / interval));
    // Transactional reservations never lost a race; campaign instances lose only to each other.
    expect(table.failed['tat >= :now'] ?? 0).toBe(0);
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
