import * as v from 'valibot';
import { pageQueryEntries } from '../http/pagination';

/** The request schemas of /contacts/exports, apart from the jobs' runtime code so the OpenAPI generator can read them without AWS configuration. */
const ULID_PATTERN = /^[0-9A-HJKMNP-TV-Z]{26}$/;

export const createExportSchema = v.object({
  subscribed: v.optional(v.boolean('subscribed must be a boolean')),
  segmentId: v.optional(v.pipe(v.string('segmentId must be a string'), v.regex(ULID_PATTERN, 'segmentId must be a segment id'))),
});
export type ExportFilter = v.InferOutput<typeof createExportSchema>;

export const listExportsQuerySchema = v.object(pageQueryEntries);
