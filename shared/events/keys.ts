import { encodeTime } from 'ulid';
import { projectPartition } from '../projects/keys';

/**
 * Table keys of events: built here and nowhere else. Event ids are ULIDs, so every event
 * partition sorts by time and a time range is a key condition on the id.
 * | item          | PK            | SK                   | GSI1 (by contact)                         | GSI2 (by name)                          | GSI3 (by email: events with an emailId)   |
 * |---------------|---------------|----------------------|-------------------------------------------|-----------------------------------------|-------------------------------------------|
 * | event         | PROJECT#<pid> | EVENT#<id>           | PROJECT#<pid>#CONTACT_EVENTS#<cid> / <id> | PROJECT#<pid>#EVENT_NAME#<name> / <id>  | PROJECT#<pid>#EMAIL_EVENTS#<eid> / <id>   |
 * | name counter  | PROJECT#<pid> | EVENT_NAME#<name>    |                                           |                                         |
 * | project total | PROJECT#<pid> | COUNTER#EVENTS       |                                           |                                         |
 * | names total   | PROJECT#<pid> | COUNTER#EVENT_NAMES  |                                           |                                         |
 * An email's events are in GSI3 but the two its record names by id (`sendEnd.eventId`,
 * `deliveredEventId`): the timeline reads those by key (shared/emails/activity.ts).
 */
export const eventKeys = {
  event: (projectId: string, eventId: string) => ({ PK: projectPartition(projectId), SK: `EVENT#${eventId}` }),
  eventPrefix: 'EVENT#',
  byContactPartition: (projectId: string, contactId: string) => `${projectPartition(projectId)}#CONTACT_EVENTS#${contactId}`,
  byNamePartition: (projectId: string, name: string) => `${projectPartition(projectId)}#EVENT_NAME#${name}`,
  /** An email's timeline (GET /emails/{id}): its events in time order, one Query. */
  byEmailPartition: (projectId: string, emailId: string) => `${projectPartition(projectId)}#EMAIL_EVENTS#${emailId}`,
  indexes: (projectId: string, eventId: string, contactId: string, name: string, emailId?: string) => ({
    GSI1PK: eventKeys.byContactPartition(projectId, contactId),
    GSI1SK: eventId,
    GSI2PK: eventKeys.byNamePartition(projectId, name),
    GSI2SK: eventId,
    ...(emailId ? { GSI3PK: eventKeys.byEmailPartition(projectId, emailId), GSI3SK: eventId } : {}),
  }),
  nameCounter: (projectId: string, name: string) => ({ PK: projectPartition(projectId), SK: `EVENT_NAME#${name}` }),
  nameCounterPrefix: 'EVENT_NAME#',
  /** How many names have a counter (`total`). */
  namesTotal: (projectId: string) => ({ PK: projectPartition(projectId), SK: 'COUNTER#EVENT_NAMES' }),
  total: (projectId: string) => ({ PK: projectPartition(projectId), SK: 'COUNTER#EVENTS' }),
};

/** The smallest and largest event ids of a millisecond range: ULIDs start with their time. */
export const eventIdBounds = (fromMs: number, toMs: number) => ({
  low: `${encodeTime(fromMs, 10)}${'0'.repeat(16)}`,
  high: `${encodeTime(toMs, 10)}${'Z'.repeat(16)}`,
});
