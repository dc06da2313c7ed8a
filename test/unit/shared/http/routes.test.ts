import { jest } from '@jest/globals';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import type { Route } from '../../../../shared/http/routes';

// A route table with one public route (auth 'none') beside a keyed one.
const testRoutes: Route[] = [
  { method: 'GET', path: '/page/{token}', group: 'contacts', keys: [], auth: 'none' },
  { method: 'GET', path: '/contacts', group: 'contacts', keys: ['secret'] },
];
const actual = await import('../../../../shared/http/routes');
jest.unstable_mockModule('../../../../shared/http/routes', () => ({
  ...actual,
  routes: testRoutes,
  findRoute: (method: string, path: string) => testRoutes.find((route) => route.method === method && route.path === path),
}));
const admitRequest = jest.fn(async () => undefined);
jest.unstable_mockModule('../../../../shared/access/admission', () => ({ admitRequest }));
const { createHttpHandler } = await import('../../../../shared/http/handler');

const PAGE_POLICY = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'";
const PAGE_PERMISSIONS = 'camera=(), clipboard-write=(self)';

const pageHandler = createHttpHandler({
  'GET /page/{token}': async (request) => ({
    statusCode: request.pathParameters.token === 'bad' ? 400 : 200,
    body: `<p>project "${request.projectId}"</p>`,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': PAGE_POLICY,
      ...(request.pathParameters.token === 'clipboard' ? { 'Permissions-Policy': PAGE_PERMISSIONS } : {}),
    },
  }),
  'GET /contacts': async () => ({ data: [] }),
});

function event(resource: string, path: string, authorizer?: Record<string, unknown>): APIGatewayProxyEvent {
  return {
    resource,
    path,
    httpMethod: 'GET',
    headers: {},
    multiValueHeaders: {},
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: { token: path.split('/').pop()! },
    stageVariables: null,
    body: null,
    isBase64Encoded: false,
    requestContext: { requestId: 'r1', ...(authorizer ? { authorizer } : {}) } as never,
  };
}

beforeEach(() => admitRequest.mockClear());

describe('routes without the authorizer (auth: none)', () => {
  it('reach their handler without a key or admission, and may answer a page with its own Content-Type and Content-Security-Policy', async () => {
    // Act
    const response = await pageHandler(event('/page/{token}', '/page/ok'), {} as Context);
    // Assess
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('<p>project ""</p>');
    expect(response.headers).toMatchObject({ 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': PAGE_POLICY });
    expect(admitRequest).not.toHaveBeenCalled();
  });

  it('may answer a page with its own Permissions-Policy; pages without one keep the strict default', async () => {
    // Act
    const own = await pageHandler(event('/page/{token}', '/page/clipboard'), {} as Context);
    const strict = await pageHandler(event('/page/{token}', '/page/ok'), {} as Context);

    // Assess
    expect(own.headers!['Permissions-Policy']).toBe(PAGE_PERMISSIONS);
    expect(own.headers!['Content-Security-Policy']).toBe(PAGE_POLICY);
    expect(strict.headers!['Permissions-Policy']).toContain('clipboard-write=()');
  });

  it('keep the key check on every other route', async () => {
    // Act
    const response = await pageHandler(event('/contacts', '/contacts'), {} as Context);
    // Assess
    expect(response.statusCode).toBe(401);
    expect(JSON.parse(response.body).error.code).toBe('UNAUTHORIZED');
  });
});
