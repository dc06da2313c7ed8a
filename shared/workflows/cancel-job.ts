import * as v from 'valibot';
import { ACTIVE_STATUSES } from './executions';
import { sendRunnerJob } from './queue';

/**
 * DELETE /workflows/{id} removes the workflow item (and its trigger) only; the table stream's
 * REMOVE of that item reaches the workflow-triggers consumer (infra/streams.ts,
 * `removalPrefixes`; removals.ts), which queues this job on the workflow queue; the workflow-runner cancels
 * the executions page by page and queues the rest with its cursor when its time is nearly up.
 * Idempotent: a redelivered job finds the executions it cancelled gone from the RUNNING and
 * WAITING partitions (or fails their condition), and a job for a workflow that still exists
 * cancels nothing. The job lives apart from the cancelling (shared/workflows/cancel.ts) so that
 * the trigger consumer, which queues it, does not load the runner's timers (EventBridge Scheduler,
 * whose settings only the runner's environment has).
 */
export const cancelExecutionsJobSchema = v.object({
  kind: v.literal('cancel-executions'),
  projectId: v.pipe(v.string(), v.nonEmpty()),
  workflowId: v.pipe(v.string(), v.nonEmpty()),
  /** The status partition (GSI1) being read; absent: the first of ACTIVE_STATUSES. */
  status: v.optional(v.picklist(ACTIVE_STATUSES)),
  /** Its next page (the last page's LastEvaluatedKey); absent: its first. */
  cursor: v.optional(v.record(v.string(), v.string())),
});

export type CancelExecutionsJob = v.InferOutput<typeof cancelExecutionsJobSchema>;

export const parseCancelExecutionsJob = (body: unknown): CancelExecutionsJob => v.parse(cancelExecutionsJobSchema, body);

/** Queues the cancellation of a deleted workflow's executions (or its continuation) for the workflow-runner. */
export const sendCancelExecutionsJob = (job: CancelExecutionsJob): Promise<void> => sendRunnerJob(job);

/** Whether a workflow-queue message is this job (the others are step messages). */
export const isCancelExecutionsJob = (body: unknown): boolean => typeof body === 'object' && body !== null && (body as { kind?: unknown }).kind === 'cancel-executions';
