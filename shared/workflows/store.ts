import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../aws/clients';
import { tableName } from '../db/table';
import { workflowKeys } from './keys';
import type { Step, Trigger } from './schemas';
import { ULID_PATTERN } from '../http/ids';

/** Reads of workflow definitions, shared by the API, the trigger consumer and the runner. */

/** What an execution runs: a workflow's definition at one version (immutable once written). */
export interface WorkflowVersion {
  workflowId: string;
  version: number;
  trigger: Trigger;
  allowReentry: boolean;
  steps: Step[];
}

export interface Workflow extends Omit<WorkflowVersion, 'workflowId'> {
  id: string;
  name: string;
  description: string | null;
  enabled: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface StoredWorkflow extends Workflow {
  /** Signs the WEBHOOK steps' requests (Standard Webhooks); shown once, on create. */
  webhookSecret: string;
}

export async function readWorkflow(projectId: string, workflowId: string): Promise<StoredWorkflow | undefined> {
  if (!ULID_PATTERN.test(workflowId)) return undefined;
  const { Item } = await documentClient.send(new GetCommand({ TableName: tableName, Key: workflowKeys.workflow(projectId, workflowId), ConsistentRead: true }));
  return Item ? fromItem(Item) : undefined;
}

const versions = new Map<string, Promise<WorkflowVersion | undefined>>();

/** A version of a definition; versions never change, so each is read once per container. */
export function readVersion(projectId: string, workflowId: string, version: number): Promise<WorkflowVersion | undefined> {
  const cacheKey = `${projectId}|${workflowId}|${version}`;
  let loaded = versions.get(cacheKey);
  if (!loaded) {
    loaded = documentClient.send(new GetCommand({ TableName: tableName, Key: workflowKeys.version(projectId, workflowId, version), ConsistentRead: true })).then(({ Item }) =>
      Item ? { workflowId, version, trigger: Item.trigger as Trigger, allowReentry: Item.allowReentry as boolean, steps: Item.steps as Step[] } : undefined,
    );
    loaded.then((found) => found ?? versions.delete(cacheKey), () => versions.delete(cacheKey));
    versions.set(cacheKey, loaded);
  }
  return loaded;
}

export function fromItem(item: Record<string, unknown>): StoredWorkflow {
  return {
    id: item.workflowId as string,
    name: item.name as string,
    description: (item.description as string | null | undefined) ?? null,
    enabled: item.enabled as boolean,
    trigger: item.trigger as Trigger,
    allowReentry: item.allowReentry as boolean,
    steps: item.steps as Step[],
    version: item.version as number,
    webhookSecret: item.webhookSecret as string,
    createdAt: item.createdAt as string,
    updatedAt: item.updatedAt as string,
  };
}

