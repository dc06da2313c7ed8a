import { GetCommand, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../aws/clients';
import type { Page } from '../contacts/list-contacts';
import { addToCounters } from '../db/counters';
import { sortKeyPrefixRange } from '../db/schema';
import { tableName } from '../db/table';
import { transactWrite, writeOnce, type TransactItem } from '../db/transactions';
import { derivedUlid } from '../events/events';
import { decodeCursor, pageOf } from '../http/cursor';
import { notFound } from '../http/errors';
import { notificationWriteItem } from '../notifications/notifications';
import { workflowKeys } from './keys';
import { delaySeconds, type ExecutionStatus, type ListExecutionsQuery, type Step, type StepType } from './schemas';
import { readWorkflow } from './store';

export type StepStatus = 'RUNNING' | 'COMPLETED' | 'FAILED' | 'CANCELLED';

/** One step of one execution: its key is (execution, step id); an execution runs a step at most once. */
export interface StepRecord {
  stepId: string;
  type: StepType;
  status: StepStatus;
  startedAt: string;
  completedAt?: string;
  /** What happened: SENT, SKIPPED_UNSUBSCRIBED, THEN / ELSE, EVENT / TIMEOUT, UPDATED, HTTP 200, EXIT, WAITED. */
  outcome?: string;
  error?: string;
  /** DELAY and WAIT_FOR_EVENT: when the wait ends. */
  waitUntil?: string;
  /** WAIT_FOR_EVENT: the event it waits for. */
  event?: string;
  /** SEND_EMAIL: the email record it created. */
  emailId?: string;
}

/** What started the execution; `data` is `{{event.*}}` in the templates it sends. */
export interface ExecutionTrigger {
  type: string;
  event?: string;
  eventId?: string;
  data: Record<string, unknown>;
}

export interface Execution {
  id: string;
  workflowId: string;
  workflowVersion: number;
  contactId: string;
  status: ExecutionStatus;
  currentStepId: string;
  startedAt: string;
  completedAt?: string;
  exitReason?: string;
  trigger: ExecutionTrigger;
  steps: Record<string, StepRecord>;
}

export const ACTIVE_STATUSES: readonly ExecutionStatus[] = ['RUNNING', 'WAITING'];

/**
 * The per-step figures of GET /workflows/{id}/stats: attributes of the workflow's figures item
 * (workflowKeys.figures), added after the conditional write they count, as the outcome counters are
 * (a crash in between leaves a figure one short, never one over): `entered`, then one of
 * `completed` / `failed` / `cancelled`, and the branch a CONDITION or WAIT_FOR_EVENT took.
 */
export const stepFigure = (stepId: string, figure: 'entered' | 'completed' | 'failed' | 'cancelled' | StepBranch) => `step#${stepId}#${figure}`;
export type StepBranch = 'then' | 'else' | 'event' | 'timeout';
const BRANCH_OF_OUTCOME: Record<string, StepBranch> = { THEN: 'then', ELSE: 'else', EVENT: 'event', TIMEOUT: 'timeout' };
const STEP_END_FIGURE = { COMPLETED: 'completed', FAILED: 'failed', CANCELLED: 'cancelled' } as const;

/** The figures of a step that ended this way. */
function stepEndFigures(stepId: string, status: keyof typeof STEP_END_FIGURE, outcome: string | undefined): Record<string, number> {
  const branch = outcome ? BRANCH_OF_OUTCOME[outcome] : undefined;
  return { [stepFigure(stepId, STEP_END_FIGURE[status])]: 1, ...(branch ? { [stepFigure(stepId, branch)]: 1 } : {}) };
}
const FINAL_COUNTER: Partial<Record<ExecutionStatus, string>> = { COMPLETED: 'completed', EXITED: 'exited', FAILED: 'failed', CANCELLED: 'cancelled' };

export const isActive = (execution: Execution) => ACTIVE_STATUSES.includes(execution.status);

// ---- Starting a step --------------------------------------------------------------------------

/** How a step starts: its record, whether the execution then waits, and what a wait writes with it. */
export interface StepStart {
  record: StepRecord;
  /** DELAY and WAIT_FOR_EVENT: the execution WAITING until `record.waitUntil`. */
  waiting: boolean;
  /** WAIT_FOR_EVENT: its item in the waiting index (the trigger consumer's Query finds it by contact and event name). */
  listen?: TransactItem;
}

/** The start of `step` at `now`: the one definition the runner and a workflow's entry (its first step) both use. */
export function stepStart(projectId: string, execution: Pick<Execution, 'id' | 'workflowId' | 'contactId'>, step: Step, now: number): StepStart {
  const record: StepRecord = { stepId: step.id, type: step.type, status: 'RUNNING', startedAt: new Date(now).toISOString() };
  if (step.type === 'DELAY') return { record: { ...record, waitUntil: new Date(now + delaySeconds(step) * 1000).toISOString() }, waiting: true };
  if (step.type !== 'WAIT_FOR_EVENT') return { record, waiting: false };
  const listen: TransactItem = {
    Put: {
      TableName: tableName,
      Item: { ...workflowKeys.wait(projectId, execution.contactId, step.event, execution.id), workflowId: execution.workflowId, executionId: execution.id, stepId: step.id, contactId: execution.contactId, event: step.event },
    },
  };
  return { record: { ...record, waitUntil: new Date(now + step.timeoutSeconds * 1000).toISOString(), event: step.event }, waiting: true, listen };
}

// ---- Entering a workflow ----------------------------------------------------------------------

export interface Entry {
  workflowId: string;
  version: number;
  allowReentry: boolean;
  /** Started with the entry, at the trigger's time (stepStart). */
  firstStep: Step;
  /** executionIdFor(workflow, trigger seed, trigger time). */
  executionId: string;
}

/**
 * The execution a trigger starts for a contact. Its id derives from the workflow and the trigger
 * (an event id, or the contact id for CONTACT_CREATED), its time part being the trigger's time,
 * so a redelivered stream record makes the same execution and its condition refuses it.
 */
export const executionIdFor = (workflowId: string, triggerSeed: string, at: number) => derivedUlid(at, `${workflowId}#${triggerSeed}`);

/** 'EXISTS': this execution was made before (a redelivery). */
export type EntryOutcome = 'ENTERED' | 'EXISTS' | 'REFUSED';

/** An entry is at most three items (the execution, the guard, a first WAIT_FOR_EVENT's listening item) of the 100 a transaction takes. */
const MAX_ENTRIES_PER_TRANSACTION = 33;
/** Under DynamoDB's 4 MB per transaction: every execution carries the trigger's data (an event's, up to an item's 400 KB). */
const MAX_TRANSACTION_BYTES = 3_000_000;
/** An entry's items without the trigger's data, generously. */
const ENTRY_BYTES = 2_048;

/**
 * Enters the contact into the workflows one trigger starts: each entry puts the execution with its
 * first step started (a first DELAY or WAIT_FOR_EVENT already waiting, so the runner first hears
 * of it when the wait ends) and takes the contact's entry guard (allowReentry false enters only a
 * contact that never entered; true, one whose previous execution ended), an occurrence's entries
 * together in one transaction (up to 33, fewer when the trigger's data is large), so the engine's
 * calls per event do not grow with its workflows; each execution carries what it adds to its
 * workflow's figures (its `tally`), which the table stream counts (shared/workflows/entry-figures.ts),
 * so an entry redelivered after its write, but before its count, is counted all the same.
 * DynamoDB cancels the whole transaction for one failed condition: those entries are answered
 * (EXISTS or REFUSED) and the others written again without them. Outcomes in the order of `entries`.
 */
export async function enterWorkflows(projectId: string, entries: readonly Entry[], contactId: string, trigger: ExecutionTrigger, at: Date): Promise<EntryOutcome[]> {
  const outcomes: EntryOutcome[] = [];
  const perTransaction = Math.max(1, Math.min(MAX_ENTRIES_PER_TRANSACTION, Math.floor(MAX_TRANSACTION_BYTES / (ENTRY_BYTES + Buffer.byteLength(JSON.stringify(trigger))))));
  for (let start = 0; start < entries.length; start += perTransaction) {
    let pending = entries.slice(start, start + perTransaction).map((entry, offset) => ({ entry, index: start + offset }));
    while (pending.length > 0) {
      const written = pending.map(({ entry }) => entryItems(projectId, entry, contactId, trigger, at));
      try {
        await transactWrite(written.flat());
        for (const { index } of pending) outcomes[index] = 'ENTERED';
        pending = [];
      } catch (error) {
        const reasons = (error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons;
        const failed = (position: number) => reasons?.[position]?.Code === 'ConditionalCheckFailed';
        const before = pending.length;
        // Each entry's execution Put comes first among its items, its guard second.
        let offset = 0;
        pending.forEach(({ index }, position) => {
          if (failed(offset)) outcomes[index] = 'EXISTS';
          else if (failed(offset + 1)) outcomes[index] = 'REFUSED';
          offset += written[position]!.length;
        });
        pending = pending.filter(({ index }) => outcomes[index] === undefined);
        if (pending.length === before) throw error;
      }
    }
  }
  return outcomes;
}

/** The first step's start in an entry: at the trigger's time, so a redelivered trigger starts it the same. */
export const firstStepStart = (projectId: string, entry: Entry, contactId: string, at: Date): StepStart =>
  stepStart(projectId, { id: entry.executionId, workflowId: entry.workflowId, contactId }, entry.firstStep, at.getTime());

/** The execution's Put (its first step started), the entry guard's Update and a first wait's listening item, of one entry. */
function entryItems(projectId: string, entry: Entry, contactId: string, trigger: ExecutionTrigger, at: Date): TransactItem[] {
  const start = firstStepStart(projectId, entry, contactId, at);
  const execution: Execution = {
    id: entry.executionId,
    workflowId: entry.workflowId,
    workflowVersion: entry.version,
    contactId,
    status: start.waiting ? 'WAITING' : 'RUNNING',
    currentStepId: entry.firstStep.id,
    startedAt: at.toISOString(),
    trigger,
    steps: { [entry.firstStep.id]: start.record },
  };
  // What the entry adds to the workflow's figures, counted from the table stream (shared/workflows/entry-figures.ts).
  const tally = { entered: 1, [stepFigure(entry.firstStep.id, 'entered')]: 1 };
  return [
    { Put: { TableName: tableName, Item: { ...toItem(projectId, execution), tally }, ConditionExpression: 'attribute_not_exists(PK)' } },
    {
      Update: {
        TableName: tableName,
        Key: workflowKeys.entry(projectId, entry.workflowId, contactId),
        UpdateExpression: 'SET activeExecutionId = :executionId, lastEnteredAt = :at, workflowId = :workflowId, contactId = :contactId ADD entries :one',
        ConditionExpression: entry.allowReentry ? 'attribute_not_exists(activeExecutionId)' : 'attribute_not_exists(PK)',
        ExpressionAttributeValues: { ':executionId': entry.executionId, ':at': execution.startedAt, ':workflowId': entry.workflowId, ':contactId': contactId, ':one': 1 },
      },
    },
    ...(start.listen ? [start.listen] : []),
  ];
}

// ---- State changes (all conditional: a repeat or a late message changes nothing) -------------

const activeCondition = '#status IN (:running, :waiting)';
const activeValues = { ':running': 'RUNNING', ':waiting': 'WAITING' };

/**
 * Starts a step (its key: `steps.<stepId>`, absent until now) as the execution's current step
 * (stepStart: a wait marks the execution WAITING, and WAIT_FOR_EVENT's listening item joins the
 * transaction). False when the step was started before.
 */
export async function startStep(projectId: string, execution: Execution, { record, waiting, listen }: StepStart): Promise<boolean> {
  const status: ExecutionStatus = waiting ? 'WAITING' : 'RUNNING';
  const started = await writeOnce([
    {
      Update: {
        TableName: tableName,
        Key: workflowKeys.execution(projectId, execution.workflowId, execution.id),
        UpdateExpression: 'SET steps.#step = :record, #status = :status, GSI1PK = :byStatus',
        ConditionExpression: `attribute_not_exists(steps.#step) AND currentStepId = :step AND ${activeCondition}`,
        ExpressionAttributeNames: { '#step': record.stepId, '#status': 'status' },
        ExpressionAttributeValues: { ':record': record, ':status': status, ':byStatus': workflowKeys.byStatusPartition(projectId, execution.workflowId, status), ':step': record.stepId, ...activeValues },
      },
    },
    ...(listen ? [listen] : []),
  ]);
  if (started) await addToCounters(workflowKeys.figures(projectId, execution.workflowId), { [stepFigure(record.stepId, 'entered')]: 1 });
  return started;
}

/** The step's end fields, as `SET steps.<id>.<field> = …` parts. */
function stepEnd(stepId: string, fields: Partial<StepRecord>) {
  const names: Record<string, string> = { '#step': stepId, '#status': 'status' };
  const values: Record<string, unknown> = {};
  const sets: string[] = [];
  Object.entries({ completedAt: new Date().toISOString(), ...fields }).forEach(([name, value], index) => {
    names[`#f${index}`] = name;
    values[`:f${index}`] = value;
    sets.push(`steps.#step.#f${index} = :f${index}`);
  });
  return { names, values, sets };
}

/**
 * Completes the current step and makes `next` current (the execution RUNNING again), only if
 * the step is still RUNNING: of two wakes of one wait (its event, its timeout), exactly one
 * gets here. Extra items join the transaction (removing the waiting index). False when another
 * got there first.
 */
export async function advance(projectId: string, execution: Execution, stepId: string, fields: Partial<StepRecord>, next: string, extra: TransactItem[] = []): Promise<boolean> {
  const end = stepEnd(stepId, { status: 'COMPLETED', ...fields });
  const advanced = await writeOnce([
    {
      Update: {
        TableName: tableName,
        Key: workflowKeys.execution(projectId, execution.workflowId, execution.id),
        UpdateExpression: `SET ${end.sets.join(', ')}, currentStepId = :next, #status = :runningNow, GSI1PK = :byStatus`,
        ConditionExpression: `steps.#step.#status = :stepRunning AND currentStepId = :step AND ${activeCondition}`,
        ExpressionAttributeNames: end.names,
        ExpressionAttributeValues: {
          ...end.values,
          ':next': next,
          ':runningNow': 'RUNNING',
          ':byStatus': workflowKeys.byStatusPartition(projectId, execution.workflowId, 'RUNNING'),
          ':stepRunning': 'RUNNING',
          ':step': stepId,
          ...activeValues,
        },
      },
    },
    ...extra,
  ]);
  if (advanced) await addToCounters(workflowKeys.figures(projectId, execution.workflowId), stepEndFigures(stepId, 'COMPLETED', fields.outcome));
  return advanced;
}

export interface Ending {
  status: Extract<ExecutionStatus, 'COMPLETED' | 'EXITED' | 'FAILED' | 'CANCELLED'>;
  exitReason?: string;
  /** The step that ends it, if one was running: its end fields (status, outcome, error). */
  step?: { stepId: string; fields: Partial<StepRecord>; requireRunning: boolean };
}

/**
 * Ends the execution, in one transaction: its final state (and its last step's), the contact's
 * entry guard released (so allowReentry can let the contact in again), and for COMPLETED and
 * FAILED the workflow.execution.* notification. Then the outcome is counted. False when the
 * execution had already ended.
 */
export async function finishExecution(projectId: string, execution: Execution, ending: Ending, extra: TransactItem[] = []): Promise<boolean> {
  const now = new Date().toISOString();
  const end = ending.step ? stepEnd(ending.step.stepId, { completedAt: now, ...ending.step.fields }) : { names: { '#status': 'status' } as Record<string, string>, values: {}, sets: [] as string[] };
  const sets = [...end.sets, '#status = :final', 'completedAt = :now', 'GSI1PK = :byStatus', ...(ending.exitReason ? ['exitReason = :reason'] : [])];
  const stepCondition = ending.step?.requireRunning ? ' AND steps.#step.#status = :stepRunning AND currentStepId = :step' : '';
  const finished: Execution = { ...execution, status: ending.status, completedAt: now, ...(ending.exitReason ? { exitReason: ending.exitReason } : {}) };
  const notificationType = ending.status === 'COMPLETED' ? 'workflow.execution.completed' : ending.status === 'FAILED' ? 'workflow.execution.failed' : undefined;
  const written = await writeOnce([
    {
      Update: {
        TableName: tableName,
        Key: workflowKeys.execution(projectId, execution.workflowId, execution.id),
        UpdateExpression: `SET ${sets.join(', ')}`,
        ConditionExpression: `${activeCondition}${stepCondition}`,
        ExpressionAttributeNames: end.names,
        ExpressionAttributeValues: {
          ...end.values,
          ':final': ending.status,
          ':now': now,
          ':byStatus': workflowKeys.byStatusPartition(projectId, execution.workflowId, ending.status),
          ...(ending.exitReason ? { ':reason': ending.exitReason } : {}),
          ...(ending.step?.requireRunning ? { ':stepRunning': 'RUNNING', ':step': ending.step.stepId } : {}),
          ...activeValues,
        },
      },
    },
    {
      Update: {
        TableName: tableName,
        Key: workflowKeys.entry(projectId, execution.workflowId, execution.contactId),
        // Only this execution can hold the guard: entering takes it only when it is free.
        UpdateExpression: 'REMOVE activeExecutionId',
      },
    },
    ...(notificationType ? [notificationWriteItem(projectId, notificationType, summary(finished), execution.id)] : []),
    ...extra,
  ]);
  if (written) {
    const stepStatus = (ending.step?.fields.status ?? (ending.status === 'FAILED' ? 'FAILED' : ending.status === 'CANCELLED' ? 'CANCELLED' : 'COMPLETED')) as keyof typeof STEP_END_FIGURE;
    const stepFigures = ending.step ? stepEndFigures(ending.step.stepId, stepStatus, ending.step.fields.outcome) : {};
    await addToCounters(workflowKeys.figures(projectId, execution.workflowId), { [FINAL_COUNTER[ending.status]!]: 1, ...stepFigures });
  }
  return written;
}

/** An execution as notifications carry it (without its steps). */
const summary = (execution: Execution) => {
  const { steps: _steps, ...rest } = present(execution);
  return rest;
};

export async function readExecution(projectId: string, workflowId: string, executionId: string): Promise<Execution | undefined> {
  const { Item } = await documentClient.send(new GetCommand({ TableName: tableName, Key: workflowKeys.execution(projectId, workflowId, executionId), ConsistentRead: true }));
  return Item ? fromItem(Item) : undefined;
}

// ---- Listing ----------------------------------------------------------------------------------

export interface ExecutionView extends Omit<Execution, 'steps' | 'trigger'> {
  steps: StepRecord[];
}

/**
 * GET /workflows/{id}/executions, newest first, one Query per page: by contact (GSI2, with
 * `status` as a filter), by status (GSI1) or all (table). `total` is the workflow's execution
 * count (its `entered` counter); it does not narrow with the filters.
 */
export async function listExecutions(projectId: string, workflowId: string, query: ListExecutionsQuery): Promise<Page<ExecutionView>> {
  const [workflow, counters] = await Promise.all([
    readWorkflow(projectId, workflowId),
    documentClient.send(new GetCommand({ TableName: tableName, Key: workflowKeys.figures(projectId, workflowId), ProjectionExpression: 'entered' })),
  ]);
  if (!workflow) throw notFound('Workflow');
  let plan: { input: Omit<QueryCommandInput, 'TableName'>; partition: Record<string, string>; sortKey: string };
  if (query.contactId) {
    const partition = workflowKeys.byContactPartition(projectId, workflowId, query.contactId);
    plan = {
      input: {
        IndexName: 'GSI2',
        KeyConditionExpression: 'GSI2PK = :pk',
        ...(query.status ? { FilterExpression: '#status = :status', ExpressionAttributeNames: { '#status': 'status' } } : {}),
        ExpressionAttributeValues: { ':pk': partition, ...(query.status ? { ':status': query.status } : {}) },
      },
      partition: { GSI2PK: partition },
      sortKey: 'GSI2SK',
    };
  } else if (query.status) {
    const partition = workflowKeys.byStatusPartition(projectId, workflowId, query.status);
    plan = { input: { IndexName: 'GSI1', KeyConditionExpression: 'GSI1PK = :pk', ExpressionAttributeValues: { ':pk': partition } }, partition: { GSI1PK: partition }, sortKey: 'GSI1SK' };
  } else {
    const partition = workflowKeys.runtimePartition(projectId, workflowId);
    plan = {
      input: {
        KeyConditionExpression: 'PK = :pk AND SK BETWEEN :prefixLow AND :prefixHigh',
        ExpressionAttributeValues: { ':pk': partition, ...sortKeyPrefixRange(workflowKeys.executionPrefix) },
      },
      partition: { PK: partition },
      sortKey: 'SK',
    };
  }
  const binding = JSON.stringify(['workflow-executions', projectId, workflowId, query.status ?? null, query.contactId ?? null]);
  const free = ['PK', 'SK', plan.sortKey].filter((name, index, all) => !(name in plan.partition) && all.indexOf(name) === index);
  const startKey = query.cursor ? decodeCursor(query.cursor, binding, plan.partition, free) : undefined;
  const result = await documentClient.send(new QueryCommand({ ...plan.input, TableName: tableName, ScanIndexForward: false, Limit: query.limit + 1, ExclusiveStartKey: startKey }));
  const { page, hasMore, nextCursor } = pageOf(result, query.limit, ['PK', 'SK', ...Object.keys(plan.partition), plan.sortKey], binding);
  return { items: page.map((item) => present(fromItem(item))), nextCursor, hasMore, total: (counters.Item?.entered as number | undefined) ?? 0 };
}

/** The API's shape: steps in the order they started. */
export function present(execution: Execution): ExecutionView {
  const { trigger: _trigger, steps, ...rest } = execution;
  return { ...rest, steps: Object.values(steps).sort((a, b) => a.startedAt.localeCompare(b.startedAt)) };
}

// ---- Items ------------------------------------------------------------------------------------

function toItem(projectId: string, execution: Execution) {
  const { id, ...fields } = execution;
  return {
    ...workflowKeys.execution(projectId, execution.workflowId, id),
    ...workflowKeys.executionIndexes(projectId, execution.workflowId, id, execution.contactId, execution.status),
    executionId: id,
    ...fields,
  };
}

export function fromItem(item: Record<string, unknown>): Execution {
  return {
    id: item.executionId as string,
    workflowId: item.workflowId as string,
    workflowVersion: item.workflowVersion as number,
    contactId: item.contactId as string,
    status: item.status as ExecutionStatus,
    currentStepId: item.currentStepId as string,
    startedAt: item.startedAt as string,
    ...(item.completedAt ? { completedAt: item.completedAt as string } : {}),
    ...(item.exitReason ? { exitReason: item.exitReason as string } : {}),
    trigger: (item.trigger as ExecutionTrigger) ?? { type: 'UNKNOWN', data: {} },
    steps: (item.steps as Record<string, StepRecord>) ?? {},
  };
}
