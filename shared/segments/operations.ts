import { contactResponseSchema } from '../contacts/responses';
import { concurrentModificationCase, notFoundCase, type OperationDoc } from '../http/operation-doc';
import { deletedSchema, pageSchema } from '../http/responses';
import { segmentPreviewSchema, segmentResponseSchema } from './responses';
import { createSegmentSchema, listQuerySchema, patchSegmentSchema, previewSegmentSchema } from './schemas';

/** The OpenAPI entries of the segment routes, keyed by route key ('METHOD /path'). */
export const segmentOperations: Record<string, OperationDoc> = {
  'POST /segments': {
    operationId: 'createSegment',
    tag: 'Segments',
    summary: 'Create a segment',
    description:
      '`filters` in the segment filter language (see Segments). `trackMembership: true` keeps membership current as contacts and events change (`segment.entered` / `segment.exited` events, `membershipStatus` `BUILDING` then `READY`; it cannot be changed later); otherwise the segment is evaluated on demand at every read (`membershipStatus` `null`). A tracked segment in a project of up to 1,000 contacts is built within the request and answers its final `memberCount` and `READY`; in a larger one it answers `BUILDING` at once and builds in the background (poll `GET /segments/{id}`). Creation records no `segment.entered` for the initial members (contacts that match and have not changed since the segment was created); a contact created or changed into the segment after its creation records one `segment.entered`, also while it is `BUILDING`, so a `SEGMENT_ENTERED` workflow created with the segment starts for it. If the background build cannot be queued, the segment is removed again and the answer is a 500.',
    body: createSegmentSchema,
    bodyExample: { name: 'Pro customers', filters: { operator: 'AND', conditions: [{ field: 'data.plan', operator: 'equals', value: 'pro' }] }, trackMembership: true },
    success: { status: 201, description: 'The segment with its member count', data: segmentResponseSchema },
    errors: [{ status: 422, code: 'SEGMENT_TOO_LARGE', when: 'The audience is too large to evaluate on demand; use trackMembership' }],
  },
  'POST /segments/preview': {
    operationId: 'previewSegment',
    tag: 'Segments',
    summary: 'Preview a segment',
    description:
      'Evaluates `filters` now without saving anything: `memberCount` (the contacts that match), `subscribedCount` (those of them subscribed) and `sample` (up to 10 of them, newest first). The filters are validated as `POST /segments` validates them (a 422 exactly where creating the segment would refuse them), and evaluated by the same code as a segment, so a segment saved with these filters reports the same `memberCount` (unless contacts or events change meanwhile). The audience is read in full, as an on-demand segment is: a project over the on-demand limit gets 422 `SEGMENT_TOO_LARGE`.',
    body: previewSegmentSchema,
    bodyExample: { filters: { operator: 'AND', conditions: [{ field: 'data.plan', operator: 'equals', value: 'pro' }] } },
    success: { status: 200, description: 'The counts and a sample of the members', data: segmentPreviewSchema },
    errors: [{ status: 422, code: 'SEGMENT_TOO_LARGE', when: 'The audience is too large to evaluate on demand' }],
  },
  'GET /segments': {
    operationId: 'listSegments',
    tag: 'Segments',
    summary: 'List segments',
    description:
      'Newest first. `memberCount` is given for tracked segments only (`null` for on-demand ones, which only `GET /segments/{id}` evaluates).',
    query: listQuerySchema,
    success: { status: 200, description: 'A page of segments', data: pageSchema(segmentResponseSchema) },
  },
  'GET /segments/{id}': {
    operationId: 'getSegment',
    tag: 'Segments',
    summary: 'Get a segment',
    description:
      'The segment with its `memberCount`: a counter for a tracked segment; for an on-demand one an evaluation over every contact of the project, refused with 422 `SEGMENT_TOO_LARGE` past the deployment\'s limit (80,000 contacts by default).',
    success: { status: 200, description: 'The segment with its member count', data: segmentResponseSchema },
    errors: [notFoundCase('segment'), { status: 422, code: 'SEGMENT_TOO_LARGE', when: 'The audience is too large to evaluate on demand' }],
  },
  'PATCH /segments/{id}': {
    operationId: 'updateSegment',
    tag: 'Segments',
    summary: 'Update a segment',
    description:
      '`name` and/or `filters` (`trackMembership` is fixed at creation). New filters re-evaluate: a tracked segment is rebuilt (`BUILDING` until done, as on creation) and records `segment.entered` / `segment.exited` for the difference: every member the new filters exclude leaves, however recently it entered, and a contact changed during the rebuild ends as its latest state decides, entering at most once. If the rebuild cannot be queued the segment stays `BUILDING`: send the PATCH again.',
    body: patchSegmentSchema,
    bodyExample: { name: 'Pro and team customers' },
    success: { status: 200, description: 'The updated segment', data: segmentResponseSchema },
    errors: [notFoundCase('segment'), concurrentModificationCase, { status: 422, code: 'SEGMENT_TOO_LARGE', when: 'The audience is too large to evaluate on demand' }],
  },
  'DELETE /segments/{id}': {
    operationId: 'deleteSegment',
    tag: 'Segments',
    summary: 'Delete a segment',
    description:
      'Answers at once, whatever the segment\'s size: the segment is gone from that moment (`GET` answers 404, lists leave it out, no contact enters it). A tracked segment\'s membership is deleted in the background within seconds (minutes for millions of members), resuming where it stopped after any failure. Deleting it again answers 404.',
    success: { status: 200, description: 'Deleted (its membership is being removed in the background)', data: deletedSchema },
    errors: [notFoundCase('segment')],
  },
  'GET /segments/{id}/contacts': {
    operationId: 'listSegmentContacts',
    tag: 'Segments',
    summary: 'List segment members',
    description:
      'The members, newest contact first; `total` is the member count. A tracked segment\'s members are read from its membership (while `BUILDING`, those built so far); an on-demand segment is evaluated, refused with 422 `SEGMENT_TOO_LARGE` past the deployment\'s limit.',
    query: listQuerySchema,
    success: { status: 200, description: 'A page of member contacts', data: pageSchema(contactResponseSchema) },
    errors: [notFoundCase('segment'), { status: 422, code: 'SEGMENT_TOO_LARGE', when: 'The audience is too large to evaluate on demand' }],
  },
};
