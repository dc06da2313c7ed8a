import type { Frame, Page } from 'playwright-core';
import { screenshot, useBrowser } from '../support/browser';
import { consoleErrors, goTo, seriousViolations, signIn } from '../support/dashboard-session';
import { api, stack, until } from '../support/api-client';

/** Browser and cold starts on a busy machine: longer than jest's default 5 s. */
const TEST_TIMEOUT_MS = 240_000;
const HOSTILE = '<script>window.__injected = true</script><img src=x onerror="window.__injected = true">';

/**
 * The dashboard at the API's public address (PUBLIC_API_URL, localhost locally): the preview
 * frame shows a document of that origin, which the dashboard's frame-src 'self' and the preview's
 * frame-ancestors 'self' allow only from the same origin.
 */
const site = { ...stack, baseUrl: stack.baseUrl.replace('127.0.0.1', 'localhost') };

/**
 * CodeMirror's `interactionDelay`: Enter takes an offer only once it has been shown this long, so
 * that a key meant for the text is not taken by a list that opened under it. A person's Enter
 * comes later; a test's can come sooner on a loaded machine and type a new line instead.
 */
const COMPLETION_INTERACTION_DELAY_MS = 75;

const injected = (page: Page) => page.evaluate(() => (globalThis as unknown as { __injected?: boolean }).__injected ?? false);

/** The preview frame's document, once it shows the rendered email (its own origin, reached over CDP). */
async function previewFrame(page: Page, match: (url: string) => boolean = () => true): Promise<Frame> {
  return until(async () => {
    const handle = await page.$('.preview-stage iframe');
    const frame = await handle?.contentFrame();
    if (!frame || !match(frame.url()) || !(await frame.evaluate('document.readyState === "complete" && document.body !== null').catch(() => false))) return undefined;
    return frame;
  }, 90_000);
}

