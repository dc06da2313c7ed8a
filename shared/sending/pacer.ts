import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../aws/clients';
import { tableName } from '../db/table';
import { sendingKeys } from './keys';

/**
 * The distributed pacer: every sender instance takes a slot here before each SES send, so the
 * account's sends never exceed the configured rate, however many instances run.
 *
 * GCRA with zero burst on ONE DynamoDB item holding `tat`, the theoretical arrival time (epoch
 * ms) of the next free slot. A sender reserves the slot `max(tat, now)` by moving `tat` one
 * interval past it, then sleeps until its slot. Slots are thus at least one interval apart across
 * all instances; an idle period earns no burst.
 *
 * The interval carries a safety factor: at rate r, at most floor(0.97·r)+1 ≤ r slots fall in any
 * 1-second window, and the ~3 % slack (≈ 30 ms at 14/s) absorbs jitter between the slot time and
 * the moment SES counts the request, while the sustained rate stays at 97 % of r.
 *
 * Two writes, no read. A BUSY pacer (tat at or after now) is reserved with ONE conditional
 * increment, `SET tat = tat + :run IF tat >= :now`: concurrent reservations from any number of
 * instances all succeed, in DynamoDB's order, and each learns its run from the tat it leaves
 * (UPDATED_NEW) — no lost races. An IDLE pacer (tat before now, or never stored) is restarted at
 * now, `SET tat = :now + :run IF attribute_not_exists(tat) OR tat < :now`. An instance picks the
 * write by the tat it last saw; a failed condition hands back the current one
 * (ReturnValuesOnConditionCheckFailure), which says which write to make next.
 *
 * Reservations are batched: the records of a batch ask concurrently, and whoever is waiting when
 * a write goes out is served by it — one write reserves a run of consecutive slots.
 *
 * Transactional precedence, by design (/docs, written in shared/contract/introduction.ts): the
 * two lanes share the one tat and run in different functions. The transactional lane (/v1/send,
 * workflows) reserves at max(tat, now). The campaign lane may reserve a run only if the run ends —
 * its last slot — within one interval of now (campaignReachMs), so the slots promised to campaign
 * mail never reach more than two intervals past now, and a transactional send beside the largest
 * campaign backlog gets a slot at most two intervals away (at 10/s, 206 ms):
 *  - on an idle pacer it takes a run starting now (the restart's condition proves nobody holds a
 *    later slot): two slots at most, now and one interval later;
 *  - on a busy pacer the increment's condition says where the run may start,
 *    `tat BETWEEN :now AND :latest`, `:latest` tightened by the instance's last round trip (a
 *    transactional write that left before this one may land after it) — by at most
 *    ROUND_TRIP_SHARE of an interval, and a run of one slot is always allowed when the next free
 *    slot is due now. Unbounded, that allowance stalled campaign mail for good once a round trip
 *    exceeded an interval: its run could then never end in time.
 * A round trip longer than an interval (a loaded DynamoDB) stretches the reach to that round trip
 * less the allowance: those slots are due before the write even returns, and a transactional send
 * waits as long for its own write; so campaign mail keeps going, at most of the rate on one
 * instance (test/bench/pacer.ts measures it). Campaign mail that finds the next free slot beyond
 * its reach waits (LEAD_POLL_MS at most) and looks again; within an instance, waiting
 * transactional callers are served first. An instance that saw others keep the pacer busy
 * increments at once for a while (BUSY_MEMORY_MS) rather than lose a restart first: a
 * transactional sender, asking now and then, would otherwise pay two round trips beside a campaign.
 * Campaign mail on such an instance asks for one slot until it sees the tat again: with round
 * trips of several intervals, a run sized from a passed tat seldom landed in its window (four
 * instances kept 0.72 of the rate at 50/s; asking for one slot first, all of it).
 */
export const SAFETY = 0.97;
const MAX_ATTEMPTS = 50;
/** Slots one write may reserve: a Lambda batch's worth. */
const MAX_SLOTS_PER_WRITE = 10;
/** How often, at most, a waiting campaign reservation looks again (and yields to transactional callers). */
const LEAD_POLL_MS = 20;
/** The most of an interval the campaign lane's bound gives to a round trip. */
export const ROUND_TRIP_SHARE = 0.5;
/** How long an instance takes a pacer it saw others keep busy for busy still (a campaign keeps it so). */
const BUSY_MEMORY_MS = 1000;
/** Below a thousandth of a millisecond, two times are the same (the interval is not a whole number). */
const EPSILON_MS = 1e-3;

