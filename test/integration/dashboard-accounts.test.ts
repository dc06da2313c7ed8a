import { jest } from '@jest/globals';
import { admin, api, stack, uniqueEmail, type ApiResponse } from '../support/api-client';
import { waitForEmails } from '../support/mail-viewer';

/**
 * Dashboard accounts against the local stack (/docs "Dashboard session"): users made with the
 * admin CLI, the session routes as the browser calls them (same Origin, X-Mailwright-Request: 1,
 * the mw_refresh cookie), access tokens on the API, keys, members and invitations.
 */
jest.setTimeout(180_000);

const origin = new URL(stack.baseUrl).origin;
const browser = { Origin: origin, 'X-Mailwright-Request': '1' };
const password = 'correct horse battery staple';

interface Grant {
  accessToken: string;
  expiresAt: string;
  user: { id: string; email: string; name: string | null };
  projectId: string;
  projects: { id: string; name: string; role: string }[];
}

const refreshCookieOf = (response: ApiResponse) => /mw_refresh=([^;]*)/.exec(response.headers.get('set-cookie') ?? '')?.[1];

const session = (method: string, path: string, options: { body?: unknown; cookie?: string; headers?: Record<string, string> } = {}) =>
  api(method, path, { key: null, body: options.body, headers: { ...browser, ...(options.cookie ? { Cookie: `mw_refresh=${options.cookie}` } : {}), ...options.headers } });

async function signIn(email: string, pw = password, projectId?: string) {
  const response = await session('POST', '/dashboard/session', { body: { email, password: pw, ...(projectId ? { projectId } : {}) } });
  expect(response.status).toBe(200);
  return { grant: response.body.data as Grant, cookie: refreshCookieOf(response)!, response };
}

let project: { projectId: string; secretKey: string };
let ownerEmail: string;

beforeAll(async () => {
  project = await admin('create-project', '--name', 'Dashboard accounts');
  ownerEmail = uniqueEmail('owner');
  await admin('create-user', '--email', ownerEmail, '--project', project.projectId, '--role', 'OWNER', '--password', password);
});

