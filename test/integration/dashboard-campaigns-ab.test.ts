import { screenshot, useBrowser } from '../support/browser';
import { consoleErrors, goTo, pageFits, signIn } from '../support/dashboard-session';
import { api, stack } from '../support/api-client';
import { givenCampaignAudience } from '../support/campaign-audience';
import { storedEmails } from '../support/mail-viewer';

/** Browser and cold starts on a busy machine: longer than jest's default 5 s. */
const TEST_TIMEOUT_MS = 300_000;
const suffix = Math.random().toString(36).slice(2, 8);
const domain = `dash-ab-${suffix}.test`;
const readers = [0, 1, 2, 3].map((index) => `dash-ab${index}-${suffix}@example.com`);
let segmentName: string;

/** The dashboard at the API's public address, as the other dashboard tests use it (dashboard-campaigns.test.ts). */
const site = { ...stack, baseUrl: stack.baseUrl.replace('127.0.0.1', 'localhost') };

beforeAll(async () => {
  // The signed-in project's verified domain, and an audience of exactly four subscribed readers by segment.
  segmentName = `A/B cohort ${suffix}`;
  await givenCampaignAudience({ domain, readers, field: 'abCohort', value: suffix, segmentName });
}, TEST_TIMEOUT_MS);

describe('the A/B test in the Campaigns pages', () => {
  const browser = useBrowser(TEST_TIMEOUT_MS);

  it('composes an A/B test, shows the sample waiting with its countdown and figures, and sends the hand-picked winner to the rest', async () => {
    // Prepare
    const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    const errors = consoleErrors(page);
    await signIn(page, site);
    const name = `A/B ${suffix}`;

    // Act: compose with two subjects, a 50 % sample, opens, a long wait; save
    await goTo(page, '/campaigns/new', 'New campaign');
    await page.getByLabel('Name', { exact: true }).fill(name);
    await page.getByLabel('From address').fill('news');
    await page.getByLabel('Verified domain').selectOption(domain);
    await page.getByLabel('Audience').selectOption({ label: `Segment: ${segmentName}` });
    await page.getByLabel('Subject', { exact: true }).fill(`Alpha ${suffix}`);
    await page.getByRole('textbox', { name: 'Body' }).click();
    await page.keyboard.type('<p>Hello</p>');
    await page.getByLabel('Try variants on a sample first, then send the winner to the rest').check();
    await page.getByLabel('Subject B').fill(`Beta ${suffix}`);
    await page.getByLabel('Sample (% of the audience)').fill('50');
    await page.getByLabel('Winner by').selectOption('opens');
    await page.getByLabel('Wait (minutes)').fill('600');
    await page.locator('fieldset.ab-test').scrollIntoViewIfNeeded();
    await screenshot(page, 'campaign-ab-compose-1280');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByRole('heading', { name, level: 1 }).waitFor();
    const id = new URL(page.url()).pathname.split('/').pop()!;
    const saved = (await api('GET', `/campaigns/${id}`)).body.data;

    // Act: send; the page shows the sample sent and the wait's countdown
    await page.getByRole('button', { name: 'Send now' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Send to 4 recipients' }).click();
    await page.getByRole('heading', { name: 'A/B test' }).waitFor();
    await page.getByText('Waiting for the winner').waitFor({ timeout: 60_000 });
    await page.locator('.countdown').waitFor();
    await page.getByRole('cell', { name: `Beta ${suffix}` }).waitFor();
    // The sample's figures: one email per variant, sent
    await page.locator('.card').filter({ hasText: /^Sent2$/ }).waitFor();
    const countdown = await page.locator('.countdown').textContent();
    const found: Record<string, string[]> = { 1280: await pageFits(page, 1280) };
    await screenshot(page, 'campaign-ab-waiting-1280');
    const narrow = await browser.newPage({ viewport: { width: 375, height: 900 } });
    await signIn(narrow, site);
    await goTo(narrow, `/campaigns/${id}`, name);
    await narrow.locator('.countdown').waitFor();
    found[375] = await pageFits(narrow, 375);
    await screenshot(narrow, 'campaign-ab-waiting-375');
    await narrow.close();

    // Act: pick B by hand
    await page.getByRole('button', { name: 'Pick this winner (B)' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Send B to the rest' }).click();
    await page.getByText('Winner sent to the rest').waitFor();
    await page.locator('.page-header .badge-sent').waitFor({ timeout: 90_000 });
    await page.locator('.card').filter({ hasText: /^Sent4$/ }).waitFor();
    await screenshot(page, 'campaign-ab-winner-1280');
    const after = (await api('GET', `/campaigns/${id}`)).body.data;
    const mails = (await storedEmails()).filter((mail) => mail.subject.endsWith(suffix) && readers.includes(mail.destination.to[0]!));

    // Assess
    expect(saved.abTest).toMatchObject({ variants: [{ subject: `Alpha ${suffix}` }, { subject: `Beta ${suffix}` }], samplePercent: 50, metric: 'opens', waitMinutes: 600, phase: null });
    expect(countdown).toMatch(/^9 h 5\d min \d\d s$/);
    expect(found).toEqual({ 1280: [], 375: [] });
    expect(after.abTest).toMatchObject({ phase: 'WINNER', winner: 1, pickedBy: 'hand' });
    expect(mails.map((mail) => mail.destination.to[0]).sort()).toEqual([...readers].sort());
    expect(mails.filter((mail) => mail.subject === `Beta ${suffix}`)).toHaveLength(3);
    expect(await page.getByRole('button', { name: /^Pick this winner/ }).count()).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  }, TEST_TIMEOUT_MS);
});
