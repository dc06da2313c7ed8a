import { randomBytes } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import { documentClient } from '../aws/clients';
import type { Page } from '../contacts/list-contacts';
import { assertValidContactData } from '../contacts/schemas';
import { pageWithTotal } from '../db/listing';
import { tableName } from '../db/table';
import { transactWrite, type TransactItem } from '../db/transactions';
import { ApiError, conflict, notFound, validationFailed, type FieldError } from '../http/errors';
import { assertPublicDestination } from '../outbound/outbound';
import { segmentKeys } from '../segments/keys';
import { getStats, statsMetrics } from '../stats/stats';
import { getTemplate } from '../templates/templates';
import { stepFigure, type StepBranch } from './executions';
import { workflowKeys } from './keys';
import { namesRemoval, namesWrite, triggerTarget } from './names';
import { fromItem, readWorkflow, type StoredWorkflow, type Workflow } from './store';
import { graphErrors, type CreateWorkflowInput, type ListWorkflowsQuery, type Step, type Trigger, type WorkflowChanges } from './schemas';

/** Execution outcomes and the delivery counters of the emails the workflow sent. */
export type WorkflowStats = Record<'entered' | 'completed' | 'exited' | 'failed' | 'cancelled', number> & Record<`${(typeof statsMetrics)[number]}Count`, number>;

const MAX_ATTEMPTS = 4;

/** POST /workflows: validated (graph, templates, segment, webhook destinations), stored at version 1. */
export async function createWorkflow(projectId: string, input: CreateWorkflowInput): Promise<Workflow & { webhookSecret: string; stats: WorkflowStats }> {
  await assertValidDefinition(projectId, input.trigger, input.steps);
  const now = new Date().toISOString();
  const workflow: StoredWorkflow = {
    id: ulid(),
    name: input.name,
    description: input.description ?? null,
    enabled: input.enabled,
    trigger: input.trigger,
    allowReentry: input.allowReentry,
    steps: input.steps,
    version: 1,
    webhookSecret: `whsec_${randomBytes(24).toString('base64')}`,
    createdAt: now,
    updatedAt: now,
  };
  await transactWrite([
    { Put: { TableName: tableName, Item: toItem(projectId, workflow), ConditionExpression: 'attribute_not_exists(PK)' } },
    versionPut(projectId, workflow),
    ...triggerIndexWrites(projectId, undefined, workflow),
    counterUpdate(projectId, 1),
  ]);
  return { ...present(workflow), webhookSecret: workflow.webhookSecret, stats: emptyStats() };
}

export async function getWorkflow(projectId: string, workflowId: string): Promise<Workflow & { stats: WorkflowStats }> {
  const [stored, stats] = await Promise.all([readWorkflow(projectId, workflowId), workflowStats(projectId, workflowId)]);
  if (!stored) throw notFound('Workflow');
  return { ...present(stored), stats };
}

/** GET /workflows: one Query per page, newest first; `total` is a counter read. */
export async function listWorkflows(projectId: string, query: ListWorkflowsQuery): Promise<Page<Workflow>> {
  const listing = { partition: workflowKeys.partition(projectId), prefix: workflowKeys.workflowPrefix, counter: workflowKeys.counter(projectId) };
  const page = await pageWithTotal(listing, query, JSON.stringify(['workflows', projectId]));
  return { ...page, items: page.items.map((item) => present(fromItem(item))) };
}

/**
 * PATCH: the given fields replace the stored ones. A change of trigger, steps or allowReentry is
 * a new version (running executions keep theirs); the trigger index follows enabled and trigger.
 * One transaction, conditioned on the version that was read.
 */
