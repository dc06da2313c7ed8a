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
 * past it with a conditional write, then sleeps until its slot. Slots are thus at least one
 * interval apart across all instances; an idle period earns no burst.
 *
 * The interval carries a safety factor: at rate r, at most floor(0.97·r)+1 ≤ r slots fall in any
 * 1-second window, and the ~3 % slack (≈ 30 ms at 14/s) absorbs jitter between the slot time and
 * the moment SES counts the request, while the sustained rate stays at 97 % of r.
 *
 * Read-free optimistic concurrency: the write is conditioned on the tat this instance last saw
 * (kept in module memory); on a lost race ReturnValuesOnConditionCheckFailure hands back the
 * current tat, and the next attempt usually succeeds.
 *
 * Reservations are batched: the records of a batch ask concurrently, and whoever is waiting when
 * a write goes out is served by it — one write reserves a run of consecutive slots. A single slot
 * per write would cap every instance together at one send per DynamoDB round trip on this item.
 *
 * Transactional precedence (README "Campaigns"): two lanes share the one tat. The transactional
 * lane (/v1/send, workflows) reserves at max(tat, now) as above. The campaign lane reserves only
 * a slot that lies at most CAMPAIGN_LEAD_MS ahead of now, and otherwise waits — so the slots
 * already promised to campaign mail never reach further than that lead plus one batch of slots,
 * and a transactional send queues behind at most that much, however large the campaign backlog.
 * Within an instance, waiting transactional callers are always served first.
 */
export const SAFETY = 0.97;
const MAX_ATTEMPTS = 50;
/** Slots one write may reserve: a Lambda batch's worth. */
const MAX_SLOTS_PER_WRITE = 10;
/** How far ahead of now the campaign lane may reserve a slot. */
export const CAMPAIGN_LEAD_MS = 150;
/** How often a waiting campaign reservation looks again (and yields to transactional callers). */
const LEAD_POLL_MS = 20;

export type SendLane = 'transactional' | 'campaign';

/** Milliseconds between slots for this rate. */
export const slotIntervalMs = (ratePerSecond: number) => 1000 / (ratePerSecond * SAFETY);

/** The GCRA step: the slot a sender gets given the stored tat, and the tat it leaves behind. */
export function nextSlot(tat: number | undefined, now: number, intervalMs: number): { slot: number; next: number } {
  const slot = Math.max(tat ?? 0, now);
  return { slot, next: slot + intervalMs };
}

/**
 * The conditional write that moves tat from `expected` to `next`. `attribute_not_exists(tat)`
 * lets the very first send create the item; `expected` 0 stands for "never seen".
 */
export function pacerUpdateInput(expected: number | undefined, next: number): UpdateCommandInput {
  return {
    TableName: tableName,
    Key: sendingKeys.pacer(),
    UpdateExpression: 'SET tat = :next',
    ConditionExpression: 'attribute_not_exists(tat) OR tat = :expected',
    ExpressionAttributeValues: { ':next': next, ':expected': expected ?? 0 },
    ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
  };
}

let lastSeenTat: number | undefined;

interface Waiter {
  resolve: (slot: number) => void;
  reject: (error: unknown) => void;
}
/** Callers of this instance waiting for a slot, per lane; one drain loop serves them, a run of slots per write. */
const waiting: Record<SendLane, Waiter[]> = { transactional: [], campaign: [] };
let draining = false;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Resolves at this caller's send slot. Throws only if DynamoDB fails or contention never ends. */
export async function acquireSendSlot(ratePerSecond: number, clock: () => number = Date.now, lane: SendLane = 'transactional'): Promise<void> {
  const slot = await new Promise<number>((resolve, reject) => {
    waiting[lane].push({ resolve, reject });
    void drain(slotIntervalMs(ratePerSecond), clock);
  });
  const wait = slot - clock();
  if (wait > 0) await sleep(wait);
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
    await sleep(Math.max(1, wait));
  }
}

async function drain(interval: number, clock: () => number): Promise<void> {
  if (draining) return;
  draining = true;
  try {
    while (waiting.transactional.length > 0 || waiting.campaign.length > 0) {
      const lane: SendLane = waiting.transactional.length > 0 ? 'transactional' : 'campaign';
      const group = waiting[lane].splice(0, MAX_SLOTS_PER_WRITE);
      try {
        const first =
          lane === 'transactional'
            ? await reserveSlots(group.length, interval, clock)
            : await reserveSlots(group.length, interval, clock, CAMPAIGN_LEAD_MS, () => waiting.transactional.length > 0);
        if (first === undefined) {
          // A transactional caller arrived while campaign mail waited for its lead: serve it first.
          waiting.campaign.unshift(...group);
          continue;
        }
        group.forEach((waiter, index) => waiter.resolve(first + index * interval));
      } catch (error) {
        group.forEach((waiter) => waiter.reject(error));
      }
    }
  } finally {
    draining = false;
  }
}

/**
 * Reserves `count` consecutive slots with one conditional write; returns the first. With
 * `maxLeadMs`, only a first slot at most that far ahead of now is taken: until then it waits,
 * and gives up (undefined) as soon as `yieldTo()` says another caller goes first.
 */
async function reserveSlots(count: number, interval: number, clock: () => number): Promise<number>;
async function reserveSlots(count: number, interval: number, clock: () => number, maxLeadMs: number, yieldTo: () => boolean): Promise<number | undefined>;
async function reserveSlots(count: number, interval: number, clock: () => number, maxLeadMs = Infinity, yieldTo: () => boolean = () => false): Promise<number | undefined> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; ) {
    const expected = lastSeenTat;
    const now = clock();
    const { slot, next } = nextSlot(expected, now, interval * count);
    if (slot - now > maxLeadMs) {
      if (yieldTo()) return undefined;
      await sleep(Math.min(LEAD_POLL_MS, slot - now - maxLeadMs));
      continue;
    }
    attempt++;
    try {
      await documentClient.send(new UpdateCommand(pacerUpdateInput(expected, next)));
      lastSeenTat = next;
      return slot;
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException) && (error as Error).name !== 'ConditionalCheckFailedException') throw error;
      lastSeenTat = storedTat((error as ConditionalCheckFailedException).Item) ?? (await readTat());
    }
  }
  throw new Error(`The send pacer stayed contended for ${MAX_ATTEMPTS} attempts`);
}

/** Fallback when a failed condition did not return the item. */
async function readTat(): Promise<number | undefined> {
  const { Item } = await documentClient.send(new GetCommand({ TableName: tableName, Key: sendingKeys.pacer(), ConsistentRead: true }));
  return storedTat(Item);
}

/** The tat from the item returned on a failed condition (raw AttributeValue form, or plain). */
function storedTat(item: Record<string, unknown> | undefined): number | undefined {
  const tat = item?.tat as { N?: string } | number | undefined;
  if (typeof tat === 'number') return tat;
  if (tat && typeof tat.N === 'string') return Number(tat.N);
  return undefined;
}

/** For tests: forget the tat this instance last saw. */
export function resetPacerMemory(): void {
  lastSeenTat = undefined;
  waiting.transactional.length = 0;
  waiting.campaign.length = 0;
  released.length = 0;
  gateTat = 0;
}
