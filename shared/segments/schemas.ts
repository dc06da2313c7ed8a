import * as v from 'valibot';
import { filtersSchema } from './filter';

const nameSchema = v.pipe(v.string('name must be a string'), v.trim(), v.minLength(1, 'name is required'), v.maxLength(200, 'name is at most 200 characters'));

export const createSegmentSchema = v.object({
  name: nameSchema,
  filters: filtersSchema,
  trackMembership: v.optional(v.boolean('trackMembership must be a boolean'), false),
});

/** POST /segments/preview: filters only, validated as a segment's are. */
export const previewSegmentSchema = v.object({
  filters: filtersSchema,
});

/** PATCH: name and/or filters; trackMembership is fixed at creation (create a new segment to switch). */
export const patchSegmentSchema = v.pipe(
  v.object({
    name: v.optional(nameSchema),
    filters: v.optional(filtersSchema),
  }),
  v.check((changes) => changes.name !== undefined || changes.filters !== undefined, 'give name and/or filters'),
);

const limit = v.optional(
  v.pipe(
    v.string(),
    v.regex(/^\d{1,3}$/, 'limit must be an integer from 1 to 100'),
    v.transform(Number),
    v.minValue(1, 'limit must be an integer from 1 to 100'),
    v.maxValue(100, 'limit must be an integer from 1 to 100'),
  ),
  '20',
);

export const listQuerySchema = v.object({
  limit,
  cursor: v.optional(v.pipe(v.string(), v.nonEmpty('cursor must not be empty'))),
});

export type CreateSegmentInput = v.InferOutput<typeof createSegmentSchema>;
export type PreviewSegmentInput = v.InferOutput<typeof previewSegmentSchema>;
export type SegmentChanges = v.InferOutput<typeof patchSegmentSchema>;
export type ListQuery = v.InferOutput<typeof listQuerySchema>;
