import { acceptInvitation, confirmPasswordReset, refresh, requestPasswordReset, signIn, signOut, type Granted } from '../../shared/accounts/accounts';
import { assertSameOriginRequest, clearedRefreshCookie, dashboardUrl, readRefreshCookie, refreshCookie } from '../../shared/accounts/browser';
import { acceptInvitationSchema, passwordResetConfirmSchema, passwordResetRequestSchema, refreshSchema, signInSchema } from '../../shared/accounts/schemas';
import { assertDashboardMailConfigured } from '../../shared/accounts/mail';
import type { HttpRequest, HttpResult, RouteHandler } from '../../shared/http/handler';
import { parseInput } from '../../shared/http/validation';

/** Every session route: CSRF checks first, then the route; never cached by the browser or a proxy. */
const sessionRoute = (handle: (request: HttpRequest) => Promise<HttpResult>): RouteHandler => async (request) => {
  assertSameOriginRequest(request.headers);
  const result = await handle(request);
  return { ...result, headers: { 'Cache-Control': 'no-store', ...result.headers } };
};

const granted = ({ grant, credential }: Granted, basePath: string): HttpResult => ({ data: grant, headers: { 'Set-Cookie': refreshCookie(credential, basePath) } });

const client = (request: HttpRequest) => ({ sourceIp: request.sourceIp, userAgent: request.headers['user-agent'] });

/** The dashboard's session routes (/docs "Dashboard session"); functions/dashboard/handler.ts spreads them. */
export const sessionRoutes: Record<string, RouteHandler> = {
  'POST /dashboard/session': sessionRoute(async (request) => granted(await signIn(parseInput(signInSchema, request.body), client(request)), request.basePath)),

  'POST /dashboard/session/refresh': sessionRoute(async (request) =>
    granted(await refresh(readRefreshCookie(request.headers), parseInput(refreshSchema, request.body)), request.basePath),
  ),

  'DELETE /dashboard/session': sessionRoute(async (request) => {
    await signOut(readRefreshCookie(request.headers));
    return { data: { ok: true }, headers: { 'Set-Cookie': clearedRefreshCookie(request.basePath) } };
  }),

  'POST /dashboard/session/password-reset': sessionRoute(async (request) => {
    const { email } = parseInput(passwordResetRequestSchema, request.body);
    // Before the lookup, so an unconfigured deployment answers the same for every address.
    assertDashboardMailConfigured();
    await requestPasswordReset(email, dashboardUrl(request.headers, request.basePath));
    return { statusCode: 202, data: { ok: true } };
  }),

  'POST /dashboard/session/password-reset/confirm': sessionRoute(async (request) => {
    const { token, password } = parseInput(passwordResetConfirmSchema, request.body);
    await confirmPasswordReset(token, password);
    return { data: { ok: true }, headers: { 'Set-Cookie': clearedRefreshCookie(request.basePath) } };
  }),

  'POST /dashboard/session/invitations/accept': sessionRoute(async (request) => granted(await acceptInvitation(parseInput(acceptInvitationSchema, request.body), client(request)), request.basePath)),
};
