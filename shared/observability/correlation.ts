import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The correlation id of the work in progress: the API request's requestId, carried in the send
 * queue message to the sender. Kept in AsyncLocalStorage, so concurrent work in one process (a
 * batch's records, the local stack's requests) each keep their own; the logger adds it to every
 * line as `correlation_id`.
 */
const storage = new AsyncLocalStorage<string>();

export const currentCorrelationId = (): string | undefined => storage.getStore();

export function withCorrelationId<T>(correlationId: string | undefined, work: () => T): T {
  return correlationId ? storage.run(correlationId, work) : work();
}
