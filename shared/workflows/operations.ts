import { concurrentModificationCase, notFoundCase, type OperationDoc } from '../http/operation-doc';
import { deletedSchema, pageSchema } from '../http/responses';
import { createdWorkflowResponseSchema, executionDetailResponseSchema, executionResponseSchema, workflowResponseSchema, workflowStepStatsResponseSchema, workflowWithStatsResponseSchema } from './responses';
import { createWorkflowSchema, listExecutionsQuerySchema, listWorkflowsQuerySchema, patchWorkflowSchema } from './schemas';

/** The OpenAPI entries of the workflow routes, keyed by route key ('METHOD /path'). */
export const workflowOperations: Record<string, OperationDoc> = {
  'POST /workflows': {
    operationId: 'createWorkflow',
    tag: 'Workflows',
    summary: 'Create a workflow',
    description:
      'When a contact does X (an event, entering or leaving a tracked segment, being created), run the steps from the first one (triggers, steps, validation and limits under Workflows). The answer carries `webhookSecret` (`whsec_…`, shown only here): it signs the WEBHOOK steps.',
    body: createWorkflowSchema,
    bodyExample: {
      name: 'Onboarding',
      trigger: { type: 'EVENT', event: 'signed_up' },
      steps: [
        { id: 'welcome', type: 'SEND_EMAIL', templateId: '01KAQ5VZ3N4G8T2M6P0R9S7W1X', next: 'wait' },
        { id: 'wait', type: 'DELAY', amount: 3, unit: 'days', next: 'plan' },
        { id: 'plan', type: 'CONDITION', filters: { operator: 'AND', conditions: [{ field: 'data.plan', operator: 'equals', value: 'pro' }] }, then: 'tips' },
        { id: 'tips', type: 'SEND_EMAIL', templateId: '01KAQ5VZ3N4G8T2M6P0R9S7W1Y' },
      ],
    },
    success: { status: 201, description: 'The workflow, its stats and its webhook signing secret', data: createdWorkflowResponseSchema },
  },
  'GET /workflows': {
    operationId: 'listWorkflows',
    tag: 'Workflows',
    summary: 'List workflows',
    description: 'Newest first; `total` is read from a counter.',
    query: listWorkflowsQuerySchema,
    success: { status: 200, description: 'A page of workflows, newest first', data: pageSchema(workflowResponseSchema) },
  },
  'GET /workflows/{id}': {
    operationId: 'getWorkflow',
    tag: 'Workflows',
    summary: 'Get a workflow with its stats',
    description:
      'With `stats`: `entered`, `completed`, `exited`, `failed`, `cancelled`, and the delivery counters of its emails.',
    success: { status: 200, description: 'The workflow and its stats', data: workflowWithStatsResponseSchema },
    errors: [notFoundCase('workflow')],
  },
  'PATCH /workflows/{id}': {
    operationId: 'updateWorkflow',
    tag: 'Workflows',
    summary: 'Update a workflow',
    description:
      'Any of `name`, `description` (`null` removes it), `enabled`, `trigger`, `allowReentry`, `steps`, validated as on creation. A change of trigger, steps or allowReentry is a new version; running executions keep theirs. `enabled: false` stops new entries (running executions go on).',
    body: patchWorkflowSchema,
    bodyExample: { enabled: false },
    success: { status: 200, description: 'The updated workflow', data: workflowWithStatsResponseSchema },
    errors: [notFoundCase('workflow'), concurrentModificationCase],
  },
  'DELETE /workflows/{id}': {
    operationId: 'deleteWorkflow',
    tag: 'Workflows',
    summary: 'Delete a workflow',
    description:
      'Answers at once, whatever the number of executions: the workflow is gone from that moment (`GET` answers 404, lists leave it out) and its trigger starts nothing more. Its running and waiting executions are cancelled in the background within seconds (`CANCELLED`, `WORKFLOW_DELETED`; minutes for very many), resuming where it stopped after any failure; an execution running a step meanwhile cancels itself at its next step. Deleting it again answers 404.',
    success: { status: 200, description: 'Deleted (its executions are being cancelled in the background)', data: deletedSchema },
    errors: [notFoundCase('workflow')],
  },
  'GET /workflows/{id}/executions': {
    operationId: 'listWorkflowExecutions',
    tag: 'Workflows',
    summary: 'List executions',
    description:
      'Newest first, each with its steps (status, outcome, error, `waitUntil`, `emailId`); filters `status` and `contactId`. `total` is the workflow\'s executions (`entered`), not narrowed by the filters.',
    query: listExecutionsQuerySchema,
    success: { status: 200, description: 'A page of executions, newest first, each with its steps', data: pageSchema(executionResponseSchema) },
    errors: [notFoundCase('workflow')],
  },
  'GET /workflows/{id}/executions/{executionId}': {
    operationId: 'getWorkflowExecution',
    tag: 'Workflows',
    summary: 'Get an execution',
    description:
      'The execution with its `path`: each step it entered, in order, with `enteredAt`, `leftAt` (null while it is there: running, or waiting in a delay or for an event), its `outcome` (which branch a CONDITION or WAIT_FOR_EVENT took, EMAIL_QUEUED and the `emailId` of a send, the HTTP status of a webhook step) and any `error`.',
    success: { status: 200, description: 'The execution and its path', data: executionDetailResponseSchema },
    errors: [notFoundCase('workflow execution')],
  },
  'POST /workflows/{id}/executions/{executionId}/cancel': {
    operationId: 'cancelWorkflowExecution',
    tag: 'Workflows',
    summary: 'Cancel an execution',
    description:
      'A RUNNING or WAITING execution ends `CANCELLED` (`exitReason: CANCELLED_BY_REQUEST`): its current step is cancelled and its wait and wake-up removed, so it sends nothing more. Idempotent: cancelling a cancelled execution answers it again.',
    success: { status: 200, description: 'The cancelled execution', data: executionDetailResponseSchema },
    errors: [notFoundCase('workflow execution'), { status: 409, code: 'EXECUTION_FINISHED', when: 'The execution had already ended otherwise (COMPLETED, EXITED or FAILED)' }],
  },
  'GET /workflows/{id}/stats': {
    operationId: 'getWorkflowStats',
    tag: 'Workflows',
    summary: 'Per-step figures',
    description:
      'The workflow\'s executions (`entered`, `active` = running or waiting now, and how they ended) and, for each step of its current version, how many executions `entered` it, are `active` at it now (running it, or waiting in its delay or for its event), went on (`completed`), `failed` or were `cancelled` there, and for a CONDITION which branch they took (`{ then, else }`) and for a WAIT_FOR_EVENT whether the event came (`{ event, timeout }`). Counted as steps run, and entries from the table stream in batches (in AWS within about 10 seconds of the entry); read in two reads, never a scan of executions.',
    success: { status: 200, description: 'The figures', data: workflowStepStatsResponseSchema },
    errors: [notFoundCase('workflow')],
  },
};
