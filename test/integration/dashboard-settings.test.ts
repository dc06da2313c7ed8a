import type { Page } from 'playwright-core';
import { screenshot, useBrowser } from '../support/browser';
import { consoleErrors, goTo, localOwner, seriousViolations, signIn } from '../support/dashboard-session';
import { api, stack, uniqueEmail, until } from '../support/api-client';
import { waitForEmails } from '../support/mail-viewer';

/** Browser and cold starts on a busy machine: longer than jest's default 5 s. */
const TEST_TIMEOUT_MS = 180_000;

/** Opens Settings signed in, waits for its lists, and returns axe's findings there. */
async function openSettings(page: Page): Promise<string[]> {
  await signIn(page, stack);
  await goTo(page, '/settings', 'Settings');
  await page.getByRole('table', { name: 'API keys' }).getByRole('row').nth(1).waitFor();
  return seriousViolations(page);
}

/** The key the page reveals, read from its one-time notice. */
async function revealedKey(page: Page): Promise<string> {
  const notice = page.getByRole('status').filter({ hasText: 'It is shown only this once' });
  return (await notice.locator('code').textContent())!.trim();
}

const KEY_PATTERN = /^sk_[A-Za-z0-9]{43}$/;

describe('the dashboard settings and overview in a browser', () => {
  const browser = useBrowser(TEST_TIMEOUT_MS);

  it('creates a secret key revealed once, rotates it to a new one, and revokes it after confirming so the API refuses it', async () => {
    // Prepare
    const name = `dash-key-${Date.now().toString(36)}`;
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors = consoleErrors(page);
    const violations = await openSettings(page);
    const row = page.getByRole('table', { name: 'API keys' }).getByRole('row').filter({ hasText: name });

    // Act: create, use it, dismiss the notice.
    await page.getByLabel('Key name').fill(name);
    await page.getByLabel('Kind').selectOption('secret');
    await page.getByRole('button', { name: 'Create key' }).click();
    const created = await revealedKey(page);
    await row.waitFor();
    const withCreated = await api('GET', '/contacts', { key: created });
    await page.getByRole('button', { name: 'Done' }).click();
    const shownAfterDone = await page.getByText(created).count();

    // Act: rotate (the old key stops at once), then reload: the new key is not shown again.
    await row.getByRole('button', { name: 'Rotate' }).click();
    const rotateDialog = page.getByRole('dialog', { name: `Rotate ${name}?` });
    const rotateWarning = await rotateDialog.textContent();
    await rotateDialog.getByRole('button', { name: 'Rotate key' }).click();
    await until(async () => ((await revealedKey(page)) !== created ? true : undefined));
    const rotated = await revealedKey(page);
    const withRotated = await api('GET', '/contacts', { key: rotated });
    const withReplaced = await api('GET', '/contacts', { key: created });
    await page.reload();
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    await row.waitFor();
    const shownAfterReload = await page.getByText(rotated).count();

    // Act: revoke, cancelling the first time.
    await row.getByRole('button', { name: 'Revoke' }).click();
    const dialog = page.getByRole('dialog', { name: `Revoke ${name}?` });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const afterCancel = await api('GET', '/contacts', { key: rotated });
    await row.getByRole('button', { name: 'Revoke' }).click();
    await dialog.getByRole('button', { name: 'Revoke key' }).click();
    await row.waitFor({ state: 'detached' });
    // Revoked at once: the function checks the revoked set even while the gateway caches the authorizer's answer.
    const afterRevoke = await api('GET', '/contacts', { key: rotated });

    // Assess
    expect(violations).toEqual([]);
    expect(created).toMatch(KEY_PATTERN);
    expect(withCreated.status).toBe(200);
    expect(shownAfterDone).toBe(0);
    expect(rotateWarning).toContain('the old one stops working at once');
    expect(rotated).toMatch(KEY_PATTERN);
    expect(withRotated.status).toBe(200);
    expect(withReplaced.status).toBe(401);
    expect(shownAfterReload).toBe(0);
    expect(afterCancel.status).toBe(200);
    expect(afterRevoke.status).toBe(401);
    expect(afterRevoke.body.error.code).toBe('UNAUTHORIZED');
    expect(errors).toEqual([]);
    await page.close();
  }, TEST_TIMEOUT_MS);

  it('invites a member by email, lists the invitation, and cancels it after confirming', async () => {
    // Prepare
    const email = uniqueEmail('invitee');
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors = consoleErrors(page);
    await openSettings(page);
    const pending = page.getByRole('listitem').filter({ hasText: email });

    // Act
    await page.getByLabel('Invite by email').fill(email);
    await page.getByLabel('Role', { exact: true }).selectOption('MEMBER');
    await page.getByRole('button', { name: 'Send invitation' }).click();
    await page.getByText('Invitation sent.').waitFor();
    await pending.waitFor();
    const listed = await pending.textContent();
    const mail = await waitForEmails(email);
    await pending.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('dialog', { name: `Cancel the invitation of ${email}?` }).getByRole('button', { name: 'Cancel invitation' }).click();
    await pending.waitFor({ state: 'detached' });
    const left = (await api('GET', '/members/invitations')).body.data.items.some((invitation: { email: string }) => invitation.email === email);

    // Assess
    expect(listed).toContain('member');
    expect(mail).toHaveLength(1);
    expect(mail[0]!.body.html ?? mail[0]!.body.text).toContain('/dashboard/accept-invitation#token=');
    expect(left).toBe(false);
    expect(errors).toEqual([]);
    await page.close();
  }, TEST_TIMEOUT_MS);

  it('renames the project, and the header shows the new name after a reload', async () => {
    // Prepare
    const original = (await api('GET', '/project')).body.data.name as string;
    const renamed = `Dash project ${Date.now().toString(36)}`;
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors = consoleErrors(page);
    await openSettings(page);

    // Act
    await page.getByLabel('Project name').fill(renamed);
    await page.getByRole('button', { name: 'Rename' }).click();
    await page.getByText('Saved.').waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    const header = await page.getByRole('banner').textContent();
    const field = await page.getByLabel('Project name').inputValue();
    const stored = (await api('GET', '/project')).body.data.name;
    await api('PATCH', '/project', { body: { name: original } });

    // Assess
    expect(header).toContain(renamed);
    expect(field).toBe(renamed);
    expect(stored).toBe(renamed);
    expect(errors).toEqual([]);
    await page.close();
  }, TEST_TIMEOUT_MS);

  it('shows today\'s /v1/send in the Overview\'s Sent figure', async () => {
    // Prepare
    const today = new Date().toISOString().slice(0, 10);
    const sentToday = async () => (await api('GET', `/analytics?from=${today}&to=${today}`)).body.data.totals.sent as number;
    const page = await browser.newPage({ viewport: { width: 375, height: 900 } });
    const errors = consoleErrors(page);
    const caption = page.locator('figcaption').filter({ hasText: /^Sent:/ });
    /** The Sent total the page shows as text for the last 7 days, and the last day its chart covers. */
    const shown = async () => {
      await page.getByRole('button', { name: '7 days' }).click();
      await caption.waitFor();
      return { total: Number(await caption.locator('strong').textContent()), lastDay: await caption.locator('xpath=..').locator('.chart-range span').last().textContent() };
    };
    await signIn(page, stack);
    const violations = await seriousViolations(page);
    const before = await shown();
    const countedBefore = await sentToday();

    // Act: send, wait until the statistics count it (they are updated asynchronously), then reload.
    const sent = await api('POST', '/v1/send', { body: { to: uniqueEmail('overview'), from: 'hello@example.com', subject: 'Overview', body: '<p>Hi</p>' } });
    await until(async () => ((await sentToday()) > countedBefore ? true : undefined));
    await page.reload();
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
    const after = await shown();

    // Assess
    expect(sent.status).toBe(200);
    expect(after.total).toBe(before.total + 1);
    expect(after.lastDay).toBe(today);
    expect(violations).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  }, TEST_TIMEOUT_MS);

  it('lists on a contact\'s page the email it was sent', async () => {
    // Prepare
    const to = uniqueEmail('contact-mail');
    const subject = `Welcome ${Date.now().toString(36)}`;
    const contact = (await api('POST', '/contacts', { body: { email: to } })).body.data;
    const sent = await api('POST', '/v1/send', { body: { to, from: 'hello@example.com', subject, body: '<p>Welcome</p>' } });
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors = consoleErrors(page);
    await signIn(page, stack);

    // Act
    await goTo(page, `/contacts/${contact.id}`, to);
    const violations = await seriousViolations(page);
    const emails = page.getByRole('region', { name: 'Emails' });
    await emails.getByRole('link', { name: subject }).click();
    await page.getByRole('heading', { name: subject, level: 1 }).waitFor();

    // Assess
    expect(sent.status).toBe(200);
    expect(new URL(page.url()).pathname).toBe(`/dashboard/emails/${sent.body.data.emails[0].email}`);
    expect(violations).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  }, TEST_TIMEOUT_MS);

  it('shows Settings with data at 375 and 1280 px without sideways scrolling (screenshots kept)', async () => {
    // Prepare
    const email = uniqueEmail('shot');
    const owner = localOwner(stack);
    const keyName = `Screenshot server ${Date.now().toString(36)}`;
    const callerKeyId = (await api('GET', '/keys')).body.data.items.find((key: { prefix: string; last4: string }) => stack.secretKey.startsWith(key.prefix.replace('…', '')) && stack.secretKey.endsWith(key.last4)).id as string;
    await api('POST', '/keys', { body: { name: keyName, kind: 'secret' } });
    const found: Record<number, string[]> = {};
    let keyCreatedBy = '';

    for (const width of [375, 1280]) {
      const page = await browser.newPage({ viewport: { width, height: 900 } });
      const errors = consoleErrors(page);
      found[width] = await openSettings(page);
      if (width === 375) {
        await page.getByLabel('Invite by email').fill(email);
        await page.getByRole('button', { name: 'Send invitation' }).click();
        await page.getByText('Invitation sent.').waitFor();
        // The audit log is read when the page opens.
        await page.reload();
        await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
      }
      await page.getByRole('listitem').filter({ hasText: email }).waitFor();
      const audit = page.getByRole('table', { name: 'Audit log, newest first' });
      keyCreatedBy = (await audit.getByRole('row').filter({ hasText: keyName }).getByRole('cell').nth(1).textContent())!;
      // The invitation was made in the owner's session, which the log records by user id only.
      await audit.getByRole('row').filter({ hasText: 'member.invited' }).filter({ hasText: email }).getByRole('cell', { name: owner.email, exact: true }).waitFor();
      const who = await audit.getByRole('row').locator('td:nth-child(2)').allTextContents();
      found[width]!.push(...who.filter((name) => /^[0-9A-Z]{26}$/.test(name)).map((name) => `audit actor shown as a bare id: ${name}`));

      // Act
      await screenshot(page, `settings-${width}`);
      if (Number(await page.evaluate('document.documentElement.scrollWidth')) > width) found[width]!.push(`wider than ${width} px`);
      found[width]!.push(...errors);
      await page.close();
    }

    // Assess
    expect(found).toEqual({ 375: [], 1280: [] });
    expect(keyCreatedBy).toBe(`API key ${callerKeyId}`);
  }, TEST_TIMEOUT_MS);
});
