import { projectOfPartition } from '../projects/keys';
import { workflowKeys } from './keys';

/**
 * The workflow a table change removed (a REMOVE of a workflow item), if it is one: from it the
 * trigger consumer queues the cancellation of the workflow's executions (cancel.ts). Kept apart
 * from cancel.ts, whose imports need the scheduler's variables, which the consumer does not have.
 */
export function removedWorkflow(change: { eventName: string; keys: Record<string, unknown> }): { projectId: string; workflowId: string } | undefined {
  const projectId = projectOfPartition(change.keys.PK);
  const sk = String(change.keys.SK ?? '');
  if (change.eventName !== 'REMOVE' || !projectId || !sk.startsWith(workflowKeys.workflowPrefix)) return undefined;
  const workflowId = sk.slice(workflowKeys.workflowPrefix.length);
  if (!workflowId || workflowKeys.workflow(projectId, workflowId).SK !== sk) return undefined;
  return { projectId, workflowId };
}
