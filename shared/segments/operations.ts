import { contactResponseSchema } from '../contacts/responses';
import { concurrentModificationCase, notFoundCase, type OperationDoc } from '../http/operation-doc';
import { deletedSchema, pageSchema } from '../http/responses';
import { segmentResponseSchema } from './responses';
import { createSegmentSchema, listQuerySchema, patchSegmentSchema } from './schemas';

/** The OpenAPI entries of the segment routes, keyed by route key ('METHOD /path'). */
export const segmentOperations: Record<string, OperationDoc> = {
  'POST /segments': {
    operationId: 'createSegment',
    tag: 'Segments',
    summary: 'Create a segment',
    description: 'trackMembership keeps membership current (segment.entered / segment.exited events); otherwise the segment is evaluated on demand.',
    body: createSegmentSchema,
    bodyExample: { name: 'Pro customers', filters: { operator: 'AND', conditions: [{ field: 'data.plan', operator: 'equals', value: 'pro' }] }, trackMembership: true },
    success: { status: 201, description: 'The segment with its member count', data: segmentResponseSchema },
    errors: [{ status: 422, code: 'SEGMENT_TOO_LARGE', when: 'The audience is too large to evaluate on demand; use trackMembership' }],
  },
  'GET /segments': {
    operationId: 'listSegments',
    tag: 'Segments',
    summary: 'List segments',
    query: listQuerySchema,
    success: { status: 200, description: 'A page of segments', data: pageSchema(segmentResponseSchema) },
  },
  'GET /segments/{id}': {
    operationId: 'getSegment',
    tag: 'Segments',
    summary: 'Get a segment',
    success: { status: 200, description: 'The segment with its member count', data: segmentResponseSchema },
    errors: [notFoundCase('segment'), { status: 422, code: 'SEGMENT_TOO_LARGE', when: 'The audience is too large to evaluate on demand' }],
  },
  'PATCH /segments/{id}': {
    operationId: 'updateSegment',
    tag: 'Segments',
    summary: 'Update a segment',
    body: patchSegmentSchema,
    bodyExample: { name: 'Pro and team customers' },
    success: { status: 200, description: 'The updated segment', data: segmentResponseSchema },
    errors: [notFoundCase('segment'), concurrentModificationCase, { status: 422, code: 'SEGMENT_TOO_LARGE', when: 'The audience is too large to evaluate on demand' }],
  },
  'DELETE /segments/{id}': {
    operationId: 'deleteSegment',
    tag: 'Segments',
    summary: 'Delete a segment',
    success: { status: 200, description: 'Deleted', data: deletedSchema },
    errors: [notFoundCase('segment')],
  },
  'GET /segments/{id}/contacts': {
    operationId: 'listSegmentContacts',
    tag: 'Segments',
    summary: 'List segment members',
    query: listQuerySchema,
    success: { status: 200, description: 'A page of member contacts', data: pageSchema(contactResponseSchema) },
    errors: [notFoundCase('segment'), { status: 422, code: 'SEGMENT_TOO_LARGE', when: 'The audience is too large to evaluate on demand' }],
  },
};
