import { createHttpHandler } from '../../shared/http/handler';
import { parseInput } from '../../shared/http/validation';
import { listDeliveries, sendTestEvent } from '../../shared/webhooks/deliveries';
import { createEndpoint, deleteEndpoint, getEndpoint, listEndpoints, patchEndpoint, rotateSecret } from '../../shared/webhooks/endpoints';
import { createWebhookSchema, listDeliveriesQuerySchema, patchWebhookSchema, webhookIdSchema } from '../../shared/webhooks/schemas';

export const handler = createHttpHandler({
  'POST /webhooks': async ({ projectId, body }) => ({
    statusCode: 201,
    data: await createEndpoint(projectId, parseInput(createWebhookSchema, body)),
  }),

  'GET /webhooks': async ({ projectId }) => {
    const endpoints = await listEndpoints(projectId);
    return { data: { items: endpoints, nextCursor: null, hasMore: false, total: endpoints.length } };
  },

  'GET /webhooks/{id}': async ({ projectId, pathParameters }) => ({
    data: await getEndpoint(projectId, parseInput(webhookIdSchema, pathParameters).id),
  }),

  'PATCH /webhooks/{id}': async ({ projectId, pathParameters, body }) => ({
    data: await patchEndpoint(projectId, parseInput(webhookIdSchema, pathParameters).id, parseInput(patchWebhookSchema, body)),
  }),

  'DELETE /webhooks/{id}': async ({ projectId, pathParameters }) => {
    const { id } = parseInput(webhookIdSchema, pathParameters);
    await deleteEndpoint(projectId, id);
    return { data: { id, deleted: true } };
  },

  'POST /webhooks/{id}/rotate-secret': async ({ projectId, pathParameters }) => ({
    data: await rotateSecret(projectId, parseInput(webhookIdSchema, pathParameters).id),
  }),

  'POST /webhooks/{id}/test': async ({ projectId, pathParameters }) => ({
    statusCode: 202,
    data: await sendTestEvent(projectId, parseInput(webhookIdSchema, pathParameters).id),
  }),

  'GET /webhooks/{id}/deliveries': async ({ projectId, pathParameters, query }) => ({
    data: await listDeliveries(projectId, parseInput(webhookIdSchema, pathParameters).id, parseInput(listDeliveriesQuerySchema, query, 'query')),
  }),
});
