import { upsertContact } from '../contacts/contacts';
import { assertValidContactData } from '../contacts/schemas';
import { newEvent, recordEvents } from './events';

export interface TrackInput {
  email: string;
  event: string;
  subscribed?: boolean;
  data?: Record<string, unknown>;
}

/**
 * POST /v1/track: creates or updates the contact (data merged as in POST /contacts; a new contact
 * is subscribed unless told otherwise) and records the event with the data as its properties.
 * A data value may be written as Plunk's `{ value, persistent }`: persistent values are stored
 * on the contact and the event, non-persistent ones only on the event; plain values on both.
 */
export async function trackEvent(projectId: string, input: TrackInput) {
  const { contactData, eventData } = splitTrackedData(input.data ?? {});
  assertValidContactData({ ...eventData, ...contactData });
  const { contact } = await upsertContact(projectId, input.email, { subscribed: input.subscribed, data: input.data ? contactData : undefined }, true);
  const event = newEvent({ name: input.event, contactId: contact.id, data: eventData });
  await recordEvents(projectId, [event]);
  return { contact: contact.id, event: event.id, timestamp: event.createdAt };
}

/** Plunk's wrapped value: an object of exactly `value` and a boolean `persistent`. */
function isWrappedValue(value: unknown): value is { value: unknown; persistent: boolean } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return keys.length === 2 && 'value' in value && typeof (value as { persistent?: unknown }).persistent === 'boolean';
}

export function splitTrackedData(data: Record<string, unknown>): { contactData: Record<string, unknown>; eventData: Record<string, unknown> } {
  const contactData: Record<string, unknown> = {};
  const eventData: Record<string, unknown> = {};
  for (const [key, given] of Object.entries(data)) {
    const wrapped = isWrappedValue(given);
    const value = wrapped ? given.value : given;
    if (!wrapped || given.persistent) contactData[key] = value;
    // null removes the key from the contact; an event records only values.
    if (value !== null) eventData[key] = value;
  }
  return { contactData, eventData };
}
