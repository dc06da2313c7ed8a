import { createHttpHandler } from '../../shared/http/handler';
import { pathId } from '../../shared/http/ids';
import { parseInput } from '../../shared/http/validation';
import { previewForScheme } from '../../shared/templates/dark-mode';
import { previewNotFoundPage, previewPage, readPreview, renderTemplate } from '../../shared/templates/preview';
import { createTemplateSchema, listTemplatesQuerySchema, patchTemplateSchema, renderTemplateSchema } from '../../shared/templates/schemas';
import { createTemplate, deleteTemplate, getTemplate, listTemplates, patchTemplate } from '../../shared/templates/templates';

export const handler = createHttpHandler({
  'POST /templates': async ({ projectId, body }) => ({
    statusCode: 201,
    data: await createTemplate(projectId, parseInput(createTemplateSchema, body)),
  }),

  'GET /templates': async ({ projectId, query }) => ({
    data: await listTemplates(projectId, parseInput(listTemplatesQuerySchema, query, 'query')),
  }),

  'GET /templates/{id}': async ({ projectId, pathParameters }) => ({
    data: await getTemplate(projectId, pathId(pathParameters, 'Template')),
  }),

  'PATCH /templates/{id}': async ({ projectId, pathParameters, body }) => {
    const id = pathId(pathParameters, 'Template');
    const changes = parseInput(patchTemplateSchema, body);
    return { data: await patchTemplate(projectId, id, changes) };
  },

  'POST /templates/render': async ({ projectId, body }) => ({
    data: await renderTemplate(projectId, parseInput(renderTemplateSchema, body)),
  }),

  /** No key: the token is the credential; the rendered HTML as its own sandboxed document. */
  'GET /templates/previews/{token}': async ({ pathParameters, query }) => {
    const html = await readPreview(pathParameters.token ?? '');
    return html === undefined ? previewNotFoundPage() : previewPage(previewForScheme(html, query.scheme));
  },

  'DELETE /templates/{id}': async ({ projectId, pathParameters }) => {
    const id = pathId(pathParameters, 'Template');
    await deleteTemplate(projectId, id);
    return { data: { id, deleted: true } };
  },
});
