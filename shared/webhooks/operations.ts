import { concurrentModificationCase, notFoundCase, type OperationDoc } from '../http/operation-doc';
import { deletedSchema, pageSchema } from '../http/responses';
import { webhookDeliveryPageSchema, webhookDeliveryResponseSchema, webhookResponseSchema, webhookWithSecretResponseSchema } from './responses';
import { createWebhookSchema, listDeliveriesQuerySchema, patchWebhookSchema } from './schemas';

/** The OpenAPI entries of the webhook endpoint routes, keyed by route key ('METHOD /path'). */
export const webhookOperations: Record<string, OperationDoc> = {
  'POST /webhooks': {
    operationId: 'createWebhook',
    tag: 'Webhooks',
    summary: 'Create a webhook endpoint',
    description:
      'Events of the chosen kinds (see Webhooks; `"*"` for all) are POSTed to the https URL, signed with Standard Webhooks headers (`webhook-id`, `webhook-timestamp`, `webhook-signature`) and retried on failure for about 27 hours. The URL must resolve to public addresses only. The `secret` (`whsec_…`) is shown in full only here and on rotation. At most 20 endpoints per project.',
    body: createWebhookSchema,
    bodyExample: { url: 'https://example.com/hooks/mailwright', events: ['email.delivered', 'email.bounced', 'contact.unsubscribed'], description: 'CRM sync' },
    success: { status: 201, description: 'The endpoint with its signing secret', data: webhookWithSecretResponseSchema },
    errors: [{ status: 409, code: 'WEBHOOK_LIMIT_REACHED', when: 'The project has its maximum number of endpoints' }, { status: 422, code: 'VALIDATION_ERROR', when: 'Fields fail validation, or the URL is not https or resolves to a private address (field url)' }],
  },
  'GET /webhooks': {
    operationId: 'listWebhooks',
    tag: 'Webhooks',
    summary: 'List webhook endpoints',
    description:
      'All endpoints of the project (at most 20, one page), with `enabled`, `disabledReason` and `failingSince`.',
    success: { status: 200, description: 'All endpoints of the project (one page)', data: pageSchema(webhookResponseSchema) },
  },
  'GET /webhooks/{id}': {
    operationId: 'getWebhook',
    tag: 'Webhooks',
    summary: 'Get a webhook endpoint',
    description:
      'The endpoint without its secret: `url`, `events`, `description`, `enabled`, and when the service disabled it, why (`disabledReason`) and since when it has failed (`failingSince`).',
    success: { status: 200, description: 'The endpoint', data: webhookResponseSchema },
    errors: [notFoundCase('webhook')],
  },
  'PATCH /webhooks/{id}': {
    operationId: 'updateWebhook',
    tag: 'Webhooks',
    summary: 'Update a webhook endpoint',
    description:
      'Any of `url` (checked again), `events`, `description`, `enabled`. `enabled: true` re-enables an endpoint the service disabled, and clears `disabledReason` and `failingSince`.',
    body: patchWebhookSchema,
    bodyExample: { enabled: true },
    success: { status: 200, description: 'The updated endpoint', data: webhookResponseSchema },
    errors: [notFoundCase('webhook'), concurrentModificationCase],
  },
  'DELETE /webhooks/{id}': {
    operationId: 'deleteWebhook',
    tag: 'Webhooks',
    summary: 'Delete a webhook endpoint',
    description: 'Its pending deliveries end `failed` ("The endpoint was deleted").',
    success: { status: 200, description: 'Deleted', data: deletedSchema },
    errors: [notFoundCase('webhook')],
  },
  'POST /webhooks/{id}/rotate-secret': {
    operationId: 'rotateWebhookSecret',
    tag: 'Webhooks',
    summary: 'Rotate the signing secret',
    description:
      'Answers the new secret. For 24 hours deliveries are signed with both the old and the new secret (two signatures in `webhook-signature`); a second rotation within them drops the oldest.',
    success: { status: 200, description: 'The endpoint with its new secret', data: webhookWithSecretResponseSchema },
    errors: [notFoundCase('webhook'), concurrentModificationCase],
  },
  'POST /webhooks/{id}/test': {
    operationId: 'testWebhook',
    tag: 'Webhooks',
    summary: 'Send a test event',
    description:
      'Queues a `webhook.test` event (`data: { webhookId, url, message }`) to this endpoint only, whatever it subscribed to, also while it is disabled.',
    success: { status: 202, description: 'The queued delivery', data: webhookDeliveryResponseSchema },
    errors: [notFoundCase('webhook')],
  },
  'GET /webhooks/{id}/deliveries': {
    operationId: 'listWebhookDeliveries',
    tag: 'Webhooks',
    summary: 'List deliveries',
    description:
      'Newest first, each delivery with its `id` (the `webhook-id` header), event, `status` (`pending`, `delivered`, `failed`), `attempts`, last status code and error, and the times of its last and next attempt. Deliveries are kept 30 days.',
    query: listDeliveriesQuerySchema,
    success: { status: 200, description: 'A page of deliveries', data: webhookDeliveryPageSchema },
    errors: [notFoundCase('webhook')],
  },
  'POST /webhooks/{id}/deliveries/{deliveryId}/replay': {
    operationId: 'replayWebhookDelivery',
    tag: 'Webhooks',
    summary: 'Replay a delivery',
    description:
      'Delivers the same message again: the same body and `webhook-id` (the delivery\'s `id`, `msg_…`), with a fresh `webhook-timestamp` and signature, as Standard Webhooks specifies. It is one more attempt of that delivery, made at once and recorded in its log (`attempts`, `lastStatusCode`, `lastError`); if it fails, the delivery ends `failed` again without new retries. Answers the delivery, now `pending`.',
    success: { status: 202, description: 'The delivery, queued for its attempt', data: webhookDeliveryResponseSchema },
    errors: [
      notFoundCase('webhook or delivery'),
      { status: 409, code: 'DELIVERY_PENDING', when: 'The delivery is still being attempted or retried' },
      { status: 409, code: 'WEBHOOK_DISABLED', when: 'The endpoint is disabled: enable it first' },
      concurrentModificationCase,
    ],
  },
};
