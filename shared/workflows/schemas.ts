import * as v from 'valibot';
import { pageQueryEntries } from '../http/pagination';
import type { FieldError } from '../http/errors';
import { filtersSchema } from '../segments/filter';

/** The limits of a workflow definition, documented in the README ("Workflows"). */
export const workflowLimits = {
  maxSteps: 50,
  maxDelaySeconds: 365 * 86_400,
  maxWebhookHeaders: 20,
  maxUrlLength: 2048,
} as const;

export const STEP_TYPES = ['SEND_EMAIL', 'DELAY', 'WAIT_FOR_EVENT', 'CONDITION', 'UPDATE_CONTACT', 'WEBHOOK', 'EXIT'] as const;
export type StepType = (typeof STEP_TYPES)[number];

export const DELAY_UNITS = { seconds: 1, minutes: 60, hours: 3_600, days: 86_400 } as const;
export type DelayUnit = keyof typeof DELAY_UNITS;

const ULID_MESSAGE = 'must be an id';
const idOf = (label: string) => v.pipe(v.string(`${label} must be a string`), v.regex(/^[0-9A-HJKMNP-TV-Z]{26}$/, `${label} ${ULID_MESSAGE}`));

/** Step ids name the step in executions and in `next`: short, plain, unique. */
const stepIdSchema = v.pipe(v.string('id must be a string'), v.regex(/^[A-Za-z0-9_-]{1,64}$/, 'id must be 1–64 letters, digits, _ or -'));
const nextSchema = (label: string) => v.optional(v.pipe(v.string(`${label} must be a step id`), v.regex(/^[A-Za-z0-9_-]{1,64}$/, `${label} must be a step id`)));

const EVENT_NAME = /^[A-Za-z0-9][A-Za-z0-9 _.:/-]*$/;
const eventName = (reserved: string[]) =>
  v.pipe(
    v.string('event must be a string'),
    v.trim(),
    v.minLength(1, 'event is required'),
    v.maxLength(100, 'event is at most 100 characters'),
    v.regex(EVENT_NAME, 'event must start with a letter or digit and use only letters, digits, spaces and _ . : - /'),
    v.check((name) => !reserved.some((prefix) => name.toLowerCase().startsWith(prefix)), `events starting with ${reserved.join(', ')} cannot be used here`),
  );

/** Triggers on the service's own email.* events would let a workflow trigger itself with the mail it sends. */
const triggerEventName = eventName(['email.', 'segment.', 'contact.']);
/** Waiting for email.opened / email.clicked is useful; segment.* and contact.* have their own triggers. */
const waitEventName = eventName(['segment.', 'contact.']);

export const triggerSchema = v.variant(
  'type',
  [
    v.object({ type: v.literal('EVENT'), event: triggerEventName }),
    v.object({ type: v.picklist(['SEGMENT_ENTERED', 'SEGMENT_EXITED']), segmentId: idOf('segmentId') }),
    v.object({ type: v.literal('CONTACT_CREATED') }),
  ],
  'trigger.type must be EVENT, SEGMENT_ENTERED, SEGMENT_EXITED or CONTACT_CREATED',
);

const headerName = v.pipe(
  v.string(),
  v.regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/, 'header names are 1–100 token characters'),
  v.check((name) => !/^(webhook-|content-|host$|connection$|transfer-encoding$|user-agent$)/i.test(name), 'this header is set by the service'),
);

const webhookUrl = v.pipe(
  v.string('url must be a string'),
  v.maxLength(workflowLimits.maxUrlLength, `url is at most ${workflowLimits.maxUrlLength} characters`),
  v.url('url must be an absolute URL'),
  v.check((url) => /^https?:$/.test(new URL(url).protocol), 'url must be http(s)'),
);

