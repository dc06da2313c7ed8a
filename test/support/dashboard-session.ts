import type { Page } from 'playwright-core';

/**
 * Signing in to the dashboard in browser tests, in one place. Until the session routes exist
 * (issue #20, accounts branch), POST /dashboard/session* is answered here with a SessionGrant
 * whose access token is the stack's secret key — the authorizer accepts `Bearer sk_…`, so every
 * other call the app makes reaches the real API. Once real sign-in lands, drop the interception
 * and sign in with the seeded local owner through the same form.
 */
export interface DashboardProject {
  baseUrl: string;
  projectId: string;
  secretKey: string;
}

export const TEST_USER = { id: '01JTESTUSER0000000000000000', email: 'owner@example.com', password: 'correct horse battery' };

export async function interceptSessionRoutes(page: Page, project: DashboardProject) {
  let signedIn = false;
  const grant = () => ({
    success: true,
    data: {
      accessToken: project.secretKey,
      expiresAt: new Date(Date.now() + 5 * 60_000).toISOString(),
      user: { id: TEST_USER.id, email: TEST_USER.email, name: 'Test Owner' },
      projectId: project.projectId,
      projects: [{ id: project.projectId, name: 'Local project', role: 'OWNER' }],
    },
  });
  const json = (status: number, body: unknown) => ({ status, contentType: 'application/json', body: JSON.stringify(body) });
  const unauthorized = { success: false, error: { code: 'UNAUTHORIZED', message: 'Not signed in', statusCode: 401, requestId: 'test' } };
  await page.route(`${project.baseUrl}/dashboard/session**`, async (route) => {
    const request = route.request();
    const path = new URL(request.url()).pathname;
    if (request.method() === 'DELETE') {
      signedIn = false;
      return route.fulfill(json(200, { success: true, data: { signedOut: true } }));
    }
    if (path.endsWith('/refresh')) return route.fulfill(signedIn ? json(200, grant()) : json(401, unauthorized));
    const body = request.postDataJSON() as { email?: string; password?: string };
    if (body.email !== TEST_USER.email || body.password !== TEST_USER.password) {
      return route.fulfill(json(401, { ...unauthorized, error: { ...unauthorized.error, code: 'INVALID_CREDENTIALS', message: 'The email or password is wrong' } }));
    }
    signedIn = true;
    return route.fulfill(json(200, grant()));
  });
}

/** Opens the dashboard, signs in through its form, and waits for the Overview. */
export async function signIn(page: Page, project: DashboardProject) {
  await interceptSessionRoutes(page, project);
  await page.goto(`${project.baseUrl}/dashboard/sign-in`);
  await page.getByLabel('Email').fill(TEST_USER.email);
  await page.getByLabel('Password').fill(TEST_USER.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
}
