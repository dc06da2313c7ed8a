import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../aws/clients';
import { tableName } from '../db/table';
import type { TransactItem } from '../db/transactions';
import { workflowKeys, type TriggerKind } from './keys';
import type { Step, Trigger } from './schemas';

/**
 * What the trigger consumer must know of a project's workflows before it looks for any: which
 * triggers have workflows listed in their index item, and which event names a workflow waits for.
 * Read once per project per stream batch (shared/workflows/triggers.ts), it spares every other event the trigger
 * index's GetItem and the waiting executions' Query, so tracking costs the engine nothing per
 * event that no workflow is about, however many workflows the project has.
 */
export interface WorkflowNames {
  hasTrigger: (kind: TriggerKind, target: string) => boolean;
  isAwaited: (eventName: string) => boolean;
}

/** The trigger index item a trigger is listed under. */
export function triggerTarget(trigger: Trigger): { kind: TriggerKind; target: string } {
  switch (trigger.type) {
    case 'EVENT':
      return { kind: 'EVENT', target: trigger.event };
    case 'SEGMENT_ENTERED':
    case 'SEGMENT_EXITED':
      return { kind: trigger.type, target: trigger.segmentId };
    case 'CONTACT_CREATED':
      return { kind: 'CONTACT_CREATED', target: '-' };
  }
}

/** A workflow as the names item sees it. */
interface Listed {
  id: string;
  enabled: boolean;
  trigger: Trigger;
  steps: readonly Step[];
}

/** The names item's attribute of the workflow's trigger, while it is enabled. */
function triggerAttribute(workflow: Listed | undefined): string | undefined {
  if (!workflow?.enabled) return undefined;
  const { kind, target } = triggerTarget(workflow.trigger);
  return workflowKeys.namesAttribute.trigger(kind, target);
}

/** The names item's attributes of the event names a definition's steps wait for. */
const waitAttributes = (workflow: Pick<Listed, 'steps'>) => [...new Set(workflow.steps.flatMap((step) => (step.type === 'WAIT_FOR_EVENT' ? [step.event] : [])))].map(workflowKeys.namesAttribute.wait);

type SetChanges = Map<string, Set<string>>;

/**
 * One update of the names item: workflow ids added to and deleted from attributes' string sets.
 * `updatedAt` keeps the item when its last set goes: a present item is the whole truth.
 */
function namesUpdate(projectId: string, adds: SetChanges, deletes: SetChanges) {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':now': new Date().toISOString() };
  const clause = (kind: 'ADD' | 'DELETE', changes: SetChanges) =>
    changes.size === 0
      ? ''
      : ` ${kind} ${[...changes]
          .map(([attribute, workflowIds]) => {
            const index = Object.keys(names).length;
            names[`#n${index}`] = attribute;
            values[`:w${index}`] = workflowIds;
            return `#n${index} :w${index}`;
          })
          .join(', ')}`;
  const expression = `SET updatedAt = :now${clause('ADD', adds)}${clause('DELETE', deletes)}`;
  // DynamoDB refuses an empty map of names.
  return { TableName: tableName, Key: workflowKeys.names(projectId), UpdateExpression: expression, ...(Object.keys(names).length > 0 ? { ExpressionAttributeNames: names } : {}), ExpressionAttributeValues: values };
}

const changesOf = (attributes: string[], workflowId: string): SetChanges => new Map(attributes.map((attribute) => [attribute, new Set([workflowId])]));

/**
 * The names item's change from one state of a saved workflow to the next (before: undefined when
 * it is new), to go in the transaction that changes its trigger index: its trigger listed while
 * enabled; the names its steps wait for added with every version, and kept when an edit no longer
 * waits for them, since executions of an earlier version may still wait (a name listed for nothing
 * costs one Query per event of that name, a name missing would leave an execution waiting for ever).
 */
export function namesWrite(projectId: string, before: Listed | undefined, after: Listed): TransactItem {
  const listed = triggerAttribute(before);
  const listing = triggerAttribute(after);
  const adds = [...(listing ? [listing] : []), ...waitAttributes(after)];
  const deletes = listed && listed !== listing ? [listed] : [];
  return { Update: namesUpdate(projectId, changesOf(adds, after.id), changesOf(deletes, after.id)) };
}

/**
 * The names item's change when a workflow is deleted, to go in the transaction that deletes it:
 * its id taken from every attribute that lists it, its earlier versions' waits too (one
 * consistent read of the item first), so the item lists only the workflows there are.
 */
export async function namesRemoval(projectId: string, workflowId: string): Promise<TransactItem> {
  const { Item } = await documentClient.send(new GetCommand({ TableName: tableName, Key: workflowKeys.names(projectId), ConsistentRead: true }));
  const listing = Object.entries(Item ?? {}).filter(([, value]) => value instanceof Set && value.has(workflowId)).map(([attribute]) => attribute);
  return { Update: namesUpdate(projectId, new Map(), changesOf(listing, workflowId)) };
}

/**
 * The whole names item of these workflows, in one update (a project's first, when its workflows
 * were made before the item: shared/workflows/layout-upgrade.ts), with what every version of
 * theirs waits for (an execution of an earlier version may still come to its wait).
 */
export function namesOfWorkflows(projectId: string, workflows: readonly Listed[], versions: readonly { workflowId: string; steps: readonly Step[] }[] = []) {
  const adds: SetChanges = new Map();
  const add = (attribute: string | undefined, workflowId: string) => attribute && adds.set(attribute, (adds.get(attribute) ?? new Set()).add(workflowId));
  for (const workflow of workflows) for (const attribute of [triggerAttribute(workflow), ...waitAttributes(workflow)]) add(attribute, workflow.id);
  for (const version of versions) for (const attribute of waitAttributes(version)) add(attribute, version.workflowId);
  return namesUpdate(projectId, adds, new Map());
}

/** The project's names item, one consistent GetItem; undefined when the project has none (shared/workflows/layout-upgrade.ts). */
export async function readWorkflowNames(projectId: string): Promise<WorkflowNames | undefined> {
  const { Item } = await documentClient.send(new GetCommand({ TableName: tableName, Key: workflowKeys.names(projectId), ConsistentRead: true }));
  if (!Item) return undefined;
  return {
    hasTrigger: (kind, target) => workflowKeys.namesAttribute.trigger(kind, target) in Item,
    isAwaited: (eventName) => workflowKeys.namesAttribute.wait(eventName) in Item,
  };
}
