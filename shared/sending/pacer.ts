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
 * ms) of the next send. A sender reserves the slot `max(tat, now)` by moving `tat` one interval
 * past it, then sleeps until its slot. Slots are thus at least one interval apart across all
 * instances; an idle period earns no burst.
 *
 * The interval carries a safety factor: at rate r, at most floor(0.97·r)+1 ≤ r slots fall in any
 * 1-second window, and the ~3 % slack (≈ 30 ms at 14/s) absorbs jitter between the slot time and
 * the moment SES counts the request, while the sustained rate stays at 97 % of r.
 *
 * A reservation is ONE conditional increment, `SET tat = tat + :run IF tat >= :now`: while the
 * pacer is busy (tat at or after now) concurrent reservations from any number of instances all
 * succeed, in DynamoDB's order, and each learns its run from the tat it leaves (UPDATED_NEW) — no
 * lost races, no read. Only an idle pacer (tat before now, or never stored) is restarted at now
 * with `SET tat = :now + :run IF tat < :now`; a failed condition hands back the current tat
 * (ReturnValuesOnConditionCheckFailure), which says which of the two writes to make next.
 *
 * Reservations are batched: the records of a batch ask concurrently, and whoever is waiting when
 * a write goes out is served by it — one write reserves a run of consecutive slots.
 *
 * Transactional precedence, by design (README "Campaigns"): the two lanes share the one tat and
 * run in different functions. The transactional lane (/v1/send, workflows) reserves at
 * max(tat, now) as above. The campaign lane may reserve a run only if the run's last slot lies
 * within one interval of now (the increment's condition says so, `tat <= :latest`; "now" less
 * the instance's last round trip to the item, since a transactional write that left first may
 * land after the campaign's), and otherwise waits. So the slots promised to campaign mail never reach more than two intervals
 * past now (its last slot, plus that slot's interval), and a transactional send arriving beside
 * the largest campaign backlog gets a slot at most two intervals away: at 10/s, 206 ms. Within an
 * instance, waiting transactional callers are served first.
 */
export const SAFETY = 0.97;
const MAX_ATTEMPTS = 50;
/** Slots one write may reserve: a Lambda batch's worth. */
const MAX_SLOTS_PER_WRITE = 10;
/** How often, at most, a waiting campaign reservation looks again (and yields to transactional callers). */
const LEAD_POLL_MS = 20;
/**
 * How long a pacer seen busy is still taken for busy when this instance's tat has passed: others
 * (a campaign) are likely still reserving, and the increment, not a restart, is the one write.
 */
const BUSY_MEMORY_MS = 1000;

export type SendLane = 'transactional' | 'campaign';

/** Milliseconds between slots for this rate. */
export const slotIntervalMs = (ratePerSecond: number) => 1000 / (ratePerSecond * SAFETY);

/** The GCRA step: the slot a sender gets given the stored tat, and the tat it leaves behind. */
export function nextSlot(tat: number | undefined, now: number, intervalMs: number): { slot: number; next: number } {
  const slot = Math.max(tat ?? 0, now);
  return { slot, next: slot + intervalMs };
}

/** Below a thousandth of a millisecond, two times are the same (the interval is not a whole number). */
const EPSILON_MS = 1e-3;

/**
 * How many of `wanted` slots the campaign lane may reserve from `first` (the slot max(tat, now)):
 * as many as end — the last slot — within one interval of now; 0 while `first` itself lies further.
 */
export function campaignRunLength(first: number, now: number, intervalMs: number, wanted: number): number {
  const fits = Math.floor((now + intervalMs - first + EPSILON_MS) / intervalMs) + 1;
  return Math.max(0, Math.min(wanted, fits));
}

/**
 * The reservation of a run while the pacer is busy: one conditional increment. `latest` (the
 * campaign lane's) bounds where the run may start, so that it ends within one interval of now.
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
 * One instance's side of the pacer: the tat it last saw and its callers waiting for a slot, per
 * lane; one drain loop serves them, a run of slots per write. A function's container has one
 * (acquireSendSlot); benches and tests make several, as several instances.
 */
export class SendPacer {
  private lastSeenTat: number | undefined;
  /** Until when a tat passed by is still taken for a busy pacer (BUSY_MEMORY_MS after it was last seen busy). */
  private busyUntil = -Infinity;
  /** This instance's latest pacer round trip (ms): how much later than its clock says a write may land. */
  private roundTripMs = 0;
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

  /** Forget the tat this instance last saw and its waiting callers (tests). */
  reset(): void {
    this.lastSeenTat = undefined;
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
   * campaign lane waits until at least one slot ends within one interval of now, and gives up
   * (undefined) as soon as a transactional caller of this instance waits.
   */
  private async reserve(lane: SendLane, wanted: number, interval: number): Promise<{ first: number; count: number } | undefined> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; ) {
      const now = this.clock();
      const ahead = this.lastSeenTat !== undefined && this.lastSeenTat >= now;
      const busy = ahead || now < this.busyUntil;
      const first = ahead ? this.lastSeenTat! : now;
      let count = wanted;
      if (lane === 'campaign') {
        count = campaignRunLength(first, now - this.roundTripMs, interval, wanted);
        if (count === 0) {
          if (this.waiting.transactional.length > 0) return undefined;
          await this.sleep(Math.max(1, Math.min(LEAD_POLL_MS, first - interval - (now - this.roundTripMs))));
          continue;
        }
      }
      attempt++;
      const runMs = count * interval;
      try {
        if (busy) {
          // The run may start anywhere from now to `latest` (campaign): its last slot within one
          // interval of now, less a round trip — a transactional write that left before this one
          // may land after it.
          const latest = lane === 'campaign' ? now + (2 - count) * interval - this.roundTripMs + EPSILON_MS : undefined;
          const { Attributes } = await documentClient.send(new UpdateCommand(pacerIncrementInput(runMs, now, latest)));
          this.roundTripMs = this.clock() - now;
          // Without the returned item (a stub), the run is where this instance believed tat to be.
          const next = storedTat(Attributes) ?? first + runMs;
          this.lastSeenTat = next;
          this.busyUntil = now + BUSY_MEMORY_MS;
          return { first: next - runMs, count };
        }
        await documentClient.send(new UpdateCommand(pacerRestartInput(runMs, now)));
        this.roundTripMs = this.clock() - now;
        this.lastSeenTat = now + runMs;
        return { first: now, count };
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException) && (error as Error).name !== 'ConditionalCheckFailedException') throw error;
        this.roundTripMs = this.clock() - now;
        const item = (error as ConditionalCheckFailedException).Item;
        this.lastSeenTat = item ? storedTat(item) : await readTat();
        this.busyUntil = this.lastSeenTat !== undefined && this.lastSeenTat >= now ? now + BUSY_MEMORY_MS : -Infinity;
        // Campaign mail that found the pacer past its bound waits its turn: that is no contention.
        const seen = Math.max(this.lastSeenTat ?? 0, now);
        if (lane === 'campaign' && campaignRunLength(seen, now - this.roundTripMs, interval, wanted) === 0) attempt--;
      }
    }
    throw new Error(`The send pacer stayed contended for ${MAX_ATTEMPTS} attempts`);
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
