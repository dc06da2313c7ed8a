import type { Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { screenshot, useBrowser } from '../support/browser';
import { consoleErrors, goTo, seriousViolations, signIn } from '../support/dashboard-session';
import { api, stack, uniqueEmail } from '../support/api-client';
import { useWebhookReceiver } from '../support/webhook-receiver';

/** Browser and cold starts on a busy machine: longer than jest's default 5 s. */
const TEST_TIMEOUT_MS = 240_000;
const HOSTILE = '<script>window.__injected = true</script><img src=x onerror="window.__injected = true">';

/** The local receiver answers 500 with a hostile body while `failing`, else 200. */
let failing = false;
const receiver = useWebhookReceiver(() => (failing ? { status: 500, body: `down ${HOSTILE}` } : { status: 200, body: 'ok' }));
const received = receiver.received;
const receiverUrl = () => `${receiver.url}/dashboard-hook`;

const injected = (page: Page) => page.evaluate(() => (globalThis as unknown as { __injected?: boolean }).__injected ?? false);
const noSideways = async (page: Page, width: number) => (Number(await page.evaluate('document.documentElement.scrollWidth')) > width ? [`wider than ${width} px`] : []);

describe('the dashboard Webhooks pages in a browser', () => {
  const browser = useBrowser(TEST_TIMEOUT_MS);

  it('creates an endpoint for chosen kinds (its secret shown once), sends a test, replays a failed delivery from the log, and disables and enables it', async () => {
    // Prepare
    const eventName = `order.paid.${Date.now().toString(36)}`;
    const description = `${HOSTILE} CRM ${eventName}`;
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors = consoleErrors(page);
    await signIn(page, stack);
    const found: Record<string, string[]> = {};

    // Act: create
    await goTo(page, '/webhooks', 'Webhooks');
    await page.getByLabel('URL', { exact: true }).fill(receiverUrl());
    await page.getByLabel('Description').fill(description);
    await page.getByLabel('Every event (*)').uncheck();
    await page.getByLabel('contact.created', { exact: true }).check();
    await page.getByLabel('Tracked events').fill(eventName);
    await page.getByRole('button', { name: 'Create endpoint' }).click();
    const secret = (await page.locator('.reveal code').textContent())!;
    found.list = await seriousViolations(page);
    await screenshot(page, 'webhooks-1280');
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('link', { name: receiverUrl() }).first().click();
    await page.getByRole('heading', { name: description, level: 1 }).waitFor();
    const id = new URL(page.url()).pathname.split('/').pop()!;

    // Act: a test event arrives; a tracked event fails every attempt, then is replayed with the receiver working
    await page.getByRole('button', { name: 'Send test event' }).click();
    const log = page.getByRole('table', { name: 'Deliveries' });
    await log.getByRole('row').filter({ hasText: 'webhook.test' }).filter({ hasText: 'delivered' }).waitFor();
    failing = true;
    await api('POST', '/v1/track', { body: { email: uniqueEmail('dash-hook'), event: eventName } });
    const failedRow = log.getByRole('row').filter({ hasText: `event:${eventName}` });
    await failedRow.filter({ hasText: 'failed' }).waitFor({ timeout: 60_000 });
    const excerpt = await failedRow.locator('code').textContent();
    found.endpoint = await seriousViolations(page);
    await screenshot(page, 'webhook-1280');
    failing = false;
    await failedRow.getByRole('button', { name: /^Replay/ }).click();
    await failedRow.filter({ hasText: 'delivered' }).waitFor({ timeout: 60_000 });
    const replayed = received.filter((entry) => entry.body.includes(eventName));
    await page.getByRole('button', { name: 'Disable' }).click();
    await page.getByRole('button', { name: 'Enable' }).waitFor();
    const disabled = (await api('GET', `/webhooks/${id}`)).body.data;
    await page.getByRole('button', { name: 'Enable' }).click();
    await page.getByRole('button', { name: 'Disable' }).waitFor();

    // Act: the pages at 375 px
    await page.setViewportSize({ width: 375, height: 800 });
    found.endpoint375 = [...(await seriousViolations(page)), ...(await noSideways(page, 375))];
    await screenshot(page, 'webhook-375');
    await goTo(page, '/webhooks', 'Webhooks');
    await page.getByRole('link', { name: receiverUrl() }).first().waitFor();
    found.list375 = [...(await seriousViolations(page)), ...(await noSideways(page, 375))];
    await screenshot(page, 'webhooks-375');

    // Assess
    const saved = (await api('GET', `/webhooks/${id}`)).body.data;
    expect(secret).toMatch(/^whsec_/);
    expect(saved).toMatchObject({ url: receiverUrl(), description, events: ['contact.created', `event:${eventName}`], status: 'ENABLED' });
    expect(disabled.status).toBe('DISABLED');
    expect(excerpt).toContain(`down ${HOSTILE}`);
    expect(replayed.length).toBe(6);
    expect(new Set(replayed.map((entry) => entry.headers['webhook-id'])).size).toBe(1);
    expect(() => new Webhook(secret).verify(replayed[5]!.body, replayed[5]!.headers as Record<string, string>)).not.toThrow();
    expect(found).toEqual({ list: [], endpoint: [], endpoint375: [], list375: [] });
    expect(await injected(page)).toBe(false);
    expect(errors).toEqual([]);
    await page.close();
    await api('DELETE', `/webhooks/${id}`);
  }, TEST_TIMEOUT_MS);
});
