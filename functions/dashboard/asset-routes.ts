import { fileURLToPath } from 'node:url';
import { requiredEnv } from '../../shared/config/env';
import { variables } from '../../shared/config/variables';
import { dashboardBasePath, loadStaticFiles } from '../../shared/dashboard/static-files';
import type { RouteHandler } from '../../shared/http/handler';

/**
 * The built app sits beside this file in the source tree and beside the bundle in Lambda
 * (MailwrightFunction bundledFolders copies dist/ next to index.mjs). Read at cold start.
 */
const files = loadStaticFiles(fileURLToPath(new URL('./dist/', import.meta.url)), dashboardBasePath(requiredEnv(variables.publicApiUrl)));

/** The dashboard app: GET /dashboard and every file or page under it (functions/dashboard/README.md). */
export const assetRoutes: Record<string, RouteHandler> = {
  'GET /dashboard': async () => files.serve(''),
  // API Gateway names a greedy parameter without its '+'; the local gateway keeps it (issue #19).
  'GET /dashboard/{proxy+}': async ({ pathParameters }) => files.serve(pathParameters.proxy ?? ''),
};
