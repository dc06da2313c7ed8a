import { assertSameOriginRequest, clearedRefreshCookie, dashboardUrl, readRefreshCookie, refreshCookie } from '../../../../shared/accounts/browser';

const credential = { userId: '01KAQ5VZ3N4G8T2M6P0R9S7W1X', sessionId: '01KAQ5VZ3N4G8T2M6P0R9S7W2Y', secret: 'A'.repeat(43) };

describe('session routes in the browser', () => {
  it('accepts a same-origin request with X-Mailwright-Request: 1', () => {
    expect(() => assertSameOriginRequest({ 'x-mailwright-request': '1', origin: 'https://mail.example.com', host: 'mail.example.com' })).not.toThrow();
    expect(() => assertSameOriginRequest({ 'x-mailwright-request': '1', 'sec-fetch-site': 'same-origin', host: 'mail.example.com' })).not.toThrow();
  });

  it('refuses with 403 CSRF_REJECTED: no header, another origin, a null origin, a cross-site fetch', () => {
    const cases = [
      { origin: 'https://mail.example.com', host: 'mail.example.com' },
      { 'x-mailwright-request': 'true', origin: 'https://mail.example.com', host: 'mail.example.com' },
      { 'x-mailwright-request': '1', origin: 'https://evil.example', host: 'mail.example.com' },
      { 'x-mailwright-request': '1', origin: 'null', host: 'mail.example.com' },
      { 'x-mailwright-request': '1', 'sec-fetch-site': 'cross-site', host: 'mail.example.com' },
      { 'x-mailwright-request': '1', host: 'mail.example.com' },
    ];
    for (const headers of cases) expect(() => assertSameOriginRequest(headers)).toThrow(expect.objectContaining({ statusCode: 403, code: 'CSRF_REJECTED' }));
  });

  it('sets the refresh cookie HttpOnly, Secure, SameSite=Strict on the session path under the stage', () => {
    expect(refreshCookie(credential, '/api')).toBe(
      `mw_refresh=${credential.userId}.${credential.sessionId}.${credential.secret}; Path=/api/dashboard/session; Max-Age=2592000; HttpOnly; Secure; SameSite=Strict`,
    );
    expect(clearedRefreshCookie('')).toBe('mw_refresh=; Path=/dashboard/session; Max-Age=0; HttpOnly; Secure; SameSite=Strict');
    expect(readRefreshCookie({ cookie: `theme=dark; mw_refresh=${credential.userId}.x; other=1` })).toBe(`${credential.userId}.x`);
  });

  it('builds links to the dashboard from the origin, or the host and forwarded scheme', () => {
    expect(dashboardUrl({ origin: 'http://localhost:3000', host: 'localhost:3000' }, '')).toBe('http://localhost:3000/dashboard');
    expect(dashboardUrl({ host: 'abc.execute-api.us-east-1.amazonaws.com', 'x-forwarded-proto': 'https' }, '/api')).toBe('https://abc.execute-api.us-east-1.amazonaws.com/api/dashboard');
  });
});
