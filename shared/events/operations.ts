import type { OperationDoc } from '../http/operation-doc';
import { pageSchema } from '../http/responses';
import { eventNameResponseSchema, eventResponseSchema, trackResponseSchema } from './responses';
import { listEventNamesQuerySchema, listEventsQuerySchema, trackRequestSchema } from './schemas';

/** The OpenAPI entries of the event routes, keyed by route key ('METHOD /path'). */
export const eventOperations: Record<string, OperationDoc> = {
  'POST /v1/track': {
    operationId: 'trackEvent',
    tag: 'Events',
    summary: 'Track an event',
    description:
      'Creates or updates the contact (`data` merged as in `POST /contacts`; a new contact is subscribed unless `subscribed: false`) and records a custom event with `data` as its properties; answers the contact id, the event id and the time. Accepts public keys (pk_) and answers CORS preflight, so browsers may call it. Event names: 1–100 characters, starting with a letter or digit, then letters, digits, spaces and `_ . : - /`; names starting `email.`, `segment.` or `contact.` are reserved for the service\'s own events. A `data` value may be written `{ value, persistent }` (Plunk\'s form): persistent values are stored on the contact and the event, others only on the event; plain values on both. Events start workflows, feed segments and reach webhooks as `event:<name>`.',
    body: trackRequestSchema,
    bodyExample: { email: 'ada@example.com', event: 'signed-up', data: { plan: 'pro', source: { value: 'ad-campaign', persistent: false } } },
    success: { status: 200, description: 'Recorded', data: trackResponseSchema },
  },

  'GET /events': {
    operationId: 'listEvents',
    tag: 'Events',
    summary: 'List events',
    description:
      'Newest first; filter by contact (`contactId` or `email`), event `name` and time range (`from`, `to`: ISO 8601). Items: `{ id, name, contactId, emailId?, data, createdAt }`. `total` is the project\'s event count, or that name\'s count with `name`; it does not narrow with contact or time.',
    query: listEventsQuerySchema,
    success: { status: 200, description: 'A page of events', data: pageSchema(eventResponseSchema) },
  },
  'GET /events/names': {
    operationId: 'listEventNames',
    tag: 'Events',
    summary: 'List event names',
    description:
      'The event names in use, in name order, each with its count and when it was last seen, read from per-name counters; paged with `limit` and `cursor` like every list. A tracked event is counted right after it is written, so a rare failure in between leaves it one short, never one over; the events of emails (`email.*`) are counted from the table stream in batches, exactly once, within about 10 seconds in AWS. `total` is the number of names.',
    query: listEventNamesQuerySchema,
    success: { status: 200, description: 'A page of event names with their counts', data: pageSchema(eventNameResponseSchema) },
  },
};