describe('dashboard sessions', () => {
  it('signs in with a user made by the admin CLI: an access token for the API and an HttpOnly refresh cookie', async () => {
    // Act
    const { grant, cookie, response } = await signIn(ownerEmail);

    // Assess
    expect(grant).toMatchObject({ user: { email: ownerEmail }, projectId: project.projectId, projects: [{ id: project.projectId, name: 'Dashboard accounts', role: 'OWNER' }] });
    expect(grant.accessToken.startsWith('mwa_')).toBe(true);
    expect(cookie).toMatch(/^\w{26}\.\w{26}\.[\w-]{43}$/);
    expect(response.headers.get('set-cookie')).toContain('Path=/dashboard/session; Max-Age=2592000; HttpOnly; Secure; SameSite=Strict');
    const me = await api('GET', '/me', { key: grant.accessToken });
    expect(me.status).toBe(200);
    expect(me.body.data).toMatchObject({ user: { email: ownerEmail }, projectId: project.projectId, role: 'OWNER' });
    expect((await api('GET', '/contacts', { key: grant.accessToken })).status).toBe(200);
    expect((await api('POST', '/v1/send', { key: grant.accessToken, body: { to: 'a@example.com', subject: 'x', body: 'y', from: 'a@example.com' } })).status).toBe(403);
  });

  it('answers the same 401 for an unknown email and a wrong password', async () => {
    const unknown = await session('POST', '/dashboard/session', { body: { email: uniqueEmail('nobody'), password } });
    const wrong = await session('POST', '/dashboard/session', { body: { email: ownerEmail, password: 'not the password' } });

    expect(unknown.status).toBe(401);
    expect(wrong.status).toBe(401);
    expect(unknown.body.error.code).toBe('INVALID_CREDENTIALS');
    expect(wrong.body.error).toMatchObject({ code: unknown.body.error.code, message: unknown.body.error.message });
  });

  it('refreshes with the cookie and the header, replacing the cookie; refuses without the header or from another origin', async () => {
    const { cookie } = await signIn(ownerEmail);

    const withoutHeader = await session('POST', '/dashboard/session/refresh', { cookie, headers: { 'X-Mailwright-Request': '' } });
    const otherOrigin = await session('POST', '/dashboard/session/refresh', { cookie, headers: { Origin: 'https://evil.example' } });
    const refreshed = await session('POST', '/dashboard/session/refresh', { cookie });
    const replayed = await session('POST', '/dashboard/session/refresh', { cookie });

    expect(withoutHeader.status).toBe(403);
    expect(withoutHeader.body.error.code).toBe('CSRF_REJECTED');
    expect(otherOrigin.status).toBe(403);
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.data.accessToken.startsWith('mwa_')).toBe(true);
    const next = refreshCookieOf(refreshed)!;
    expect(next).not.toBe(cookie);
    expect(replayed.status).toBe(401);
    expect((await session('POST', '/dashboard/session/refresh', { cookie: next })).status).toBe(200);
  });

  it('signs out: the cookie is cleared, its session ends and its access token stops at the next request', async () => {
    const { grant, cookie } = await signIn(ownerEmail);
    expect((await api('GET', '/me', { key: grant.accessToken })).status).toBe(200);

    const out = await session('DELETE', '/dashboard/session', { cookie });

    expect(out.status).toBe(200);
    expect(out.headers.get('set-cookie')).toContain('mw_refresh=; Path=/dashboard/session; Max-Age=0');
    expect((await session('POST', '/dashboard/session/refresh', { cookie })).status).toBe(401);
    expect((await api('GET', '/me', { key: grant.accessToken })).status).toBe(401);
  });

  it('signs out everywhere: every session of the user ends', async () => {
    const first = await signIn(ownerEmail);
    const second = await signIn(ownerEmail);
    const sessions = await api('GET', '/me/sessions', { key: first.grant.accessToken });
    expect(sessions.body.data.items.filter((item: { current: boolean }) => item.current)).toHaveLength(1);

    const everywhere = await api('DELETE', '/me/sessions', { key: first.grant.accessToken });

    expect(everywhere.status).toBe(200);
    expect(everywhere.body.data.revoked).toBeGreaterThanOrEqual(2);
    expect((await api('GET', '/contacts', { key: first.grant.accessToken })).status).toBe(401);
    expect((await api('GET', '/contacts', { key: second.grant.accessToken })).status).toBe(401);
    expect((await session('POST', '/dashboard/session/refresh', { cookie: second.cookie })).status).toBe(401);
  });

  it('locks an account after ten wrong passwords, slowing down before', async () => {
    // Prepare
    const email = uniqueEmail('locked');
    await admin('create-user', '--email', email, '--project', project.projectId, '--role', 'MEMBER', '--password', password);
    const statuses: number[] = [];

    // Act: ten failures, waiting whenever told to (Retry-After)
    for (let failures = 0; failures < 10; ) {
      const response = await session('POST', '/dashboard/session', { body: { email, password: 'wrong password' } });
      statuses.push(response.status);
      if (response.status === 401) failures++;
      else if (response.status === 429) await new Promise((resolve) => setTimeout(resolve, Number(response.headers.get('retry-after')) * 1000));
      else throw new Error(`Unexpected ${response.status}`);
    }
    const withRightPassword = await session('POST', '/dashboard/session', { body: { email, password } });

    // Assess
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses).toContain(429);
    expect(withRightPassword.status).toBe(429);
    expect(withRightPassword.body.error.code).toBe('TOO_MANY_ATTEMPTS');
    expect(Number(withRightPassword.headers.get('retry-after'))).toBeGreaterThan(800);
  });
});

describe('members', () => {
  it('a removed member\'s access token stops working', async () => {
    // Prepare
    const email = uniqueEmail('member');
    const created = await admin<{ userId: string }>('create-user', '--email', email, '--project', project.projectId, '--role', 'MEMBER', '--password', password);
    const owner = await signIn(ownerEmail);
    const member = await signIn(email);
    expect((await api('GET', '/contacts', { key: member.grant.accessToken })).status).toBe(200);
    expect((await api('GET', '/keys', { key: member.grant.accessToken })).status).toBe(403);

    // Act
    const removed = await api('DELETE', `/members/${created.userId}`, { key: owner.grant.accessToken });

    // Assess
    expect(removed.status).toBe(200);
    expect((await api('GET', '/contacts', { key: member.grant.accessToken })).status).toBe(401);
    expect((await session('POST', '/dashboard/session/refresh', { cookie: member.cookie })).status).toBe(401);
    const owners = (await api('GET', '/members', { key: owner.grant.accessToken })).body.data.items.filter((item: { role: string }) => item.role === 'OWNER');
    expect(owners).toHaveLength(1);
    const lastOwner = await api('PATCH', `/members/${owners[0].userId}`, { key: owner.grant.accessToken, body: { role: 'MEMBER' } });
    expect(lastOwner.status).toBe(409);
    expect(lastOwner.body.error.code).toBe('LAST_OWNER');
  });

  it('an invitation email arrives through the send pipeline and its token signs the invitee in', async () => {
    // Prepare
    const owner = await signIn(ownerEmail);
    const invitee = uniqueEmail('invitee');

    // Act
    const invited = await api('POST', '/members/invitations', { key: owner.grant.accessToken, body: { email: invitee, role: 'MEMBER' } });
    const [mail] = await waitForEmails(invitee);
    const token = /#token=([A-Za-z0-9_-]{43})/.exec(mail!.body.html ?? '')?.[1];
    const accepted = await session('POST', '/dashboard/session/invitations/accept', { body: { token, password, name: 'Grace' } });
    const again = await session('POST', '/dashboard/session/invitations/accept', { body: { token, password } });

    // Assess
    expect(invited.status).toBe(201);
    expect(mail!.from).toContain('dashboard@example.com');
    expect(token).toBeDefined();
    expect(accepted.status).toBe(200);
    expect(accepted.body.data).toMatchObject({ user: { email: invitee, name: 'Grace' }, projectId: project.projectId, projects: [{ id: project.projectId, role: 'MEMBER' }] });
    expect(refreshCookieOf(accepted)).toBeDefined();
    expect(again.status).toBe(400);
    expect((await api('GET', '/me', { key: accepted.body.data.accessToken })).status).toBe(200);
    const audit = await api('GET', '/audit', { key: owner.grant.accessToken });
    expect(audit.body.data.items.map((entry: { action: string }) => entry.action)).toEqual(expect.arrayContaining(['member.invited', 'member.joined', 'member.removed', 'session.signed_in', 'session.sign_in_failed']));
  });
});

