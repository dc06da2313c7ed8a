import * as v from 'valibot';
import { countSchema, idSchema, isoDateTimeSchema } from '../http/responses';

/** An import job as the API shows it (/docs "Imports and exports"). */
const importFields = {
  id: idSchema,
  status: v.picklist(['QUEUED', 'PROCESSING', 'COMPLETED', 'FAILED']),
  rows: v.pipe(v.nullable(countSchema), v.description('Data rows in the file; null until it has been read to the end')),
  processed: v.pipe(countSchema, v.description('Rows read so far (each counted in exactly one of created, updated, skipped, duplicates, failed)')),
  created: countSchema,
  updated: countSchema,
  skipped: v.pipe(countSchema, v.description('Contacts that existed, with updateExisting false')),
  duplicates: v.pipe(countSchema, v.description('Rows whose email an earlier row had: applied (the last row wins), counted once')),
  failed: countSchema,
  errors: v.pipe(
    v.array(v.strictObject({ row: v.pipe(countSchema, v.description('1 = the first row after the header')), email: v.optional(v.string()), code: v.string(), message: v.string() })),
    v.description('The first 100 row errors'),
  ),
  failure: v.pipe(v.nullable(v.strictObject({ code: v.string(), message: v.string() })), v.description('Why a FAILED job failed')),
  options: v.strictObject({ updateExisting: v.boolean(), subscribed: v.boolean() }),
  createdAt: isoDateTimeSchema,
  startedAt: v.nullable(isoDateTimeSchema),
  finishedAt: v.nullable(isoDateTimeSchema),
};

export const importResponseSchema = v.pipe(v.strictObject(importFields), v.title('ContactImport'));

export const createdImportResponseSchema = v.pipe(
  v.strictObject({
    ...importFields,
    upload: v.pipe(
      v.optional(v.strictObject({ url: v.string(), method: v.literal('PUT'), expiresAt: isoDateTimeSchema, maxBytes: countSchema })),
      v.description('Only with upload: true — PUT the file here, then POST /contacts/imports/{id}/start'),
    ),
  }),
  v.title('CreatedContactImport'),
);
