import * as v from 'valibot';
import { countSchema, idSchema, isoDateTimeSchema } from '../http/responses';
import { statsMetrics } from '../stats/stats';
import { EXECUTION_STATUSES, stepSchema, triggerSchema } from './schemas';

/** The workflow as the API shows it (/docs "Workflows"). */
const workflowFields = {
  id: idSchema,
  name: v.pipe(v.string(), v.examples(['Onboarding'])),
  description: v.nullable(v.string()),
  enabled: v.boolean(),
  trigger: triggerSchema,
  allowReentry: v.boolean(),
  steps: v.array(stepSchema),
  version: v.pipe(v.number(), v.integer(), v.minValue(1), v.description('Bumped by every change of trigger, steps or allowReentry; executions keep the version they started on')),
  createdAt: isoDateTimeSchema,
  updatedAt: isoDateTimeSchema,
};

const statsSchema = v.pipe(
  v.strictObject({
    entered: countSchema,
    completed: countSchema,
    exited: countSchema,
    failed: countSchema,
    cancelled: countSchema,
    ...Object.fromEntries(statsMetrics.map((metric) => [`${metric}Count`, countSchema])),
  }),
  v.description('Execution outcomes, and the delivery counters of the emails the workflow sent'),
);

export const workflowResponseSchema = v.pipe(v.strictObject(workflowFields), v.title('Workflow'));
export const workflowWithStatsResponseSchema = v.pipe(v.strictObject({ ...workflowFields, stats: statsSchema }), v.title('WorkflowWithStats'));
export const createdWorkflowResponseSchema = v.pipe(
  v.strictObject({ ...workflowFields, stats: statsSchema, webhookSecret: v.pipe(v.string(), v.description('Signs the WEBHOOK steps (Standard Webhooks, whsec_…); shown only here')) }),
  v.title('CreatedWorkflow'),
);

const stepRecordSchema = v.strictObject({
  stepId: v.string(),
  type: v.string(),
  status: v.picklist(['RUNNING', 'COMPLETED', 'FAILED', 'CANCELLED']),
  startedAt: isoDateTimeSchema,
  completedAt: v.optional(isoDateTimeSchema),
  outcome: v.optional(v.pipe(v.string(), v.description('EMAIL_QUEUED, SKIPPED_UNSUBSCRIBED, WAITED, EVENT, TIMEOUT, THEN, ELSE, UPDATED, HTTP <status>, EXIT, CONTACT_DELETED'))),
  error: v.optional(v.string()),
  attempts: v.optional(countSchema),
  waitUntil: v.optional(isoDateTimeSchema),
  event: v.optional(v.string()),
  emailId: v.optional(idSchema),
});

const executionEntries = {
  id: idSchema,
  workflowId: idSchema,
  workflowVersion: v.pipe(v.number(), v.integer(), v.minValue(1)),
  contactId: idSchema,
  status: v.picklist(EXECUTION_STATUSES),
  currentStepId: v.string(),
  startedAt: isoDateTimeSchema,
  completedAt: v.optional(isoDateTimeSchema),
  exitReason: v.optional(v.string()),
  steps: v.array(stepRecordSchema),
};

export const executionResponseSchema = v.pipe(v.strictObject(executionEntries), v.title('WorkflowExecution'));

/** GET /workflows/{id}/executions/{executionId} and its cancel: the execution with its path (shared/workflows/execution-detail.ts). */
export const executionDetailResponseSchema = v.pipe(
  v.strictObject({
    ...executionEntries,
    path: v.pipe(
      v.array(
        v.strictObject({
          stepId: v.string(),
          type: v.string(),
          enteredAt: isoDateTimeSchema,
          leftAt: v.pipe(v.nullable(isoDateTimeSchema), v.description('Null while the execution is at this step (running, or waiting)')),
          outcome: v.pipe(v.nullable(v.string()), v.description('THEN / ELSE, EVENT / TIMEOUT, EMAIL_QUEUED, HTTP <status>, …')),
          emailId: v.pipe(v.nullable(idSchema), v.description('SEND_EMAIL: the email it sent')),
          error: v.nullable(v.string()),
        }),
      ),
      v.description('The steps in the order the execution entered them'),
    ),
  }),
  v.title('WorkflowExecutionDetail'),
);

const branchCount = v.optional(countSchema);

/** GET /workflows/{id}/stats (shared/workflows/workflows.ts `workflowStepStats`). */
export const workflowStepStatsResponseSchema = v.pipe(
  v.strictObject({
    entered: countSchema,
    active: v.pipe(countSchema, v.description('Executions running or waiting now')),
    completed: countSchema,
    exited: countSchema,
    failed: countSchema,
    cancelled: countSchema,
    steps: v.array(
      v.strictObject({
        stepId: v.string(),
        type: v.string(),
        entered: countSchema,
        active: v.pipe(countSchema, v.description('Executions at this step now: running it, or waiting in its delay or for its event')),
        completed: countSchema,
        failed: countSchema,
        cancelled: countSchema,
        branches: v.pipe(
          v.nullable(v.strictObject({ then: branchCount, else: branchCount, event: branchCount, timeout: branchCount })),
          v.description('CONDITION: { then, else }; WAIT_FOR_EVENT: { event, timeout }; null for the other steps'),
        ),
      }),
    ),
  }),
  v.title('WorkflowStepStats'),
);
