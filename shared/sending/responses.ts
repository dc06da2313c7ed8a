import * as v from 'valibot';
import { idSchema, isoDateTimeSchema } from '../http/responses';

/** POST /v1/send: one email per (deduplicated) recipient, queued. */
export const sendResponseSchema = v.pipe(
  v.strictObject({
    emails: v.array(v.strictObject({ contact: v.strictObject({ id: idSchema, email: v.pipe(v.string(), v.email()) }), email: v.pipe(idSchema, v.description('The email id')) })),
    timestamp: isoDateTimeSchema,
  }),
  v.title('SendResult'),
);
