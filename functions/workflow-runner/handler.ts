import type { Context } from 'aws-lambda';
import { createSqsHandler } from '../../shared/queue/handler';
import { cancelDeletedWorkflowExecutions } from '../../shared/workflows/cancel';
import { isCancelExecutionsJob, parseCancelExecutionsJob, sendCancelExecutionsJob, type CancelExecutionsJob } from '../../shared/workflows/cancel-job';
import { runStep } from '../../shared/workflows/engine';
import { parseStepMessage, type StepMessage } from '../../shared/workflows/queue';

/** Time kept back from the invocation's end: the page in progress and the continuation message. */
const RESERVE_MS = 10_000;
/** Without a Lambda context (direct calls), one invocation's worth. */
const DEFAULT_BUDGET_MS = 20_000;

/**
 * The workflow queue's consumer: each message advances one execution by one step
 * (shared/workflows/engine.ts), or cancels a deleted workflow's executions page by page
 * (shared/workflows/cancel.ts), queueing the rest with its cursor when its time is nearly up.
 */
export const handler = createSqsHandler<StepMessage | CancelExecutionsJob>({
  name: 'workflow-runner',
  parse: (body) => (isCancelExecutionsJob(body) ? parseCancelExecutionsJob(body) : parseStepMessage(body)),
  process: async (message, record, context) => {
    if ('kind' in message) return cancelInBackground(message, context);
    return runStep(message, Number(record.attributes?.ApproximateReceiveCount ?? 1) || 1);
  },
});

async function cancelInBackground(job: CancelExecutionsJob, context?: Context): Promise<void> {
  const budget = context ? context.getRemainingTimeInMillis() - RESERVE_MS : DEFAULT_BUDGET_MS;
  const outcome = await cancelDeletedWorkflowExecutions(job, Date.now() + Math.max(budget, 1_000));
  if (outcome.status === 'CONTINUE') await sendCancelExecutionsJob(outcome.next);
}
