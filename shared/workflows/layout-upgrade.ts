import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../aws/clients';
import { queryAll } from '../db/query';
import { tableName } from '../db/table';
import { writeOnce } from '../db/transactions';
import { statsKeys } from '../stats/keys';
import { workflowKeys } from './keys';
import { namesOfWorkflows, readWorkflowNames } from './names';
import type { Step } from './schemas';
import { fromItem } from './store';

/**
 * Deployments made before 2026-11-26 kept each workflow's runs in the project's partition: entry
 * guards `WORKFLOW_ENTRY#<wid>#<cid>`, executions `WORKFLOW_EXECUTION#<wid>#<eid>`, waits
 * `WORKFLOW_WAIT#<cid>#<event name>#<eid>`, and the engine's figures on the workflow source's stats
 * item; and had no names item. The first function that meets such a project — the trigger
 * consumer reading its names, the runner not finding an execution — moves them where
 * shared/workflows/keys.ts says, then writes the names item (with what any version of its
 * workflows waits for), which marks the project as moved.
 * Until then nothing of the old layout is read, so nothing is decided on half the data: a
 * contact's guard is moved before any event of the project is matched. Each item moves in one
 * transaction (the new item put if absent, the old deleted if present), so two movers at once, or
 * one stopped half way and run again, move every item once.
 */
const LEGACY_PREFIXES = ['WORKFLOW_ENTRY#', 'WORKFLOW_EXECUTION#', 'WORKFLOW_WAIT#'] as const;
const LEGACY_FIGURES = ['entered', 'completed', 'exited', 'failed', 'cancelled'];
const isFigure = (attribute: string) => LEGACY_FIGURES.includes(attribute) || attribute.startsWith('step#');

/** Where an item of the old layout goes: its new key, made from its own attributes. */
function newKeyOf(projectId: string, prefix: (typeof LEGACY_PREFIXES)[number], item: Record<string, unknown>) {
  const [workflowId, contactId] = [String(item.workflowId), String(item.contactId)];
  if (prefix === 'WORKFLOW_ENTRY#') return workflowKeys.entry(projectId, workflowId, contactId);
  if (prefix === 'WORKFLOW_EXECUTION#') return workflowKeys.execution(projectId, workflowId, String(item.executionId));
  return workflowKeys.wait(projectId, contactId, String(item.event), String(item.executionId));
}

/**
 * Moves a project's workflow items of the old layout, if it has any workflow and no names item
 * (`namesRead`: its caller just found none). True when the project was of the old layout: its
 * items are now where keys.ts says, and its names item is written.
 */
export async function upgradeRuntimeLayout(projectId: string, { namesRead = false } = {}): Promise<boolean> {
  const partition = workflowKeys.partition(projectId);
  const [names, workflows] = await Promise.all([
    namesRead ? undefined : readWorkflowNames(projectId),
    queryAll({ KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)', ExpressionAttributeValues: { ':pk': partition, ':prefix': workflowKeys.workflowPrefix }, ConsistentRead: true }),
  ]);
  if (names || workflows.length === 0) return false;
  const stored = workflows.map(fromItem);
  const exists = new Set(stored.map((workflow) => workflow.id));
  // Every version of the workflows there are: an execution of an earlier one may come to its wait after the move.
  const versions = (await queryAll({ KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)', ExpressionAttributeValues: { ':pk': partition, ':prefix': workflowKeys.versionPrefix }, ConsistentRead: true }))
    .filter((version) => exists.has(String(version.workflowId)))
    .map((version) => ({ workflowId: String(version.workflowId), steps: (version.steps as Step[] | undefined) ?? [] }));
  for (const prefix of LEGACY_PREFIXES) await moveAll(projectId, prefix);
  for (const workflow of stored) await moveFigures(projectId, workflow.id);
  await documentClient.send(new UpdateCommand(namesOfWorkflows(projectId, stored, versions)));
  return true;
}

/** Moves in flight at once, each a transaction of two items: a project's many executions move side by side, not one after another. */
const MOVES_AT_ONCE = 16;

/** Every item of the old layout under a prefix, page by page (never the whole list in memory), several at once. */
async function moveAll(projectId: string, prefix: (typeof LEGACY_PREFIXES)[number]): Promise<void> {
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await documentClient.send(
      new QueryCommand({ TableName: tableName, KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)', ExpressionAttributeValues: { ':pk': workflowKeys.partition(projectId), ':prefix': prefix }, ConsistentRead: true, ExclusiveStartKey }),
    );
    const items = page.Items ?? [];
    for (let start = 0; start < items.length; start += MOVES_AT_ONCE) {
      await Promise.all(
        items.slice(start, start + MOVES_AT_ONCE).map(({ PK, SK, ...fields }) =>
          writeOnce([
            { Put: { TableName: tableName, Item: { ...newKeyOf(projectId, prefix, fields), ...fields }, ConditionExpression: 'attribute_not_exists(PK)' } },
            { Delete: { TableName: tableName, Key: { PK, SK }, ConditionExpression: 'attribute_exists(PK)' } },
          ]),
        ),
      );
    }
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
}

/** The engine's figures from the workflow source's stats item to the workflow's figures item, added there and removed here together. */
async function moveFigures(projectId: string, workflowId: string): Promise<void> {
  const source = statsKeys.source(projectId, 'workflow', workflowId);
  const { Item: stats } = await documentClient.send(new GetCommand({ TableName: tableName, Key: source, ConsistentRead: true }));
  const figures = Object.entries(stats ?? {}).filter(([attribute, value]) => isFigure(attribute) && typeof value === 'number');
  if (figures.length === 0) return;
  const names = Object.fromEntries(figures.map(([attribute], index) => [`#f${index}`, attribute]));
  await writeOnce([
    {
      Update: {
        TableName: tableName,
        Key: workflowKeys.figures(projectId, workflowId),
        UpdateExpression: `ADD ${figures.map((_, index) => `#f${index} :f${index}`).join(', ')}`,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: Object.fromEntries(figures.map(([, value], index) => [`:f${index}`, value])),
      },
    },
    {
      Update: {
        TableName: tableName,
        Key: source,
        UpdateExpression: `REMOVE ${figures.map((_, index) => `#f${index}`).join(', ')}`,
        // Only figures still here: a mover that got here first took them.
        ConditionExpression: figures.map((_, index) => `attribute_exists(#f${index})`).join(' AND '),
        ExpressionAttributeNames: names,
      },
    },
  ]);
}
