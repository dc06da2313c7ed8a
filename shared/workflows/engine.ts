import { getContact, patchContact, type Contact } from '../contacts/contacts';
import { tableName } from '../db/table';
import { writeOnce, type TransactItem } from '../db/transactions';
import { findVerifiedDomainFor } from '../domains/domains';
import { putEmailOnce, type EmailRecord } from '../emails/emails';
import { derivedUlid } from '../events/events';
import { ApiError } from '../http/errors';
import { logger } from '../observability/logger';
import { postJson, signPayload } from '../outbound/outbound';
import { RetryLater } from '../queue/errors';
import { compileFilter } from '../segments/filter';
import { contactEventTimes } from '../segments/membership';
import { enqueueEmails } from '../sending/send-queue';
import { withUnsubscribeLink } from '../templates/plain-text';
import { renderMessage, templateHtml, templateView } from '../templates/render';
import { getTemplate } from '../templates/templates';
import { unsubscribeHeaders, unsubscribeUrl } from '../unsubscribe/token';
import { cancelExecution } from './cancel';
import { advance, finishExecution, isActive, readExecution, startStep, stepStart, type Execution, type StepRecord } from './executions';
import { workflowKeys } from './keys';
import { upgradeRuntimeLayout } from './layout-upgrade';
import { sendStepMessage, type StepMessage } from './queue';
import type { Step } from './schemas';
import { readVersion, readWorkflow, type StoredWorkflow } from './store';
import { cancelWake, wakeAt } from './timers';

/**
 * The workflow runner: one queue message advances one execution at one step. Every step is
 * keyed by (execution, step id) — `steps.<id>` on the execution, absent until started — and
 * every state change is conditional on the state it starts from, so a redelivered message, or
 * two wakes of one wait, change things once. Effects are idempotent too: an email's id derives
 * from the execution and step (a conditional Put), a contact update is a merge, a webhook
 * carries the same webhook-id on every attempt.
 *
 * A step that throws is retried with backoff (2, 4, 8, 16 s) from the queue; after
 * MAX_STEP_ATTEMPTS, or at once when the failure cannot heal (a deleted template, a domain that
 * is not verified), the execution is FAILED with the reason.
 */
export const MAX_STEP_ATTEMPTS = 5;
const WEBHOOK_TIMEOUT_MS = 10_000;

/** A step that cannot succeed by trying again. */
export class PermanentStepFailure extends Error {
  override name = 'PermanentStepFailure';
}

interface StepContext {
  projectId: string;
  execution: Execution;
  workflow: StoredWorkflow;
  step: Step;
  record: StepRecord | undefined;
  message: StepMessage;
}

export async function runStep(message: StepMessage, receiveCount = 1): Promise<void> {
  const { projectId, workflowId, executionId, stepId } = message;
  let execution = await readExecution(projectId, workflowId, executionId);
  if (!execution) {
    // Maybe of a project whose workflows are of the layout before their runs had partitions of
    // their own (shared/workflows/layout-upgrade.ts), moved by now, by this call or another.
    await upgradeRuntimeLayout(projectId);
    execution = await readExecution(projectId, workflowId, executionId);
  }
  if (!execution || !isActive(execution)) return;
  if (execution.currentStepId !== stepId) {
    // A repeat of an earlier step's message (or a late wake). The step it led to may have lost
    // its own message to a crash between the two writes: send it again (its start is keyed).
    if (execution.steps[stepId]?.status === 'COMPLETED' && !execution.steps[execution.currentStepId]) {
      await sendStepMessage({ projectId, workflowId, executionId, stepId: execution.currentStepId });
    }
    return;
  }
  const workflow = await readWorkflow(projectId, workflowId);
  if (!workflow) {
    await cancelExecution(projectId, execution, 'WORKFLOW_DELETED');
    return;
  }
  const version = await readVersion(projectId, workflowId, execution.workflowVersion);
  const step = version?.steps.find((candidate) => candidate.id === stepId);
  const context: StepContext = { projectId, execution, workflow, step: step!, record: execution.steps[stepId], message };
  try {
    if (!step) throw new PermanentStepFailure(`Step ${stepId} is not in version ${execution.workflowVersion}`);
    await STEPS[step.type](context);
  } catch (error) {
    const reason = (error as Error).message || String(error);
    const permanent = error instanceof PermanentStepFailure || (error instanceof ApiError && error.statusCode < 500);
    if (!permanent && receiveCount < MAX_STEP_ATTEMPTS) {
      await noteAttempt(context, reason, receiveCount);
      throw new RetryLater(2 ** receiveCount, reason);
    }
    logger.warn('Workflow step failed; the execution fails', { projectId, workflowId, executionId, stepId, reason, attempts: receiveCount });
    await finishExecution(projectId, execution, {
      status: 'FAILED',
      exitReason: `Step ${stepId} failed: ${reason}`,
      ...(context.record ? { step: { stepId, fields: { status: 'FAILED', error: reason }, requireRunning: false } } : {}),
    });
  }
}