export type SendLane = 'transactional' | 'campaign';

/** Milliseconds between slots for this rate. */
export const slotIntervalMs = (ratePerSecond: number) => 1000 / (ratePerSecond * SAFETY);

/** The GCRA step: the slot a sender gets given the stored tat, and the tat it leaves behind. */
export function nextSlot(tat: number | undefined, now: number, intervalMs: number): { slot: number; next: number } {
  const slot = Math.max(tat ?? 0, now);
  return { slot, next: slot + intervalMs };
}

/** How much of a round trip the campaign lane's bound allows for: all of it, up to ROUND_TRIP_SHARE of an interval. */
export const roundTripAllowance = (roundTripMs: number, intervalMs: number) => Math.min(Math.max(0, roundTripMs), ROUND_TRIP_SHARE * intervalMs);

/**
 * How far past now the campaign lane's run may end (its last slot): one interval less the
 * round-trip allowance on a busy pacer, one interval on an idle one (the restart's condition
 * proves nobody holds a later slot). A round trip longer than an interval stretches the reach to
 * that round trip, less the allowance: slots nearer than that are already due when the write
 * returns, and a transactional send waits as long for its own write anyway.
 */
export function campaignReachMs(roundTripMs: number, intervalMs: number, idle: boolean): number {
  const allowance = roundTripAllowance(roundTripMs, intervalMs);
  return Math.max(idle ? intervalMs : intervalMs - allowance, roundTripMs - allowance);
}

/**
 * The campaign lane's run from the next free slot `first` (the stored tat on a busy pacer, now on
 * an idle one): how many of `wanted` slots end within the reach, at least one when `first` is due
 * now; and `latest`, the furthest the stored tat may be when the increment lands for that run
 * still to end in time. Count 0: not yet.
 */
export function campaignRun(first: number, now: number, intervalMs: number, wanted: number, roundTripMs: number, idle = false): { count: number; latest: number } {
  const lastBy = now + campaignReachMs(roundTripMs, intervalMs, idle);
  const fits = Math.floor((lastBy - first + EPSILON_MS) / intervalMs) + 1;
  const count = Math.max(0, Math.min(wanted, first <= now + EPSILON_MS ? Math.max(1, fits) : fits));
  return { count, latest: Math.max(now, lastBy - (count - 1) * intervalMs) + EPSILON_MS };
}

/**
 * The reservation of a run on a busy pacer: one conditional increment. `latest` (the campaign
 * lane's) bounds where the run may start, so that it ends within one interval of now.
 */
export function pacerIncrementInput(runMs: number, now: number, latest?: number): UpdateCommandInput {
  return {
    TableName: tableName,
    Key: sendingKeys.pacer(),
    UpdateExpression: 'SET tat = tat + :run',
    ConditionExpression: latest === undefined ? 'tat >= :now' : 'tat BETWEEN :now AND :latest',
    ExpressionAttributeValues: { ':run': runMs, ':now': now, ...(latest === undefined ? {} : { ':latest': latest }) },
    ReturnValues: 'UPDATED_NEW',
    ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
  };
}

/** The reservation of a run on an idle pacer (tat before now, or never stored): the run starts now. */
export function pacerRestartInput(runMs: number, now: number): UpdateCommandInput {
  return {
    TableName: tableName,
    Key: sendingKeys.pacer(),
    UpdateExpression: 'SET tat = :next',
    ConditionExpression: 'attribute_not_exists(tat) OR tat < :now',
    ExpressionAttributeValues: { ':next': now + runMs, ':now': now },
    ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
  };
}

interface Waiter {
  resolve: (slot: number) => void;
  reject: (error: unknown) => void;
}

