import * as v from 'valibot';
import { createSqsHandler } from '../../shared/queue/handler';
import { attemptDelivery } from '../../shared/webhooks/deliveries';

const messageSchema = v.object({ projectId: v.string(), endpointId: v.string(), deliveryId: v.string() });

/** The webhook delivery queue's consumer: one signed POST attempt per message (/docs "Webhooks"). */
export const handler = createSqsHandler({
  name: 'webhook-delivery',
  parse: (body) => v.parse(messageSchema, body),
  process: (message) => attemptDelivery(message),
});