const sendEmailStep = v.object({ id: stepIdSchema, type: v.literal('SEND_EMAIL'), templateId: idOf('templateId'), next: nextSchema('next') });
const delayStep = v.object({
  id: stepIdSchema,
  type: v.literal('DELAY'),
  amount: v.pipe(v.number('amount must be a number'), v.integer('amount must be an integer'), v.minValue(1, 'amount must be at least 1')),
  unit: v.picklist(Object.keys(DELAY_UNITS) as DelayUnit[], 'unit must be seconds, minutes, hours or days'),
  next: nextSchema('next'),
});
const waitStep = v.object({
  id: stepIdSchema,
  type: v.literal('WAIT_FOR_EVENT'),
  event: waitEventName,
  timeoutSeconds: v.pipe(
    v.number('timeoutSeconds must be a number'),
    v.integer('timeoutSeconds must be an integer'),
    v.minValue(1, 'timeoutSeconds must be at least 1'),
    v.maxValue(workflowLimits.maxDelaySeconds, `timeoutSeconds is at most ${workflowLimits.maxDelaySeconds} (365 days)`),
  ),
  next: nextSchema('next'),
  timeoutNext: nextSchema('timeoutNext'),
});
const conditionStep = v.object({ id: stepIdSchema, type: v.literal('CONDITION'), filters: filtersSchema, then: nextSchema('then'), else: nextSchema('else') });
const updateContactStep = v.pipe(
  v.object({
    id: stepIdSchema,
    type: v.literal('UPDATE_CONTACT'),
    data: v.optional(v.record(v.string(), v.unknown(), 'data must be an object')),
    subscribed: v.optional(v.boolean('subscribed must be a boolean')),
    next: nextSchema('next'),
  }),
  v.check((step) => step.data !== undefined || step.subscribed !== undefined, 'UPDATE_CONTACT needs data and/or subscribed'),
);
const webhookStep = v.object({
  id: stepIdSchema,
  type: v.literal('WEBHOOK'),
  url: webhookUrl,
  headers: v.optional(
    v.pipe(
      v.record(headerName, v.pipe(v.string('header values must be strings'), v.maxLength(1000, 'header values are at most 1000 characters'), v.regex(/^[^\r\n]*$/, 'header values must not contain line breaks'))),
      v.check((headers) => Object.keys(headers).length <= workflowLimits.maxWebhookHeaders, `at most ${workflowLimits.maxWebhookHeaders} headers`),
    ),
  ),
  next: nextSchema('next'),
});
const exitStep = v.object({ id: stepIdSchema, type: v.literal('EXIT') });

export const stepSchema = v.variant('type', [sendEmailStep, delayStep, waitStep, conditionStep, updateContactStep, webhookStep, exitStep], `type must be one of ${STEP_TYPES.join(', ')}`);

const nameSchema = v.pipe(v.string('name must be a string'), v.trim(), v.minLength(1, 'name is required'), v.maxLength(200, 'name is at most 200 characters'));
const descriptionSchema = v.pipe(v.string('description must be a string'), v.maxLength(1000, 'description is at most 1000 characters'));
const stepsSchema = v.pipe(
  v.array(v.unknown(), 'steps must be an array'),
  v.minLength(1, 'steps must hold at least one step'),
  v.maxLength(workflowLimits.maxSteps, `a workflow has at most ${workflowLimits.maxSteps} steps`),
  v.array(stepSchema),
);

export const createWorkflowSchema = v.object({
  name: nameSchema,
  description: v.optional(descriptionSchema),
  enabled: v.optional(v.boolean('enabled must be a boolean'), true),
  trigger: triggerSchema,
  allowReentry: v.optional(v.boolean('allowReentry must be a boolean'), false),
  steps: stepsSchema,
});

export const patchWorkflowSchema = v.pipe(
  v.object({
    name: v.optional(nameSchema),
    description: v.optional(v.nullable(descriptionSchema)),
    enabled: v.optional(v.boolean('enabled must be a boolean')),
    trigger: v.optional(triggerSchema),
    allowReentry: v.optional(v.boolean('allowReentry must be a boolean')),
    steps: v.optional(stepsSchema),
  }),
  v.check((changes) => Object.values(changes).some((value) => value !== undefined), 'give at least one field to change'),
);

