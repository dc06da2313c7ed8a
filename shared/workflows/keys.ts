import { projectPartition } from '../projects/keys';

/**
 * Table keys of workflows: built here and nowhere else.
 *
 * | item           | PK                                 | SK                                          | GSI1 (by status)                                      | GSI2 (by contact)                                   |
 * |----------------|------------------------------------|---------------------------------------------|-------------------------------------------------------|-----------------------------------------------------|
 * | workflow       | PROJECT#<pid>                      | WORKFLOW#<wid>                              |                                                       |                                                     |
 * | version        | PROJECT#<pid>                      | WORKFLOW_VERSION#<wid>#<version, 6 digits>  |                                                       |                                                     |
 * | trigger index  | PROJECT#<pid>                      | WORKFLOW_TRIGGER#<kind>#<event/segment id>  |                                                       |                                                     |
 * | names          | PROJECT#<pid>                      | WORKFLOW_NAMES                              |                                                       |                                                     |
 * | counter        | PROJECT#<pid>                      | COUNTER#WORKFLOWS                           |                                                       |                                                     |
 * | entry guard    | PROJECT#<pid>#WORKFLOW#<wid>       | ENTRY#<cid>                                 |                                                       |                                                     |
 * | execution      | PROJECT#<pid>#WORKFLOW#<wid>       | EXECUTION#<eid>                             | <pid>#WORKFLOW_EXECUTIONS#<wid>#STATUS#<status> / eid | <pid>#WORKFLOW_EXECUTIONS#<wid>#CONTACT#<cid> / eid |
 * | figures        | PROJECT#<pid>#WORKFLOW#<wid>       | FIGURES                                     |                                                       |                                                     |
 * | waiting        | PROJECT#<pid>#WORKFLOW_WAITS#<cid> | WAIT#<event name>#<eid>                     |                                                       |                                                     |
 *
 * What a workflow's definition is lives in the project's partition; what its runs write (entries,
 * executions, their counters) lives in a partition per workflow, and the waits in one per contact,
 * so that entering and running workflows never competes with the project's own items (contacts,
 * events, emails) for one partition's 1,000 writes a second. Execution ids are ULIDs of the
 * trigger's time, so one workflow's executions list newest first with a descending Query. The
 * trigger index holds one attribute per enabled workflow (`w_<wid>` = { version, allowReentry }):
 * one GetItem finds every workflow an event starts. The names item says which triggers have an
 * index entry and which event names a workflow waits for (namesAttribute), so an event no
 * workflow is about costs the trigger consumer nothing.
 */
export type TriggerKind = 'EVENT' | 'SEGMENT_ENTERED' | 'SEGMENT_EXITED' | 'CONTACT_CREATED';

export const workflowKeys = {
  workflow: (projectId: string, workflowId: string) => ({ PK: projectPartition(projectId), SK: `WORKFLOW#${workflowId}` }),
  workflowPrefix: 'WORKFLOW#',
  partition: (projectId: string) => projectPartition(projectId),
  /** Every version of every workflow of the project (they are read so only when a project's runs move: layout-upgrade.ts). */
  versionPrefix: 'WORKFLOW_VERSION#',
  version: (projectId: string, workflowId: string, version: number) => ({
    PK: projectPartition(projectId),
    SK: `${workflowKeys.versionPrefix}${workflowId}#${String(version).padStart(6, '0')}`,
  }),
  trigger: (projectId: string, kind: TriggerKind, target: string) => ({ PK: projectPartition(projectId), SK: `WORKFLOW_TRIGGER#${kind}#${target}` }),
  /** The attribute of a workflow in its trigger's index item. */
  triggerEntryAttribute: (workflowId: string) => `w_${workflowId}`,
  triggerEntryPrefix: 'w_',
  /** The partition of one workflow's runs: its entry guards, executions and stats. */
  runtimePartition: (projectId: string, workflowId: string) => `${projectPartition(projectId)}#WORKFLOW#${workflowId}`,
  entry: (projectId: string, workflowId: string, contactId: string) => ({ PK: workflowKeys.runtimePartition(projectId, workflowId), SK: `ENTRY#${contactId}` }),
  execution: (projectId: string, workflowId: string, executionId: string) => ({ PK: workflowKeys.runtimePartition(projectId, workflowId), SK: `EXECUTION#${executionId}` }),
  executionPrefix: 'EXECUTION#',
  /**
   * The engine's figures of the workflow (entered, per step, how executions ended); the delivery
   * stats of the mail it sends are its source's item, as every source's (shared/stats/keys.ts).
   */
  figures: (projectId: string, workflowId: string) => ({ PK: workflowKeys.runtimePartition(projectId, workflowId), SK: 'FIGURES' }),
  /** The project and workflow whose runtime partition a key's PK is, or undefined (stream consumers read items by their keys). */
  ofRuntimePartition: (pk: unknown): { projectId: string; workflowId: string } | undefined => {
    const [, projectId, workflowId] = /^PROJECT#([^#]+)#WORKFLOW#([^#]+)$/.exec(String(pk ?? '')) ?? [];
    return projectId && workflowId ? { projectId, workflowId } : undefined;
  },
  byStatusPartition: (projectId: string, workflowId: string, status: string) => `${projectPartition(projectId)}#WORKFLOW_EXECUTIONS#${workflowId}#STATUS#${status}`,
  byContactPartition: (projectId: string, workflowId: string, contactId: string) => `${projectPartition(projectId)}#WORKFLOW_EXECUTIONS#${workflowId}#CONTACT#${contactId}`,
  /** The index attributes of an execution; GSI1 moves with its status. */
  executionIndexes: (projectId: string, workflowId: string, executionId: string, contactId: string, status: string) => ({
    GSI1PK: workflowKeys.byStatusPartition(projectId, workflowId, status),
    GSI1SK: executionId,
    GSI2PK: workflowKeys.byContactPartition(projectId, workflowId, contactId),
    GSI2SK: executionId,
  }),
  /** The partition of one contact's waiting executions, across workflows. */
  waitsPartition: (projectId: string, contactId: string) => `${projectPartition(projectId)}#WORKFLOW_WAITS#${contactId}`,
  wait: (projectId: string, contactId: string, eventName: string, executionId: string) => ({
    PK: workflowKeys.waitsPartition(projectId, contactId),
    SK: `WAIT#${eventName}#${executionId}`,
  }),
  waitPrefix: (eventName: string) => `WAIT#${eventName}#`,
  names: (projectId: string) => ({ PK: projectPartition(projectId), SK: 'WORKFLOW_NAMES' }),
  /**
   * The names item's attribute of a trigger (the workflow ids listed in its index item) or of an
   * awaited event name (the workflows with a WAIT_FOR_EVENT step on it): string sets, which
   * DynamoDB drops when their last id is deleted.
   */
  namesAttribute: {
    trigger: (kind: TriggerKind, target: string) => `trigger#${kind}#${target}`,
    wait: (eventName: string) => `wait#${eventName}`,
  },
  counter: (projectId: string) => ({ PK: projectPartition(projectId), SK: 'COUNTER#WORKFLOWS' }),
};
