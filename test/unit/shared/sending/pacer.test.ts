import { jest } from '@jest/globals';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { acquireSendSlot, admitSend, nextSlot, pacerIncrementInput, pacerRestartInput, resetPacerMemory, SAFETY, slotIntervalMs } from '../../../../shared/sending/pacer';
import { mockPacerTable } from '../../../support/pacer-table';

const ddb = mockClient(DynamoDBDocumentClient);

describe('pacer arithmetic', () => {
  it('spaces slots by 1000 / (rate × 0.97) ms', () => {
    expect(SAFETY).toBe(0.97);
    expect(slotIntervalMs(14)).toBeCloseTo(1000 / 13.58, 9);
    expect(slotIntervalMs(1)).toBeCloseTo(1030.927835, 5);
  });

  it('gives an idle pacer the current time, with no burst credit', () => {
    // Prepare: the last slot was long ago
    const tat = 1_000;

    // Act
    const step = nextSlot(tat, 50_000, 100);

    // Assess
    expect(step).toEqual({ slot: 50_000, next: 50_100 });
  });

  it('queues a busy pacer behind its theoretical arrival time', () => {
    expect(nextSlot(50_300, 50_000, 100)).toEqual({ slot: 50_300, next: 50_400 });
  });

  it('starts from now when no tat was ever stored', () => {
    expect(nextSlot(undefined, 7_000, 73.5)).toEqual({ slot: 7_000, next: 7_073.5 });
  });

  it.each([1, 2, 14, 50, 200])('never puts more than %i slots in any 1-second window and sustains ≥ 95 %%', (rate) => {
    // Prepare: a backlog — every caller arrives at once, repeatedly, for 20 seconds
    const interval = slotIntervalMs(rate);
    const slots: number[] = [];
    let tat: number | undefined;
    const start = 1_700_000_000_000;

    // Act
    while ((slots.at(-1) ?? start) < start + 20_000) {
      const step = nextSlot(tat, start, interval);
      slots.push(step.slot);
      tat = step.next;
    }

    // Assess: a sliding window [t, t + 1000) starting at every slot holds at most `rate` slots
    for (let i = 0; i < slots.length; i++) {
      let j = i;
      while (j < slots.length && slots[j]! < slots[i]! + 1000) j++;
      expect(j - i).toBeLessThanOrEqual(rate);
    }
    const sustained = (slots.length - 1) / ((slots.at(-1)! - slots[0]!) / 1000);
    expect(sustained).toBeGreaterThanOrEqual(rate * 0.95);
    expect(sustained).toBeLessThanOrEqual(rate);
  });

  it('tolerates jitter of up to the 3 % slack without exceeding the rate', () => {
    // Prepare: 14/s, each send delayed by up to 25 ms after its slot, adversarially
    const interval = slotIntervalMs(14);
    const sends = Array.from({ length: 400 }, (_, i) => i * interval + (i % 14 === 0 ? 0 : 25));

    // Act + Assess
    for (let i = 0; i < sends.length; i++) {
      expect(sends.filter((t) => t >= sends[i]! && t < sends[i]! + 1000).length).toBeLessThanOrEqual(14);
    }
  });
});

describe('the pacer writes', () => {
  it('reserves on a busy pacer with one conditional increment that returns the tat it leaves', () => {
    expect(pacerIncrementInput(147.5, 1_000)).toEqual({
      TableName: 'mailwright-test',
      Key: { PK: 'SES_PACER', SK: 'SES_PACER' },
      UpdateExpression: 'SET tat = tat + :run',
      ConditionExpression: 'tat >= :now',
      ExpressionAttributeValues: { ':run': 147.5, ':now': 1_000 },
      ReturnValues: 'UPDATED_NEW',
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    });
  });

  it('bounds where a campaign run may start', () => {
    const input = pacerIncrementInput(100, 1_000, 1_050);
    expect(input.ConditionExpression).toBe('tat BETWEEN :now AND :latest');
    expect(input.ExpressionAttributeValues).toEqual({ ':run': 100, ':now': 1_000, ':latest': 1_050 });
  });

  it('restarts an idle pacer at now', () => {
    expect(pacerRestartInput(73.5, 7_000)).toEqual({
      TableName: 'mailwright-test',
      Key: { PK: 'SES_PACER', SK: 'SES_PACER' },
      UpdateExpression: 'SET tat = :next',
      ConditionExpression: 'attribute_not_exists(tat) OR tat < :now',
      ExpressionAttributeValues: { ':next': 7_073.5, ':now': 7_000 },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    });
  });
});

