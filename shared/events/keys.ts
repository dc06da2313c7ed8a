import { projectPartition } from '../projects/keys';

/**
 * Table keys of events: built here and nowhere else. Event ids are ULIDs, so every partition
 * below sorts by time.
 * | item  | PK            | SK          | GSI1 (by contact)                         | GSI2 (by name)                     |
 * |-------|---------------|-------------|-------------------------------------------|------------------------------------|
 * | event | PROJECT#<pid> | EVENT#<id>  | PROJECT#<pid>#CONTACT_EVENTS#<cid> / <id> | PROJECT#<pid>#EVENT_NAME#<name> / <id> |
 */
export const eventKeys = {
  event: (projectId: string, eventId: string) => ({ PK: projectPartition(projectId), SK: `EVENT#${eventId}` }),
  eventPrefix: 'EVENT#',
  byContactPartition: (projectId: string, contactId: string) => `${projectPartition(projectId)}#CONTACT_EVENTS#${contactId}`,
  byNamePartition: (projectId: string, name: string) => `${projectPartition(projectId)}#EVENT_NAME#${name}`,
  indexes: (projectId: string, eventId: string, contactId: string, name: string) => ({
    GSI1PK: eventKeys.byContactPartition(projectId, contactId),
    GSI1SK: eventId,
    GSI2PK: eventKeys.byNamePartition(projectId, name),
    GSI2SK: eventId,
  }),
};
