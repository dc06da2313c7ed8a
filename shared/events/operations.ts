import type { OperationDoc } from '../http/operation-doc';
import { pageSchema } from '../http/responses';
import { eventNameResponseSchema, eventResponseSchema, trackResponseSchema } from './responses';
import { listEventsQuerySchema, trackRequestSchema } from './schemas';

/** The OpenAPI entries of the event routes, keyed by route key ('METHOD /path'). */
export const eventOperations: Record<string, OperationDoc> = {
  'POST /v1/track': {
    operationId: 'trackEvent',
    tag: 'Events',
    summary: 'Track an event',
    description:
      'Creates or updates the contact and records a custom event. Accepts public keys (pk_) and CORS. A data value may be written { value, persistent }: persistent values are also stored on the contact, others only on the event; plain values are stored on both.',
    body: trackRequestSchema,
    bodyExample: { email: 'ada@example.com', event: 'signed-up', data: { plan: 'pro', source: { value: 'ad-campaign', persistent: false } } },
    success: { status: 200, description: 'Recorded', data: trackResponseSchema },
  },

  'GET /events': {
    operationId: 'listEvents',
    tag: 'Events',
    summary: 'List events',
    description: 'Newest first; filter by contact (contactId or email), event name and time range.',
    query: listEventsQuerySchema,
    success: { status: 200, description: 'A page of events', data: pageSchema(eventResponseSchema) },
  },
  'GET /events/names': {
    operationId: 'listEventNames',
    tag: 'Events',
    summary: 'List event names',
    success: { status: 200, description: 'Every event name with its count (one page)', data: pageSchema(eventNameResponseSchema) },
  },
};
