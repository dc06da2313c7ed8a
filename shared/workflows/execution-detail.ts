import { conflict, notFound } from '../http/errors';
import { ULID_PATTERN } from '../http/ids';
import { cancelExecution } from './cancel';
import { isActive, present, readExecution, type Execution, type ExecutionView } from './executions';

/** One step an execution went through: when it entered and left, and what came of it. */
export interface PathEntry {
  stepId: string;
  type: string;
  enteredAt: string;
  /** Null while the execution is at this step (running, or waiting in a delay or for an event). */
  leftAt: string | null;
  /** Which branch (THEN / ELSE, EVENT / TIMEOUT), EMAIL_QUEUED, the webhook's HTTP status, … */
  outcome: string | null;
  /** SEND_EMAIL: the email it sent. */
  emailId: string | null;
  error: string | null;
}

export interface ExecutionDetail extends ExecutionView {
  path: PathEntry[];
}

/** The steps in the order the execution entered them. */
function detail(execution: Execution): ExecutionDetail {
  const view = present(execution);
  const path = view.steps.map((step) => ({
    stepId: step.stepId,
    type: step.type,
    enteredAt: step.startedAt,
    leftAt: step.completedAt ?? null,
    outcome: step.outcome ?? null,
    emailId: step.emailId ?? null,
    error: step.error ?? null,
  }));
  return { ...view, path };
}

async function readOrNotFound(projectId: string, workflowId: string, executionId: string): Promise<Execution> {
  const execution = ULID_PATTERN.test(executionId) ? await readExecution(projectId, workflowId, executionId) : undefined;
  if (!execution) throw notFound('Execution');
  return execution;
}

/** GET /workflows/{id}/executions/{executionId}: the execution with its path through the workflow. */
export async function getExecutionDetail(projectId: string, workflowId: string, executionId: string): Promise<ExecutionDetail> {
  return detail(await readOrNotFound(projectId, workflowId, executionId));
}

/**
 * POST /workflows/{id}/executions/{executionId}/cancel: a running or waiting execution ends
 * CANCELLED (`CANCELLED_BY_REQUEST`), its wait and wake-up removed. Cancelling a cancelled one
 * answers it again; one that ended otherwise (even a moment before) is 409.
 */
export async function cancelExecutionOnRequest(projectId: string, workflowId: string, executionId: string): Promise<ExecutionDetail> {
  const execution = await readOrNotFound(projectId, workflowId, executionId);
  if (isActive(execution)) await cancelExecution(projectId, execution, 'CANCELLED_BY_REQUEST');
  const now = isActive(execution) ? await readOrNotFound(projectId, workflowId, executionId) : execution;
  if (now.status !== 'CANCELLED') throw conflict('EXECUTION_FINISHED', `The execution has already ended ${now.status}`);
  return detail(now);
}
