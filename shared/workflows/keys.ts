import { projectPartition } from '../projects/keys';

/**
 * Table keys of workflows: built here and nowhere else.
 *
 * | item           | PK            | SK                                          | GSI1 (by status)                                      | GSI2 (by contact)                                   |
 * |----------------|---------------|---------------------------------------------|-------------------------------------------------------|-----------------------------------------------------|
 * | workflow       | PROJECT#<pid> | WORKFLOW#<wid>                              |                                                       |                                                     |
 * | version        | PROJECT#<pid> | WORKFLOW_VERSION#<wid>#<version, 6 digits>  |                                                       |                                                     |
 * | trigger index  | PROJECT#<pid> | WORKFLOW_TRIGGER#<kind>#<event/segment id>  |                                                       |                                                     |
 * | entry guard    | PROJECT#<pid> | WORKFLOW_ENTRY#<wid>#<cid>                  |                                                       |                                                     |
 * | execution      | PROJECT#<pid> | WORKFLOW_EXECUTION#<wid>#<eid>              | <pid>#WORKFLOW_EXECUTIONS#<wid>#STATUS#<status> / eid | <pid>#WORKFLOW_EXECUTIONS#<wid>#CONTACT#<cid> / eid |
 * | waiting        | PROJECT#<pid> | WORKFLOW_WAIT#<cid>#<event name>#<eid>      |                                                       |                                                     |
 * | counter        | PROJECT#<pid> | COUNTER#WORKFLOWS                           |                                                       |                                                     |
 *
 * Execution ids are ULIDs of the trigger's time, so one workflow's executions list newest first
 * with a descending Query. `WORKFLOW_…#` prefixes never begin with `WORKFLOW#`, so listing
 * workflows reads nothing else. The trigger index holds one attribute per enabled workflow
 * (`w_<wid>` = { version, allowReentry }): one GetItem finds every workflow an event starts.
 */
export type TriggerKind = 'EVENT' | 'SEGMENT_ENTERED' | 'SEGMENT_EXITED' | 'CONTACT_CREATED';

export const workflowKeys = {
  workflow: (projectId: string, workflowId: string) => ({ PK: projectPartition(projectId), SK: `WORKFLOW#${workflowId}` }),
  workflowPrefix: 'WORKFLOW#',
  partition: (projectId: string) => projectPartition(projectId),
  version: (projectId: string, workflowId: string, version: number) => ({
    PK: projectPartition(projectId),
    SK: `WORKFLOW_VERSION#${workflowId}#${String(version).padStart(6, '0')}`,
  }),
  trigger: (projectId: string, kind: TriggerKind, target: string) => ({ PK: projectPartition(projectId), SK: `WORKFLOW_TRIGGER#${kind}#${target}` }),
  /** The attribute of a workflow in its trigger's index item. */
  triggerEntryAttribute: (workflowId: string) => `w_${workflowId}`,
  triggerEntryPrefix: 'w_',
  entry: (projectId: string, workflowId: string, contactId: string) => ({ PK: projectPartition(projectId), SK: `WORKFLOW_ENTRY#${workflowId}#${contactId}` }),
  execution: (projectId: string, workflowId: string, executionId: string) => ({ PK: projectPartition(projectId), SK: `WORKFLOW_EXECUTION#${workflowId}#${executionId}` }),
  executionPrefix: (workflowId: string) => `WORKFLOW_EXECUTION#${workflowId}#`,
  byStatusPartition: (projectId: string, workflowId: string, status: string) => `${projectPartition(projectId)}#WORKFLOW_EXECUTIONS#${workflowId}#STATUS#${status}`,
  byContactPartition: (projectId: string, workflowId: string, contactId: string) => `${projectPartition(projectId)}#WORKFLOW_EXECUTIONS#${workflowId}#CONTACT#${contactId}`,
  /** The index attributes of an execution; GSI1 moves with its status. */
  executionIndexes: (projectId: string, workflowId: string, executionId: string, contactId: string, status: string) => ({
    GSI1PK: workflowKeys.byStatusPartition(projectId, workflowId, status),
    GSI1SK: executionId,
    GSI2PK: workflowKeys.byContactPartition(projectId, workflowId, contactId),
    GSI2SK: executionId,
  }),
  wait: (projectId: string, contactId: string, eventName: string, executionId: string) => ({
    PK: projectPartition(projectId),
    SK: `WORKFLOW_WAIT#${contactId}#${eventName}#${executionId}`,
  }),
  waitPrefix: (contactId: string, eventName: string) => `WORKFLOW_WAIT#${contactId}#${eventName}#`,
  counter: (projectId: string) => ({ PK: projectPartition(projectId), SK: 'COUNTER#WORKFLOWS' }),
};
