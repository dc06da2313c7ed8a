import { getAnalytics } from '../../shared/analytics/analytics';
import { analyticsQuerySchema } from '../../shared/analytics/schemas';
import { createHttpHandler } from '../../shared/http/handler';
import { parseInput } from '../../shared/http/validation';

export const handler = createHttpHandler({
  'GET /analytics': async ({ projectId, query }) => ({
    data: await getAnalytics(projectId, parseInput(analyticsQuerySchema, query, 'query')),
  }),
});
