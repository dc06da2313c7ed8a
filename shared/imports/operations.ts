import { contactExample } from '../contacts/operations';
import { notFoundCase, type OperationDoc } from '../http/operation-doc';
import { pageSchema } from '../http/responses';
import { createdImportResponseSchema, importResponseSchema } from './responses';
import { createImportSchema, importOptionsQuerySchema, listImportsQuerySchema } from './schemas';

/** The OpenAPI entries of the contact import routes, keyed by route key ('METHOD /path'). */
export const importOperations: Record<string, OperationDoc> = {
  'POST /contacts/imports': {
    operationId: 'importContacts',
    tag: 'Imports and exports',
    summary: 'Import contacts (queued)',
    description:
      'Either a JSON body { contacts: [{ email, subscribed?, data? }] }, or a CSV body sent with Content-Type: text/csv (header row; email required, subscribed optional as true/false/1/0/yes/no, every other column a data key, a data. prefix dropped; options as query parameters), or { upload: true } for a presigned S3 PUT URL (files up to 100 MB, 15 minutes), then POST /contacts/imports/{id}/start. Rows go through the rules of POST /contacts; poll GET /contacts/imports/{id}.',
    body: createImportSchema,
    bodyExample: { contacts: [contactExample], updateExisting: true },
    query: importOptionsQuerySchema,
    success: { status: 202, description: 'The job, queued (or FAILED at once when the body cannot be imported)', data: createdImportResponseSchema },
  },
  'GET /contacts/imports': {
    operationId: 'listContactImports',
    tag: 'Imports and exports',
    summary: 'List imports',
    query: listImportsQuerySchema,
    success: { status: 200, description: 'A page of import jobs, newest first', data: pageSchema(importResponseSchema) },
  },
  'GET /contacts/imports/{id}': {
    operationId: 'getContactImport',
    tag: 'Imports and exports',
    summary: 'Get an import',
    success: { status: 200, description: 'The job and its progress', data: importResponseSchema },
    errors: [notFoundCase('import')],
  },
  'POST /contacts/imports/{id}/start': {
    operationId: 'startContactImport',
    tag: 'Imports and exports',
    summary: 'Start an uploaded import',
    description: 'Checks the uploaded file (there, at most 100 MB, CSV, JSON Lines or a JSON document up to 6 MB) and queues the job. Calling it again is harmless.',
    success: { status: 202, description: 'The job, queued (or FAILED when the file cannot be imported)', data: importResponseSchema },
    errors: [notFoundCase('import'), { status: 409, code: 'UPLOAD_MISSING', when: 'No file was uploaded yet' }, { status: 409, code: 'NOT_AN_UPLOAD', when: 'The import was created with its file' }],
  },
};
