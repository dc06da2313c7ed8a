import { admin, api, stack } from '../support/api-client';

describe('API keys at the gateway', () => {
  it('answers 401 with the envelope for a missing, malformed or unknown key', async () => {
    const responses = await Promise.all([
      api('GET', '/contacts', { key: null }),
      api('GET', '/contacts', { key: null, headers: { Authorization: 'Basic abc' } }),
      api('GET', '/contacts', { key: 'sk_short' }),
      api('GET', '/contacts', { key: `sk_${'A'.repeat(43)}` }),
    ]);

    for (const response of responses) {
      expect(response.status).toBe(401);
      expect(response.body).toMatchObject({ success: false, error: { code: 'UNAUTHORIZED', statusCode: 401 } });
      expect(response.body.error.requestId).toEqual(expect.any(String));
    }
  });

  it('answers 403 to a public key off /v1/track', async () => {
    const response = await api('GET', '/contacts', { key: stack.publicKey });

    expect(response.status).toBe(403);
    expect(response.body).toMatchObject({ success: false, error: { code: 'FORBIDDEN', statusCode: 403 } });
  });

  it('answers 404 with the envelope for an unknown route or method', async () => {
    const unknownPath = await api('GET', '/nope');
    const unknownMethod = await api('PUT', '/contacts');

    expect(unknownPath.status).toBe(404);
    expect(unknownPath.body.error.code).toBe('NOT_FOUND');
    expect(unknownMethod.status).toBe(404);
  });

  it('disables and re-enables a project at once, even with the authorizer result cached', async () => {
    const project = await admin<{ projectId: string; secretKey: string }>('create-project', '--name', 'disable-test');
    const before = await api('GET', '/contacts', { key: project.secretKey });

    await admin('disable-project', '--project', project.projectId);
    const disabled = await api('GET', '/contacts', { key: project.secretKey });
    await admin('enable-project', '--project', project.projectId);
    const enabled = await api('GET', '/contacts', { key: project.secretKey });

    expect(before.status).toBe(200);
    expect(disabled.status).toBe(403);
    expect(disabled.body.error.code).toBe('PROJECT_DISABLED');
    expect(enabled.status).toBe(200);
  });

  it('answers 403 to a disabled project key the gateway has not seen before', async () => {
    const project = await admin<{ projectId: string; secretKey: string }>('create-project', '--name', 'disabled-fresh');
    await admin('disable-project', '--project', project.projectId);

    const response = await api('GET', '/contacts', { key: project.secretKey });

    expect(response.status).toBe(403);
    expect(response.body.success).toBe(false);
  });

  it('rotates with overlap, and a revoked key stops at once', async () => {
    const project = await admin<{ projectId: string; secretKey: string }>('create-project', '--name', 'rotate-test');
    await api('GET', '/contacts', { key: project.secretKey });

    const rotated = await admin<{ keyId: string; key: string }>('rotate-key', '--project', project.projectId);
    const oldDuringOverlap = await api('GET', '/contacts', { key: project.secretKey });
    const newKey = await api('GET', '/contacts', { key: rotated.key });
    await admin('revoke-key', '--project', project.projectId, '--key', project.secretKey);
    const oldAfterRevoke = await api('GET', '/contacts', { key: project.secretKey });
    const newAfterRevoke = await api('GET', '/contacts', { key: rotated.key });

    expect(rotated.key).toMatch(/^sk_[0-9A-Za-z]{43}$/);
    expect(oldDuringOverlap.status).toBe(200);
    expect(newKey.status).toBe(200);
    expect(oldAfterRevoke.status).toBe(401);
    expect(newAfterRevoke.status).toBe(200);
  });

  it('keeps projects apart: one project cannot read another project contact', async () => {
    const other = await admin<{ secretKey: string }>('create-project', '--name', 'isolation-test');
    const mine = await api('POST', '/contacts', { body: { email: 'isolated@example.com' } });

    const theirs = await api('GET', `/contacts/${mine.body.data.id}`, { key: other.secretKey });

    expect(theirs.status).toBe(404);
  });

  it('adds security headers to every function response', async () => {
    const response = await api('GET', '/contacts?limit=1');

    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('strict-transport-security')).toContain('max-age');
  });
});
