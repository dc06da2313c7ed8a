import { createDomain, deleteDomain, getDomain, listDomains } from '../../shared/domains/domains';
import { createDomainSchema } from '../../shared/domains/schemas';
import { createHttpHandler } from '../../shared/http/handler';
import { pathId } from '../../shared/http/ids';
import { parseInput } from '../../shared/http/validation';

export const handler = createHttpHandler({
  'POST /domains': async ({ projectId, body }) => ({
    statusCode: 201,
    data: await createDomain(projectId, parseInput(createDomainSchema, body).domain),
  }),

  'GET /domains': async ({ projectId }) => {
    const domains = await listDomains(projectId);
    return { data: { items: domains, nextCursor: null, hasMore: false, total: domains.length } };
  },

  'GET /domains/{id}': async ({ projectId, pathParameters }) => ({
    data: await getDomain(projectId, pathId(pathParameters, 'Domain')),
  }),

  'DELETE /domains/{id}': async ({ projectId, pathParameters }) => {
    const id = pathId(pathParameters, 'Domain');
    await deleteDomain(projectId, id);
    return { data: { id, deleted: true } };
  },
});
