import { enqueueBuild } from '../../shared/segments/build-queue';
import { parseBuildJob, runBuild } from '../../shared/segments/build';
import { createSqsHandler } from '../../shared/queue/handler';

/** Time kept back from the invocation's end: the page in progress and the continuation message. */
const RESERVE_MS = 10_000;
/** Without a Lambda context (direct calls), one invocation's worth. */
const DEFAULT_BUDGET_MS = 20_000;

/**
 * The segment-builds queue's consumer: builds a tracked segment's membership page by page
 * (shared/segments/build.ts) until its time is nearly up, then queues the rest as a new job.
 * A redelivered or duplicate job is harmless: every membership write is conditional.
 */
export const handler = createSqsHandler({
  name: 'segment-builder',
  parse: parseBuildJob,
  process: async (job, _record, context) => {
    const budget = context ? context.getRemainingTimeInMillis() - RESERVE_MS : DEFAULT_BUDGET_MS;
    const outcome = await runBuild(job, Date.now() + Math.max(budget, 1_000));
    if (outcome.status === 'CONTINUE') await enqueueBuild(outcome.next);
  },
});
