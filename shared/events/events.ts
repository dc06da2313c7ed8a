import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import { documentClient } from '../aws/clients';
import { tableName } from '../db/table';
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

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

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

/**
 * Runs a transaction that touches hot counter items, retrying with jitter when DynamoDB cancels
 * it for a conflict with a concurrent transaction on the same items. Other cancellations (a
 * failed condition) are rethrown for the caller to read.
 */
export async function transactWithCounters(items: TransactItem[], attempts = 6): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await documentClient.send(new TransactWriteCommand({ TransactItems: items }));
      return;
    } catch (error) {
      const reasons = (error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
      const conflictOnly = reasons.some((reason) => reason.Code === 'TransactionConflict') && !reasons.some((reason) => reason.Code === 'ConditionalCheckFailed');
      if (!conflictOnly || attempt >= attempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 25 * 2 ** attempt));
    }
  }
}

/** Records events on their own (not tied to another write). */
export async function recordEvents(projectId: string, events: ContactEvent[]): Promise<void> {
  for (const event of events) await transactWithCounters(eventWriteItems(projectId, event));
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
