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
    description: 'Upsert by email: creates the contact (201) or updates the one with this email (200). Top-level data keys merge into the stored data; a null value removes the key.',
    body: upsertContactSchema,
    bodyExample: contactExample,
    success: { status: 201, description: 'Created', data: upsertedContactResponseSchema, alsoStatus: { status: 200, description: 'Updated: a contact with this email existed' } },
    errors: [concurrentModificationCase],
  },
  'GET /contacts': {
    operationId: 'listContacts',
    tag: 'Contacts',
    summary: 'List contacts',
    description: 'Cursor pagination: pass nextCursor as cursor until hasMore is false. search matches the beginning of the email.',
    query: listContactsQuerySchema,
    success: { status: 200, description: 'A page of contacts', data: pageSchema(contactResponseSchema) },
  },
  'GET /contacts/{id}': {
    operationId: 'getContact',
    tag: 'Contacts',
    summary: 'Get a contact',
    success: { status: 200, description: 'The contact', data: contactResponseSchema },
    errors: [notFoundCase('contact')],
  },
  'PATCH /contacts/{id}': {
    operationId: 'updateContact',
    tag: 'Contacts',
    summary: 'Update a contact',
    description: 'Changes email, subscribed and/or data (merged; null removes a key).',
    body: patchContactSchema,
    bodyExample: { subscribed: false, data: { plan: null } },
    success: { status: 200, description: 'The updated contact', data: contactResponseSchema },
    errors: [notFoundCase('contact'), { status: 409, code: 'EMAIL_TAKEN', when: 'Another contact has this email' }, concurrentModificationCase],
  },
  'DELETE /contacts/{id}': {
    operationId: 'deleteContact',
    tag: 'Contacts',
    summary: 'Delete a contact',
    success: { status: 200, description: 'Deleted', data: deletedSchema },
    errors: [notFoundCase('contact'), concurrentModificationCase],
  },
};
