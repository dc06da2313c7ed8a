import { setTimeout as sleep } from 'node:timers/promises';

export interface CarefulAnswer {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

/**
 * One HTTP call as a careful client of the API makes it: a 503 (or a 409 for an Idempotency-Key
 * whose first request is still running) is tried again after its Retry-After; so are the gateway's
 * 502/504 for a function that ran out of time, when the call is safe to repeat (`repeatable`: a
 * GET, a request with an Idempotency-Key, a tracked event). `onAnswer` sees every answer, retried
 * or not (the faults scenario counts them).
 */
export async function carefulFetch(
  url: string,
  init: RequestInit,
  { repeatable = false, attempts = 90, onAnswer }: { repeatable?: boolean; attempts?: number; onAnswer?: (answer: CarefulAnswer) => void } = {},
): Promise<CarefulAnswer> {
  for (let attempt = 1; ; attempt++) {
    const response = await fetch(url, init);
    const text = await response.text();
    const body = text && response.headers.get('content-type')?.startsWith('application/json') ? JSON.parse(text) : text;
    const answer = { status: response.status, headers: response.headers, body, text };
    onAnswer?.(answer);
    const inProgress = response.status === 409 && body?.error?.code === 'IDEMPOTENCY_KEY_IN_PROGRESS';
    const timedOut = (response.status === 502 || response.status === 504) && repeatable;
    if ((response.status !== 503 && !inProgress && !timedOut) || attempt >= attempts) return answer;
    await sleep(1000 * Number(response.headers.get('retry-after') ?? 1));
  }
}
