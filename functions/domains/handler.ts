import * as v from 'valibot';
import { createDomain, deleteDomain, getDomain, listDomains } from '../../shared/domains/domains';
import { createDomainSchema } from '../../shared/domains/schemas';
import { createHttpHandler } from '../../shared/http/handler';
import { parseInput } from '../../shared/http/validation';

const domainId = v.object({ id: v.string() });

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
    data: await getDomain(projectId, parseInput(domainId, pathParameters).id),
  }),

  'DELETE /domains/{id}': async ({ projectId, pathParameters }) => {
    const { id } = parseInput(domainId, pathParameters);
    await deleteDomain(projectId, id);
    return { data: { id, deleted: true } };
  },
});
