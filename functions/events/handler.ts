import { listEventNames, listEvents } from '../../shared/events/list-events';
import { listEventsQuerySchema } from '../../shared/events/schemas';
import { createHttpHandler } from '../../shared/http/handler';
import { parseInput } from '../../shared/http/validation';

export const handler = createHttpHandler({
  'GET /events': async ({ projectId, query }) => ({
    data: await listEvents(projectId, parseInput(listEventsQuerySchema, query, 'query')),
  }),

  'GET /events/names': async ({ projectId }) => {
    const names = await listEventNames(projectId);
    return { data: { items: names, nextCursor: null, hasMore: false, total: names.length } };
  },
});