describe('acquireSendSlot', () => {
  beforeEach(() => {
    ddb.reset();
    resetPacerMemory();
  });

  it('restarts an idle pacer in one write, then increments the tat it left', async () => {
    // Prepare
    const table = mockPacerTable(ddb);
    const now = 1_700_000_000_000;
    const interval = slotIntervalMs(14);
    let clock = now;

    // Act
    await acquireSendSlot(14, () => clock);
    clock = now + interval / 2; // the second caller arrives before the tat: it sleeps until its slot, half an interval
    await acquireSendSlot(14, () => clock);

    // Assess
    const calls = ddb.commandCalls(UpdateCommand).map((call) => call.args[0].input);
    expect(calls).toEqual([pacerRestartInput(interval, now), pacerIncrementInput(interval, now + interval / 2)]);
    expect(table.tat()).toBeCloseTo(now + 2 * interval, 6);
  });

  it('switches to the increment when another instance made the pacer busy, and sleeps until its slot', async () => {
    // Prepare: another instance moved tat 40 ms into the future
    const now = Date.now();
    const theirs = now + 40;
    mockPacerTable(ddb, { initialTat: theirs });

    // Act
    await acquireSendSlot(14, () => now);
    const waited = Date.now() - now;

    // Assess
    const calls = ddb.commandCalls(UpdateCommand).map((call) => call.args[0].input);
    expect(calls).toEqual([pacerRestartInput(slotIntervalMs(14), now), pacerIncrementInput(slotIntervalMs(14), now)]);
    expect(waited).toBeGreaterThanOrEqual(35);
    expect(ddb.commandCalls(GetCommand)).toHaveLength(0);
  });

  it('reads the item when a failed condition returns none', async () => {
    // Prepare
    const now = 1_000;
    ddb.on(UpdateCommand).rejectsOnce(new ConditionalCheckFailedException({ message: 'failed', $metadata: {} })).resolves({});
    ddb.on(GetCommand).resolves({ Item: { PK: 'SES_PACER', SK: 'SES_PACER', tat: 900 } });

    // Act
    await acquireSendSlot(14, () => now);

    // Assess: 900 lies before now: the pacer is idle, restart it
    expect(ddb.commandCalls(GetCommand)[0]!.args[0].input).toEqual({ TableName: 'mailwright-test', Key: { PK: 'SES_PACER', SK: 'SES_PACER' }, ConsistentRead: true });
    expect(ddb.commandCalls(UpdateCommand)[1]!.args[0].input).toEqual(pacerRestartInput(slotIntervalMs(14), now));
  });

  it('serves concurrent callers of one instance with runs of slots', async () => {
    // Prepare
    const table = mockPacerTable(ddb);
    const now = 1_000;
    const interval = slotIntervalMs(1000);

    // Act: three records of one batch ask at once (the clock stands still)
    await Promise.all([acquireSendSlot(1000, () => now), acquireSendSlot(1000, () => now), acquireSendSlot(1000, () => now)]);

    // Assess: the first caller's write goes out alone; the two that queued behind it share the
    // next write, an increment by two slots — three slots, two writes, no failed condition
    const values = ddb.commandCalls(UpdateCommand).map((call) => call.args[0].input.ExpressionAttributeValues);
    expect(values).toEqual([
      { ':next': now + interval, ':now': now },
      { ':run': 2 * interval, ':now': now },
    ]);
    expect(table.failed).toEqual({});
    expect(table.tat()).toBeCloseTo(now + 3 * interval, 6);
  });

  it('admitSend spaces requests of this instance by the slot interval, letting at most two catch up at once', async () => {
    // Prepare: rate 10 (slot interval 1000 / 9.7 ms); five requests out of one event-loop stall,
    // on a fake clock that moves to a sleeper's wake-up time when its timer fires
    let clock = 2_000_000;
    const released: number[] = [];
    jest.spyOn(global, 'setTimeout').mockImplementation(((callback: () => void, ms: number) => {
      const due = clock + ms;
      queueMicrotask(() => {
        clock = Math.max(clock, due);
        callback();
      });
      return 0 as never;
    }) as never);

    // Act
    await Promise.all([0, 1, 2, 3, 4].map(() => admitSend(10, () => clock).then(() => released.push(clock - 2_000_000))));

    // Assess: three leave together (the first plus two of tolerance), then one interval apart
    jest.restoreAllMocks();
    const interval = slotIntervalMs(10);
    expect(released.slice(0, 3)).toEqual([0, 0, 0]);
    expect(released[3]! - released[2]!).toBeCloseTo(interval, 6);
    expect(released[4]! - released[3]!).toBeCloseTo(interval, 6);
  });

  it('admitSend lets no more than floor(SAFETY·rate) requests of this instance leave in any second by the clock', async () => {
    // Prepare: rate 3 (at most 2 a second); a fake clock that advances only when the gate sleeps,
    // by what it asked for
    let clock = 1_000_000;
    const released: number[] = [];
    jest.spyOn(global, 'setTimeout').mockImplementation(((callback: () => void, ms: number) => {
      clock += ms;
      queueMicrotask(callback);
      return 0 as never;
    }) as never);

    // Act
    for (let i = 0; i < 3; i++) {
      await admitSend(3, () => clock);
      released.push(clock - 1_000_000);
    }

    // Assess: the second may catch up, the third waits until the first is a second old
    jest.restoreAllMocks();
    expect(Math.floor(3 * SAFETY)).toBe(2);
    expect(released[0]).toBe(0);
    expect(released[1]).toBe(0);
    expect(released[2]).toBe(1000);
  });
});

describe('the sender gates SendEmail where it leaves', () => {
  it('registers admitSend as the last finalize-step middleware of the sending SES client', async () => {
    await import('../../../../shared/sending/sender');
    const { sesClient } = await import('../../../../shared/sending/ses');

    const stack = sesClient.middlewareStack.identify();

    expect(stack.filter((entry) => entry.startsWith('mailwrightSendGate'))).toEqual(['mailwrightSendGate - finalizeRequest']);
    const signing = stack.findIndex((entry) => entry.startsWith('httpSigningMiddleware'));
    expect(signing).toBeGreaterThanOrEqual(0);
    expect(stack.findIndex((entry) => entry.startsWith('mailwrightSendGate'))).toBeGreaterThan(signing);
  });
});
