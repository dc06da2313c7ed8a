import { notFoundCase, type OperationDoc } from '../http/operation-doc';
import { pageSchema } from '../http/responses';
import { exportResponseSchema } from './responses';
import { createExportSchema, listExportsQuerySchema } from './schemas';

/** The OpenAPI entries of the contact export routes, keyed by route key ('METHOD /path'). */
export const exportOperations: Record<string, OperationDoc> = {
  'POST /contacts/exports': {
    operationId: 'exportContacts',
    tag: 'Imports and exports',
    summary: 'Export contacts as CSV (queued)',
    description:
      'All contacts (newest first), only subscribed (or unsubscribed) ones, or a segment\'s members (a tracked segment\'s membership; an on-demand segment is evaluated within the limit of `GET /segments/{id}`: past it the job ends `FAILED` with `SEGMENT_TOO_LARGE`). Columns: `id,email,subscribed,createdAt,updatedAt` and one `data.<key>` column per data key found (sorted), strings as they are and other values as JSON. An export that runs out of time fails with `EXPORT_TOO_LARGE`. Files are kept 2 days.',
    body: createExportSchema,
    bodyExample: { subscribed: true },
    success: { status: 202, description: 'The job, queued', data: exportResponseSchema },
    errors: [notFoundCase('segment')],
  },
  'GET /contacts/exports': {
    operationId: 'listContactExports',
    tag: 'Imports and exports',
    summary: 'List exports',
    description:
      'The project\'s export jobs, newest first; `GET /contacts/exports/{id}` gives a completed one\'s download link.',
    query: listExportsQuerySchema,
    success: { status: 200, description: 'A page of export jobs, newest first', data: pageSchema(exportResponseSchema) },
  },
  'GET /contacts/exports/{id}': {
    operationId: 'getContactExport',
    tag: 'Imports and exports',
    summary: 'Get an export',
    description:
      'The job: status and `rows`; when `COMPLETED`, `downloadUrl` is a presigned GET of the CSV valid for one hour (a new one at every call).',
    success: { status: 200, description: 'The job', data: exportResponseSchema },
    errors: [notFoundCase('export')],
  },
};
