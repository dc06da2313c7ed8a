import { enqueueBuild, enqueueMemberCleanup } from '../../shared/segments/build-queue';
import { parseBuildJob, runBuild, type BuildJob } from '../../shared/segments/build';
import { isMemberCleanupJob, parseMemberCleanupJob, runMemberCleanup, type MemberCleanupJob } from '../../shared/segments/cleanup';
import { createSqsHandler } from '../../shared/queue/handler';

/** Time kept back from the invocation's end: the page in progress and the continuation message. */
const RESERVE_MS = 10_000;
/** Without a Lambda context (direct calls), one invocation's worth. */
const DEFAULT_BUDGET_MS = 20_000;

/**
 * The segment-builds queue's consumer: builds a tracked segment's membership page by page
 * (shared/segments/build.ts), or deletes a deleted segment's members page by page
 * (shared/segments/cleanup.ts), until its time is nearly up, then queues the rest as a new job.
 * A redelivered or duplicate job is harmless: every membership write is conditional, and
 * deleting what is gone changes nothing.
 */
export const handler = createSqsHandler<BuildJob | MemberCleanupJob>({
  name: 'segment-builder',
  parse: (body) => (isMemberCleanupJob(body) ? parseMemberCleanupJob(body) : parseBuildJob(body)),
  process: async (job, _record, context) => {
    const budget = context ? context.getRemainingTimeInMillis() - RESERVE_MS : DEFAULT_BUDGET_MS;
    const deadline = Date.now() + Math.max(budget, 1_000);
    if ('kind' in job) {
      const outcome = await runMemberCleanup(job, deadline);
      if (outcome.status === 'CONTINUE') await enqueueMemberCleanup(outcome.next);
      return;
    }
    const outcome = await runBuild(job, deadline);
    if (outcome.status === 'CONTINUE') await enqueueBuild(outcome.next);
  },
});
