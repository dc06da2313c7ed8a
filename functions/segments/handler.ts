import * as v from 'valibot';
import { createHttpHandler } from '../../shared/http/handler';
import { parseInput } from '../../shared/http/validation';
import { createSegmentSchema, listQuerySchema, patchSegmentSchema } from '../../shared/segments/schemas';
import { createSegment, deleteSegment, getSegment, listSegmentContacts, listSegments, patchSegment } from '../../shared/segments/segments';

const segmentId = v.object({ id: v.string() });

export const handler = createHttpHandler({
  'POST /segments': async ({ projectId, body }) => ({
    statusCode: 201,
    data: await createSegment(projectId, parseInput(createSegmentSchema, body)),
  }),

  'GET /segments': async ({ projectId, query }) => ({
    data: await listSegments(projectId, parseInput(listQuerySchema, query, 'query')),
  }),

  'GET /segments/{id}': async ({ projectId, pathParameters }) => ({
    data: await getSegment(projectId, parseInput(segmentId, pathParameters).id),
  }),

  'PATCH /segments/{id}': async ({ projectId, pathParameters, body }) => {
    const changes = parseInput(patchSegmentSchema, body);
    return { data: await patchSegment(projectId, parseInput(segmentId, pathParameters).id, changes) };
  },

  'DELETE /segments/{id}': async ({ projectId, pathParameters }) => {
    const { id } = parseInput(segmentId, pathParameters);
    await deleteSegment(projectId, id);
    return { data: { id, deleted: true } };
  },

  'GET /segments/{id}/contacts': async ({ projectId, pathParameters, query }) => ({
    data: await listSegmentContacts(projectId, parseInput(segmentId, pathParameters).id, parseInput(listQuerySchema, query, 'query')),
  }),
});
