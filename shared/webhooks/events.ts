import { createHash } from 'node:crypto';
import { toContact } from '../contacts/contacts';
import { contactKeys } from '../contacts/keys';
import { eventKeys } from '../events/keys';
import { toEvent } from '../events/events';
import { notificationKeys, toNotification, type Notification } from '../notifications/notifications';
import { projectOfPartition } from '../projects/keys';
import type { StreamChange } from '../streams/handler';
import { customEventKind, DISABLED_KIND } from './kinds';

/**
 * What a webhook delivers: `{ type, timestamp, data }` (/docs "Webhooks"), with an id that is
 * the same whenever the same happening is seen again (a retried stream batch), so its
 * deliveries — whose ids derive from it — are written once.
 */
export interface WebhookEvent {
  id: string;
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
}

/** The project of a changed item in a project's own partition, or undefined. */
export function projectOfChange(change: StreamChange): string | undefined {
  return projectOfPartition(change.keys.PK);
}

/** An id for a change that has none of its own: derived from the stream record, which a retry repeats. */
const changeId = (type: string, change: StreamChange) =>
  createHash('sha256').update(`${type}#${change.record.eventID ?? change.sequenceNumber}`).digest('base64url').slice(0, 26);

/** JSON with object keys sorted: DynamoDB does not keep a map's key order between images. */
const canonical = (value: unknown): string =>
  Array.isArray(value)
    ? `[${value.map(canonical).join(',')}]`
    : value !== null && typeof value === 'object'
      ? `{${Object.keys(value).sort().map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`).join(',')}}`
      : JSON.stringify(value) ?? 'null';

const contactFields = (item: Record<string, unknown> | undefined) => item && canonical([item.email, item.subscribed, item.data ?? {}]);

/**
 * The webhook events of one table change:
 * - a new EVENT# item: its name as the type for the service's events (`email.*`, `segment.*`),
 *   `event:<name>` for a custom tracked event; the data is the event as GET /events shows it;
 * - a CONTACT# item: `contact.created`, `contact.updated` (email, subscribed or data changed),
 *   `contact.unsubscribed` (subscribed went from true to false, beside contact.updated),
 *   `contact.deleted`; the data is the contact as GET /contacts/{id} shows it;
 * - a new NOTIFICATION# item: its type and data as recorded.
 */
export function webhookEventsOf(change: StreamChange): WebhookEvent[] {
  const sortKey = String(change.keys.SK ?? '');
  if (sortKey.startsWith(eventKeys.eventPrefix)) {
    if (change.eventName !== 'INSERT' || !change.newImage) return [];
    const event = toEvent(change.newImage);
    // Contact changes are reported from the contact item itself, never twice.
    if (event.name.startsWith('contact.')) return [];
    const type = event.name.startsWith('email.') || event.name.startsWith('segment.') ? event.name : customEventKind(event.name);
    return [{ id: event.id, type, timestamp: event.createdAt, data: { ...event } }];
  }
  if (sortKey.startsWith(contactKeys.contactPrefix)) {
    const { oldImage, newImage } = change;
    if (change.eventName === 'REMOVE') {
      if (!oldImage) return [];
      const approximate = change.record.dynamodb?.ApproximateCreationDateTime;
      const timestamp = new Date(approximate ? approximate * 1000 : Date.now()).toISOString();
      return [{ id: changeId('contact.deleted', change), type: 'contact.deleted', timestamp, data: { ...toContact(oldImage) } }];
    }
    if (!newImage) return [];
    const contact = toContact(newImage);
    if (change.eventName === 'INSERT') return [{ id: changeId('contact.created', change), type: 'contact.created', timestamp: contact.createdAt, data: { ...contact } }];
    if (contactFields(oldImage) === contactFields(newImage)) return [];
    const events: WebhookEvent[] = [{ id: changeId('contact.updated', change), type: 'contact.updated', timestamp: contact.updatedAt, data: { ...contact } }];
    if (oldImage?.subscribed === true && newImage.subscribed === false) {
      events.push({ id: changeId('contact.unsubscribed', change), type: 'contact.unsubscribed', timestamp: contact.updatedAt, data: { ...contact } });
    }
    return events;
  }
  if (sortKey.startsWith(notificationKeys.prefix)) {
    if (change.eventName !== 'INSERT' || !change.newImage) return [];
    const notification = toNotification(change.newImage);
    return [{ id: notification.id, type: notification.type, timestamp: notification.createdAt, data: notification.data }];
  }
  return [];
}

/** The `webhook.disabled` notification a change writes, if it is one (its owners are mailed besides the webhooks). */
export function disabledEndpointNotice(change: StreamChange): Notification | undefined {
  if (change.eventName !== 'INSERT' || !change.newImage || !String(change.keys.SK ?? '').startsWith(notificationKeys.prefix)) return undefined;
  const notification = toNotification(change.newImage);
  return notification.type === DISABLED_KIND ? notification : undefined;
}
