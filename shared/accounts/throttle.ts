import { BatchGetCommand, DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../aws/clients';
import { tableName } from '../db/table';
import { ApiError } from '../http/errors';
import { accountKeys } from './keys';

/**
 * Sign-in throttling (/docs "Dashboard session"), per account (email) and per source address:
 * failures count within a window that each failure extends; from `slowFrom` failures on, the
 * next attempt must wait one more second per failure (429 + Retry-After); at `lockAt` failures
 * the subject is locked for LOCK_MS. A success clears the account's count (not the address's).
 * Checked before the password is hashed, so a locked account costs no scrypt time.
 */
export const THROTTLE_WINDOW_MS = 15 * 60_000;
export const LOCK_MS = 15 * 60_000;
export const throttleRules = {
  email: { slowFrom: 6, lockAt: 10 },
  ip: { slowFrom: 30, lockAt: 100 },
} as const;

type Subject = { email: string } | { ip: string };

interface ThrottleState {
  failures: number;
  lastFailureAt: number;
  lockedUntil?: number;
}

const rulesOf = (subject: Subject) => ('email' in subject ? throttleRules.email : throttleRules.ip);

/** Milliseconds until the subject may try again; 0 when it may now. */
export function waitFor(state: ThrottleState | undefined, rules: { slowFrom: number; lockAt: number }, now: number): number {
  if (!state) return 0;
  if (state.lockedUntil && state.lockedUntil > now) return state.lockedUntil - now;
  if (state.lastFailureAt <= now - THROTTLE_WINDOW_MS || state.failures < rules.slowFrom) return 0;
  const delayMs = (state.failures - rules.slowFrom + 1) * 1000;
  return Math.max(0, state.lastFailureAt + delayMs - now);
}

export const tooManyAttempts = (waitMs: number) => {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  return new ApiError(429, 'TOO_MANY_ATTEMPTS', 'Too many failed sign-ins; try again later', { headers: { 'Retry-After': String(seconds) }, suggestion: `Retry after ${seconds} seconds.` });
};

/** 429 when the account or the address must wait. One BatchGetItem. */
export async function assertMayTry(subjects: Subject[], now = Date.now()): Promise<void> {
  const keys = subjects.map((subject) => accountKeys.throttle(subject));
  const { Responses } = await documentClient.send(new BatchGetCommand({ RequestItems: { [tableName]: { Keys: keys, ConsistentRead: true } } }));
  const items = Responses?.[tableName] ?? [];
  const wait = Math.max(0, ...subjects.map((subject, index) => waitFor(items.find((item) => item.PK === keys[index]!.PK) as ThrottleState | undefined, rulesOf(subject), now)));
  if (wait > 0) throw tooManyAttempts(wait);
}

/** Counts a failure for each subject; the one that reaches lockAt is locked (its count starts again after). */
export async function recordFailure(subjects: Subject[], now = Date.now()): Promise<void> {
  await Promise.all(subjects.map((subject) => countFailure(subject, now)));
}

async function countFailure(subject: Subject, now: number): Promise<void> {
  const key = accountKeys.throttle(subject);
  const ttl = Math.ceil((now + THROTTLE_WINDOW_MS + LOCK_MS) / 1000);
  let failures: number;
  try {
    const { Attributes } = await documentClient.send(
      new UpdateCommand({
        TableName: tableName,
        Key: key,
        UpdateExpression: 'ADD failures :one SET lastFailureAt = :now, expiresAt = :ttl',
        ConditionExpression: 'lastFailureAt > :staleBefore',
        ExpressionAttributeValues: { ':one': 1, ':now': now, ':ttl': ttl, ':staleBefore': now - THROTTLE_WINDOW_MS },
        ReturnValues: 'ALL_NEW',
      }),
    );
    failures = Attributes!.failures as number;
  } catch (error) {
    if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
    // No failure within the window: this one starts a new count.
    await documentClient.send(
      new UpdateCommand({ TableName: tableName, Key: key, UpdateExpression: 'SET failures = :one, lastFailureAt = :now, expiresAt = :ttl REMOVE lockedUntil', ExpressionAttributeValues: { ':one': 1, ':now': now, ':ttl': ttl } }),
    );
    failures = 1;
  }
  if (failures >= rulesOf(subject).lockAt) {
    await documentClient.send(
      new UpdateCommand({ TableName: tableName, Key: key, UpdateExpression: 'SET lockedUntil = :until, failures = :zero', ExpressionAttributeValues: { ':until': now + LOCK_MS, ':zero': 0 } }),
    );
  }
}

export async function clearFailures(subject: { email: string }): Promise<void> {
  await documentClient.send(new DeleteCommand({ TableName: tableName, Key: accountKeys.throttle(subject) }));
}
