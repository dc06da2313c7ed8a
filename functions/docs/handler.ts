import { createHttpHandler } from '../../shared/http/handler';
import { buildOpenApiDocument } from '../../shared/contract/document';
import { referenceBundle, referencePage } from '../../shared/contract/reference-page';

/** Built once per cold start: the document depends only on the code. */
let document: string | undefined;

/** The API contract, without a key: the OpenAPI document and the reference page that renders it. */
export const handler = createHttpHandler({
  'GET /openapi.json': async () => {
    document ??= JSON.stringify(buildOpenApiDocument());
    return { body: document, headers: { 'Content-Type': 'application/json', 'Cache-Control': 'public, max-age=300' } };
  },

  'GET /docs': async () => ({
    body: referencePage.html,
    headers: { 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': referencePage.contentSecurityPolicy, 'Cache-Control': 'public, max-age=300' },
  }),

  'GET /docs/scalar.js': async () => ({
    body: referenceBundle(),
    headers: { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'public, max-age=86400' },
  }),
});
