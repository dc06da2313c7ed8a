import type { Page } from 'playwright-core';
import { screenshot, useBrowser } from '../support/browser';
import { consoleErrors, goTo, pageFits, signIn } from '../support/dashboard-session';
import { admin, api, stack, uniqueEmail, until } from '../support/api-client';

/**
 * Four-eyes approval and the estimated cost in the dashboard (issue 26 items 4 and 5): the
 * Settings toggle, the campaign page's approval state with an Approve button for those who may
 * (and why not for the others), the cost in the audience and the send confirmation. A project of
 * its own (the setting is project-wide) with two owners and a member.
 */
const TEST_TIMEOUT_MS = 300_000;
const suffix = Math.random().toString(36).slice(2, 8);
const domain = `dash-approval-${suffix}.test`;
const password = 'correct horse battery staple';
const readers = [0, 1, 2].map((index) => `dash-approval-reader${index}-${suffix}@example.com`);
const site = { ...stack, baseUrl: stack.baseUrl.replace('127.0.0.1', 'localhost') };
const browserHeaders = { Origin: new URL(stack.baseUrl).origin, 'X-Mailwright-Request': '1' };

let key: string;
const people = { first: uniqueEmail('dash-approval-owner1'), second: uniqueEmail('dash-approval-owner2'), member: uniqueEmail('dash-approval-member') };
const as = (email: string) => ({ email, password });

/** A campaign made by the first owner in a session of their own: they are its last editor. */
async function campaignByFirstOwner(name: string): Promise<string> {
  const session = await api('POST', '/dashboard/session', { key: null, body: as(people.first), headers: browserHeaders });
  const created = await api('POST', '/campaigns', { key: session.body.data.accessToken, body: { name, subject: name, body: '<p>Hello</p>', from: { email: `news@${domain}` } } });
  expect(created.status).toBe(201);
  return created.body.data.id as string;
}

async function openCampaign(page: Page, id: string, name: string) {
  await goTo(page, `/campaigns/${id}`, name);
  await page.getByRole('heading', { name: 'Approval' }).waitFor();
  await page.locator('.figure-main dd').waitFor();
}

beforeAll(async () => {
  const project = await admin<{ projectId: string; secretKey: string }>('create-project', '--name', `Approval ${suffix}`);
  key = project.secretKey;
  await admin('create-user', '--email', people.first, '--project', project.projectId, '--role', 'OWNER', '--password', password);
  await admin('create-user', '--email', people.second, '--project', project.projectId, '--role', 'OWNER', '--password', password);
  await admin('create-user', '--email', people.member, '--project', project.projectId, '--role', 'MEMBER', '--password', password);
  expect((await api('POST', '/domains', { key, body: { domain } })).status).toBe(201);
  await admin('verify-domain', '--domain', domain);
  await until(async () => (await api('GET', '/domains', { key })).body.data.items.find((item: { domain: string; status: string }) => item.domain === domain && item.status === 'VERIFIED'));
  for (const email of readers) expect((await api('POST', '/contacts', { key, body: { email, subscribed: true } })).status).toBe(201);
}, TEST_TIMEOUT_MS);

