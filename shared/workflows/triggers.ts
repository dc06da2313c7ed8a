import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { decodeTime } from 'ulid';
import { documentClient } from '../aws/clients';
import { contactKeys } from '../contacts/keys';
import { batchGetAll } from '../db/batch';
import { queryAll } from '../db/query';
import { tableName } from '../db/table';
import { eventKeys } from '../events/keys';
import { projectOfPartition } from '../projects/keys';
import { ENTERED, EXITED } from '../segments/membership';
import { perBatchLoader } from '../streams/batch-loader';
import type { StreamChange } from '../streams/handler';
import { enterWorkflows, executionIdFor, firstStepStart, type Entry, type ExecutionTrigger } from './executions';
import { workflowKeys, type TriggerKind } from './keys';
import { upgradeRuntimeLayout } from './layout-upgrade';
import { readWorkflowNames, type WorkflowNames } from './names';
import { MAX_QUEUE_DELAY_SECONDS, sendStepMessages, type StepMessage } from './queue';
import { readVersion } from './store';

/**
 * The trigger side of the engine, fed by the table's stream (functions/workflow-triggers), so
 * /v1/track and every other writer stay as fast as they were: nothing in a request looks for
 * workflows. Per new item, when the project's names item (read once per batch) says a workflow
 * is about it (handleOccurrence):
 * - an EVENT# item: its trigger index item (EVENT#<name>, or SEGMENT_ENTERED / SEGMENT_EXITED
 *   #<segmentId> for segment.entered / segment.exited) — one GetItem — and the executions
 *   waiting for this contact and event name — one Query — which get a wake message (an
 *   execution this very event started is not woken by it);
 * - a CONTACT# insert: the CONTACT_CREATED index item.
 */

/** What a new table item means to workflows, if anything. */
export interface TriggerOccurrence {
  projectId: string;
  contactId: string;
  kind: TriggerKind;
  target: string;
  /** The stable id of what happened (event id, or contact id for a creation). */
  seed: string;
  at: number;
  trigger: ExecutionTrigger;
  /** For events: the name and time waits match on. */
  event?: { id: string; name: string; createdAt: string };
}

export function occurrenceOf(change: Pick<StreamChange, 'eventName' | 'keys' | 'newImage'>): TriggerOccurrence | undefined {
  if (change.eventName !== 'INSERT' || !change.newImage) return undefined;
  const projectId = projectOfPartition(change.keys.PK);
  const sk = String(change.keys.SK ?? '');
  if (!projectId) return undefined;
  const image = change.newImage;
  if (sk.startsWith(contactKeys.contactPrefix)) {
    const contactId = String(image.contactId);
    return { projectId, contactId, kind: 'CONTACT_CREATED', target: '-', seed: contactId, at: decodeTime(contactId), trigger: { type: 'CONTACT_CREATED', data: {} } };
  }
  if (!sk.startsWith(eventKeys.eventPrefix) || !image.contactId) return undefined;
  const name = String(image.name);
  const eventId = String(image.eventId);
  const data = (image.data as Record<string, unknown> | undefined) ?? {};
  const base = { projectId, contactId: String(image.contactId), seed: eventId, at: decodeTime(eventId), event: { id: eventId, name, createdAt: String(image.createdAt) } };
  if (name === ENTERED || name === EXITED) {
    const kind: TriggerKind = name === ENTERED ? 'SEGMENT_ENTERED' : 'SEGMENT_EXITED';
    return { ...base, kind, target: String(data.segmentId), trigger: { type: kind, event: name, eventId, data } };
  }
  return { ...base, kind: 'EVENT', target: name, trigger: { type: 'EVENT', event: name, eventId, data } };
}

export interface TriggeredWorkflow {
  workflowId: string;
  version: number;
  allowReentry: boolean;
  /** When it was listed (enabled) under the trigger: what happened before starts nothing in it. */
  since?: number;
}

export type TriggerLoader = (projectId: string, kind: TriggerKind, target: string) => Promise<TriggeredWorkflow[]>;

/** The enabled workflows a trigger starts: one GetItem of its index item. */
export async function workflowsTriggeredBy(projectId: string, kind: TriggerKind, target: string): Promise<TriggeredWorkflow[]> {
  const { Item } = await documentClient.send(new GetCommand({ TableName: tableName, Key: workflowKeys.trigger(projectId, kind, target), ConsistentRead: true }));
  return Object.entries(Item ?? {})
    .filter(([name]) => name.startsWith(workflowKeys.triggerEntryPrefix))
    .map(([name, entry]) => ({ workflowId: name.slice(workflowKeys.triggerEntryPrefix.length), ...(entry as Omit<TriggeredWorkflow, 'workflowId'>) }));
}

const NO_WORKFLOWS: WorkflowNames = { hasTrigger: () => false, isAwaited: () => false };

/**
 * The project's names item (shared/workflows/names.ts). A project without one has no workflow, or
 * only workflows of the layout before it, which are moved first (shared/workflows/layout-upgrade.ts).
 */
export async function projectWorkflowNames(projectId: string): Promise<WorkflowNames> {
  const names = await readWorkflowNames(projectId);
  if (names) return names;
  return ((await upgradeRuntimeLayout(projectId, { namesRead: true })) && (await readWorkflowNames(projectId))) || NO_WORKFLOWS;
}

/** The reads a stream batch shares: each project's names item and each trigger's index item, read once. */
export interface BatchLoaders {
  namesOf: (projectId: string) => Promise<WorkflowNames>;
  triggersOf: TriggerLoader;
}

/**
 * Made anew for each stream batch, after it was fetched, so a workflow enabled before a change
 * was written is never missed (and `since` keeps it from what came before).
 */
