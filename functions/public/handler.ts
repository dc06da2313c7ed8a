import { trackRequestSchema } from '../../shared/events/schemas';
import { trackEvent } from '../../shared/events/track';
import { createHttpHandler } from '../../shared/http/handler';
import { parseInput } from '../../shared/http/validation';
import { withIdempotency } from '../../shared/idempotency/idempotency';
import { sendRequestSchema } from '../../shared/sending/schemas';
import { sendTransactional } from '../../shared/sending/transactional';
import { verifyRequestSchema } from '../../shared/verification/schemas';
import { verifyEmail } from '../../shared/verification/verify';

export const handler = createHttpHandler({
  'POST /v1/send': async ({ projectId, body, headers }) => {
    const request = parseInput(sendRequestSchema, body);
    return withIdempotency(projectId, headers['idempotency-key'], body, async (run) => ({
      data: await sendTransactional(projectId, request, run),
    }));
  },

  'POST /v1/verify': async ({ body }) => ({
    data: await verifyEmail(parseInput(verifyRequestSchema, body).email),
  }),

  'POST /v1/track': async ({ projectId, body }) => ({
    data: await trackEvent(projectId, parseInput(trackRequestSchema, body)),
  }),
});