export interface PacerOptions {
  /** The clock (epoch ms). */
  clock?: () => number;
  /** How the pacer waits; a virtual clock's bench gives its own. */
  sleep?: (ms: number) => Promise<void>;
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * One instance's side of the pacer: the tat it last saw, its last round trip to the item and its
 * callers waiting for a slot, per lane; one drain loop serves them, a run of slots per write. A
 * function's container has one (acquireSendSlot); benches and tests make several, as several
 * instances.
 */
export class SendPacer {
  private lastSeenTat: number | undefined;
  /** This instance's latest round trip to the pacer item (ms). */
  private roundTripMs = 0;
  /** Until when this instance takes the pacer for busy although the tat it saw has passed (BUSY_MEMORY_MS after it last saw others keep it busy). */
  private busyUntil = -Infinity;
  private readonly waiting: Record<SendLane, Waiter[]> = { transactional: [], campaign: [] };
  private draining = false;
  private readonly clock: () => number;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(options: PacerOptions = {}) {
    this.clock = options.clock ?? Date.now;
    this.sleep = options.sleep ?? realSleep;
  }

  /** Resolves at this caller's send slot. Throws only if DynamoDB fails or contention never ends. */
  async acquire(ratePerSecond: number, lane: SendLane = 'transactional'): Promise<void> {
    const slot = await new Promise<number>((resolve, reject) => {
      this.waiting[lane].push({ resolve, reject });
      void this.drain(slotIntervalMs(ratePerSecond));
    });
    const wait = slot - this.clock();
    if (wait > 0) await this.sleep(wait);
  }

  /** Forget the tat this instance last saw, its round trip and its waiting callers (tests). */
  reset(): void {
    this.lastSeenTat = undefined;
    this.roundTripMs = 0;
    this.busyUntil = -Infinity;
    this.waiting.transactional.length = 0;
    this.waiting.campaign.length = 0;
  }

  private async drain(interval: number): Promise<void> {
    if (this.draining) return;
    this.draining = true;
    try {
      while (this.waiting.transactional.length > 0 || this.waiting.campaign.length > 0) {
        const lane: SendLane = this.waiting.transactional.length > 0 ? 'transactional' : 'campaign';
        const group = this.waiting[lane].splice(0, MAX_SLOTS_PER_WRITE);
        try {
          const run = await this.reserve(lane, group.length, interval);
          if (run === undefined) {
            // A transactional caller arrived while campaign mail waited for its turn: serve it first.
            this.waiting.campaign.unshift(...group);
            continue;
          }
          // The campaign lane may get fewer slots than it asked for: the rest ask again.
          this.waiting[lane].unshift(...group.splice(run.count));
          group.forEach((waiter, index) => waiter.resolve(run.first + index * interval));
        } catch (error) {
          group.forEach((waiter) => waiter.reject(error));
        }
      }
    } finally {
      this.draining = false;
    }
  }

  /**
   * Reserves up to `wanted` consecutive slots with one write; returns the first and how many. The
   * campaign lane waits until its run may end within one interval of now, and gives up
   * (undefined) as soon as a transactional caller of this instance waits.
   */
  private async reserve(lane: SendLane, wanted: number, interval: number): Promise<{ first: number; count: number } | undefined> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; ) {
      const now = this.clock();
      const tat = this.lastSeenTat;
      // An instance that asks now and then (a transactional sender) finds its tat passed: while
      // others lately kept the pacer busy it increments at once rather than lose a restart first.
      const idle = (tat === undefined || tat < now) && now >= this.busyUntil;
      let count = wanted;
      let latest: number | undefined;
      if (lane === 'campaign') {
        // Busy, but the tat this instance saw has passed: others moved it since, by an unknown run.
        // One slot has the widest window to land in; the tat it hands back sizes the next run.
        const stale = !idle && (tat === undefined || tat < now);
        ({ count, latest } = campaignRun(idle ? now : Math.max(tat ?? now, now), now, interval, stale ? 1 : wanted, this.roundTripMs, idle));
        if (count === 0) {
          if (this.waiting.transactional.length > 0) return undefined;
          const due = tat! - campaignReachMs(this.roundTripMs, interval, false);
          await this.sleep(Math.max(1, Math.min(LEAD_POLL_MS, due - now)));
          continue;
        }
      }
      attempt++;
      const runMs = count * interval;
      try {
        if (idle) {
          await documentClient.send(new UpdateCommand(pacerRestartInput(runMs, now)));
          this.seen(now, now + runMs, false);
          return { first: now, count };
        }
        const { Attributes } = await documentClient.send(new UpdateCommand(pacerIncrementInput(runMs, now, latest)));
        // Without the returned item (a stub), the run is where this instance believed tat to be.
        const next = storedTat(Attributes) ?? Math.max(tat ?? now, now) + runMs;
        // Others keep the pacer busy if the run did not start where this instance left it.
        this.seen(now, next, Math.abs(next - runMs - (tat ?? now)) > EPSILON_MS || undefined);
        return { first: next - runMs, count };
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException) && (error as Error).name !== 'ConditionalCheckFailedException') throw error;
        const item = (error as ConditionalCheckFailedException).Item;
        const seen = item ? storedTat(item) : await readTat();
        this.seen(now, seen, seen !== undefined && seen >= now);
        // Campaign mail that found the next free slot past its bound waits its turn: that is no contention.
        if (lane === 'campaign' && seen !== undefined && seen >= now && campaignRun(seen, now, interval, wanted, this.roundTripMs).count === 0) attempt--;
      }
    }
    throw new Error(`The send pacer stayed contended for ${MAX_ATTEMPTS} attempts`);
  }

  /**
   * What a write that left at `sentAt` learnt: the round trip, the tat, and whether others keep
   * the pacer busy (a run that did not start where this instance left the tat, a condition that
   * failed on a tat at or after now) or it went idle (a condition that failed on a passed tat).
   * A restart that succeeded, a run where this instance expected it, say neither: it may be
   * sending alone.
   */
  private seen(sentAt: number, tat: number | undefined, busy: boolean | undefined): void {
    this.roundTripMs = this.clock() - sentAt;
    this.lastSeenTat = tat;
    if (busy === true) this.busyUntil = sentAt + BUSY_MEMORY_MS;
    if (busy === false && (tat === undefined || tat < sentAt)) this.busyUntil = -Infinity;
  }
}