// ---- Steps ------------------------------------------------------------------------------------

type StepRunner = (context: StepContext) => Promise<void>;

const STEPS: Record<Step['type'], StepRunner> = {
  SEND_EMAIL: async (context) => {
    const step = context.step as Extract<Step, { type: 'SEND_EMAIL' }>;
    if (!(await started(context))) return;
    const contact = await contactOrExit(context);
    if (!contact) return;
    const template = await getTemplate(context.projectId, step.templateId).catch((error: unknown) => {
      if (error instanceof ApiError && error.statusCode === 404) throw new PermanentStepFailure(`Template ${step.templateId} no longer exists`);
      throw error;
    });
    if (template.type === 'MARKETING' && !contact.subscribed) {
      await done(context, { outcome: 'SKIPPED_UNSUBSCRIBED' }, step.next);
      return;
    }
    if (!template.from) throw new PermanentStepFailure(`Template ${template.id} has no from address`);
    if (!(await findVerifiedDomainFor(context.projectId, template.from.email))) throw new PermanentStepFailure(`The domain of ${template.from.email} is not a verified domain of this project`);

    // Marketing mail carries the one-click unsubscribe link, as campaign mail does (Gmail and Yahoo require it of bulk senders).
    const marketing = template.type === 'MARKETING';
    const unsubscribe = marketing ? unsubscribeUrl({ projectId: context.projectId, contactId: contact.id }) : undefined;
    const rendered = renderMessage(
      { subject: template.subject, html: templateHtml(template), text: template.text },
      templateView({ event: context.execution.trigger.data, ...(unsubscribe ? { unsubscribeUrl: unsubscribe } : {}) }, contact),
    );
    const startedAt = context.record?.startedAt ?? new Date().toISOString();
    const now = new Date().toISOString();
    const email: EmailRecord = {
      id: derivedUlid(Date.parse(startedAt), `${context.execution.id}#${step.id}`),
      projectId: context.projectId,
      contactId: contact.id,
      to: { email: contact.email },
      from: template.from,
      replyTo: template.replyTo ? [template.replyTo] : [],
      subject: rendered.subject,
      html: rendered.html,
      text: unsubscribe ? withUnsubscribeLink(rendered.text, unsubscribe) : rendered.text,
      headers: unsubscribe ? unsubscribeHeaders(unsubscribe) : [],
      attachments: [],
      source: { type: 'workflow', id: context.workflow.id },
      marketing,
      status: 'QUEUED',
      createdAt: now,
      updatedAt: now,
    };
    // A retried step finds its email stored already; queueing it again is harmless (the sender claims once).
    await putEmailOnce(email);
    await enqueueEmails([{ projectId: context.projectId, emailId: email.id }]);
    await done(context, { outcome: 'EMAIL_QUEUED', emailId: email.id }, step.next);
  },

  DELAY: async (context) => {
    const step = context.step as Extract<Step, { type: 'DELAY' }>;
    await waitThenGo(context, () => done(context, { outcome: 'WAITED' }, step.next));
  },

  WAIT_FOR_EVENT: async (context) => {
    const step = context.step as Extract<Step, { type: 'WAIT_FOR_EVENT' }>;
    const { projectId, execution } = context;
    const waitKey = workflowKeys.wait(projectId, execution.contactId, step.event, execution.id);
    const stopWaiting: TransactItem = { Delete: { TableName: tableName, Key: waitKey } };
    const event = context.message.event;
    if (event && context.record) {
      // The awaited event: it wins if it happened before the timeout and the step still waits.
      if (event.name !== step.event || Date.parse(event.createdAt) > Date.parse(context.record.waitUntil!)) return;
      if (await done(context, { outcome: 'EVENT' }, step.next, [stopWaiting])) await cancelWake(execution.id, step.id, context.record.startedAt, context.record.waitUntil!);
      return;
    }
    await waitThenGo(context, () =>
      step.timeoutNext
        ? done(context, { outcome: 'TIMEOUT' }, step.timeoutNext, [stopWaiting])
        : finishExecution(projectId, execution, { status: 'EXITED', exitReason: 'WAIT_TIMED_OUT', step: { stepId: step.id, fields: { status: 'COMPLETED', outcome: 'TIMEOUT' }, requireRunning: true } }, [stopWaiting]),
    );
  },

  CONDITION: async (context) => {
    const step = context.step as Extract<Step, { type: 'CONDITION' }>;
    if (!(await started(context))) return;
    const contact = await contactOrExit(context);
    if (!contact) return;
    const now = Date.now();
    const times = await contactEventTimes(context.projectId, contact.id, [step.filters], now);
    const matched = compileFilter(step.filters, now)(contact, (name) => times.get(name));
    await done(context, { outcome: matched ? 'THEN' : 'ELSE' }, matched ? step.then : step.else);
  },

  UPDATE_CONTACT: async (context) => {
    const step = context.step as Extract<Step, { type: 'UPDATE_CONTACT' }>;
    if (!(await started(context))) return;
    try {
      await patchContact(context.projectId, context.execution.contactId, { data: step.data, subscribed: step.subscribed });
    } catch (error) {
      if (error instanceof ApiError && error.statusCode === 404) return exitContactDeleted(context);
      throw error;
    }
    await done(context, { outcome: 'UPDATED' }, step.next);
  },

  WEBHOOK: async (context) => {
    const step = context.step as Extract<Step, { type: 'WEBHOOK' }>;
    if (!(await started(context))) return;
    const contact = await contactOrExit(context);
    if (!contact) return;
    const { execution } = context;
    const body = JSON.stringify({
      workflowId: execution.workflowId,
      executionId: execution.id,
      stepId: step.id,
      contact: { id: contact.id, email: contact.email, subscribed: contact.subscribed, data: contact.data },
      event: execution.trigger,
    });
    // The same id on every attempt, so the receiver can drop repeats (Standard Webhooks).
    const id = `wfx_${execution.id}_${step.id}`;
    const signature = signPayload({ secrets: [context.workflow.webhookSecret], id, timestamp: new Date(), body });
    const result = await postJson({ url: step.url, headers: { ...step.headers, ...signature }, body, timeoutMs: WEBHOOK_TIMEOUT_MS });
    if (result.status < 200 || result.status >= 300) throw new Error(result.error ?? `HTTP ${result.status}`);
    await done(context, { outcome: `HTTP ${result.status}` }, step.next);
  },

  EXIT: async (context) => {
    if (!(await started(context))) return;
    await finishExecution(context.projectId, context.execution, {
      status: 'EXITED',
      exitReason: 'EXIT_STEP',
      step: { stepId: context.step.id, fields: { status: 'COMPLETED', outcome: 'EXIT' }, requireRunning: true },
    });
  },
};

