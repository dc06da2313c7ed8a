import { concurrentModificationCase, notFoundCase, type OperationDoc } from '../http/operation-doc';
import { deletedSchema, pageSchema } from '../http/responses';
import { contactResponseSchema, upsertedContactResponseSchema } from './responses';
import { listContactsQuerySchema, patchContactSchema, upsertContactSchema } from './schemas';

/** A contact as the examples of the contact and import routes write it. */
export const contactExample = { email: 'ada@example.com', subscribed: true, data: { firstName: 'Ada', plan: 'pro' } };

/** The OpenAPI entries of the contact routes, keyed by route key ('METHOD /path'). */
export const contactOperations: Record<string, OperationDoc> = {
  'POST /contacts': {
    operationId: 'upsertContact',
    tag: 'Contacts',
    summary: 'Create or update a contact',
    description:
      'Upsert by email: creates the contact (201, `_meta.isNew`) or updates the one with this email (200, `_meta.isUpdate`). The email is trimmed and lower-cased. `subscribed` is true by default on create and kept on update unless given. Top-level `data` keys merge into the stored data: a key given replaces that key, a `null` value removes it, keys not given are kept (at most 100 keys; the limits are under Contacts).',
    body: upsertContactSchema,
    bodyExample: contactExample,
    success: { status: 201, description: 'Created', data: upsertedContactResponseSchema, alsoStatus: { status: 200, description: 'Updated: a contact with this email existed' } },
    errors: [concurrentModificationCase],
  },
  'GET /contacts': {
    operationId: 'listContacts',
    tag: 'Contacts',
    summary: 'List contacts',
    description:
      'Cursor pagination: pass `nextCursor` as `cursor` until `hasMore` is false. Without `search`, newest first. `search` matches the beginning of the email (`jane`, `jane@exa`), or a whole domain when it starts with `@` (`@example.com`), case-insensitively; results then come in email order. `subscribed` with `search` filters the search results, so such a page may hold fewer than `limit` items while `hasMore` is true. `total` is the project\'s contact count, or of those matching `subscribed` when given; it does not narrow with `search`.',
    query: listContactsQuerySchema,
    success: { status: 200, description: 'A page of contacts', data: pageSchema(contactResponseSchema) },
  },
  'GET /contacts/{id}': {
    operationId: 'getContact',
    tag: 'Contacts',
    summary: 'Get a contact',
    description: 'The contact with its `subscribed` flag and `data`.',
    success: { status: 200, description: 'The contact', data: contactResponseSchema },
    errors: [notFoundCase('contact')],
  },
  'PATCH /contacts/{id}': {
    operationId: 'updateContact',
    tag: 'Contacts',
    summary: 'Update a contact',
    description:
      'Changes `email`, `subscribed` and/or `data` (merged by top-level key; `null` removes a key; keys not given are kept). An email another contact has is a 409 `EMAIL_TAKEN`.',
    body: patchContactSchema,
    bodyExample: { subscribed: false, data: { plan: null } },
    success: { status: 200, description: 'The updated contact', data: contactResponseSchema },
    errors: [notFoundCase('contact'), { status: 409, code: 'EMAIL_TAKEN', when: 'Another contact has this email' }, concurrentModificationCase],
  },
  'DELETE /contacts/{id}': {
    operationId: 'deleteContact',
    tag: 'Contacts',
    summary: 'Delete a contact',
    description:
      'Removes the contact and its share of the counters. Its events stay in the project\'s history under its id; a new contact with the same email gets a new id.',
    success: { status: 200, description: 'Deleted', data: deletedSchema },
    errors: [notFoundCase('contact'), concurrentModificationCase],
  },
};