/** The clock of the latest caller: Date.now, or a test's. */
let callerClock: () => number = Date.now;
/** This container's pacer. */
const pacer = new SendPacer({ clock: () => callerClock() });

/** Resolves at this caller's send slot. Throws only if DynamoDB fails or contention never ends. */
export async function acquireSendSlot(ratePerSecond: number, clock: () => number = Date.now, lane: SendLane = 'transactional'): Promise<void> {
  callerClock = clock;
  return pacer.acquire(ratePerSecond, lane);
}

/**
 * The clock times at which this instance's SendEmail requests of the last second left.
 */
const released: number[] = [];

/** The earliest time this instance's next request may leave, spaced by slot intervals. */
let gateTat = 0;
/** How many slot intervals a request may leave early, to catch up after its timer fired late. */
const GATE_TOLERANCE_SLOTS = 2;

/**
 * The last gate, where a SendEmail request leaves (an SES client middleware after signing, see
 * sender.ts). Timers fire late when the event loop is busy, and the sends of every slot that fell
 * due during a stall would otherwise leave together and reach SES as a burst above the rate. So,
 * per instance, requests leave one slot interval apart (GCRA, catching up by at most two
 * intervals after a late timer), and fewer than floor(SAFETY·rate) in any second by the clock.
 */
export async function admitSend(ratePerSecond: number, clock: () => number = Date.now): Promise<void> {
  const cap = Math.max(1, Math.floor(ratePerSecond * SAFETY));
  const interval = slotIntervalMs(ratePerSecond);
  for (;;) {
    const now = clock();
    while (released.length > 0 && now - released[0]! >= 1000) released.shift();
    const wait = Math.max(released.length < cap ? 0 : released[0]! + 1000 - now, gateTat - GATE_TOLERANCE_SLOTS * interval - now);
    if (wait <= 0) {
      released.push(now);
      gateTat = Math.max(gateTat, now) + interval;
      return;
    }
    await realSleep(Math.max(1, wait));
  }
}

/** Fallback when a failed condition did not return the item. */
async function readTat(): Promise<number | undefined> {
  const { Item } = await documentClient.send(new GetCommand({ TableName: tableName, Key: sendingKeys.pacer(), ConsistentRead: true }));
  return storedTat(Item);
}

/** The tat from a returned item (raw AttributeValue form, or plain). */
function storedTat(item: Record<string, unknown> | undefined): number | undefined {
  const tat = item?.tat as { N?: string } | number | undefined;
  if (typeof tat === 'number') return tat;
  if (tat && typeof tat.N === 'string') return Number(tat.N);
  return undefined;
}

/** For tests: forget the tat this instance last saw, its waiting callers and its gate. */
export function resetPacerMemory(): void {
  pacer.reset();
  released.length = 0;
  gateTat = 0;
}
