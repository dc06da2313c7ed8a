import { forbidden } from '../http/errors';
import { SESSION_ABSOLUTE_MS, formatRefreshCredential, type RefreshCredential } from './sessions';

/**
 * What the session routes need from the browser request: the CSRF checks, the refresh cookie,
 * and the dashboard's own URL for links in mail (/docs "Dashboard session").
 */
export const REFRESH_COOKIE = 'mw_refresh';
export const CSRF_HEADER = 'x-mailwright-request';

type Headers = Record<string, string | undefined>;

/**
 * A session route answers only a same-origin request that also carries `X-Mailwright-Request: 1`
 * (a cross-site form cannot set a custom header, and a cross-origin fetch that does needs a CORS
 * preflight these routes never answer). Same origin: `Origin` names this host, or, without
 * Origin, `Sec-Fetch-Site: same-origin`. Anything else: 403 CSRF_REJECTED.
 */
export function assertSameOriginRequest(headers: Headers): void {
  const refuse = () => forbidden('CSRF_REJECTED', 'Session requests must come from the dashboard itself (same origin, with X-Mailwright-Request: 1)');
  if (headers[CSRF_HEADER] !== '1') throw refuse();
  const origin = headers.origin;
  if (origin !== undefined) {
    let host: string;
    try {
      host = new URL(origin).host;
    } catch {
      throw refuse();
    }
    if (!headers.host || host !== headers.host) throw refuse();
    return;
  }
  if (headers['sec-fetch-site'] !== 'same-origin') throw refuse();
}

export function readRefreshCookie(headers: Headers): string | undefined {
  for (const part of (headers.cookie ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === REFRESH_COOKIE) return value.join('=');
  }
  return undefined;
}

const cookiePath = (basePath: string) => `${basePath}/dashboard/session`;

/** HttpOnly (no script reads it), Secure (browsers accept it on http://localhost too), SameSite=Strict, sent only to the session routes. */
export const refreshCookie = (credential: RefreshCredential, basePath: string) =>
  `${REFRESH_COOKIE}=${formatRefreshCredential(credential)}; Path=${cookiePath(basePath)}; Max-Age=${SESSION_ABSOLUTE_MS / 1000}; HttpOnly; Secure; SameSite=Strict`;

export const clearedRefreshCookie = (basePath: string) => `${REFRESH_COOKIE}=; Path=${cookiePath(basePath)}; Max-Age=0; HttpOnly; Secure; SameSite=Strict`;

/**
 * The dashboard's URL as the client reached the API (links in invitation and reset mail): the
 * request's Origin, else its Host with the scheme API Gateway forwards (X-Forwarded-Proto).
 */
export function dashboardUrl(headers: Headers, basePath: string): string {
  const origin = headers.origin && /^https?:\/\/[^/]+$/.test(headers.origin) ? headers.origin : `${headers['x-forwarded-proto'] === 'https' ? 'https' : 'http'}://${headers.host ?? 'localhost'}`;
  return `${origin}${basePath}/dashboard`;
}
