import { Validator } from '@seriousme/openapi-schema-validator';
import { routes } from '../../shared/http/routes';
import { useBrowser } from '../support/browser';
import { api, contract, stack } from '../support/api-client';

/** Browser and cold starts on a busy machine: longer than jest's default 5 s. */
const TEST_TIMEOUT_MS = 120_000;
const isLocal = (url: string) => ['127.0.0.1', 'localhost'].includes(new URL(url).hostname);

describe('GET /openapi.json', () => {
  it('serves the generated document without a key, valid OpenAPI 3.1 with every route', async () => {
    const response = await api('GET', '/openapi.json', { key: null });
    const result = await new Validator().validate(structuredClone(response.body));

    expect(response.status).toBe(200);
    expect(result).toEqual({ valid: true });
    for (const route of routes) expect(response.body.paths[route.path]?.[route.method.toLowerCase()]).toBeDefined();
  }, TEST_TIMEOUT_MS);
});

describe('GET /docs', () => {
  const browser = useBrowser(TEST_TIMEOUT_MS);

  it('renders offline, lists every route, and "try it" calls the local stack', async () => {
    // Prepare: nothing may leave the machine; every request off localhost is refused and recorded.
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const refused: string[] = [];
    const failed: string[] = [];
    await page.route('**/*', (route) => (isLocal(route.request().url()) ? route.continue() : (refused.push(route.request().url()), route.abort())));
    page.on('requestfailed', (request) => failed.push(request.url()));
    const validator = await contract();
    const document = validator.document;
    const summaries = Object.values<Record<string, { summary: string }>>(document.paths).flatMap((methods) => Object.values(methods).map((operation) => operation.summary));

    // Act: open the page, then send GET /events/names from its "Test Request" client with the secret key.
    await page.goto(`${stack.baseUrl}/docs`);
    await page.getByText(summaries.at(-1)!, { exact: true }).first().waitFor({ timeout: 45_000 });
    const pageText = await page.evaluate(() => document.body.innerText);
    await page.getByPlaceholder('Token').filter({ visible: true }).first().fill(stack.secretKey);
    await page.getByText('List event names', { exact: true }).first().click();
    await page.locator('[id$="/GET/events/names"]').getByRole('button', { name: /Test Request/ }).first().click();
    const [tried] = await Promise.all([
      page.waitForResponse((response) => response.url() === `${stack.baseUrl}/events/names`),
      page.getByRole('button', { name: /Send get request to/ }).click(),
    ]);
    const triedBody = await tried.json();

    // Assess
    expect(new Set(summaries).size).toBe(routes.length);
    for (const summary of summaries) expect(pageText).toContain(summary);
    expect(tried.status()).toBe(200);
    expect(tried.request().headers().authorization).toBe(`Bearer ${stack.secretKey}`);
    expect(() => validator.validate('GET', '/events/names', { status: tried.status(), contentType: tried.headers()['content-type'] ?? null, body: triedBody })).not.toThrow();
    expect(await page.getByText('200 OK').first().isVisible()).toBe(true);
    expect(refused).toEqual([]);
    expect(failed).toEqual([]);
    await page.close();
  }, TEST_TIMEOUT_MS);
});
