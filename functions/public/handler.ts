import { createHttpHandler } from '../../shared/http/handler';
import { parseInput } from '../../shared/http/validation';
import { withIdempotency } from '../../shared/idempotency/idempotency';
import { sendRequestSchema } from '../../shared/sending/schemas';
import { sendTransactional } from '../../shared/sending/transactional';

export const handler = createHttpHandler({
  'POST /v1/send': async ({ projectId, body, headers }) => {
    const request = parseInput(sendRequestSchema, body);
    return withIdempotency(projectId, headers['idempotency-key'], body, async () => ({
      data: await sendTransactional(projectId, request),
    }));
  },
});
