import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../aws/clients';
import { tableName } from '../db/table';
import type { TransactItem } from '../db/transactions';
import { perBatchLoader } from '../streams/batch-loader';
import { workflowKeys, type TriggerKind } from './keys';
import type { Step, Trigger } from './schemas';

/**
 * What the trigger consumer must know of a project's workflows before it looks for any: which
 * triggers have workflows listed in their index item, and which event names a workflow waits for.
 * Read once per project per stream batch (namesLoader), it spares every other event the trigger
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

/** The event names a definition's WAIT_FOR_EVENT steps wait for. */
const awaitedNames = (steps: readonly Step[]) => new Set(steps.flatMap((step) => (step.type === 'WAIT_FOR_EVENT' ? [step.event] : [])));

/** A workflow as the names item sees it. */
interface Listed {
  id: string;
  enabled: boolean;
  trigger: Trigger;
  steps: readonly Step[];
}

/**
 * The names item's change from one state of a workflow to the next (undefined: absent), to go in
 * the transaction that changes its trigger index: its trigger listed while enabled; the names its
 * steps wait for added with every version and taken away only when it is deleted, since
 * executions of an earlier version may still wait for them (a name listed for nothing costs one
 * Query per event of that name, a name missing would leave an execution waiting for ever).
 */
export function namesWrite(projectId: string, before: Listed | undefined, after: Listed | undefined): TransactItem {
  const workflowId = (before ?? after)!.id;
  const attribute = workflowKeys.namesAttribute;
  const triggerOf = (workflow: Listed | undefined) => {
    if (!workflow?.enabled) return undefined;
    const { kind, target } = triggerTarget(workflow.trigger);
    return attribute.trigger(kind, target);
  };
  const listed = triggerOf(before);
  const listing = triggerOf(after);
  const adds = [...(listing ? [listing] : []), ...[...awaitedNames(after?.steps ?? [])].map(attribute.wait)];
  const deletes = [...(listed && listed !== listing ? [listed] : []), ...(after ? [] : [...awaitedNames(before!.steps)].map(attribute.wait))];
  const names: Record<string, string> = {};
  const clause = (kind: 'ADD' | 'DELETE', attributes: string[]) =>
    attributes.length === 0
      ? ''
      : ` ${kind} ${attributes
          .map((name) => {
            const placeholder = `#n${Object.keys(names).length}`;
            names[placeholder] = name;
            return `${placeholder} :workflow`;
          })
          .join(', ')}`;
  // updatedAt keeps the item when its last set goes: a present item is the whole truth.
  const expression = `SET updatedAt = :now${clause('ADD', adds)}${clause('DELETE', deletes)}`;
  const changes = Object.keys(names).length > 0;
  return {
    Update: {
      TableName: tableName,
      Key: workflowKeys.names(projectId),
      UpdateExpression: expression,
      // DynamoDB refuses an empty map and a value no expression uses.
      ...(changes ? { ExpressionAttributeNames: names } : {}),
      ExpressionAttributeValues: { ':now': new Date().toISOString(), ...(changes ? { ':workflow': new Set([workflowId]) } : {}) },
    },
  };
}

/**
 * The project's names. A project without the item has had no workflow since the item was
 * introduced: if it has workflows at all (made before), every lookup is made, as before.
 */
export async function readWorkflowNames(projectId: string): Promise<WorkflowNames> {
  const { Item } = await documentClient.send(new GetCommand({ TableName: tableName, Key: workflowKeys.names(projectId), ConsistentRead: true }));
  if (Item) {
    return {
      hasTrigger: (kind, target) => workflowKeys.namesAttribute.trigger(kind, target) in Item,
      isAwaited: (eventName) => workflowKeys.namesAttribute.wait(eventName) in Item,
    };
  }
  const { Items } = await documentClient.send(
    new QueryCommand({
      TableName: tableName,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': workflowKeys.partition(projectId), ':prefix': workflowKeys.workflowPrefix },
      ProjectionExpression: 'PK',
      Limit: 1,
    }),
  );
  const any = (Items?.length ?? 0) > 0;
  return { hasTrigger: () => any, isAwaited: () => any };
}

export type NamesLoader = (projectId: string) => Promise<WorkflowNames>;

/** readWorkflowNames once per project per stream batch. */
export const namesLoader = (): NamesLoader => perBatchLoader(readWorkflowNames);
