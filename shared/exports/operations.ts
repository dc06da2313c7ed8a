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
    description: 'All contacts, only subscribed (or unsubscribed) ones, or a segment\'s members. Columns: id,email,subscribed,createdAt,updatedAt and data.<key> per data key (non-string values as JSON).',
    body: createExportSchema,
    bodyExample: { subscribed: true },
    success: { status: 202, description: 'The job, queued', data: exportResponseSchema },
    errors: [notFoundCase('segment')],
  },
  'GET /contacts/exports': {
    operationId: 'listContactExports',
    tag: 'Imports and exports',
    summary: 'List exports',
    query: listExportsQuerySchema,
    success: { status: 200, description: 'A page of export jobs, newest first', data: pageSchema(exportResponseSchema) },
  },
  'GET /contacts/exports/{id}': {
    operationId: 'getContactExport',
    tag: 'Imports and exports',
    summary: 'Get an export',
    description: 'When COMPLETED, downloadUrl is a presigned GET of the CSV valid for one hour (a new one at every call).',
    success: { status: 200, description: 'The job', data: exportResponseSchema },
    errors: [notFoundCase('export')],
  },
};
