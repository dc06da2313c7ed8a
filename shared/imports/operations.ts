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
    description: [
      'Three ways, each answering 202 with a job to poll (`GET /contacts/imports/{id}` until `COMPLETED` or `FAILED`):',
      '- a JSON body `{ contacts: [{ email, subscribed?, data? }] }`;',
      '- a CSV body sent with `Content-Type: text/csv`, options as query parameters;',
      '- `{ upload: true }` for files larger than a request (6 MB): the answer\'s `upload: { url, method: "PUT", expiresAt, maxBytes }` takes a PUT of the file (up to 100 MB, within 15 minutes), then `POST /contacts/imports/{id}/start`. An upload may be CSV, JSON Lines (one contact object per line, any size) or a JSON document (`[…]` or `{ "contacts": […] }`, up to 6 MB).',
      '',
      'Options: `updateExisting` (default true; false counts contacts that existed as `skipped`) and `subscribed` (default true: the flag of created contacts whose row gives none).',
      '',
      '**CSV**: a header row; the email column is required (`email` or `Email Address`, any case, spaces or dashes), `subscribed` optional (`true/false/1/0/yes/no`, any case; empty = not given); every other column is a data key, a `data.` prefix dropped (`data.plan` → `plan`); a header that is not a valid key becomes a camelCase key of its letters and digits (`First Name` → `firstName`); `id`, `createdAt` and `updatedAt` are ignored, so an export imports back as it is. A UTF-8 BOM, CRLF or LF line ends, quoted fields with commas, `""` quotes and line breaks are read; values stay strings (send JSON for numbers, booleans or nested values); an empty cell leaves that key as it is.',
      '',
      '**Rows** go through the rules of `POST /contacts`: emails trimmed and lower-cased, data merged, `subscribed` applied on create (the job\'s default when the row has none) and on update only when the row gives it. A bad row (a bad email, data key or `subscribed`, a value over the contact limits, more fields than the header) is skipped and counted in `failed`; `errors` lists the first 100 (`row` 1 is the first row after the header). Within one file the last row of an email wins and the email counts once (in `created` or `updated` by its first row, later rows in `duplicates`), so `processed = created + updated + skipped + duplicates + failed`. Imported contacts reach segments, workflows and webhooks like any other. Files are kept 3 days.',
    ].join('\n'),
    body: createImportSchema,
    bodyExample: { contacts: [contactExample], updateExisting: true },
    query: importOptionsQuerySchema,
    success: { status: 202, description: 'The job, queued (or FAILED at once when the body cannot be imported)', data: createdImportResponseSchema },
  },
  'GET /contacts/imports': {
    operationId: 'listContactImports',
    tag: 'Imports and exports',
    summary: 'List imports',
    description: 'The project\'s import jobs, newest first, each with its progress.',
    query: listImportsQuerySchema,
    success: { status: 200, description: 'A page of import jobs, newest first', data: pageSchema(importResponseSchema) },
  },
  'GET /contacts/imports/{id}': {
    operationId: 'getContactImport',
    tag: 'Imports and exports',
    summary: 'Get an import',
    description:
      'The job and its progress: `status`, `rows`, `processed`, `created`, `updated`, `skipped`, `duplicates`, `failed`, the first 100 row `errors`, `options` and its times. A job whose file cannot be imported ends `FAILED` with `failure: { code, message }`: `NOT_CSV_OR_JSON`, `NO_EMAIL_COLUMN`, `EMPTY_FILE` (empty or only a header), `FILE_TOO_LARGE` (over 100 MB), `INVALID_CSV` (e.g. an unclosed quote) or `INVALID_JSON`; rows imported before a mid-file CSV error stay imported.',
    success: { status: 200, description: 'The job and its progress', data: importResponseSchema },
    errors: [notFoundCase('import')],
  },
  'POST /contacts/imports/{id}/start': {
    operationId: 'startContactImport',
    tag: 'Imports and exports',
    summary: 'Start an uploaded import',
    description:
      'After PUTting the file to the upload URL: checks the uploaded file (there, at most 100 MB; CSV, JSON Lines or a JSON document up to 6 MB) and queues the job. Calling it again is harmless.',
    success: { status: 202, description: 'The job, queued (or FAILED when the file cannot be imported)', data: importResponseSchema },
    errors: [notFoundCase('import'), { status: 409, code: 'UPLOAD_MISSING', when: 'No file was uploaded yet' }, { status: 409, code: 'NOT_AN_UPLOAD', when: 'The import was created with its file' }],
  },
};