export const batchLoaders = (): BatchLoaders => ({ namesOf: perBatchLoader(projectWorkflowNames), triggersOf: perBatchLoader(workflowsTriggeredBy) });

/**
 * What one occurrence does to workflows: it enters those its trigger starts (startExecutions) and
 * wakes the executions waiting for its event (wakeWaiting), each looked for only when the
 * project's names item says some workflow is about it: the lookups do not grow with the
 * project's workflows, and an event no workflow is about costs nothing past the batch's one read.
 */
export async function handleOccurrence(occurrence: TriggerOccurrence, loaders: BatchLoaders): Promise<void> {
  const names = await loaders.namesOf(occurrence.projectId);
  if (names.hasTrigger(occurrence.kind, occurrence.target)) await startExecutions(occurrence, loaders.triggersOf);
  if (occurrence.event && names.isAwaited(occurrence.event.name)) await wakeWaiting(occurrence);
}

/**
 * Enters the contact into each workflow the occurrence triggers: the contacts' entry guards read
 * in one BatchGetItem (a contact who may not enter costs no write), the entries written together
 * in one transaction with their first steps started (enterWorkflows; only each workflow's
 * counters are a call of their own, side by side), the first steps' messages queued ten to a
 * batch. A guard held by this very execution means a redelivery, whose first message is sent
 * again (a step's state changes are conditional, so a second message changes nothing).
 */
export async function startExecutions(occurrence: TriggerOccurrence, triggersOf: TriggerLoader = workflowsTriggeredBy): Promise<number> {
  const { projectId, contactId } = occurrence;
  // From before a workflow was listed (enabled) under this trigger: read late, it starts nothing there.
  const workflows = (await triggersOf(projectId, occurrence.kind, occurrence.target)).filter((workflow) => workflow.since === undefined || occurrence.at >= workflow.since);
  if (workflows.length === 0) return 0;
  const [guards, versions] = await Promise.all([
    batchGetAll(
      workflows.map((workflow) => workflowKeys.entry(projectId, workflow.workflowId, contactId)),
      { consistentRead: true, projection: 'workflowId, activeExecutionId' },
    ).then((items) => new Map(items.map((item) => [item.workflowId as string, item.activeExecutionId as string | undefined]))),
    Promise.all(workflows.map((workflow) => readVersion(projectId, workflow.workflowId, workflow.version))),
  ]);
  // The first steps' messages go out together after the entries (if this fails midway, the
  // stream's retry finds the entries held by these executions and sends their messages then).
  const at = new Date(occurrence.at);
  const firstSteps: FirstStepMessage[] = [];
  const entries: Entry[] = [];
  workflows.forEach((workflow, index) => {
    const version = versions[index];
    if (!version) return; // deleted since the index was read
    const entry: Entry = { ...workflow, firstStep: version.steps[0]!, executionId: executionIdFor(workflow.workflowId, occurrence.seed, occurrence.at) };
    if (guards.has(workflow.workflowId)) {
      const active = guards.get(workflow.workflowId);
      if (active === entry.executionId) firstSteps.push(firstStepMessage(projectId, entry, contactId, at));
      if (active !== undefined || !workflow.allowReentry) return;
    }
    entries.push(entry);
  });
  const outcomes = await enterWorkflows(projectId, entries, contactId, occurrence.trigger, at);
  entries.forEach((entry, index) => {
    if (outcomes[index] !== 'REFUSED') firstSteps.push(firstStepMessage(projectId, entry, contactId, at));
  });
  await sendStepMessages(
    firstSteps.map(({ message }) => message),
    firstSteps.map(({ delaySeconds }) => delaySeconds),
  );
  return outcomes.filter((outcome) => outcome === 'ENTERED').length;
}

interface FirstStepMessage {
  message: StepMessage;
  delaySeconds: number;
}

/**
 * What carries an entry's first step on: a message now for a step the runner does at once; for a
 * first DELAY or WAIT_FOR_EVENT (already waiting), its wake at the wait's end, delayed by SQS up to
 * 15 minutes (a longer wait's wake comes early and the runner arms its schedule, as for any wait).
 */
function firstStepMessage(projectId: string, entry: Entry, contactId: string, at: Date, now = Date.now()): FirstStepMessage {
  const { waitUntil } = firstStepStart(projectId, entry, contactId, at).record;
  const delaySeconds = waitUntil ? Math.min(MAX_QUEUE_DELAY_SECONDS, Math.max(0, Math.ceil((Date.parse(waitUntil) - now) / 1000))) : 0;
  return { message: { projectId, workflowId: entry.workflowId, executionId: entry.executionId, stepId: entry.firstStep.id }, delaySeconds };
}

/**
 * Wakes the executions waiting for this contact's event: one Query of the waiting index. An
 * execution the event itself started (its first step waits for the event that triggers it) waits
 * for the next one.
 */
export async function wakeWaiting(occurrence: TriggerOccurrence): Promise<number> {
  if (!occurrence.event) return 0;
  const waiting = (
    await queryAll({
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': workflowKeys.waitsPartition(occurrence.projectId, occurrence.contactId), ':prefix': workflowKeys.waitPrefix(occurrence.event.name) },
      ConsistentRead: true,
    })
  ).filter((item) => item.executionId !== executionIdFor(item.workflowId as string, occurrence.seed, occurrence.at));
  await sendStepMessages(
    waiting.map((item) => ({
      projectId: occurrence.projectId,
      workflowId: item.workflowId as string,
      executionId: item.executionId as string,
      stepId: item.stepId as string,
      event: occurrence.event,
    })),
  );
  return waiting.length;
}
