import { assertValidContactData, listContactsQuerySchema, patchContactSchema, upsertContactSchema } from '../../shared/contacts/schemas';
import { deleteContact, getContact, patchContact, upsertContact } from '../../shared/contacts/contacts';
import { listContacts } from '../../shared/contacts/list-contacts';
import { createHttpHandler } from '../../shared/http/handler';
import { pathId } from '../../shared/http/ids';
import { parseInput } from '../../shared/http/validation';

export const handler = createHttpHandler({
  'POST /contacts': async ({ projectId, body }) => {
    const input = parseInput(upsertContactSchema, body);
    assertValidContactData(input.data);
    const { contact, isNew } = await upsertContact(projectId, input.email, input, true);
    return { statusCode: isNew ? 201 : 200, data: { ...contact, _meta: { isNew, isUpdate: !isNew } } };
  },

  'GET /contacts': async ({ projectId, query }) => ({
    data: await listContacts(projectId, parseInput(listContactsQuerySchema, query, 'query')),
  }),

  'GET /contacts/{id}': async ({ projectId, pathParameters }) => ({
    data: await getContact(projectId, pathId(pathParameters, 'Contact')),
  }),

  'PATCH /contacts/{id}': async ({ projectId, pathParameters, body }) => {
    const id = pathId(pathParameters, 'Contact');
    const changes = parseInput(patchContactSchema, body);
    assertValidContactData(changes.data);
    return { data: await patchContact(projectId, id, changes) };
  },

  'DELETE /contacts/{id}': async ({ projectId, pathParameters }) => {
    const id = pathId(pathParameters, 'Contact');
    await deleteContact(projectId, id);
    return { data: { id, deleted: true } };
  },
});
