import type { Page } from 'playwright-core';
import { screenshot, useBrowser } from '../support/browser';
import { consoleErrors, goTo, localOwner, pageFits, signIn } from '../support/dashboard-session';
import { api, stack } from '../support/api-client';
import { givenCampaignAudience } from '../support/campaign-audience';
import { storedEmails } from '../support/mail-viewer';

/** Browser and cold starts on a busy machine: longer than jest's default 5 s. */
const TEST_TIMEOUT_MS = 300_000;
const HOSTILE = '<script>window.__injected = true</script><img src=x onerror="window.__injected = true">';
const suffix = Math.random().toString(36).slice(2, 8);
const domain = `dash-campaigns-${suffix}.test`;
const readers = [0, 1, 2].map((index) => `dash-reader${index}-${suffix}@example.com`);
let segmentName: string;

/**
 * The dashboard at the API's public address (PUBLIC_API_URL, localhost locally): the preview
 * frame shows a document of that origin, which the dashboard's frame-src 'self' and the preview's
 * frame-ancestors 'self' allow only from the same origin.
 */
const site = { ...stack, baseUrl: stack.baseUrl.replace('127.0.0.1', 'localhost') };

const injected = (page: Page) => page.evaluate(() => (globalThis as unknown as { __injected?: boolean }).__injected ?? false);

beforeAll(async () => {
  // The signed-in project's verified domain, and an audience of exactly three subscribed readers (one more unsubscribed) by segment.
  segmentName = `Cohort ${suffix}`;
  await givenCampaignAudience({ domain, readers, field: 'cohort', value: suffix, segmentName, data: { name: 'Reader' } });
  await api('POST', '/contacts', { body: { email: `dash-gone-${suffix}@example.com`, subscribed: false, data: { cohort: suffix } } });
}, TEST_TIMEOUT_MS);

describe('the Campaigns pages in a browser', () => {
  const browser = useBrowser(TEST_TIMEOUT_MS);

  it('composes a campaign to a segment, tests it, schedules and unschedules it, sends it after a confirmation naming the recipients, and follows it to SENT without a reload', async () => {
    // Prepare
    const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    const errors = consoleErrors(page);
    await signIn(page, site);
    const name = `${HOSTILE} News ${suffix}`;
    const subject = `News ${suffix} for {{contact.data.name}}`;

    // Act: compose and save the draft.
    await goTo(page, '/campaigns', 'Campaigns');
    await page.getByRole('link', { name: 'New campaign' }).click();
    await page.getByRole('heading', { name: 'New campaign', level: 1 }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill(name);
    await page.getByLabel('From name').fill('Acme News');
    await page.getByLabel('From address').fill('news');
    await page.getByLabel('Verified domain').selectOption(domain);
    await page.getByLabel('Audience').selectOption({ label: `Segment: ${segmentName}` });
    await page.getByLabel('Subject').fill(subject);
    await page.getByRole('textbox', { name: 'Body' }).click();
    await page.keyboard.type('<p>Hello {{contact.data.name}}</p>\n<p><a href="https://example.com/offer">Offer</a></p>');
    await screenshot(page, `campaign-compose-1280`);
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByRole('heading', { name, level: 1 }).waitFor();
    const id = new URL(page.url()).pathname.split('/').pop()!;

    // Act: the audience's figures, a test to the signed-in owner, a schedule and its cancellation.
    const recipients = await page.locator('.figure-main dd').textContent();
    await page.getByRole('button', { name: 'Send test' }).click();
    await page.getByText(`Test sent to ${localOwner(stack).email}.`).waitFor();
    const inTwoMinutes = new Date(Date.now() + 120_000);
    const local = new Date(inTwoMinutes.getTime() - inTwoMinutes.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
    await page.getByLabel(/^Send at/).fill(local);
    await page.getByRole('button', { name: 'Schedule', exact: true }).click();
    await page.getByText('Scheduled for').waitFor();
    const scheduled = (await api('GET', `/campaigns/${id}`)).body.data;
    await page.getByRole('button', { name: 'Cancel schedule' }).click();
    await page.getByRole('dialog', { name: 'Cancel the schedule?' }).getByRole('button', { name: 'Cancel schedule' }).click();
    await page.getByText('Scheduled for').waitFor({ state: 'detached' });

    // Act: send now; the page follows the campaign to SENT on its own.
    await page.getByRole('button', { name: 'Send now' }).click();
    const question = await page.getByRole('dialog').getByRole('heading').textContent();
    await page.getByRole('dialog').getByRole('button', { name: 'Send to 3 recipients' }).click();
    await page.getByRole('heading', { name: 'Figures' }).waitFor();
    await page.locator('.page-header .badge-sent').waitFor({ timeout: 90_000 });
    await page.locator('.card').filter({ hasText: /^Sent3$/ }).waitFor();
    const sentCard = await page.locator('.card').filter({ hasText: /^Sent/ }).locator('.card-value').textContent();
    await screenshot(page, `campaign-report-1280`);
    const delivered = (await storedEmails()).filter((mail) => mail.subject.startsWith(`News ${suffix}`) && !mail.subject.startsWith('[TEST]'));
    const tests = (await storedEmails()).filter((mail) => mail.subject.startsWith(`[TEST] News ${suffix}`));

    // Assess
    expect(recipients).toBe('3');
    expect(scheduled.status).toBe('SCHEDULED');
    expect(new Date(scheduled.scheduledFor).getTime()).toBe(new Date(local).getTime());
    expect(question).toBe('Send to 3 recipients?');
    expect(sentCard).toBe('3');
    expect(delivered).toHaveLength(3);
    expect(tests).toHaveLength(1);
    expect(await injected(page)).toBe(false);
    expect(errors).toEqual([]);
    await page.close();
  }, TEST_TIMEOUT_MS);

  it('fits the Campaigns list, a draft and a report at 375 and 1280 px with no serious or critical axe findings (screenshots kept)', async () => {
    const draft = await api('POST', '/campaigns', { body: { name: `Draft ${HOSTILE}`, subject: 'Draft', body: '<p>Draft</p>', from: { email: `news@${domain}` } } });
    expect(draft.status).toBe(201);
    for (const width of [375, 1280]) {
      // Prepare
      const page = await browser.newPage({ viewport: { width, height: 900 } });
      const errors = consoleErrors(page);
      await signIn(page, site);
      const found: Record<string, string[]> = {};

      // Act
      await goTo(page, '/campaigns', 'Campaigns');
      await page.getByRole('status').filter({ hasText: /^Loading/ }).waitFor({ state: 'detached' });
      found.list = await pageFits(page, width);
      await screenshot(page, `campaigns-${width}`);
      await goTo(page, `/campaigns/${draft.body.data.id}`, `Draft ${HOSTILE}`);
      await page.locator('.cm-content').first().waitFor();
      await page.locator('.preview-stage iframe').waitFor();
      found.draft = await pageFits(page, width);
      await screenshot(page, `campaign-draft-${width}`);
      await goTo(page, '/campaigns', 'Campaigns');
      await page.getByRole('link', { name: new RegExp(`News ${suffix}$`) }).click();
      await page.getByRole('heading', { name: 'Figures' }).waitFor();
      found.report = await pageFits(page, width);
      await screenshot(page, `campaign-report-${width}`);

      // Assess
      expect(found).toEqual({ list: [], draft: [], report: [] });
      expect(await injected(page)).toBe(false);
      expect(errors).toEqual([]);
      await page.close();
    }
  }, TEST_TIMEOUT_MS);
});
