import { createHash } from 'node:crypto';
import { requiredEnv } from '../config/env';
import { variables } from '../config/variables';
import { cancelSchedule, scheduleOnce } from '../scheduler/schedules';
import { MAX_QUEUE_DELAY_SECONDS, sendStepMessage, type StepMessage } from './queue';

const workflowQueueArn = requiredEnv(variables.workflowQueueArn);

/**
 * Wakes a step at `at` (epoch ms): within 15 minutes by an SQS delay, later by a one-time
 * EventBridge Scheduler schedule whose target is the workflow queue. Never early: SQS delays are
 * whole seconds rounded up, and a schedule's at() takes whole seconds, so its time is rounded up
 * too. A message that still arrives before its time is armed again by the runner.
 */
export async function wakeAt(message: StepMessage, at: number, now = Date.now()): Promise<void> {
  const seconds = Math.ceil((at - now) / 1000);
  if (seconds <= MAX_QUEUE_DELAY_SECONDS) return sendStepMessage(message, Math.max(0, seconds));
  await scheduleOnce({ name: timerName(message.executionId, message.stepId), at: new Date(Math.ceil(at / 1000) * 1000), targetArn: workflowQueueArn, message });
}

/**
 * Removes the schedule of a wait that ended another way (a missing one is fine). Waits of up to
 * 15 minutes have none: their delayed message arrives, finds the step done and does nothing.
 */
export async function cancelWake(executionId: string, stepId: string, startedAt: string, waitUntil: string): Promise<void> {
  if (Date.parse(waitUntil) - Date.parse(startedAt) <= MAX_QUEUE_DELAY_SECONDS * 1000) return;
  await cancelSchedule(timerName(executionId, stepId));
}

/** Schedule names: at most 64 of [0-9a-zA-Z-_.]; step ids are user-chosen, so they are hashed. */
export const timerName = (executionId: string, stepId: string) => `wf-${executionId}-${createHash('sha256').update(stepId).digest('hex').slice(0, 16)}`;