// ---- Helpers ----------------------------------------------------------------------------------

/**
 * Starts the step unless it was started (by a retry, or with the execution's entry: its first
 * step); false when another message started it just now.
 */
async function started(context: StepContext): Promise<boolean> {
  if (context.record) return context.record.status === 'RUNNING';
  const start = stepStart(context.projectId, context.execution, context.step, Date.now());
  if (!(await startStep(context.projectId, context.execution, start))) return false;
  context.record = start.record;
  return true;
}

/**
 * DELAY and WAIT_FOR_EVENT: the first message starts the wait (stepStart: the execution WAITING
 * until `waitUntil`, WAIT_FOR_EVENT's listening item written with it) and arms its wake-up; a
 * wake-up at or after that time runs `onTime`; one that comes early (the entry's wake of a first
 * step that waits longer than an SQS delay, a redelivered first message) arms it again.
 */
async function waitThenGo(context: StepContext, onTime: () => Promise<unknown>): Promise<void> {
  const wake: StepMessage = { projectId: context.projectId, workflowId: context.execution.workflowId, executionId: context.execution.id, stepId: context.step.id };
  if (!context.record) {
    const now = Date.now();
    const start = stepStart(context.projectId, context.execution, context.step, now);
    if (await startStep(context.projectId, context.execution, start)) await wakeAt(wake, Date.parse(start.record.waitUntil!), now);
    return;
  }
  if (context.record.status !== 'RUNNING') return;
  const waitUntil = Date.parse(context.record.waitUntil!);
  if (Date.now() >= waitUntil) await onTime();
  else await wakeAt(wake, waitUntil);
}

