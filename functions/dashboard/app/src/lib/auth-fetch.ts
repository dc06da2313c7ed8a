import type { SessionGrant } from './api-types';

/** The custom header the session routes require (a cross-site form or image cannot send it). */
export const REQUEST_HEADER = { 'X-Mailwright-Request': '1' } as const;

const SESSION_PATH = '/dashboard/session';

export interface AuthFetchOptions {
  apiBaseUrl: string;
  fetch: (request: Request) => Promise<Response>;
  getToken: () => string | null;
  /** Called with the renewed grant, or null when renewal failed (signed out). */
  onGrant: (grant: SessionGrant | null) => void;
}

/**
 * The fetch behind the API client: sends the in-memory access token as Authorization; on a 401
 * renews it once through POST /dashboard/session/refresh (the HttpOnly cookie) and retries the
 * request once. Concurrent 401s share one renewal. Session routes themselves are sent with the
 * cookie and the custom header, and never renewed (a 401 there is the answer).
 */
export function createAuthFetch(options: AuthFetchOptions) {
  let renewing: Promise<string | null> | null = null;

  const renew = () =>
    (renewing ??= (async () => {
      try {
        const response = await options.fetch(
          new Request(`${options.apiBaseUrl}${SESSION_PATH}/refresh`, {
            method: 'POST',
            credentials: 'include',
            headers: { 'Content-Type': 'application/json', ...REQUEST_HEADER },
            body: '{}',
          }),
        );
        const grant = response.ok ? ((await response.json()) as { data: SessionGrant }).data : null;
        options.onGrant(grant);
        return grant?.accessToken ?? null;
      } catch {
        options.onGrant(null);
        return null;
      } finally {
        renewing = null;
      }
    })());

  const withToken = (request: Request, token: string | null) => {
    const headers = new Headers(request.headers);
    if (token) headers.set('Authorization', `Bearer ${token}`);
    return new Request(request, { headers });
  };

  return {
    renew,
    fetch: async (request: Request): Promise<Response> => {
      if (new URL(request.url).pathname.endsWith(SESSION_PATH) || new URL(request.url).pathname.includes(`${SESSION_PATH}/`)) {
        const headers = new Headers(request.headers);
        for (const [name, value] of Object.entries(REQUEST_HEADER)) headers.set(name, value);
        return options.fetch(new Request(request, { headers, credentials: 'include' }));
      }
      const retry = request.clone();
      const response = await options.fetch(withToken(request, options.getToken()));
      if (response.status !== 401) return response;
      const token = await renew();
      return token ? options.fetch(withToken(retry, token)) : response;
    },
  };
}
