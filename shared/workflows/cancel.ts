import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../aws/clients';
import { tableName } from '../db/table';
import type { TransactItem } from '../db/transactions';
import type { CancelExecutionsJob } from './cancel-job';
import { ACTIVE_STATUSES, finishExecution, fromItem, type Execution } from './executions';
import { workflowKeys } from './keys';
import { readWorkflow } from './store';
import { cancelWake } from './timers';

/**
 * Cancels one running or waiting execution: CANCELLED with the reason, its current step
 * CANCELLED, its entry in the waiting index and its wake-up schedule removed. An execution that
 * has ended meanwhile is left as it is.
 */
export async function cancelExecution(projectId: string, execution: Execution, reason: string): Promise<boolean> {
  const current = execution.steps[execution.currentStepId];
  const running = current?.status === 'RUNNING' ? current : undefined;
  const extra: TransactItem[] = running?.event
    ? [{ Delete: { TableName: tableName, Key: workflowKeys.wait(projectId, execution.contactId, running.event, execution.id) } }]
    : [];
  const cancelled = await finishExecution(
    projectId,
    execution,
    { status: 'CANCELLED', exitReason: reason, ...(running ? { step: { stepId: running.stepId, fields: { status: 'CANCELLED' }, requireRunning: false } } : {}) },
    extra,
  );
  if (cancelled && running?.waitUntil) await cancelWake(execution.id, running.stepId, running.startedAt, running.waitUntil);
  return cancelled;
}

// ---- A deleted workflow's executions, cancelled in the background -------------------------------

/** Executions read and cancelled per page. */
export const CANCEL_PAGE_SIZE = 25;

export type CancelOutcome = { status: 'DONE'; cancelled: number } | { status: 'CONTINUE'; cancelled: number; next: CancelExecutionsJob };

/**
 * Cancels the deleted workflow's RUNNING and WAITING executions (GSI1, by status) from the job's
 * position on, a page at a time, until none are left (DONE) or `deadline` (ms) has passed
 * (CONTINUE, with the position of the next page).
 */
export async function cancelDeletedWorkflowExecutions(job: CancelExecutionsJob, deadline: number): Promise<CancelOutcome> {
  const { projectId, workflowId } = job;
  if (await readWorkflow(projectId, workflowId)) return { status: 'DONE', cancelled: 0 };
  let cancelled = 0;
  let statusIndex = job.status ? ACTIVE_STATUSES.indexOf(job.status) : 0;
  let cursor = job.cursor;
  while (statusIndex < ACTIVE_STATUSES.length) {
    const status = ACTIVE_STATUSES[statusIndex]!;
    const page = await documentClient.send(
      new QueryCommand({
        TableName: tableName,
        IndexName: 'GSI1',
        KeyConditionExpression: 'GSI1PK = :pk',
        ExpressionAttributeValues: { ':pk': workflowKeys.byStatusPartition(projectId, workflowId, status) },
        Limit: CANCEL_PAGE_SIZE,
        ...(cursor ? { ExclusiveStartKey: cursor } : {}),
      }),
    );
    for (const item of page.Items ?? []) if (await cancelExecution(projectId, fromItem(item), 'WORKFLOW_DELETED')) cancelled++;
    cursor = page.LastEvaluatedKey as Record<string, string> | undefined;
    if (!cursor) statusIndex++;
    if (statusIndex >= ACTIVE_STATUSES.length) break;
    if (Date.now() >= deadline) {
      return {
        status: 'CONTINUE',
        cancelled,
        next: { kind: 'cancel-executions', projectId, workflowId, status: ACTIVE_STATUSES[statusIndex] as 'RUNNING' | 'WAITING', ...(cursor ? { cursor } : {}) },
      };
    }
  }
  return { status: 'DONE', cancelled };
}