describe('the Templates pages in a browser', () => {
  const browser = useBrowser(TEST_TIMEOUT_MS);

  it('writes a Markdown template with offered variables, previews it at desktop, 375 px and dark, saves it with a hostile name shown as text, and deletes it after confirming', async () => {
    // Prepare
    const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    const errors = consoleErrors(page);
    await signIn(page, site);
    const name = `${HOSTILE} Welcome ${Date.now()}`;

    // Act: a new Markdown template; the body typed into CodeMirror, a variable taken from the offer.
    await goTo(page, '/templates', 'Templates');
    await page.getByRole('link', { name: 'New template' }).click();
    await page.getByRole('heading', { name: 'New template', level: 1 }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill(name);
    await page.getByLabel('Subject').fill(`Hi {{firstName}} ${HOSTILE}`);
    await page.getByLabel('Markdown').check();
    const body = page.getByRole('textbox', { name: 'Body' });
    await body.click();
    await page.keyboard.type('# Hello {{first');
    await page.getByRole('option', { name: 'firstName', exact: true }).waitFor();
    await page.waitForTimeout(2 * COMPLETION_INTERACTION_DELAY_MS);
    await page.keyboard.press('Enter');
    await page.keyboard.type('\n\nSee [the news](https://example.com/news).');
    const typed = await body.textContent();
    const desktop = await previewFrame(page);
    await until(async () => ((await desktop.locator('h1').textContent().catch(() => null)) === 'Hello Sample' ? true : undefined), 60_000);
    const desktopWidth = (await page.locator('.preview-stage iframe').boundingBox())!.width;
    const linkInPreview = await desktop.locator('a').first().getAttribute('href');
    await screenshot(page, `template-editor-1280`);
    await page.getByRole('button', { name: '375 px' }).click();
    const mobileWidth = (await page.locator('.preview-stage iframe').boundingBox())!.width;
    await page.getByLabel('Dark mode').check();
    const dark = await previewFrame(page, (url) => url.includes('scheme=dark'));
    const darkScheme = await dark.evaluate('document.querySelector(\'meta[name="color-scheme"]\')?.getAttribute(\'content\')');
    await screenshot(page, `template-editor-dark-1280`);
    const editorViolations = await seriousViolations(page);
    await page.getByRole('button', { name: 'Create template' }).click();
    await page.getByRole('heading', { name, level: 1 }).waitFor();
    const id = new URL(page.url()).pathname.split('/').pop()!;
    const saved = (await api('GET', `/templates/${id}`)).body.data;

    // Act: an unsaved change asks before leaving (stay, then leave), and the list shows the name as text.
    await page.getByLabel('Name', { exact: true }).fill(`${name} (changed)`);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Templates' }).click();
    await page.getByRole('dialog', { name: 'Leave without saving?' }).getByRole('button', { name: 'Cancel' }).click();
    const stayed = new URL(page.url()).pathname;
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Templates' }).click();
    await page.getByRole('dialog', { name: 'Leave without saving?' }).getByRole('button', { name: 'Leave' }).click();
    await page.getByRole('heading', { name: 'Templates', level: 1 }).waitFor();
    await page.getByRole('link', { name }).click();
    await page.getByRole('heading', { name, level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog', { name: 'Delete this template?' }).getByRole('button', { name: 'Delete template' }).click();
    await page.getByRole('heading', { name: 'Templates', level: 1 }).waitFor();
    const deleted = await api('GET', `/templates/${id}`);

    // Assess
    expect(typed).toContain('# Hello {{firstName}}');
    expect(linkInPreview).toContain('example.com/news');
    expect(desktopWidth).toBeGreaterThan(500);
    expect(mobileWidth).toBe(375);
    expect(darkScheme).toBe('dark');
    expect(editorViolations).toEqual([]);
    expect(saved).toMatchObject({ name: name.trim(), format: 'markdown', subject: `Hi {{firstName}} ${HOSTILE}` });
    expect(stayed).toBe(`/dashboard/templates/${id}`);
    expect(deleted.status).toBe(404);
    expect(await injected(page)).toBe(false);
    expect(errors).toEqual([]);
    await page.close();
  }, TEST_TIMEOUT_MS);

  it('shows a template that does not parse at its line in the editor when it is saved', async () => {
    // Prepare
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors = consoleErrors(page);
    await signIn(page, site);
    await goTo(page, '/templates/new', 'New template');

    // Act
    await page.getByLabel('Name', { exact: true }).fill('Broken');
    await page.getByLabel('Subject').fill('Broken');
    await page.getByRole('textbox', { name: 'Body' }).click();
    await page.keyboard.type('<p>Fine</p>\n<p>{{#open}} never closed</p>');
    await page.getByRole('button', { name: 'Create template' }).click();
    await page.locator('.cm-lintRange-error').first().waitFor();
    const marked = await page.locator('.cm-line:has(.cm-lintRange-error)').allTextContents();
    const alert = await page.getByRole('alert').first().textContent();

    // Assess
    expect(marked).toEqual(['<p>{{#open}} never closed</p>']);
    expect(alert).toBeTruthy();
    // The editor's styles applied without an inline <style> the page's CSP would refuse (and log).
    expect(await page.locator('.cm-editor').evaluate((editor) => (globalThis as unknown as { getComputedStyle: (element: unknown) => { display: string } }).getComputedStyle(editor).display)).toBe('flex');
    expect(errors.filter((error) => !error.includes('422'))).toEqual([]);
    await page.close();
  }, TEST_TIMEOUT_MS);

  it('fits the Templates list and editor at 375 and 1280 px with no serious or critical axe findings (screenshots kept)', async () => {
    await api('POST', '/templates', { body: { name: `Layout ${HOSTILE}`, subject: 'Hello {{firstName}}', body: '<h1>Hello {{firstName}}</h1><p>A paragraph.</p>', type: 'MARKETING' } });
    for (const width of [375, 1280]) {
      // Prepare
      const page = await browser.newPage({ viewport: { width, height: 900 } });
      const errors = consoleErrors(page);
      await signIn(page, site);
      const found: Record<string, string[]> = {};

      // Act
      await goTo(page, '/templates', 'Templates');
      await page.getByRole('status').filter({ hasText: /^Loading/ }).waitFor({ state: 'detached' });
      found.list = await seriousViolations(page);
      if (Number(await page.evaluate('document.documentElement.scrollWidth')) > width) found.list.push(`wider than ${width} px`);
      await screenshot(page, `templates-${width}`);
      await page.getByRole('link', { name: `Layout ${HOSTILE}` }).first().click();
      await page.getByRole('heading', { name: `Layout ${HOSTILE}`, level: 1 }).waitFor();
      await previewFrame(page);
      await page.locator('.cm-content').first().waitFor();
      found.editor = await seriousViolations(page);
      if (Number(await page.evaluate('document.documentElement.scrollWidth')) > width) found.editor.push(`wider than ${width} px`);
      await screenshot(page, `template-${width}`);

      // Assess
      expect(found).toEqual({ list: [], editor: [] });
      expect(await injected(page)).toBe(false);
      expect(errors).toEqual([]);
      await page.close();
    }
  }, TEST_TIMEOUT_MS);
});
