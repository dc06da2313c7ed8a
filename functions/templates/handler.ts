import * as v from 'valibot';
import { createHttpHandler } from '../../shared/http/handler';
import { parseInput } from '../../shared/http/validation';
import { createTemplateSchema, listTemplatesQuerySchema, patchTemplateSchema } from '../../shared/templates/schemas';
import { createTemplate, deleteTemplate, getTemplate, listTemplates, patchTemplate } from '../../shared/templates/templates';

const templateId = v.object({ id: v.string() });

export const handler = createHttpHandler({
  'POST /templates': async ({ projectId, body }) => ({
    statusCode: 201,
    data: await createTemplate(projectId, parseInput(createTemplateSchema, body)),
  }),

  'GET /templates': async ({ projectId, query }) => ({
    data: await listTemplates(projectId, parseInput(listTemplatesQuerySchema, query, 'query')),
  }),

  'GET /templates/{id}': async ({ projectId, pathParameters }) => ({
    data: await getTemplate(projectId, parseInput(templateId, pathParameters).id),
  }),

  'PATCH /templates/{id}': async ({ projectId, pathParameters, body }) => {
    const changes = parseInput(patchTemplateSchema, body);
    return { data: await patchTemplate(projectId, parseInput(templateId, pathParameters).id, changes) };
  },

  'DELETE /templates/{id}': async ({ projectId, pathParameters }) => {
    const { id } = parseInput(templateId, pathParameters);
    await deleteTemplate(projectId, id);
    return { data: { id, deleted: true } };
  },
});
