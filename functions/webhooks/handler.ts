import { createHttpHandler } from '../../shared/http/handler';
import { pathId } from '../../shared/http/ids';
import { parseInput } from '../../shared/http/validation';
import { listDeliveries, replayDelivery, sendTestEvent } from '../../shared/webhooks/deliveries';
import { createEndpoint, deleteEndpoint, getEndpoint, listEndpoints, patchEndpoint, rotateSecret } from '../../shared/webhooks/endpoints';
import { createWebhookSchema, listDeliveriesQuerySchema, patchWebhookSchema } from '../../shared/webhooks/schemas';

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
    data: await getEndpoint(projectId, pathId(pathParameters, 'Webhook')),
  }),

  'PATCH /webhooks/{id}': async ({ projectId, pathParameters, body }) => {
    const id = pathId(pathParameters, 'Webhook');
    return { data: await patchEndpoint(projectId, id, parseInput(patchWebhookSchema, body)) };
  },

  'DELETE /webhooks/{id}': async ({ projectId, pathParameters }) => {
    const id = pathId(pathParameters, 'Webhook');
    await deleteEndpoint(projectId, id);
    return { data: { id, deleted: true } };
  },

  'POST /webhooks/{id}/rotate-secret': async ({ projectId, pathParameters }) => ({
    data: await rotateSecret(projectId, pathId(pathParameters, 'Webhook')),
  }),

  'POST /webhooks/{id}/test': async ({ projectId, pathParameters }) => ({
    statusCode: 202,
    data: await sendTestEvent(projectId, pathId(pathParameters, 'Webhook')),
  }),

  'GET /webhooks/{id}/deliveries': async ({ projectId, pathParameters, query }) => ({
    data: await listDeliveries(projectId, pathId(pathParameters, 'Webhook'), parseInput(listDeliveriesQuerySchema, query, 'query')),
  }),

  'POST /webhooks/{id}/deliveries/{deliveryId}/replay': async ({ projectId, pathParameters }) => ({
    statusCode: 202,
    data: await replayDelivery(projectId, pathId(pathParameters, 'Webhook'), pathParameters.deliveryId ?? ''),
  }),
});