export async function patchWorkflow(projectId: string, workflowId: string, changes: WorkflowChanges): Promise<Workflow & { stats: WorkflowStats }> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const current = await readWorkflow(projectId, workflowId);
    if (!current) throw notFound('Workflow');
    const definitionChanges = changes.trigger !== undefined || changes.steps !== undefined || changes.allowReentry !== undefined;
    const next: StoredWorkflow = {
      ...current,
      name: changes.name ?? current.name,
      description: changes.description === undefined ? current.description : changes.description,
      enabled: changes.enabled ?? current.enabled,
      trigger: changes.trigger ?? current.trigger,
      allowReentry: changes.allowReentry ?? current.allowReentry,
      steps: changes.steps ?? current.steps,
      version: definitionChanges ? current.version + 1 : current.version,
      updatedAt: new Date().toISOString(),
    };
    if (changes.trigger !== undefined || changes.steps !== undefined) await assertValidDefinition(projectId, next.trigger, next.steps);
    try {
      await transactWrite([
        {
          Put: {
            TableName: tableName,
            Item: toItem(projectId, next),
            ConditionExpression: 'attribute_exists(PK) AND version = :version AND updatedAt = :updatedAt',
            ExpressionAttributeValues: { ':version': current.version, ':updatedAt': current.updatedAt },
          },
        },
        ...(definitionChanges ? [versionPut(projectId, next)] : []),
        ...triggerIndexWrites(projectId, current, next),
      ]);
      return getWorkflow(projectId, workflowId);
    } catch (error) {
      if ((error as Error).name !== 'TransactionCanceledException') throw error;
    }
  }
  throw conflict('CONCURRENT_MODIFICATION', 'The workflow changed concurrently; retry the request');
}

/**
 * DELETE: the workflow, its trigger index entry and its names go in one transaction (no new entries), and
 * the request answers then (O(1)). Its running and waiting executions are cancelled in the
 * background: the item's REMOVE on the table stream queues their cancellation
 * (cancelDeletedWorkflowExecutions in shared/workflows/cancel.ts). An execution that a step is
 * running meanwhile finds the workflow gone at its next step and cancels itself.
 */
export async function deleteWorkflow(projectId: string, workflowId: string): Promise<void> {
  const current = await readWorkflow(projectId, workflowId);
  if (!current) throw notFound('Workflow');
  try {
    await transactWrite([
      { Delete: { TableName: tableName, Key: workflowKeys.workflow(projectId, workflowId), ConditionExpression: 'attribute_exists(PK)' } },
      ...triggerIndexWrites(projectId, current, undefined),
      await namesRemoval(projectId, workflowId),
      counterUpdate(projectId, -1),
    ]);
  } catch (error) {
    if ((error as Error).name === 'TransactionCanceledException') throw notFound('Workflow');
    throw error;
  }
}

/** O(1): the engine's figures of the workflow and the delivery stats of its mail, two reads side by side. */
export async function workflowStats(projectId: string, workflowId: string): Promise<WorkflowStats> {
  const [{ Item }, delivery] = await Promise.all([
    documentClient.send(new GetCommand({ TableName: tableName, Key: workflowKeys.figures(projectId, workflowId) })),
    getStats(projectId, 'workflow', workflowId),
  ]);
  const read = (name: string) => (Item?.[name] as number | undefined) ?? 0;
  const stats = emptyStats();
  for (const name of ['entered', 'completed', 'exited', 'failed', 'cancelled'] as const) stats[name] = read(name);
  for (const metric of statsMetrics) stats[`${metric}Count`] = delivery[metric];
  return stats;
}

/** GET /workflows/{id}/stats: one step's figures; `active` = executions at it now (running, or waiting in a delay or for an event). */
export interface StepStats {
  stepId: string;
  type: Step['type'];
  entered: number;
  active: number;
  completed: number;
  failed: number;
  cancelled: number;
  /** CONDITION: `{ then, else }`; WAIT_FOR_EVENT: `{ event, timeout }`; otherwise null. */
  branches: Partial<Record<StepBranch, number>> | null;
}

export interface WorkflowStepStats {
  entered: number;
  active: number;
  completed: number;
  exited: number;
  failed: number;
  cancelled: number;
  steps: StepStats[];
}

const BRANCHES: Partial<Record<Step['type'], StepBranch[]>> = { CONDITION: ['then', 'else'], WAIT_FOR_EVENT: ['event', 'timeout'] };

/**
 * GET /workflows/{id}/stats: the workflow's figures and each step's (of its current version), from
 * the counters the engine keeps as steps run (shared/workflows/executions.ts `stepFigure`): two
 * reads, never a scan of executions.
 */
