import * as v from 'valibot';
import { exportMessageSchema } from '../../shared/exports/queue';
import { runExport } from '../../shared/exports/worker';
import { createSqsHandler } from '../../shared/queue/handler';

/** Time kept back from the invocation's end to record a job that ran out of time as FAILED. */
const RESERVE_MS = 10_000;
const DEFAULT_BUDGET_MS = 600_000;

/** The exports queue's consumer: writes a job's CSV (shared/exports/worker.ts). */
export const handler = createSqsHandler({
  name: 'contact-exports',
  parse: (body) => v.parse(exportMessageSchema, body),
  process: async (message, _record, context) => {
    const budget = context ? context.getRemainingTimeInMillis() - RESERVE_MS : DEFAULT_BUDGET_MS;
    await runExport(message.projectId, message.jobId, Date.now() + Math.max(budget, 1_000));
  },
});
