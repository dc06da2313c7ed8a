import type { OperationDoc } from '../http/operation-doc';

/** The OpenAPI entries of the dashboard app routes, keyed by route key ('METHOD /path'). */
export const dashboardOperations: Record<string, OperationDoc> = {
  'GET /dashboard': {
    operationId: 'getDashboard',
    tag: 'Dashboard',
    summary: 'The web dashboard',
    description: 'The dashboard app (index.html, never cached); it signs in through the session routes and then calls this API like any client.',
    success: { status: 200, description: 'An HTML page', mediaType: 'text/html', schema: { type: 'string' } },
  },
  'GET /dashboard/{proxy+}': {
    operationId: 'getDashboardFile',
    tag: 'Dashboard',
    summary: 'A dashboard file or page',
    description: 'A built file of the app (hashed names, cached as immutable), or index.html for any page path without a file extension (client-side routing).',
    success: { status: 200, description: 'The file, or the app page', mediaType: 'text/html', schema: { type: 'string' } },
    errors: [{ status: 404, code: 'NOT_FOUND', when: 'A path with a file extension names no file of the app' }],
  },
};