/**
 * Completes the running step: on to `next` (its message queued after the write), or, with no
 * next, the execution COMPLETED. False when the step was no longer running (another wake won).
 */
async function done(context: StepContext, fields: Partial<StepRecord>, next: string | undefined, extra: TransactItem[] = []): Promise<boolean> {
  const { projectId, execution, step } = context;
  if (!next) return finishExecution(projectId, execution, { status: 'COMPLETED', step: { stepId: step.id, fields: { status: 'COMPLETED', ...fields }, requireRunning: true } }, extra);
  if (!(await advance(projectId, execution, step.id, fields, next, extra))) return false;
  await sendStepMessage({ projectId, workflowId: execution.workflowId, executionId: execution.id, stepId: next });
  return true;
}

/** The contact, or undefined after ending the execution EXITED because the contact was deleted. */
async function contactOrExit(context: StepContext): Promise<Contact | undefined> {
  try {
    return await getContact(context.projectId, context.execution.contactId);
  } catch (error) {
    if (!(error instanceof ApiError) || error.statusCode !== 404) throw error;
    await exitContactDeleted(context);
    return undefined;
  }
}

async function exitContactDeleted(context: StepContext): Promise<void> {
  await finishExecution(context.projectId, context.execution, {
    status: 'EXITED',
    exitReason: 'CONTACT_DELETED',
    step: { stepId: context.step.id, fields: { status: 'CANCELLED', outcome: 'CONTACT_DELETED' }, requireRunning: false },
  });
}

/** Shows the last error and the attempt count on the step while it is retried. */
async function noteAttempt(context: StepContext, reason: string, attempt: number): Promise<void> {
  if (!context.record) return;
  await writeOnce([
    {
      Update: {
        TableName: tableName,
        Key: workflowKeys.execution(context.projectId, context.execution.workflowId, context.execution.id),
        UpdateExpression: 'SET steps.#step.#error = :error, steps.#step.attempts = :attempt',
        ConditionExpression: 'steps.#step.#status = :running',
        ExpressionAttributeNames: { '#step': context.step.id, '#error': 'error', '#status': 'status' },
        ExpressionAttributeValues: { ':error': reason.slice(0, 500), ':attempt': attempt, ':running': 'RUNNING' },
      },
    },
  ]);
}
