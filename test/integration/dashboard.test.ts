import { useBrowser } from '../support/browser';
import { consoleErrors, goTo, localOwner, seriousViolations, signIn } from '../support/dashboard-session';
import { api, stack, uniqueEmail, until } from '../support/api-client';

/** Browser and cold starts on a busy machine: longer than jest's default 5 s. */
const TEST_TIMEOUT_MS = 180_000;

describe('GET /dashboard', () => {
  it('serves the app page with a strict policy, never cached, and its hashed files as immutable', async () => {
    // Act
    const page = await fetch(`${stack.baseUrl}/dashboard`);
    const html = await page.text();
    const script = html.match(/src="\/dashboard\/([^"]+\.js)"/)?.[1];
    const asset = await fetch(`${stack.baseUrl}/dashboard/${script}`);

    // Assess
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('cache-control')).toBe('no-store');
    const policy = page.headers.get('content-security-policy')!.split('; ');
    expect(policy).toEqual(expect.arrayContaining(["default-src 'self'", "script-src 'self'", "style-src 'self'", "frame-ancestors 'none'", "base-uri 'none'"]));
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(html).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  }, TEST_TIMEOUT_MS);

  it('answers the app page for a deep link and 404 for a file that does not exist', async () => {
    // Act
    const deepLink = await api('GET', '/dashboard/contacts', { key: null });
    const missing = await api('GET', '/dashboard/index-00000000.js', { key: null });

    // Assess
    expect(deepLink.status).toBe(200);
    expect(deepLink.headers.get('cache-control')).toBe('no-store');
    expect(deepLink.body).toContain('<div id="root"></div>');
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('NOT_FOUND');
  }, TEST_TIMEOUT_MS);
});

