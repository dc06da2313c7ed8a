import { createKey, listKeys, revokeKey, rotateKey } from '../../shared/accounts/key-administration';
import { createKeySchema } from '../../shared/accounts/schemas';
import { pathId } from '../../shared/http/ids';
import { createHttpHandler } from '../../shared/http/handler';
import { parseInput } from '../../shared/http/validation';

export const handler = createHttpHandler({
  'GET /keys': async ({ projectId }) => ({ data: await listKeys(projectId) }),

  'POST /keys': async ({ projectId, caller, body }) => ({ statusCode: 201, data: await createKey(projectId, caller, parseInput(createKeySchema, body)) }),

  'POST /keys/{id}/rotate': async ({ projectId, caller, pathParameters }) => ({ data: await rotateKey(projectId, caller, pathId(pathParameters, 'API key')) }),

  'DELETE /keys/{id}': async ({ projectId, caller, pathParameters }) => ({ data: await revokeKey(projectId, caller, pathId(pathParameters, 'API key')) }),
});
