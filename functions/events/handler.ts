import { listEventNames, listEvents } from '../../shared/events/list-events';
import { listEventNamesQuerySchema, listEventsQuerySchema } from '../../shared/events/schemas';
import { createHttpHandler } from '../../shared/http/handler';
import { parseInput } from '../../shared/http/validation';

export const handler = createHttpHandler({
  'GET /events': async ({ projectId, query }) => ({
    data: await listEvents(projectId, parseInput(listEventsQuerySchema, query, 'query')),
  }),

  'GET /events/names': async ({ projectId, query }) => ({
    data: await listEventNames(projectId, parseInput(listEventNamesQuerySchema, query, 'query')),
  }),
});
