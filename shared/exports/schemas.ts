import * as v from 'valibot';
import { pageQueryEntries } from '../http/pagination';
import { ULID_PATTERN } from '../http/ids';

/** The request schemas of /contacts/exports, apart from the jobs' runtime code so the OpenAPI generator can read them without AWS configuration. */
export const createExportSchema = v.object({
  subscribed: v.optional(v.boolean('subscribed must be a boolean')),
  segmentId: v.optional(v.pipe(v.string('segmentId must be a string'), v.regex(ULID_PATTERN, 'segmentId must be a segment id'))),
});
export type ExportFilter = v.InferOutput<typeof createExportSchema>;

export const listExportsQuerySchema = v.object(pageQueryEntries);
