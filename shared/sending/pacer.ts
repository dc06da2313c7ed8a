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
 * current tat, and the next attempt usually succeeds. Cost: one write per send when uncontended.
 */
export const SAFETY = 0.97;
const MAX_ATTEMPTS = 50;

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
/** Reservations of one instance go one at a time (records of a batch run concurrently), so they
 * do not lose races against each other; only the sleeps overlap. */
let reserving: Promise<unknown> = Promise.resolve();

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Resolves at this caller's send slot. Throws only if DynamoDB fails or contention never ends. */
export async function acquireSendSlot(ratePerSecond: number, clock: () => number = Date.now): Promise<void> {
  const reservation = reserving.then(() => reserveSlot(slotIntervalMs(ratePerSecond), clock));
  reserving = reservation.catch(() => undefined);
  const slot = await reservation;
  const wait = slot - clock();
  if (wait > 0) await sleep(wait);
}

async function reserveSlot(interval: number, clock: () => number): Promise<number> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const expected = lastSeenTat;
    const { slot, next } = nextSlot(expected, clock(), interval);
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
}
