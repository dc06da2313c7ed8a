import { ulid } from 'ulid';
import { tableName } from '../db/table';
import { transactWrite, type TransactItem } from '../db/transactions';
import { eventKeys } from './keys';

/** An event on a contact: custom (POST /v1/track) or from the service (`email.sent`…). */
export interface ContactEvent {
  id: string;
  name: string;
  contactId: string;
  emailId?: string;
  /** Custom events: the tracked `data`; service events: what happened (link, bounce type…). */
  data: Record<string, unknown>;
  createdAt: string;
}

export function newEvent(fields: Omit<ContactEvent, 'id' | 'createdAt'>, at = new Date()): ContactEvent {
  return { id: ulid(at.getTime()), createdAt: at.toISOString(), ...fields };
}

/**
 * The writes of one event, to put in the same transaction as what caused it: the event, its
 * name's counter (count, last seen: GET /events/names) and the project's event total.
 */
export function eventWriteItems(projectId: string, event: ContactEvent): TransactItem[] {
  return [
    {
      Put: {
        TableName: tableName,
        Item: {
          ...eventKeys.event(projectId, event.id),
          ...eventKeys.indexes(projectId, event.id, event.contactId, event.name),
          eventId: event.id,
          name: event.name,
          contactId: event.contactId,
          ...(event.emailId ? { emailId: event.emailId } : {}),
          data: event.data,
          createdAt: event.createdAt,
        },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    },
    {
      Update: {
        TableName: tableName,
        Key: eventKeys.nameCounter(projectId, event.name),
        UpdateExpression: 'SET #name = :name, lastSeenAt = :at ADD #count :one',
        ExpressionAttributeNames: { '#name': 'name', '#count': 'count' },
        ExpressionAttributeValues: { ':name': event.name, ':at': event.createdAt, ':one': 1 },
      },
    },
    {
      Update: {
        TableName: tableName,
        Key: eventKeys.total(projectId),
        UpdateExpression: 'ADD #count :one',
        ExpressionAttributeNames: { '#count': 'count' },
        ExpressionAttributeValues: { ':one': 1 },
      },
    },
  ];
}

/** Records events on their own (not tied to another write). */
export async function recordEvents(projectId: string, events: ContactEvent[]): Promise<void> {
  for (const event of events) await transactWrite(eventWriteItems(projectId, event));
}

export function toEvent(item: Record<string, unknown>): ContactEvent {
  return {
    id: item.eventId as string,
    name: item.name as string,
    contactId: item.contactId as string,
    ...(item.emailId ? { emailId: item.emailId as string } : {}),
    data: (item.data as Record<string, unknown>) ?? {},
    createdAt: item.createdAt as string,
  };
}
