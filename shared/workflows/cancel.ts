import { queryAll } from '../db/query';
import { tableName } from '../db/table';
import type { TransactItem } from '../db/transactions';
import { ACTIVE_STATUSES, finishExecution, fromItem, type Execution } from './executions';
import { workflowKeys } from './keys';
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

/** Every RUNNING and WAITING execution of the workflow (GSI1, by status), cancelled. */
export async function cancelActiveExecutions(projectId: string, workflowId: string): Promise<number> {
  let count = 0;
  for (const status of ACTIVE_STATUSES) {
    const items = await queryAll({
      IndexName: 'GSI1',
      KeyConditionExpression: 'GSI1PK = :pk',
      ExpressionAttributeValues: { ':pk': workflowKeys.byStatusPartition(projectId, workflowId, status) },
    });
    for (const item of items) if (await cancelExecution(projectId, fromItem(item), 'WORKFLOW_DELETED')) count++;
  }
  return count;
}
