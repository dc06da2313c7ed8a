import * as v from 'valibot';
import { enqueueImport, importMessageSchema } from '../../shared/imports/queue';
import { runImport } from '../../shared/imports/worker';
import { createSqsHandler } from '../../shared/queue/handler';

/** Time kept back from the invocation's end: the batch in progress and the continuation message. */
const RESERVE_MS = 10_000;
/** Without a Lambda context (direct calls), one invocation's worth. */
const DEFAULT_BUDGET_MS = 60_000;

/**
 * The imports queue's consumer: imports a job's rows from its checkpoint (shared/imports/worker.ts)
 * until its time is nearly up, then queues the job again to continue in a new invocation.
 */
export const handler = createSqsHandler({
  name: 'contact-imports',
  parse: (body) => v.parse(importMessageSchema, body),
  process: async (message, _record, context) => {
    const budget = context ? context.getRemainingTimeInMillis() - RESERVE_MS : DEFAULT_BUDGET_MS;
    const outcome = await runImport(message.projectId, message.jobId, Date.now() + Math.max(budget, 1_000));
    if (outcome === 'CONTINUE') await enqueueImport(message);
  },
});
