import * as v from 'valibot';
import { idSchema, isoDateTimeSchema } from '../http/responses';

/** An endpoint as the API returns it (shared/webhooks/endpoints.ts `WebhookEndpoint`). */
const endpointEntries = {
  id: idSchema,
  url: v.pipe(v.string(), v.examples(['https://example.com/hooks/mailwright'])),
  events: v.pipe(v.array(v.string()), v.description('Event kinds, "*" for all, or event:<name> for a tracked event'), v.examples([['email.delivered', 'contact.unsubscribed']])),
  description: v.nullable(v.string()),
  enabled: v.boolean(),
  status: v.pipe(v.picklist(['ENABLED', 'DISABLED']), v.description('`enabled` as a state; DISABLED with a `disabledReason` when the service disabled it')),
  disabledReason: v.pipe(v.nullable(v.string()), v.description('Why the service disabled it (every delivery failing for the deploy\'s period, a day by default)')),
  failingSince: v.pipe(v.nullable(isoDateTimeSchema), v.description('Since when every delivery has failed')),
  createdAt: isoDateTimeSchema,
  updatedAt: isoDateTimeSchema,
};

export const webhookResponseSchema = v.pipe(v.strictObject(endpointEntries), v.title('Webhook'));

/** POST /webhooks and POST /webhooks/{id}/rotate-secret: the only answers that show the signing secret. */
export const webhookWithSecretResponseSchema = v.pipe(
  v.strictObject({ ...endpointEntries, secret: v.pipe(v.string(), v.description('The Standard Webhooks signing secret (whsec_…); shown only here')) }),
  v.title('WebhookWithSecret'),
);

export const webhookDeliveryResponseSchema = v.pipe(
  v.strictObject({
    id: v.pipe(v.string(), v.description('The webhook-id header of every attempt')),
    eventId: v.string(),
    type: v.pipe(v.string(), v.examples(['email.delivered'])),
    status: v.picklist(['pending', 'delivered', 'failed']),
    attempts: v.pipe(v.number(), v.integer(), v.minValue(0)),
    lastStatusCode: v.nullable(v.pipe(v.number(), v.integer())),
    lastError: v.nullable(v.string()),
    lastAttemptAt: v.nullable(isoDateTimeSchema),
    nextAttemptAt: v.nullable(isoDateTimeSchema),
    deliveredAt: v.nullable(isoDateTimeSchema),
    createdAt: isoDateTimeSchema,
  }),
  v.title('WebhookDelivery'),
);

/** GET /webhooks/{id}/deliveries: a page without a total (deliveries are not counted). */
export const webhookDeliveryPageSchema = v.strictObject({
  items: v.array(webhookDeliveryResponseSchema),
  nextCursor: v.nullable(v.string()),
  hasMore: v.boolean(),
});
