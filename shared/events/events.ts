import type { TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import { tableName } from '../db/table';
import { eventKeys } from './keys';

/** An event on a contact: custom (POST /v1/track) or from the service (`email.sent`…). */
export interface ContactEvent {
  id: string;
  name: string;
  contactId: string;
  emailId?: string;
  properties: Record<string, unknown>;
  createdAt: string;
}

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

export function newEvent(fields: Omit<ContactEvent, 'id' | 'createdAt'>, at = new Date()): ContactEvent {
  return { id: ulid(at.getTime()), createdAt: at.toISOString(), ...fields };
}

/** The Put of an event, to record it in the same transaction as what caused it. */
export function eventPutItem(projectId: string, event: ContactEvent): TransactItem {
  return {
    Put: {
      TableName: tableName,
      Item: {
        ...eventKeys.event(projectId, event.id),
        ...eventKeys.indexes(projectId, event.id, event.contactId, event.name),
        eventId: event.id,
        name: event.name,
        contactId: event.contactId,
        ...(event.emailId ? { emailId: event.emailId } : {}),
        properties: event.properties,
        createdAt: event.createdAt,
      },
      ConditionExpression: 'attribute_not_exists(PK)',
    },
  };
}
