import { screenshot, useBrowser } from '../support/browser';
import { consoleErrors, goTo, pageFits, signIn } from '../support/dashboard-session';
import { api, stack } from '../support/api-client';
import { givenCampaignAudience } from '../support/campaign-audience';
import { storedEmails } from '../support/mail-viewer';

/** Browser and cold starts on a busy machine, and a send spread over two minutes. */
const TEST_TIMEOUT_MS = 360_000;
const suffix = Math.random().toString(36).slice(2, 8);
const domain = `dash-spread-${suffix}.test`;
const readers = [0, 1, 2].map((index) => `dash-spread${index}-${suffix}@example.com`);
let segmentName: string;

/** The dashboard at the API's public address (as test/integration/dashboard-campaigns.test.ts explains). */
const site = { ...stack, baseUrl: stack.baseUrl.replace('127.0.0.1', 'localhost') };

beforeAll(async () => {
  // A verified domain and an audience of exactly three subscribed readers, by segment.
  segmentName = `Spread cohort ${suffix}`;
  await givenCampaignAudience({ domain, readers, field: 'spreadCohort', value: suffix, segmentName });
}, TEST_TIMEOUT_MS);

describe('a spread campaign in the dashboard', () => {
  const browser = useBrowser(TEST_TIMEOUT_MS);

  it('composes a campaign spread over 2 minutes, sends it, and shows the spread\'s progress until it is SENT, at 1280 and 375 px with no serious axe findings', async () => {
    // Prepare
    const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    const errors = consoleErrors(page);
    await signIn(page, site);
    const name = `Spread ${suffix}`;

    // Act: compose with the spread option, save, and read it back from the API and the reloaded form.
    await goTo(page, '/campaigns/new', 'New campaign');
    await page.getByLabel('Name', { exact: true }).fill(name);
    await page.getByLabel('From address').fill('news');
    await page.getByLabel('Verified domain').selectOption(domain);
    await page.getByLabel('Audience').selectOption({ label: `Segment: ${segmentName}` });
    await page.getByLabel('Spread sending over (minutes)').fill('2');
    const hint = await page.getByText('Evenly over 2 min from when sending starts').textContent();
    await page.getByLabel('Subject').fill(`Spread ${suffix}`);
    await page.getByRole('textbox', { name: 'Body' }).click();
    await page.keyboard.type('<p>Hello</p>');
    await screenshot(page, 'campaign-spread-compose-1280');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByRole('heading', { name, level: 1 }).waitFor();
    const id = new URL(page.url()).pathname.split('/').pop()!;
    const saved = (await api('GET', `/campaigns/${id}`)).body.data;
    await page.reload();
    await page.getByRole('heading', { name, level: 1 }).waitFor();
    const shown = await page.getByLabel('Spread sending over (minutes)').inputValue();

    // Act: send; while SENDING the page shows the spread's window and its progress.
    await page.getByRole('button', { name: 'Send now' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Send to 3 recipients' }).click();
    await page.getByRole('heading', { name: 'Spread over 2 min' }).waitFor();
    await page.getByText('Sent: 1 of 3').waitFor({ timeout: 60_000 });
    const sending = (await api('GET', `/campaigns/${id}`)).body.data;
    const pace = await page.getByText(/^One email every/).textContent();
    const midway = await page.locator('#spread-sent').getAttribute('value');
    const found: Record<string, string[]> = { 1280: await pageFits(page, 1280) };
    await screenshot(page, 'campaign-spread-sending-1280');
    const narrow = await browser.newPage({ viewport: { width: 375, height: 900 } });
    const narrowErrors = consoleErrors(narrow);
    await signIn(narrow, site);
    await goTo(narrow, `/campaigns/${id}`, name);
    await narrow.getByRole('heading', { name: 'Spread over 2 min' }).waitFor();
    await narrow.getByText(/^Sent: \d of 3/).waitFor();
    found[375] = await pageFits(narrow, 375);
    await screenshot(narrow, 'campaign-spread-sending-375');

    // Act: the page follows it to SENT on its own.
    await page.locator('.page-header .badge-sent').waitFor({ timeout: 180_000 });
    await page.getByText('Sent: 3 of 3').waitFor({ timeout: 30_000 });
    await screenshot(page, 'campaign-spread-sent-1280');
    const mails = (await storedEmails()).filter((mail) => mail.subject === `Spread ${suffix}`);

    // Assess
    expect(hint).toContain('never faster than SES allows');
    expect(saved.spreadOverMinutes).toBe(2);
    expect(shown).toBe('2');
    expect(sending.status).toBe('SENDING');
    expect(sending.spread).toMatchObject({ overMinutes: 2, startedAt: sending.sentAt });
    expect(pace).toBe('One email every 40 s');
    expect(midway).toBe('1');
    expect(found).toEqual({ 375: [], 1280: [] });
    expect(mails).toHaveLength(3);
    const times = mails.map((mail) => mail.at * 1000).sort((a, b) => a - b);
    expect(times.at(-1)! - times[0]!).toBeGreaterThanOrEqual(60_000);
    expect(errors).toEqual([]);
    expect(narrowErrors).toEqual([]);
    await narrow.close();
    await page.close();
  }, TEST_TIMEOUT_MS);
});
