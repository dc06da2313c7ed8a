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
    description: 'Events are POSTed to the https URL, signed with Standard Webhooks headers (webhook-id, webhook-timestamp, webhook-signature) and retried on failure. The URL must resolve to a public address. The secret is shown only here and on rotation.',
    body: createWebhookSchema,
    bodyExample: { url: 'https://example.com/hooks/mailwright', events: ['email.delivered', 'email.bounced', 'contact.unsubscribed'], description: 'CRM sync' },
    success: { status: 201, description: 'The endpoint with its signing secret', data: webhookWithSecretResponseSchema },
    errors: [{ status: 409, code: 'WEBHOOK_LIMIT_REACHED', when: 'The project has its maximum number of endpoints' }, { status: 422, code: 'VALIDATION_ERROR', when: 'Fields fail validation, or the URL is not https or resolves to a private address (field url)' }],
  },
  'GET /webhooks': {
    operationId: 'listWebhooks',
    tag: 'Webhooks',
    summary: 'List webhook endpoints',
    success: { status: 200, description: 'All endpoints of the project (one page)', data: pageSchema(webhookResponseSchema) },
  },
  'GET /webhooks/{id}': {
    operationId: 'getWebhook',
    tag: 'Webhooks',
    summary: 'Get a webhook endpoint',
    success: { status: 200, description: 'The endpoint', data: webhookResponseSchema },
    errors: [notFoundCase('webhook')],
  },
  'PATCH /webhooks/{id}': {
    operationId: 'updateWebhook',
    tag: 'Webhooks',
    summary: 'Update a webhook endpoint',
    description: 'enabled: true re-enables an endpoint the service disabled after failing for 5 days.',
    body: patchWebhookSchema,
    bodyExample: { enabled: true },
    success: { status: 200, description: 'The updated endpoint', data: webhookResponseSchema },
    errors: [notFoundCase('webhook'), concurrentModificationCase],
  },
  'DELETE /webhooks/{id}': {
    operationId: 'deleteWebhook',
    tag: 'Webhooks',
    summary: 'Delete a webhook endpoint',
    success: { status: 200, description: 'Deleted', data: deletedSchema },
    errors: [notFoundCase('webhook')],
  },
  'POST /webhooks/{id}/rotate-secret': {
    operationId: 'rotateWebhookSecret',
    tag: 'Webhooks',
    summary: 'Rotate the signing secret',
    description: 'For 24 hours deliveries are signed with both the old and the new secret.',
    success: { status: 200, description: 'The endpoint with its new secret', data: webhookWithSecretResponseSchema },
    errors: [notFoundCase('webhook'), concurrentModificationCase],
  },
  'POST /webhooks/{id}/test': {
    operationId: 'testWebhook',
    tag: 'Webhooks',
    summary: 'Send a test event',
    description: 'Queues a webhook.test event to this endpoint only, whatever it subscribed to.',
    success: { status: 202, description: 'The queued delivery', data: webhookDeliveryResponseSchema },
    errors: [notFoundCase('webhook')],
  },
  'GET /webhooks/{id}/deliveries': {
    operationId: 'listWebhookDeliveries',
    tag: 'Webhooks',
    summary: 'List deliveries',
    description: 'Newest first, with each delivery\'s attempts and last outcome.',
    query: listDeliveriesQuerySchema,
    success: { status: 200, description: 'A page of deliveries', data: webhookDeliveryPageSchema },
    errors: [notFoundCase('webhook')],
  },
};
