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
 */
export async function trackEvent(projectId: string, input: TrackInput) {
  assertValidContactData(input.data);
  const { contact } = await upsertContact(projectId, input.email, { subscribed: input.subscribed, data: input.data }, true);
  const properties = Object.fromEntries(Object.entries(input.data ?? {}).filter(([, value]) => value !== null));
  const event = newEvent({ name: input.event, contactId: contact.id, data: properties });
  await recordEvents(projectId, [event]);
  return { contact: contact.id, event: event.id, timestamp: event.createdAt };
}
