import { createAuthFetch } from '../../../../../../../functions/dashboard/app/src/lib/auth-fetch';

const API = 'https://api.example.test/api';
const grant = (accessToken: string) => ({ accessToken, expiresAt: '2026-11-24T05:00:00.000Z', user: { id: 'U1', email: 'a@example.com', name: null }, projectId: 'P1', projects: [{ id: 'P1', name: 'Acme', role: 'OWNER' as const }] });
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** A fake network: answers each request from `answer` and records what was sent. */
function network(answer: (request: Request, index: number) => Response | Promise<Response>) {
  const sent: { url: string; method: string; authorization: string | null; header: string | null; credentials: Request['credentials']; body: string }[] = [];
  return {
    sent,
    fetch: async (request: Request) => {
      sent.push({ url: request.url, method: request.method, authorization: request.headers.get('Authorization'), header: request.headers.get('X-Mailwright-Request'), credentials: request.credentials, body: await request.clone().text() });
      return answer(request, sent.length - 1);
    },
  };
}

describe("the dashboard API client's fetch", () => {
  it('sends the in-memory access token as a Bearer token', async () => {
    // Prepare
    const net = network(() => json(200, { success: true, data: {} }));
    const auth = createAuthFetch({ apiBaseUrl: API, fetch: net.fetch, getToken: () => 'mwa_one', onGrant: () => undefined });

    // Act
    const response = await auth.fetch(new Request(`${API}/contacts?limit=1`));

    // Assess
    expect(response.status).toBe(200);
    expect(net.sent).toEqual([{ url: `${API}/contacts?limit=1`, method: 'GET', authorization: 'Bearer mwa_one', header: null, credentials: 'same-origin', body: '' }]);
  });

  it('on a 401 renews once through the refresh cookie and retries the request, body included, with the new token', async () => {
    // Prepare
    let token = 'mwa_expired';
    const grants: unknown[] = [];
    const net = network((request) => {
      if (request.url.endsWith('/dashboard/session/refresh')) return json(200, { success: true, data: grant('mwa_renewed') });
      return request.headers.get('Authorization') === 'Bearer mwa_renewed' ? json(201, { success: true, data: { id: 'C1' } }) : json(401, { success: false });
    });
    const auth = createAuthFetch({ apiBaseUrl: API, fetch: net.fetch, getToken: () => token, onGrant: (next) => (grants.push(next), (token = next?.accessToken ?? '')) });

    // Act
    const response = await auth.fetch(new Request(`${API}/contacts`, { method: 'POST', body: '{"email":"a@example.com"}' }));

    // Assess
    expect(response.status).toBe(201);
    expect(grants).toEqual([grant('mwa_renewed')]);
    expect(net.sent.map(({ url, method, authorization, header, credentials, body }) => ({ url, method, authorization, header, credentials, body }))).toEqual([
      { url: `${API}/contacts`, method: 'POST', authorization: 'Bearer mwa_expired', header: null, credentials: 'same-origin', body: '{"email":"a@example.com"}' },
      { url: `${API}/dashboard/session/refresh`, method: 'POST', authorization: null, header: '1', credentials: 'include', body: '{}' },
      { url: `${API}/contacts`, method: 'POST', authorization: 'Bearer mwa_renewed', header: null, credentials: 'same-origin', body: '{"email":"a@example.com"}' },
    ]);
  });

  it('shares one renewal between requests that fail together', async () => {
    // Prepare
    let token = 'mwa_expired';
    const net = network((request) => {
      if (request.url.endsWith('/refresh')) return json(200, { success: true, data: grant('mwa_renewed') });
      return request.headers.get('Authorization') === 'Bearer mwa_renewed' ? json(200, { success: true, data: {} }) : json(401, {});
    });
    const auth = createAuthFetch({ apiBaseUrl: API, fetch: net.fetch, getToken: () => token, onGrant: (next) => void (token = next!.accessToken) });

    // Act
    const responses = await Promise.all([auth.fetch(new Request(`${API}/contacts`)), auth.fetch(new Request(`${API}/events`)), auth.fetch(new Request(`${API}/domains`))]);

    // Assess
    expect(responses.map((response) => response.status)).toEqual([200, 200, 200]);
    expect(net.sent.filter((request) => request.url.endsWith('/refresh'))).toHaveLength(1);
  });

  it('signs out (grant null) and answers the 401 when the renewal is refused, without retrying', async () => {
    // Prepare
    const grants: unknown[] = [];
    const net = network(() => json(401, { success: false }));
    const auth = createAuthFetch({ apiBaseUrl: API, fetch: net.fetch, getToken: () => 'mwa_expired', onGrant: (next) => void grants.push(next) });

    // Act
    const response = await auth.fetch(new Request(`${API}/contacts`));

    // Assess
    expect(response.status).toBe(401);
    expect(grants).toEqual([null]);
    expect(net.sent.map((request) => request.url)).toEqual([`${API}/contacts`, `${API}/dashboard/session/refresh`]);
  });

  it('sends session routes with the cookie and the custom header, no token, and never renews on their 401', async () => {
    // Prepare
    const grants: unknown[] = [];
    const net = network(() => json(401, { success: false, error: { code: 'INVALID_CREDENTIALS' } }));
    const auth = createAuthFetch({ apiBaseUrl: API, fetch: net.fetch, getToken: () => 'mwa_current', onGrant: (next) => void grants.push(next) });

    // Act
    const response = await auth.fetch(new Request(`${API}/dashboard/session`, { method: 'POST', body: '{"email":"a@example.com","password":"wrong password"}' }));

    // Assess
    expect(response.status).toBe(401);
    expect(grants).toEqual([]);
    expect(net.sent).toEqual([{ url: `${API}/dashboard/session`, method: 'POST', authorization: null, header: '1', credentials: 'include', body: '{"email":"a@example.com","password":"wrong password"}' }]);
  });
});