describe('API keys', () => {
  it('creates, rotates and revokes keys; a revoked key is refused by /contacts', async () => {
    // Prepare
    const owner = await signIn(ownerEmail);
    const auth = { key: owner.grant.accessToken };

    // Act
    const created = await api('POST', '/keys', { ...auth, body: { name: 'Server', kind: 'secret' } });
    const key = created.body.data.key as string;
    const before = await api('GET', '/contacts', { key });
    const rotated = await api('POST', `/keys/${created.body.data.id}/rotate`, auth);
    const newKey = rotated.body.data.key as string;
    const oldAfterRotation = await api('GET', '/contacts', { key });
    const newAfterRotation = await api('GET', '/contacts', { key: newKey });
    const revoked = await api('DELETE', `/keys/${rotated.body.data.id}`, auth);
    const afterRevocation = await api('GET', '/contacts', { key: newKey });
    const listed = await api('GET', '/keys', auth);

    // Assess
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ name: 'Server', kind: 'secret', last4: key.slice(-4), lastUsedAt: null });
    expect(before.status).toBe(200);
    expect(rotated.status).toBe(200);
    expect(rotated.body.data).toMatchObject({ name: 'Server', kind: 'secret', replaced: created.body.data.id });
    expect(oldAfterRotation.status).toBe(401);
    expect(newAfterRotation.status).toBe(200);
    expect(revoked.status).toBe(200);
    expect(afterRevocation.status).toBe(401);
    const ids = listed.body.data.items.map((item: { id: string }) => item.id);
    expect(ids).not.toContain(created.body.data.id);
    expect(ids).not.toContain(rotated.body.data.id);
    const audit = (await api('GET', '/audit', auth)).body.data.items.map((entry: { action: string }) => entry.action);
    expect(audit).toEqual(expect.arrayContaining(['key.created', 'key.rotated', 'key.revoked']));
  });
});

describe('passwords', () => {
  it('resets a password through the mailed link: one use, every session ends, the new password signs in', async () => {
    // Prepare
    const email = uniqueEmail('forgetful');
    await admin('create-user', '--email', email, '--project', project.projectId, '--role', 'MEMBER', '--password', password);
    const before = await signIn(email);
    const newPassword = 'a brand new passphrase';

    // Act
    const unknown = await session('POST', '/dashboard/session/password-reset', { body: { email: uniqueEmail('nobody') } });
    const asked = await session('POST', '/dashboard/session/password-reset', { body: { email } });
    const [mail] = await waitForEmails(email);
    const token = /#token=([A-Za-z0-9_-]{43})/.exec(mail!.body.html ?? '')?.[1];
    const confirmed = await session('POST', '/dashboard/session/password-reset/confirm', { body: { token, password: newPassword } });
    const reused = await session('POST', '/dashboard/session/password-reset/confirm', { body: { token, password: 'yet another passphrase' } });

    // Assess
    expect(unknown.status).toBe(202);
    expect(asked.status).toBe(202);
    expect(confirmed.status).toBe(200);
    expect(reused.status).toBe(400);
    expect(reused.body.error.code).toBe('INVALID_TOKEN');
    expect((await api('GET', '/me', { key: before.grant.accessToken })).status).toBe(401);
    expect((await session('POST', '/dashboard/session', { body: { email, password } })).status).toBe(401);
    const after = await signIn(email, newPassword);

    // A password change keeps this session and checks the current password.
    const wrongCurrent = await api('PATCH', '/me/password', { key: after.grant.accessToken, body: { currentPassword: password, newPassword: 'the third passphrase' } });
    const changed = await api('PATCH', '/me/password', { key: after.grant.accessToken, body: { currentPassword: newPassword, newPassword: 'the third passphrase' } });
    expect(wrongCurrent.status).toBe(401);
    expect(changed.status).toBe(200);
    expect((await api('GET', '/me', { key: after.grant.accessToken })).status).toBe(200);
  });
});
