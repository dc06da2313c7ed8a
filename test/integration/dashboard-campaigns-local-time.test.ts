import type { Page } from 'playwright-core';
import { screenshot, useBrowser } from '../support/browser';
import { consoleErrors, goTo, seriousViolations, signIn } from '../support/dashboard-session';
import { admin, api, stack, until } from '../support/api-client';

/** Browser and cold starts on a busy machine: longer than jest's default 5 s. */
const TEST_TIMEOUT_MS = 300_000;
const suffix = Math.random().toString(36).slice(2, 8);
const domain = `dash-local-time-${suffix}.test`;
let segmentId: string;

/** The dashboard at the API's public address, as the other dashboard tests use it. */
const site = { ...stack, baseUrl: stack.baseUrl.replace('127.0.0.1', 'localhost') };

/** The wall-clock time `YYYY-MM-DDTHH:MM` that a zone at this UTC offset (hours) reads at `instant`. */
const wallAt = (instant: number, offsetHours: number) => new Date(instant + offsetHours * 3600_000).toISOString().slice(0, 16);

async function pageFits(page: Page, width: number): Promise<string[]> {
  const violations = await seriousViolations(page);
  if (Number(await page.evaluate('document.documentElement.scrollWidth')) > width) violations.push(`wider than ${width} px`);
  return violations;
}

async function draftCampaign(name: string): Promise<string> {
  const { status, body } = await api('POST', '/campaigns', { body: { name, subject: 'Good morning', body: '<p>Good morning</p>', from: { email: `news@${domain}` }, segmentId } });
  expect(status).toBe(201);
  return body.data.id;
}

beforeAll(async () => {
  // A verified domain and a segment of two subscribed readers: one in UTC+14, one in UTC−12.
  expect((await api('POST', '/domains', { body: { domain } })).status).toBe(201);
  await admin('verify-domain', '--domain', domain);
  await until(async () => (await api('GET', '/domains')).body.data.items.find((item: { domain: string; status: string }) => item.domain === domain && item.status === 'VERIFIED'));
  for (const [index, timezone] of ['Pacific/Kiritimati', 'Etc/GMT+12'].entries()) {
    expect((await api('POST', '/contacts', { body: { email: `tz-reader${index}-${suffix}@example.com`, subscribed: true, data: { cohort: suffix, timezone } } })).status).toBe(201);
  }
  const segment = await api('POST', '/segments', { body: { name: `Zones ${suffix}`, filters: { operator: 'AND', conditions: [{ field: 'data.cohort', operator: 'equals', value: suffix }] } } });
  expect(segment.status).toBe(201);
  segmentId = segment.body.data.id;
}, TEST_TIMEOUT_MS);

describe('local-time delivery in the Campaigns pages', () => {
  const browser = useBrowser(TEST_TIMEOUT_MS);

  it('schedules a draft at a time in each recipient\'s time zone from the send panel, and shows when the zones start', async () => {
    // Prepare
    const id = await draftCampaign(`Morning ${suffix}`);
    const localTime = wallAt(Date.now() + 3 * 24 * 3600_000, 0).slice(0, 11) + '09:00';
    const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    const errors = consoleErrors(page);
    await signIn(page, site);

    // Act
    await goTo(page, `/campaigns/${id}`, `Morning ${suffix}`);
    await page.getByLabel('Local time').fill(localTime);
    await page.getByLabel('Time zone field').fill('data.timezone');
    await page.getByLabel('Fallback time zone').fill('Europe/Berlin');
    await page.getByRole('button', { name: 'Schedule in each time zone' }).click();
    await page.getByRole('heading', { name: 'Time zones' }).waitFor();
    await page.getByText('The zones are listed when the first zone starts').waitFor();
    const campaign = (await api('GET', `/campaigns/${id}`)).body.data;
    const found: Record<string, string[]> = {};
    await screenshot(page, 'campaign-local-time-scheduled-1280');
    found.wide = await pageFits(page, 1280);
    await page.setViewportSize({ width: 375, height: 900 });
    await screenshot(page, 'campaign-local-time-scheduled-375');
    found.narrow = await pageFits(page, 375);

    // Assess
    expect(campaign).toMatchObject({ status: 'SCHEDULED', delivery: { mode: 'LOCAL_TIME', localTime, timeZoneField: 'data.timezone', fallbackTimeZone: 'Europe/Berlin', zones: [] } });
    expect(campaign.scheduledFor).toBe(campaign.delivery.startsAt);
    expect(found).toEqual({ wide: [], narrow: [] });
    expect(errors).toEqual([]);
    await page.close();
    expect((await api('POST', `/campaigns/${id}/cancel`)).body.data.status).toBe('DRAFT');
  }, TEST_TIMEOUT_MS);

  it('sends at once to the zones whose time has passed and shows each zone with its time, recipients and status', async () => {
    // Prepare: a local time a minute past in UTC+14: that zone goes out at once, UTC−12's a day later
    const id = await draftCampaign(`Zones ${suffix}`);
    const moment = Date.now() - 60_000;
    const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    const errors = consoleErrors(page);
    await signIn(page, site);

    // Act
    await goTo(page, `/campaigns/${id}`, `Zones ${suffix}`);
    await page.getByLabel('Local time').fill(wallAt(moment, 14));
    await page.getByRole('button', { name: 'Schedule in each time zone' }).click();
    await page.getByRole('heading', { name: 'Figures' }).waitFor();
    const table = page.getByRole('table', { name: 'Time zones, earliest first' });
    await table.getByRole('row').filter({ hasText: 'Etc/GMT+12' }).waitFor({ timeout: 60_000 });
    const rows = await table.locator('tbody tr').allInnerTexts();
    const found: Record<string, string[]> = {};
    await screenshot(page, 'campaign-local-time-zones-1280');
    found.wide = await pageFits(page, 1280);
    await page.setViewportSize({ width: 375, height: 900 });
    await screenshot(page, 'campaign-local-time-zones-375');
    found.narrow = await pageFits(page, 375);
    const campaign = (await api('GET', `/campaigns/${id}`)).body.data;

    // Assess
    expect(campaign.status).toBe('SENDING');
    expect(campaign.delivery.zones).toEqual([
      { timeZone: 'Pacific/Kiritimati', at: new Date(Math.floor(moment / 60_000) * 60_000).toISOString(), recipients: 1, status: 'SENT' },
      { timeZone: 'Etc/GMT+12', at: new Date(Math.floor(moment / 60_000) * 60_000 + 26 * 3600_000).toISOString(), recipients: 1, status: 'PENDING' },
    ]);
    expect(rows.map((row) => row.replace(/\s+/g, ' ').trim())).toEqual([expect.stringMatching(/^Pacific\/Kiritimati .* 1 sent$/i), expect.stringMatching(/^Etc\/GMT\+12 .* 1 pending$/i)]);
    expect(found).toEqual({ wide: [], narrow: [] });
    expect(errors).toEqual([]);
    await page.close();
    expect((await api('POST', `/campaigns/${id}/cancel`)).body.data.status).toBe('CANCELLED');
  }, TEST_TIMEOUT_MS);
});