describe('the dashboard in a browser', () => {
  const browser = useBrowser(TEST_TIMEOUT_MS);

  it('loads at /dashboard without errors, offers an accessible sign-in, and refuses wrong credentials', async () => {
    // Prepare
    const page = await browser.newPage({ viewport: { width: 375, height: 800 } });
    const errors = consoleErrors(page);

    // Act
    await page.goto(`${stack.baseUrl}/dashboard`);
    await page.getByRole('heading', { name: 'Sign in', level: 1 }).waitFor();
    const violations = await seriousViolations(page);
    await page.getByLabel('Email').fill(localOwner(stack).email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    const alert = await page.getByRole('alert').textContent();

    // Assess
    expect(new URL(page.url()).pathname).toBe('/dashboard/sign-in');
    expect(violations).toEqual([]);
    expect(alert).toContain('The email or password is wrong');
    expect(errors).toEqual([]);
    await page.close();
  }, TEST_TIMEOUT_MS);

  it('signs in, and every page it serves today fits 375 and 1280 px with no serious or critical axe findings', async () => {
    for (const width of [375, 1280]) {
      // Prepare
      const page = await browser.newPage({ viewport: { width, height: 900 } });
      const errors = consoleErrors(page);
      await signIn(page, stack);
      const found: Record<string, string[]> = {};

      // Act
      for (const [path, heading] of [['', 'Overview'], ['/contacts', 'Contacts'], ['/contacts/import', 'Import contacts'], ['/contacts/export', 'Export contacts'], ['/emails', 'Emails'], ['/events', 'Events'], ['/domains', 'Domains'], ['/settings', 'Settings']] as const) {
        await goTo(page, path, heading);
        await page.getByRole('status').filter({ hasText: /^Loading/ }).waitFor({ state: 'detached' });
        const violations = await seriousViolations(page);
        // Wide tables scroll inside their own box; the page itself never scrolls sideways.
        if (Number(await page.evaluate('document.documentElement.scrollWidth')) > width) violations.push(`wider than ${width} px`);
        found[heading] = violations;
      }

      // Assess
      expect(found).toEqual({ Overview: [], Contacts: [], 'Import contacts': [], 'Export contacts': [], Emails: [], Events: [], Domains: [], Settings: [] });
      expect(errors).toEqual([]);
      await page.close();
    }
  }, TEST_TIMEOUT_MS);

  it('finds a /v1/send email on the Emails page as delivered, its <script> subject as text, and shows its timeline', async () => {
    // Prepare
    const to = uniqueEmail('activity');
    const subject = '<script>window.__injected = true</script> Reset your password';
    const sent = await api('POST', '/v1/send', { body: { to, from: 'hello@example.com', subject, body: '<p>Reset</p>' } });
    const id = sent.body.data.emails[0].email as string;
    await until(async () => ((await api('GET', `/emails/${id}`)).body.data.timeline.some((entry: { type: string }) => entry.type === 'delivered') ? true : undefined));
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors = consoleErrors(page);
    await signIn(page, stack);

    // Act
    await goTo(page, '/emails', 'Emails');
    await page.getByLabel('Recipient').fill(to);
    const row = page.getByRole('row').filter({ hasText: to });
    await row.getByText('delivered').waitFor();
    await row.getByRole('link', { name: subject }).click();
    await page.getByRole('heading', { name: subject, level: 1 }).waitFor();
    const timeline = await page.locator('.timeline strong').allTextContents();
    const injected = await page.evaluate(() => (globalThis as unknown as { __injected?: boolean }).__injected ?? false);

    // Assess
    expect(timeline).toEqual(['queued', 'sent', 'delivered']);
    expect(injected).toBe(false);
    expect(errors).toEqual([]);
    await page.close();
  }, TEST_TIMEOUT_MS);

  it('renders a contact\'s <script> data as text on its page and its events, and deletes it from there after confirming', async () => {
    // Prepare
    const email = uniqueEmail('script');
    const payload = '<script>window.__injected = true</script><img src=x onerror="window.__injected = true">';
    const created = await api('POST', '/contacts', { body: { email, data: { note: payload } } });
    await api('POST', '/v1/track', { body: { email, event: 'script-test', data: { note: payload } } });
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors = consoleErrors(page);
    await signIn(page, stack);

    // Act
    await goTo(page, '/contacts', 'Contacts');
    await page.getByLabel('Search by email').fill(email);
    await page.getByRole('link', { name: email }).click();
    await page.getByRole('heading', { name: email, level: 1 }).waitFor();
    await page.getByText('script-test').waitFor();
    const value = await page.getByLabel('Value of note').inputValue();
    const eventData = await page.locator('.timeline code').first().textContent();
    const injected = await page.evaluate(() => (globalThis as unknown as { __injected?: boolean }).__injected ?? false);
    const scripts = await page.locator('main script, main img').count();
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog', { name: 'Delete this contact?' }).getByRole('button', { name: 'Delete contact' }).click();
    await page.getByRole('heading', { name: 'Contacts', level: 1 }).waitFor();
    const deleted = await api('GET', `/contacts/${created.body.data.id}`);

    // Assess
    expect(created.status).toBe(201);
    expect(value).toBe(payload);
    expect(eventData).toContain(payload.replace(/"/g, '\\"'));
    expect(injected).toBe(false);
    expect(scripts).toBe(0);
    expect(deleted.status).toBe(404);
    expect(errors).toEqual([]);
    await page.close();
  }, TEST_TIMEOUT_MS);

  it('creates a contact, edits its data and subscription, then unsubscribes and deletes a selection after confirming', async () => {
    // Prepare
    const email = uniqueEmail('dash');
    const other = uniqueEmail('dash');
    await api('POST', '/contacts', { body: { email: other } });
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors = consoleErrors(page);
    await signIn(page, stack);
    await goTo(page, '/contacts', 'Contacts');

    // Act: create through the form, then open it and edit.
    await page.getByText('Add a contact').click();
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByText('Contact saved.').waitFor();
    await page.getByLabel('Search by email').fill(email);
    await page.getByRole('link', { name: email }).click();
    await page.getByRole('switch', { name: 'Subscribed' }).click();
    await page.getByRole('switch', { name: 'Subscribed', checked: false }).waitFor();
    await page.getByRole('button', { name: 'Add a key' }).click();
    await page.getByRole('textbox', { name: 'Key 1', exact: true }).fill('plan');
    await page.getByLabel('Value of plan').fill('team');
    // Listening before the click: a quick answer could otherwise come before the wait begins.
    const saved = page.waitForResponse((response) => response.request().method() === 'PATCH' && response.ok());
    await page.getByRole('button', { name: 'Save data' }).click();
    await saved;
    const edited = (await api('GET', `/contacts/${page.url().split('/').pop()}`)).body.data;

    // Act: select both on the list, unsubscribe, then delete (cancel first, then confirm).
    await goTo(page, '/contacts', 'Contacts');
    await page.getByLabel('Search by email').fill('dash-');
    await page.getByRole('checkbox', { name: `Select ${email}` }).check();
    await page.getByRole('checkbox', { name: `Select ${other}` }).check();
    await page.getByRole('button', { name: 'Unsubscribe' }).click();
    await page.getByText('2 of 2 contacts unsubscribed.').waitFor();
    await page.getByRole('checkbox', { name: `Select ${email}` }).check();
    await page.getByRole('checkbox', { name: `Select ${other}` }).check();
    await page.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete 2 contacts?' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    const afterCancel = (await api('GET', `/contacts?search=${encodeURIComponent(other)}`)).body.data.items.length;
    await page.getByRole('button', { name: 'Delete' }).click();
    await dialog.getByRole('button', { name: 'Delete contacts' }).click();
    await page.getByText('2 of 2 contacts deleted.').waitFor();
    const remaining = await Promise.all([email, other].map(async (address) => (await api('GET', `/contacts?search=${encodeURIComponent(address)}`)).body.data.items.length));

    // Assess
    expect(edited).toMatchObject({ email, subscribed: false, data: { plan: 'team' } });
    expect(afterCancel).toBe(1);
    expect(remaining).toEqual([0, 0]);
    expect(errors).toEqual([]);
    await page.close();
  }, TEST_TIMEOUT_MS);

  it('imports a CSV with a preview of the mapped columns, shows its progress, and lists the failed rows with reasons', async () => {
    // Prepare
    const good = uniqueEmail('import');
    const csv = `Email Address,First Name,subscribed\n${good},Ada,yes\nnot-an-email,Bob,no\n`;
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors = consoleErrors(page);
    await signIn(page, stack);
    await goTo(page, '/contacts/import', 'Import contacts');

    // Act
    await page.getByLabel('CSV file').setInputFiles({ name: 'contacts.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    const headers = await page.getByRole('columnheader').allTextContents();
    await page.getByRole('button', { name: 'Start the import' }).click();
    await page.getByText('completed', { exact: true }).waitFor({ timeout: 60_000 });
    const progress = await page.locator('#import-progress').evaluate((element) => ({ value: (element as unknown as { value: number }).value, max: (element as unknown as { max: number }).max }));
    const failedRow = await page.getByRole('table', { name: 'Failed rows' }).getByRole('row').nth(1).allTextContents();
    const imported = (await api('GET', `/contacts?search=${encodeURIComponent(good)}`)).body.data.items[0];

    // Assess
    expect(headers).toEqual(['Email Address→ Email', 'First Name→ data.firstName', 'subscribed→ Subscribed']);
    expect(progress).toEqual({ value: 2, max: 2 });
    expect(failedRow.join(' ')).toMatch(/^2\s*not-an-email\s*\S/);
    expect(imported).toMatchObject({ email: good, subscribed: true, data: { firstName: 'Ada' } });
    expect(errors).toEqual([]);
    await page.close();
  }, TEST_TIMEOUT_MS);

  it('exports contacts and offers the file for download when it is ready', async () => {
    // Prepare
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors = consoleErrors(page);
    await signIn(page, stack);
    await goTo(page, '/contacts/export', 'Export contacts');

    // Act
    await page.getByRole('button', { name: 'Export to CSV' }).click();
    const link = page.getByRole('status').getByRole('link', { name: 'Download CSV' });
    await link.waitFor({ timeout: 60_000 });
    const file = await fetch((await link.getAttribute('href'))!);

    // Assess
    expect(file.status).toBe(200);
    expect((await file.text()).split('\n')[0]).toContain('email');
    expect(errors).toEqual([]);
    await page.close();
  }, TEST_TIMEOUT_MS);

  it('adds a domain, shows its DNS records with copy buttons, and removes it after confirming', async () => {
    // Prepare
    const domain = `dash-${Date.now().toString(36)}.example.net`;
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors = consoleErrors(page);
    await signIn(page, stack);
    await goTo(page, '/domains', 'Domains');

    // Act
    await page.getByLabel('Sending domain').fill(domain);
    await page.getByRole('button', { name: 'Add domain' }).click();
    const card = page.getByRole('region', { name: domain });
    await card.getByRole('table', { name: 'DNS records to publish' }).waitFor();
    const records = (await api('GET', '/domains')).body.data.items.find((item: { domain: string }) => item.domain === domain).records;
    // The page may write the clipboard but not read it (Permissions-Policy): record what it writes.
    await page.evaluate(() => {
      const { clipboard } = (globalThis as unknown as { navigator: { clipboard: { writeText: (text: string) => Promise<void> } } }).navigator;
      const write = clipboard.writeText.bind(clipboard);
      clipboard.writeText = (text: string) => ((globalThis as unknown as { copied: string }).copied = text, write(text));
    });
    const copy = card.getByRole('button', { name: /^Copy .* value$/ }).first();
    await copy.click();
    await copy.getByText('Copied').waitFor();
    const copied = await page.evaluate(() => (globalThis as unknown as { copied: string }).copied);
    await card.getByRole('button', { name: 'Re-check' }).click();
    await card.getByRole('button', { name: 'Remove' }).click();
    await page.getByRole('dialog', { name: `Remove ${domain}?` }).getByRole('button', { name: 'Remove domain' }).click();
    await card.waitFor({ state: 'detached' });
    const left = (await api('GET', '/domains')).body.data.items.some((item: { domain: string }) => item.domain === domain);

    // Assess
    expect(records.length).toBeGreaterThan(0);
    expect(copied).toBe(records[0].value);
    expect(left).toBe(false);
    expect(errors).toEqual([]);
    await page.close();
  }, TEST_TIMEOUT_MS);

  it('is usable from the keyboard: skip link first, visible focus, a confirm dialog that Escape cancels', async () => {
    // Prepare
    const email = uniqueEmail('keyboard');
    const created = await api('POST', '/contacts', { body: { email } });
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors = consoleErrors(page);
    await signIn(page, stack);
    const focused = () => page.evaluate('({ text: document.activeElement.textContent.trim(), id: document.activeElement.id, outline: getComputedStyle(document.activeElement).outlineStyle })');

    // Act: load a page (a reload renews the session), Tab from its top, follow the skip link,
    // then open a confirm dialog from the keyboard and Escape it.
    await page.goto(`${stack.baseUrl}/dashboard/contacts`);
    await page.getByRole('heading', { name: 'Contacts', level: 1 }).waitFor();
    await page.keyboard.press('Tab');
    const first = await focused();
    await page.keyboard.press('Enter');
    const afterSkip = await focused();
    await page.getByLabel('Search by email').fill(email);
    await page.getByRole('checkbox', { name: `Select ${email}` }).focus();
    await page.keyboard.press('Space');
    await page.getByRole('button', { name: 'Delete' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Delete 1 contacts?' });
    await dialog.waitFor();
    const inDialog = await focused();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    const afterEscape = await focused();
    const still = await api('GET', `/contacts/${created.body.data.id}`);

    // Assess
    expect(first).toMatchObject({ text: 'Skip to content', outline: 'solid' });
    expect(afterSkip).toMatchObject({ id: 'main' });
    expect(inDialog).toMatchObject({ text: 'Cancel', outline: 'solid' });
    expect(afterEscape).toMatchObject({ text: 'Delete' });
    expect(still.status).toBe(200);
    expect(errors).toEqual([]);
    await page.close();
  }, TEST_TIMEOUT_MS);

  it('filters the event feed by name and contact', async () => {
    // Prepare
    const email = uniqueEmail('events');
    const name = `dash-event-${Date.now().toString(36)}`;
    await api('POST', '/v1/track', { body: { email, event: name, data: { n: 1 } } });
    await api('POST', '/v1/track', { body: { email: uniqueEmail('events'), event: name, data: { n: 2 } } });
    const page = await browser.newPage({ viewport: { width: 375, height: 900 } });
    const errors = consoleErrors(page);
    await signIn(page, stack);
    await goTo(page, '/events', 'Events');

    // Act
    await page.getByLabel('Name').fill(name);
    await page.getByRole('row').filter({ hasText: name }).nth(1).waitFor();
    const byName = await page.getByRole('row').filter({ hasText: name }).count();
    await page.getByLabel('Contact (email or id)').fill(email);
    await page.getByRole('row').filter({ hasText: name }).nth(1).waitFor({ state: 'detached' });
    const byContact = await page.getByRole('row').filter({ hasText: name }).count();

    // Assess
    expect(byName).toBe(2);
    expect(byContact).toBe(1);
    expect(errors).toEqual([]);
    await page.close();
  }, TEST_TIMEOUT_MS);
});
