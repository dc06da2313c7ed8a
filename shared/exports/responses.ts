import * as v from 'valibot';
import { countSchema, idSchema, isoDateTimeSchema } from '../http/responses';

/** An export job as the API shows it (/docs "Imports and exports"). */
export const exportResponseSchema = v.pipe(
  v.strictObject({
    id: idSchema,
    status: v.picklist(['QUEUED', 'PROCESSING', 'COMPLETED', 'FAILED']),
    filter: v.strictObject({ subscribed: v.optional(v.boolean()), segmentId: v.optional(v.string()) }),
    rows: v.pipe(countSchema, v.description('Contacts written')),
    bytes: v.nullable(countSchema),
    failure: v.nullable(v.strictObject({ code: v.string(), message: v.string() })),
    createdAt: isoDateTimeSchema,
    startedAt: v.nullable(isoDateTimeSchema),
    finishedAt: v.nullable(isoDateTimeSchema),
    downloadUrl: v.pipe(v.optional(v.string()), v.description('COMPLETED only: the CSV, valid for one hour (each GET signs a new one)')),
    downloadExpiresAt: v.optional(isoDateTimeSchema),
  }),
  v.title('ContactExport'),
);
