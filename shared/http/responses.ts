import * as v from 'valibot';

/**
 * The response shapes every route shares, as valibot schemas: the OpenAPI document is generated
 * from them (shared/contract/) and the contract tests validate real responses against it.
 */
export const isoDateTimeSchema = v.pipe(v.string(), v.isoTimestamp(), v.examples(['2026-11-23T09:30:00.000Z']));

export const idSchema = v.pipe(v.string(), v.description('A ULID'), v.examples(['01KAQ5VZ3N4G8T2M6P0R9S7W1X']));

export const countSchema = v.pipe(v.number(), v.integer(), v.minValue(0));

/** `{ success: true, data }` around any success body. */
export const successEnvelope = <TData extends v.GenericSchema>(data: TData) => v.strictObject({ success: v.literal(true), data });

/** A list page: `{ items, nextCursor, hasMore, total }` (/docs "Requests and responses"). */
export const pageSchema = <TItem extends v.GenericSchema>(item: TItem) =>
  v.strictObject({
    items: v.array(item),
    nextCursor: v.pipe(v.nullable(v.string()), v.description('Pass as `cursor` for the next page; null on the last page')),
    hasMore: v.boolean(),
    total: v.pipe(countSchema, v.description('Items of the whole list (an O(1) counter read), not of this page')),
  });

/** DELETE answers. */
export const deletedSchema = v.strictObject({ id: v.string(), deleted: v.literal(true) });

export const fieldErrorSchema = v.strictObject({
  field: v.pipe(v.string(), v.examples(['email'])),
  message: v.pipe(v.string(), v.examples(['email must be a valid email address'])),
  code: v.pipe(v.string(), v.examples(['INVALID_EMAIL'])),
  line: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.description('Where in a multi-line field (a template body): its 1-based line'))),
});

/**
 * The error envelope of handlers and of API Gateway's own answers (infra/gateway-responses.ts).
 * `message` repeats `error.message` (and the field errors) at the top level, where Plunk's client
 * library reads it.
 * `timestamp` is ISO 8601 from handlers; API Gateway's answers carry its request time.
 */
export const errorEnvelopeSchema = v.strictObject({
  success: v.literal(false),
  message: v.pipe(v.string(), v.description('error.message followed by the field errors, for clients that read a top-level message (Plunk)')),
  error: v.strictObject({
    code: v.pipe(v.string(), v.examples(['VALIDATION_ERROR'])),
    message: v.pipe(v.string(), v.examples(['The request did not pass validation'])),
    statusCode: v.pipe(v.number(), v.integer(), v.minValue(400), v.maxValue(599)),
    requestId: v.string(),
    errors: v.optional(v.array(fieldErrorSchema)),
    suggestion: v.optional(v.string()),
  }),
  timestamp: v.string(),
});
