import * as v from 'valibot';
import { idSchema, isoDateTimeSchema } from '../http/responses';

/** A contact as the API returns it (shared/contacts/contacts.ts `Contact`). */
export const contactResponseEntries = {
  id: idSchema,
  email: v.pipe(v.string(), v.email(), v.examples(['ada@example.com'])),
  subscribed: v.boolean(),
  data: v.pipe(v.record(v.string(), v.unknown()), v.description('Free-form data; keys are letters, digits, _ and -'), v.examples([{ plan: 'pro', firstName: 'Ada' }])),
  createdAt: isoDateTimeSchema,
  updatedAt: isoDateTimeSchema,
};

export const contactResponseSchema = v.pipe(v.strictObject(contactResponseEntries), v.title('Contact'));

/** POST /contacts: the contact and whether the upsert created it. */
export const upsertedContactResponseSchema = v.pipe(
  v.strictObject({ ...contactResponseEntries, _meta: v.strictObject({ isNew: v.boolean(), isUpdate: v.boolean() }) }),
  v.title('UpsertedContact'),
);
