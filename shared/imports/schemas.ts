import * as v from 'valibot';
import { pageQueryEntries } from '../http/pagination';

/** The request schemas of /contacts/imports, apart from the jobs' runtime code so the OpenAPI generator can read them without AWS configuration. */
const booleanQuery = (name: string) =>
  v.optional(v.pipe(v.picklist(['true', 'false'], `${name} must be true or false`), v.transform((value) => value === 'true')));

export const importOptionsQuerySchema = v.object({ updateExisting: booleanQuery('updateExisting'), subscribed: booleanQuery('subscribed') });

export const createImportSchema = v.pipe(
  v.object({
    contacts: v.optional(v.array(v.unknown(), 'contacts must be an array')),
    upload: v.optional(v.literal(true, 'upload must be true')),
    updateExisting: v.optional(v.boolean('updateExisting must be a boolean')),
    subscribed: v.optional(v.boolean('subscribed must be a boolean')),
  }),
  v.check((input) => (input.contacts === undefined) !== (input.upload === undefined), 'send either contacts or upload: true'),
);

export const listImportsQuerySchema = v.object(pageQueryEntries);
