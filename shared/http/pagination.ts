import * as v from 'valibot';

/** The query parameters every list route takes: `limit` (1–100, default 20) and an opaque `cursor`. */
const LIMIT_MESSAGE = 'limit must be an integer from 1 to 100';

export const pageQueryEntries = {
  limit: v.optional(v.pipe(v.string(), v.regex(/^\d{1,3}$/, LIMIT_MESSAGE), v.transform(Number), v.minValue(1, LIMIT_MESSAGE), v.maxValue(100, LIMIT_MESSAGE)), '20'),
  cursor: v.optional(v.pipe(v.string(), v.nonEmpty('cursor must not be empty'))),
};