export const EXECUTION_STATUSES = ['RUNNING', 'WAITING', 'COMPLETED', 'EXITED', 'FAILED', 'CANCELLED'] as const;
export type ExecutionStatus = (typeof EXECUTION_STATUSES)[number];

export const listWorkflowsQuerySchema = v.object({ ...pageQueryEntries });
export const listExecutionsQuerySchema = v.object({
  ...pageQueryEntries,
  status: v.optional(v.picklist(EXECUTION_STATUSES, `status must be one of ${EXECUTION_STATUSES.join(', ')}`)),
  contactId: v.optional(idOf('contactId')),
});

export type Trigger = v.InferOutput<typeof triggerSchema>;
export type Step = v.InferOutput<typeof stepSchema>;
export type CreateWorkflowInput = v.InferOutput<typeof createWorkflowSchema>;
export type WorkflowChanges = v.InferOutput<typeof patchWorkflowSchema>;
export type ListWorkflowsQuery = v.InferOutput<typeof listWorkflowsQuerySchema>;
export type ListExecutionsQuery = v.InferOutput<typeof listExecutionsQuerySchema>;

export const delaySeconds = (step: { amount: number; unit: DelayUnit }) => step.amount * DELAY_UNITS[step.unit];

/** The step ids a step may go to, with the field that names each. */
export function branchesOf(step: Step): { field: string; target: string }[] {
  const branches: { field: string; target?: string }[] =
    step.type === 'CONDITION'
      ? [
          { field: 'then', target: step.then },
          { field: 'else', target: step.else },
        ]
      : step.type === 'WAIT_FOR_EVENT'
        ? [
            { field: 'next', target: step.next },
            { field: 'timeoutNext', target: step.timeoutNext },
          ]
        : step.type === 'EXIT'
          ? []
          : [{ field: 'next', target: step.next }];
  return branches.filter((branch): branch is { field: string; target: string } => branch.target !== undefined);
}

/**
 * The checks a schema cannot make: ids unique, every branch names a step, delays within 365
 * days, every step reachable from the first, and no cycle (an execution runs each step at most
 * once, which is what makes a step key per execution and step enough for idempotency).
 */
export function graphErrors(steps: Step[]): FieldError[] {
  const errors: FieldError[] = [];
  const indexById = new Map<string, number>();
  steps.forEach((step, index) => {
    if (indexById.has(step.id)) errors.push({ field: `steps[${index}].id`, code: 'DUPLICATE_STEP', message: `step id ${step.id} is used twice` });
    else indexById.set(step.id, index);
    if (step.type === 'DELAY' && delaySeconds(step) > workflowLimits.maxDelaySeconds) {
      errors.push({ field: `steps[${index}].amount`, code: 'DELAY_TOO_LONG', message: 'a delay is at most 365 days' });
    }
  });
  steps.forEach((step, index) => {
    for (const branch of branchesOf(step)) {
      if (!indexById.has(branch.target)) errors.push({ field: `steps[${index}].${branch.field}`, code: 'UNKNOWN_STEP', message: `no step has the id ${branch.target}` });
    }
  });

  // Depth-first from the first step: grey = on the current path (an edge to it closes a cycle).
  const state = new Map<string, 'grey' | 'black'>();
  const visit = (id: string) => {
    state.set(id, 'grey');
    const index = indexById.get(id)!;
    for (const branch of branchesOf(steps[index]!)) {
      if (!indexById.has(branch.target)) continue;
      const seen = state.get(branch.target);
      if (seen === 'grey') errors.push({ field: `steps[${index}].${branch.field}`, code: 'CYCLE', message: `going to ${branch.target} makes a cycle; workflows run each step at most once` });
      else if (!seen) visit(branch.target);
    }
    state.set(id, 'black');
  };
  visit(steps[0]!.id);
  steps.forEach((step, index) => {
    if (!state.has(step.id)) errors.push({ field: `steps[${index}]`, code: 'UNREACHABLE_STEP', message: `step ${step.id} cannot be reached from the first step` });
  });
  return errors;
}