export async function workflowStepStats(projectId: string, workflowId: string): Promise<WorkflowStepStats> {
  const [stored, { Item }] = await Promise.all([
    readWorkflow(projectId, workflowId),
    documentClient.send(new GetCommand({ TableName: tableName, Key: workflowKeys.figures(projectId, workflowId) })),
  ]);
  if (!stored) throw notFound('Workflow');
  const read = (name: string) => (Item?.[name] as number | undefined) ?? 0;
  const [entered, completed, exited, failed, cancelled] = (['entered', 'completed', 'exited', 'failed', 'cancelled'] as const).map(read) as [number, number, number, number, number];
  const steps = stored.steps.map((step): StepStats => {
    const figure = (name: Parameters<typeof stepFigure>[1]) => read(stepFigure(step.id, name));
    const branches = BRANCHES[step.type];
    const [stepEntered, stepCompleted, stepFailed, stepCancelled] = [figure('entered'), figure('completed'), figure('failed'), figure('cancelled')];
    return {
      stepId: step.id,
      type: step.type,
      entered: stepEntered,
      active: Math.max(0, stepEntered - stepCompleted - stepFailed - stepCancelled),
      completed: stepCompleted,
      failed: stepFailed,
      cancelled: stepCancelled,
      branches: branches ? Object.fromEntries(branches.map((branch) => [branch, figure(branch)])) : null,
    };
  });
  return { entered, active: Math.max(0, entered - completed - exited - failed - cancelled), completed, exited, failed, cancelled, steps };
}

function emptyStats(): WorkflowStats {
  return {
    entered: 0,
    completed: 0,
    exited: 0,
    failed: 0,
    cancelled: 0,
    ...(Object.fromEntries(statsMetrics.map((metric) => [`${metric}Count`, 0])) as Record<`${(typeof statsMetrics)[number]}Count`, number>),
  };
}

// ---- Validation against the project's data ------------------------------------------------------

/**
 * The checks that need the project: the graph (ids, branches, reachability, cycles, delays), the
 * segment of a segment trigger (it must exist and track membership: only tracked segments emit
 * segment.entered / segment.exited), each SEND_EMAIL template (it must exist and have a from
 * address), UPDATE_CONTACT data (the contact data rules) and WEBHOOK destinations (public
 * addresses only). All problems are reported together, each on its field.
 */
export async function assertValidDefinition(projectId: string, trigger: Trigger, steps: Step[]): Promise<void> {
  const errors: FieldError[] = [...graphErrors(steps)];
  const checks: Promise<void>[] = [];
  if (trigger.type === 'SEGMENT_ENTERED' || trigger.type === 'SEGMENT_EXITED') {
    checks.push(
      documentClient.send(new GetCommand({ TableName: tableName, Key: segmentKeys.segment(projectId, trigger.segmentId), ProjectionExpression: 'trackMembership' })).then(({ Item }) => {
        if (!Item) errors.push({ field: 'trigger.segmentId', code: 'NOT_FOUND', message: `no segment has the id ${trigger.segmentId}` });
        else if (Item.trackMembership !== true) errors.push({ field: 'trigger.segmentId', code: 'SEGMENT_NOT_TRACKED', message: 'segment triggers need a segment with trackMembership: true' });
      }),
    );
  }
  steps.forEach((step, index) => {
    if (step.type === 'SEND_EMAIL') {
      checks.push(
        getTemplate(projectId, step.templateId).then(
          (template) => {
            if (!template.from) errors.push({ field: `steps[${index}].templateId`, code: 'TEMPLATE_WITHOUT_FROM', message: 'the template needs a from address to be sent by a workflow' });
          },
          (error: unknown) => {
            if (!(error instanceof ApiError) || error.statusCode !== 404) throw error;
            errors.push({ field: `steps[${index}].templateId`, code: 'NOT_FOUND', message: `no template has the id ${step.templateId}` });
          },
        ),
      );
    }
    if (step.type === 'UPDATE_CONTACT') collect(errors, () => assertValidContactData(step.data, `steps[${index}].data`));
    if (step.type === 'WEBHOOK') {
      checks.push(
        assertPublicDestination(step.url).catch((error: unknown) => {
          if (!(error instanceof ApiError) || error.statusCode !== 422) throw error;
          errors.push({ field: `steps[${index}].url`, code: error.errors?.[0]?.code ?? 'UNSAFE_DESTINATION', message: error.errors?.[0]?.message ?? error.message });
        }),
      );
    }
  });
  await Promise.all(checks);
  if (errors.length) throw validationFailed(errors);
}

