import { ConfigError } from '../config/env';

/**
 * When a failed delivery is tried again: WEBHOOK_RETRY_SCHEDULE, the waits in seconds after the
 * 1st, 2nd… failed attempt (comma-separated); after the last one the delivery is failed. The
 * default spans about 27 hours: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (8 attempts).
 */
export const DEFAULT_RETRY_SCHEDULE = [5, 300, 1800, 7200, 18000, 36000, 36000];
const MAX_WAIT_SECONDS = 86_400;
const MAX_RETRIES = 20;

export function parseRetrySchedule(raw: string | undefined): number[] {
  if (raw === undefined || raw.trim() === '') return DEFAULT_RETRY_SCHEDULE;
  const waits = raw.split(',').map((part) => Number(part.trim()));
  if (waits.length > MAX_RETRIES || waits.some((wait) => !Number.isInteger(wait) || wait < 1 || wait > MAX_WAIT_SECONDS)) {
    throw new ConfigError(`WEBHOOK_RETRY_SCHEDULE must be up to ${MAX_RETRIES} comma-separated whole seconds from 1 to ${MAX_WAIT_SECONDS}, got "${raw}"`);
  }
  return waits;
}

/**
 * The wait before the next attempt after `failedAttempts` failures, with ±20 % jitter so the
 * retries of a burst do not arrive together; undefined when the schedule is used up.
 */
export function nextRetryDelaySeconds(schedule: readonly number[], failedAttempts: number, random = Math.random): number | undefined {
  const wait = schedule[failedAttempts - 1];
  if (wait === undefined) return undefined;
  return Math.max(1, Math.round(wait * (0.8 + 0.4 * random())));
}
