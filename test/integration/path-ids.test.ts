import { routes } from '../../shared/http/routes';
import { api } from '../support/api-client';

/** Cold starts of every function group on a busy machine. */
const TEST_TIMEOUT_MS = 120_000;
const LONG_ID = 'A'.repeat(2000);
const withParameters = routes.filter((route) => /\{[^}]+\}/.test(route.path));
/** The dashboard's files: any path under /dashboard names a file or a page, never an item. */
const files = withParameters.filter((route) => route.path.includes('{proxy+}'));
/** Routes of a signed-in user's own (their sessions): an API key is refused before any id is read. */
const sessionOnly = (route: (typeof routes)[number]) => route.keys.length === 0 && route.auth !== 'none';
const ids = withParameters.filter((route) => /\{(id|userId)\}/.test(route.path));

describe('an over-long path parameter', () => {
  it('covers every route with one', () => {
    expect(withParameters.length).toBeGreaterThanOrEqual(35);
    expect(withParameters.filter((route) => !/\{(id|userId|token|proxy\+)\}/.test(route.path))).toEqual([]);
  });

  it.each(ids.filter((route) => !sessionOnly(route)).map((route) => [`${route.method} ${route.path}`, route] as const))(
    '%s answers 404 with the error envelope',
    async (_key, route) => {
      // Act
      const response = await api(route.method, route.path.replace(/\{(id|userId)\}/, LONG_ID), { body: route.method === 'POST' || route.method === 'PATCH' ? {} : undefined });
      // Assess
      expect(response.status).toBe(404);
      expect(response.body).toMatchObject({ success: false, error: { code: 'NOT_FOUND', statusCode: 404 } });
    },
    TEST_TIMEOUT_MS,
  );

  it.each(ids.filter(sessionOnly).map((route) => [`${route.method} ${route.path}`, route] as const))(
    '%s answers an API key 403 with the error envelope, whatever the id',
    async (_key, route) => {
      // Act
      const response = await api(route.method, route.path.replace(/\{(id|userId)\}/, LONG_ID));
      // Assess
      expect(response.status).toBe(403);
      expect(response.body).toMatchObject({ success: false, error: { statusCode: 403 } });
    },
    TEST_TIMEOUT_MS,
  );

  it.each(files.map((route) => [`${route.method} ${route.path}`, route] as const))(
    '%s answers a file that does not exist with 404',
    async (_key, route) => {
      // Act
      const response = await api(route.method, route.path.replace('{proxy+}', `${LONG_ID}.js`), { key: null });
      // Assess
      expect(response.status).toBe(404);
    },
    TEST_TIMEOUT_MS,
  );

  it.each(withParameters.filter((route) => route.path.startsWith('/unsubscribe/{token}')).map((route) => [`${route.method} ${route.path}`, route] as const))(
    '%s answers its documented 400 (the invalid-link answer, the token being the credential)',
    async (_key, route) => {
      // Act
      const response = await api(route.method, route.path.replace('{token}', LONG_ID), { key: null });
      // Assess
      expect(response.status).toBe(400);
      expect(String(response.body)).toMatch(/not valid/);
    },
    TEST_TIMEOUT_MS,
  );

  it('GET /templates/previews/{token} answers an over-long token as the unknown preview it is: 404', async () => {
    // Act
    const response = await api('GET', `/templates/previews/${LONG_ID}`, { key: null });
    // Assess
    expect(response.status).toBe(404);
  }, TEST_TIMEOUT_MS);
});