function collect(errors: FieldError[], check: () => void) {
  try {
    check();
  } catch (error) {
    if (!(error instanceof ApiError) || !error.errors) throw error;
    errors.push(...error.errors);
  }
}

// ---- Items ------------------------------------------------------------------------------------

/**
 * The trigger index changes from one state of a workflow to the next (undefined: absent): it is
 * listed, with the version and reentry rule new executions use, only while enabled, and `since`
 * when it was listed there: an occurrence from before (an event tracked while the workflow was
 * disabled or did not exist, whose trigger is read late) starts nothing. An edit of a workflow
 * that stays listed under the same trigger keeps its `since`. One update per index item (a
 * transaction may touch an item once), and the names item's for a saved workflow (a deleted one's
 * is namesRemoval, shared/workflows/names.ts).
 */
function triggerIndexWrites(projectId: string, before: StoredWorkflow | undefined, after: StoredWorkflow | undefined): TransactItem[] {
  const writes = new Map<string, TransactItem>();
  const attribute = workflowKeys.triggerEntryAttribute((before ?? after)!.id);
  if (before?.enabled) {
    const { kind, target } = triggerTarget(before.trigger);
    const Key = workflowKeys.trigger(projectId, kind, target);
    writes.set(Key.SK, { Update: { TableName: tableName, Key, UpdateExpression: 'REMOVE #w', ExpressionAttributeNames: { '#w': attribute } } });
  }
  if (after?.enabled) {
    const { kind, target } = triggerTarget(after.trigger);
    const Key = workflowKeys.trigger(projectId, kind, target);
    const stays = writes.has(Key.SK);
    writes.set(Key.SK, {
      Update: stays
        ? {
            TableName: tableName,
            Key,
            UpdateExpression: 'SET #w.version = :version, #w.allowReentry = :allowReentry',
            ExpressionAttributeNames: { '#w': attribute },
            ExpressionAttributeValues: { ':version': after.version, ':allowReentry': after.allowReentry },
          }
        : {
            TableName: tableName,
            Key,
            UpdateExpression: 'SET #w = :entry',
            ExpressionAttributeNames: { '#w': attribute },
            ExpressionAttributeValues: { ':entry': { version: after.version, allowReentry: after.allowReentry, since: Date.now() } },
          },
    });
  }
  return [...writes.values(), ...(after ? [namesWrite(projectId, before, after)] : [])];
}

function versionPut(projectId: string, workflow: StoredWorkflow): TransactItem {
  return {
    Put: {
      TableName: tableName,
      Item: {
        ...workflowKeys.version(projectId, workflow.id, workflow.version),
        workflowId: workflow.id,
        version: workflow.version,
        trigger: workflow.trigger,
        allowReentry: workflow.allowReentry,
        steps: workflow.steps,
        createdAt: workflow.updatedAt,
      },
      ConditionExpression: 'attribute_not_exists(PK)',
    },
  };
}

function counterUpdate(projectId: string, delta: number): TransactItem {
  return {
    Update: {
      TableName: tableName,
      Key: workflowKeys.counter(projectId),
      UpdateExpression: 'ADD #total :delta',
      ExpressionAttributeNames: { '#total': 'total' },
      ExpressionAttributeValues: { ':delta': delta },
    },
  };
}

function toItem(projectId: string, workflow: StoredWorkflow) {
  const { id: _id, ...fields } = workflow;
  return { ...workflowKeys.workflow(projectId, workflow.id), ...fields, workflowId: workflow.id };
}

function present(workflow: StoredWorkflow): Workflow {
  const { webhookSecret: _secret, ...visible } = workflow;
  return visible;
}
