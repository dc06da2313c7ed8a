import { createHttpHandler } from '../../shared/http/handler';
import { pathId } from '../../shared/http/ids';
import { parseInput } from '../../shared/http/validation';
import { createSegmentSchema, listQuerySchema, patchSegmentSchema, previewSegmentSchema } from '../../shared/segments/schemas';
import { createSegment, deleteSegment, getSegment, listSegmentContacts, listSegments, patchSegment, previewSegment } from '../../shared/segments/segments';

export const handler = createHttpHandler({
  'POST /segments': async ({ projectId, body }) => ({
    statusCode: 201,
    data: await createSegment(projectId, parseInput(createSegmentSchema, body)),
  }),

  'GET /segments': async ({ projectId, query }) => ({
    data: await listSegments(projectId, parseInput(listQuerySchema, query, 'query')),
  }),

  'POST /segments/preview': async ({ projectId, body }) => ({
    data: await previewSegment(projectId, parseInput(previewSegmentSchema, body).filters),
  }),

  'GET /segments/{id}': async ({ projectId, pathParameters }) => ({
    data: await getSegment(projectId, pathId(pathParameters, 'Segment')),
  }),

  'PATCH /segments/{id}': async ({ projectId, pathParameters, body }) => {
    const id = pathId(pathParameters, 'Segment');
    const changes = parseInput(patchSegmentSchema, body);
    return { data: await patchSegment(projectId, id, changes) };
  },

  'DELETE /segments/{id}': async ({ projectId, pathParameters }) => {
    const id = pathId(pathParameters, 'Segment');
    await deleteSegment(projectId, id);
    return { data: { id, deleted: true } };
  },

  'GET /segments/{id}/contacts': async ({ projectId, pathParameters, query }) => ({
    data: await listSegmentContacts(projectId, pathId(pathParameters, 'Segment'), parseInput(listQuerySchema, query, 'query')),
  }),
});