describe('campaign approval in the dashboard', () => {
  const browser = useBrowser(TEST_TIMEOUT_MS);

  it('turns approval on in Settings; the editor and a member are told why they cannot approve; a second owner approves and sends after a confirmation showing the estimated cost', async () => {
    // Prepare
    const first = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    const errors = consoleErrors(first);
    await signIn(first, site, as(people.first));

    // Act: the setting, by the first owner.
    await goTo(first, '/settings', 'Settings');
    const toggle = first.getByRole('checkbox', { name: /second owner's approval/ });
    await toggle.check();
    const setting = await until(async () => ((await api('GET', '/project', { key })).body.data.requireCampaignApproval === true ? true : undefined));
    await screenshot(first, 'approval-settings-1280');

    // Act: the first owner's own campaign: no Approve button for them, sending waits.
    const name = `Approve me ${suffix}`;
    const id = await campaignByFirstOwner(name);
    await openCampaign(first, id, name);
    const editorNote = await first.locator('#approve-why-not').textContent();
    const editorButtons = await first.getByRole('button', { name: 'Approve' }).count();
    const sendDisabled = await first.getByRole('button', { name: 'Send now' }).isDisabled();
    const cost = await first.locator('dt', { hasText: 'Estimated cost' }).locator('xpath=following-sibling::dd').textContent();
    await screenshot(first, 'approval-needed-editor-1280');

    // Act: a member sees why not.
    const member = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    await signIn(member, site, as(people.member));
    await openCampaign(member, id, name);
    const memberNote = await member.locator('#approve-why-not').textContent();

    // Act: the second owner approves, then sends after the confirmation.
    const second = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    const secondErrors = consoleErrors(second);
    await signIn(second, site, as(people.second));
    await openCampaign(second, id, name);
    await second.getByRole('button', { name: 'Approve' }).click();
    await second.getByText('Approved by').waitFor();
    const approvedNote = await second.getByRole('status').filter({ hasText: 'Approved by' }).textContent();
    await screenshot(second, 'approval-approved-1280');
    await second.getByRole('button', { name: 'Send now' }).click();
    const dialog = second.getByRole('dialog', { name: 'Send to 3 recipients?' });
    const question = await dialog.textContent();
    await dialog.getByRole('button', { name: 'Send to 3 recipients' }).click();
    await second.getByRole('heading', { name: 'Figures' }).waitFor();
    const sent = (await api('GET', `/campaigns/${id}`, { key })).body.data;

    // Assess
    expect(setting).toBe(true);
    expect(editorNote).toBe('You made the latest changes: another owner approves them.');
    expect(editorButtons).toBe(0);
    expect(sendDisabled).toBe(true);
    expect(cost).toMatch(/^\$0\.000\d$/);
    expect(memberNote).toBe('Only owners approve campaigns.');
    expect(approvedNote).toMatch(/^Approved by you on /);
    // The cost model's figure for 3 recipients: SES $0.0003, and other AWS under a hundredth of a cent (shared/campaigns/cost.ts)
    expect(question).toMatch(/goes out now to 3 recipients\. Estimated cost: \$0\.000\d \(SES \$0\.0003, other AWS < \$0\.0001\)\. This cannot be undone\./);
    expect(['SENDING', 'SENT']).toContain(sent.status);
    expect(sent.approval).toMatchObject({ approved: true, approvedBy: { type: 'user' } });
    expect(errors).toEqual([]);
    expect(secondErrors).toEqual([]);
    await Promise.all([first.close(), member.close(), second.close()]);
  }, TEST_TIMEOUT_MS);

  it('fits the approval states at 375 and 1280 px with no serious or critical axe findings (screenshots kept)', async () => {
    // Prepare: the setting is on (the test above, or here when run alone).
    const session = await api('POST', '/dashboard/session', { key: null, body: as(people.second), headers: browserHeaders });
    expect((await api('PATCH', '/project', { key: session.body.data.accessToken, body: { requireCampaignApproval: true } })).status).toBe(200);
    for (const width of [375, 1280]) {
      const name = `Layout ${width} ${suffix}`;
      const id = await campaignByFirstOwner(name);
      const page = await browser.newPage({ viewport: { width, height: 900 } });
      const errors = consoleErrors(page);
      await signIn(page, site, as(people.second));
      const found: Record<string, string[]> = {};

      // Act
      await openCampaign(page, id, name);
      found.needed = await pageFits(page, width);
      await screenshot(page, `approval-needed-${width}`);
      await page.getByRole('button', { name: 'Approve' }).click();
      await page.getByText('Approved by').waitFor();
      found.approved = await pageFits(page, width);
      await screenshot(page, `approval-approved-${width}`);
      await goTo(page, '/settings', 'Settings');
      await page.getByRole('checkbox', { name: /second owner's approval/ }).waitFor();
      found.settings = await pageFits(page, width);
      await screenshot(page, `approval-settings-${width}`);

      // Assess
      expect(found).toEqual({ needed: [], approved: [], settings: [] });
      expect(errors).toEqual([]);
      await page.close();
    }
  }, TEST_TIMEOUT_MS);
});
