import { createExport, createExportSchema, getExport, listExports, listExportsQuerySchema } from '../../shared/exports/jobs';
import { createHttpHandler } from '../../shared/http/handler';
import { pathId } from '../../shared/http/ids';
import { parseInput } from '../../shared/http/validation';
import { createImport, createImportSchema, getImport, importOptionsQuerySchema, listImports, listImportsQuerySchema, startImport } from '../../shared/imports/jobs';

/** Bulk contact imports and exports (/docs "Imports and exports"): jobs, queued for the workers. */
export const handler = createHttpHandler({
  'POST /contacts/imports': async ({ projectId, body, rawBody, query }) => {
    if (rawBody) {
      const options = parseInput(importOptionsQuerySchema, query, 'query');
      return { statusCode: 202, data: (await createImport(projectId, { kind: 'csv', body: rawBody }, options)).job };
    }
    const input = parseInput(createImportSchema, body ?? {});
    const source = input.upload ? ({ kind: 'upload' } as const) : ({ kind: 'json', contacts: input.contacts! } as const);
    const created = await createImport(projectId, source, input);
    return { statusCode: 202, data: created.upload ? { ...created.job, upload: created.upload } : created.job };
  },

  'GET /contacts/imports': async ({ projectId, query }) => ({
    data: await listImports(projectId, parseInput(listImportsQuerySchema, query, 'query')),
  }),

  'GET /contacts/imports/{id}': async ({ projectId, pathParameters }) => ({
    data: await getImport(projectId, pathId(pathParameters, 'Import')),
  }),

  'POST /contacts/imports/{id}/start': async ({ projectId, pathParameters }) => ({
    statusCode: 202,
    data: await startImport(projectId, pathId(pathParameters, 'Import')),
  }),

  'POST /contacts/exports': async ({ projectId, body }) => ({
    statusCode: 202,
    data: await createExport(projectId, parseInput(createExportSchema, body ?? {})),
  }),

  'GET /contacts/exports': async ({ projectId, query }) => ({
    data: await listExports(projectId, parseInput(listExportsQuerySchema, query, 'query')),
  }),

  'GET /contacts/exports/{id}': async ({ projectId, pathParameters }) => ({
    data: await getExport(projectId, pathId(pathParameters, 'Export')),
  }),
});
