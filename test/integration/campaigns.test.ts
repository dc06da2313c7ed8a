import { jest } from '@jest/globals';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../support/browser';
import { seriousViolations } from '../support/dashboard-session';
import { admin, api, stack, until } from '../support/api-client';
import { storedEmails, type StoredEmail } from '../support/mail-viewer';

jest.setTimeout(90_000);

const suffix = Math.random().toString(36).slice(2, 8);
const domain = `campaigns-${suffix}.test`;
const subscribedCount = 12;
let key: string;
const contacts: { id: string; email: string; name: string }[] = [];
let unsubscribedEmails: string[] = [];

const mailsWithSubject = async (subject: string) => (await storedEmails()).filter((mail) => mail.subject.startsWith(subject));
const waitForMails = (subject: string, count: number, ms = 45_000) =>
  until(async () => {
    const found = await mailsWithSubject(subject);
    return found.length >= count ? found : undefined;
  }, ms);
const waitForStatus = (id: string, status: string, ms = 45_000) =>
  until(async () => {
    const { body } = await api('GET', `/campaigns/${id}`, { key });
    return body.data.status === status ? body.data : undefined;
  }, ms);
/** The local SES's SendEmail fault rates from now on, for mail from `fromDomain` only (infra/local/emulators/ses.ts, POST /_local/faults). */
const sesFaults = async (rates: { throttleRate?: number; failureRate?: number; fromDomain?: string | null }) => {
  const response = await fetch(`${stack.sesUrl}/_local/faults`, { method: 'POST', body: JSON.stringify(rates) });
  expect(response.status).toBe(200);
};
/** Every email of a campaign in `status`, all pages (a filtered page may hold fewer than its limit). */
async function campaignEmails(campaignId: string, status: string): Promise<{ id: string; status: string }[]> {
  const found: { id: string; status: string }[] = [];
  let cursor: string | null = null;
  do {
    const page: { body: { data: { items: { id: string; status: string }[]; nextCursor: string | null } } } = await api('GET', `/emails?campaignId=${campaignId}&status=${status}&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { key });
    found.push(...page.body.data.items);
    cursor = page.body.data.nextCursor;
  } while (cursor);
  return found;
}
const header = (mail: StoredEmail, name: string) => mail.headers?.find((item) => item.name.toLowerCase() === name.toLowerCase())?.value;
const linkOf = (mail: StoredEmail) => /<(http[^>]+)>/.exec(header(mail, 'List-Unsubscribe') ?? '')![1]!;

async function createCampaign(subject: string, extra: Record<string, unknown> = {}) {
  const { status, body } = await api('POST', '/campaigns', {
    key,
    body: {
      name: `Campaign ${subject}`,
      subject: `${subject} for {{contact.data.name}}`,
      body: '<p>Hello {{contact.data.name}} ({{contact.email}})</p><p><a href="{{unsubscribeUrl}}">Unsubscribe</a></p>',
      from: { name: 'Acme News', email: `news@${domain}` },
      ...extra,
    },
  });
  expect(status).toBe(201);
  return body.data as { id: string; status: string };
}

beforeAll(async () => {
  // A fresh project: its audience is exactly the contacts made here.
  key = (await admin<{ secretKey: string }>('create-project', '--name', `campaigns-${suffix}`)).secretKey;
  expect((await api('POST', '/domains', { key, body: { domain } })).status).toBe(201);
  await admin('verify-domain', '--domain', domain);
  await until(async () => ((await api('GET', '/domains', { key })).body.data.items ?? (await api('GET', '/domains', { key })).body.data).find?.((item: { domain: string; status: string }) => item.domain === domain && item.status === 'VERIFIED'));
  for (let index = 0; index < subscribedCount; index++) {
    const email = `reader${index}-${suffix}@example.com`;
    const { body } = await api('POST', '/contacts', { key, body: { email, subscribed: true, data: { name: `Reader ${index}` } } });
    contacts.push({ id: body.data.id, email, name: `Reader ${index}` });
  }
  unsubscribedEmails = [0, 1, 2].map((index) => `gone${index}-${suffix}@example.com`);
  for (const email of unsubscribedEmails) await api('POST', '/contacts', { key, body: { email, subscribed: false, data: { name: 'Gone' } } });
});

describe('campaigns', () => {
  let sentCampaignId: string;
  let sentMails: StoredEmail[];

  it('sends now to exactly the subscribed contacts, each mail rendered for its contact, then is SENT with its stats', async () => {
    // Prepare
    const campaign = await createCampaign(`Now-${suffix}`);
    expect(campaign.status).toBe('DRAFT');
    // Act
    const sent = await api('POST', `/campaigns/${campaign.id}/send`, { key });
    sentMails = await waitForMails(`Now-${suffix}`, subscribedCount);
    const done = await waitForStatus(campaign.id, 'SENT');
    sentCampaignId = campaign.id;
    // Assess
    expect(sent.status).toBe(200);
    expect(sent.body.data.status).toBe('SENDING');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const mails = await mailsWithSubject(`Now-${suffix}`);
    expect(mails).toHaveLength(subscribedCount);
    expect(mails.map((mail) => mail.destination.to[0]).sort()).toEqual(contacts.map((contact) => contact.email).sort());
    for (const mail of mails) {
      const contact = contacts.find((item) => mail.destination.to[0]!.includes(item.email))!;
      expect(mail.subject).toBe(`Now-${suffix} for ${contact.name}`);
      expect(mail.body.html).toContain(`Hello ${contact.name} (${contact.email})`);
      expect(header(mail, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
      expect(mail.body.html).toContain(linkOf(mail).replace(/\//g, '&#x2F;').replace(/=/g, '&#x3D;'));
    }
    expect(done.totalRecipients).toBe(subscribedCount);
    const stats = await until(async () => {
      const { body } = await api('GET', `/campaigns/${campaign.id}/stats`, { key });
      return body.data.deliveredCount === subscribedCount ? body.data : undefined;
    });
    expect(stats).toMatchObject({ totalRecipients: subscribedCount, sentCount: subscribedCount, deliveredCount: subscribedCount, cancelledCount: 0, deliveryRate: 100, unsubscribeRate: 0 });
  });

  it('answers 409 INVALID_CAMPAIGN_STATE to edits, deletes, sends and cancels a SENT campaign does not allow', async () => {
    // Act
    const answers = await Promise.all([
      api('PATCH', `/campaigns/${sentCampaignId}`, { key, body: { name: 'x' } }),
      api('DELETE', `/campaigns/${sentCampaignId}`, { key }),
      api('POST', `/campaigns/${sentCampaignId}/send`, { key }),
      api('POST', `/campaigns/${sentCampaignId}/cancel`, { key }),
    ]);
    // Assess
    for (const answer of answers) {
      expect(answer.status).toBe(409);
      expect(answer.body.error.code).toBe('INVALID_CAMPAIGN_STATE');
      expect(answer.body.error.message).toContain('SENT');
    }
  });

  it('refuses a scheduledFor in the past or beyond the horizon (422), and an empty audience (422 EMPTY_AUDIENCE)', async () => {
    // Prepare
    const campaign = await createCampaign(`Refused-${suffix}`);
    const segment = await api('POST', '/segments', { key, body: { name: `nobody-${suffix}`, filters: { operator: 'AND', conditions: [{ field: 'email', operator: 'equals', value: `nobody-${suffix}@example.com` }] } } });
    const empty = await createCampaign(`Empty-${suffix}`, { segmentId: segment.body.data.id });
    // Act
    const past = await api('POST', `/campaigns/${campaign.id}/send`, { key, body: { scheduledFor: new Date(Date.now() - 60_000).toISOString() } });
    const far = await api('POST', `/campaigns/${campaign.id}/send`, { key, body: { scheduledFor: new Date(Date.now() + 400 * 86_400_000).toISOString() } });
    const noAudience = await api('POST', `/campaigns/${empty.id}/send`, { key });
    // Assess
    expect(past.status).toBe(422);
    expect(past.body.error.errors[0].field).toBe('scheduledFor');
    expect(far.status).toBe(422);
    expect(far.body.error.errors[0].code).toBe('BEYOND_HORIZON');
    expect(noAudience.status).toBe(422);
    expect(noAudience.body.error.code).toBe('EMPTY_AUDIENCE');
    expect((await api('GET', `/campaigns/${empty.id}`, { key })).body.data.status).toBe('DRAFT');
  });

  it('fires a campaign scheduled a few seconds ahead by itself, and never sends one cancelled before its time', async () => {
    // Prepare
    const scheduled = await createCampaign(`Scheduled-${suffix}`);
    const cancelled = await createCampaign(`Cancelled-${suffix}`);
    const at = new Date(Date.now() + 6_000).toISOString();
    // Act
    const answer = await api('POST', `/campaigns/${scheduled.id}/send`, { key, body: { scheduledFor: at } });
    await api('POST', `/campaigns/${cancelled.id}/send`, { key, body: { scheduledFor: at } });
    const back = await api('POST', `/campaigns/${cancelled.id}/cancel`, { key });
    await waitForMails(`Scheduled-${suffix}`, subscribedCount, 60_000);
    await waitForStatus(scheduled.id, 'SENT');
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    // Assess
    expect(answer.body.data).toMatchObject({ status: 'SCHEDULED', scheduledFor: at });
    expect(back.body.data).toMatchObject({ status: 'DRAFT', scheduledFor: null });
    expect(await mailsWithSubject(`Cancelled-${suffix}`)).toHaveLength(0);
    expect((await api('GET', `/campaigns/${cancelled.id}`, { key })).body.data.status).toBe('DRAFT');
  });

  it('sends a test at once, with [TEST] in the subject, rendered for a contact or with sample values, not counted in the campaign', async () => {
    // Prepare
    const stranger = `stranger-${suffix}@example.com`;
    // Act
    const answer = await api('POST', `/campaigns/${sentCampaignId}/test`, { key, body: { emails: [contacts[3]!.email, stranger] } });
    const mails = await waitForMails(`[TEST] Now-${suffix}`, 2);
    const stats = await api('GET', `/campaigns/${sentCampaignId}/stats`, { key });
    // Assess
    expect(answer.status).toBe(200);
    expect(mails.find((mail) => mail.destination.to[0]!.includes(contacts[3]!.email))!.subject).toBe(`[TEST] Now-${suffix} for ${contacts[3]!.name}`);
    expect(mails.find((mail) => mail.destination.to[0]!.includes(stranger))!.body.html).toContain(`(${stranger})`);
    expect(stats.body.data.sentCount).toBe(subscribedCount);
    expect((await api('POST', `/campaigns/${sentCampaignId}/test`, { key, body: { emails: Array.from({ length: 6 }, (_, index) => `t${index}@example.com`) } })).status).toBe(422);
  });

  it('unsubscribes in one click (POST, any body → 200), records contact.unsubscribed and counts it in the campaign', async () => {
    // Prepare
    const mail = sentMails.find((item) => item.destination.to[0]!.includes(contacts[5]!.email))!;
    // Act
    const response = await fetch(linkOf(mail), { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' });
    const again = await fetch(linkOf(mail), { method: 'POST', body: '{not json' });
    // Assess
    expect(response.status).toBe(200);
    expect(again.status).toBe(200);
    expect((await api('GET', `/contacts/${contacts[5]!.id}`, { key })).body.data.subscribed).toBe(false);
    const events = await api('GET', `/events?contactId=${contacts[5]!.id}`, { key });
    expect(JSON.stringify(events.body)).toContain('contact.unsubscribed');
    const stats = await api('GET', `/campaigns/${sentCampaignId}/stats`, { key });
    expect(stats.body.data.unsubscribedCount).toBe(1);
  });

  it('answers a tampered token with a plain 400 page', async () => {
    // Prepare
    const link = linkOf(sentMails[0]!);
    const tampered = link.slice(0, -3) + (link.endsWith('AAA') ? 'BBB' : 'AAA');
    // Act
    const get = await fetch(tampered);
    const post = await fetch(tampered, { method: 'POST', body: 'List-Unsubscribe=One-Click' });
    // Assess
    expect(get.status).toBe(400);
    expect(get.headers.get('content-type')).toContain('text/html');
    expect(await get.text()).toContain('not valid');
    expect(post.status).toBe(400);
  });

  describe('in a browser', () => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await launchChromium();
    });
    afterAll(async () => browser?.close());

    it('opens the link from a mail without unsubscribing; Enter on the focused button unsubscribes; the next button re-subscribes', async () => {
      // Prepare
      const contact = contacts[7]!;
      const mail = sentMails.find((item) => item.destination.to[0]!.includes(contact.email))!;
      const page = await browser.newPage();
      // Act: open (as a link scanner would), then confirm with the keyboard alone
      await page.goto(linkOf(mail));
      const asked = await page.textContent('#status');
      const focused = await page.evaluate('document.activeElement.id');
      const findings = await seriousViolations(page);
      const afterOpening = (await api('GET', `/contacts/${contact.id}`, { key })).body.data.subscribed;
      await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
      const shown = await page.textContent('#status');
      const unsubscribed = (await api('GET', `/contacts/${contact.id}`, { key })).body.data.subscribed;
      await Promise.all([page.waitForNavigation(), page.click('#resubscribe')]);
      const after = await page.textContent('#status');
      // Assess
      expect(asked).toContain('Unsubscribe from these emails?');
      expect(focused).toBe('unsubscribe');
      expect(findings).toEqual([]);
      expect(afterOpening).toBe(true);
      expect(shown).toContain('unsubscribed');
      expect(unsubscribed).toBe(false);
      expect(after).toContain('subscribed again');
      expect((await api('GET', `/contacts/${contact.id}`, { key })).body.data.subscribed).toBe(true);
    });
  });

  it('stops a campaign cancelled mid-send: the rest never reach SES, and sent + cancelled = totalRecipients', async () => {
    // Prepare: an audience large enough to be cancelled mid-send at the test stack's 14 emails/s
    const batch = `cancel-${suffix}`;
    const audienceSize = 150;
    for (let start = 0; start < audienceSize; start += 10) {
      await Promise.all(
        Array.from({ length: Math.min(10, audienceSize - start) }, (_, index) =>
          api('POST', '/contacts', { key, body: { email: `bulk${start + index}-${suffix}@example.com`, subscribed: true, data: { name: `Bulk ${start + index}`, batch } } }),
        ),
      );
    }
    const segment = await api('POST', '/segments', { key, body: { name: batch, filters: { operator: 'AND', conditions: [{ field: 'data.batch', operator: 'equals', value: batch }] } } });
    const campaign = await createCampaign(`Halted-${suffix}`, { segmentId: segment.body.data.id });
    // Act
    await api('POST', `/campaigns/${campaign.id}/send`, { key });
    await waitForMails(`Halted-${suffix}`, 1);
    const cancel = await api('POST', `/campaigns/${campaign.id}/cancel`, { key });
    const stats = await until(async () => {
      const { body } = await api('GET', `/campaigns/${campaign.id}/stats`, { key });
      return body.data.sentCount + body.data.cancelledCount === audienceSize ? body.data : undefined;
    }, 60_000);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    // Assess
    expect(cancel.status).toBe(200);
    expect(cancel.body.data.status).toBe('CANCELLED');
    expect((await api('GET', `/campaigns/${campaign.id}`, { key })).body.data).toMatchObject({ status: 'CANCELLED', totalRecipients: audienceSize });
    expect(stats.cancelledCount).toBeGreaterThan(0);
    expect(stats.sentCount).toBeGreaterThan(0);
    const mails = await mailsWithSubject(`Halted-${suffix}`);
    expect(mails).toHaveLength(stats.sentCount);
    expect(new Set(mails.map((mail) => mail.destination.to[0])).size).toBe(mails.length);
  });

  it('pauses a campaign whose bounce rate passes 5 %: PAUSED with the reason, no more mail to SES; POST /send resumes it and the rest go out exactly once', async () => {
    // Prepare: 150 recipients (the test stack judges bounce rates from 30 sends, at 14 emails/s)
    const batch = `guard-${suffix}`;
    const audienceSize = 150;
    const bounces = 10;
    const subject = `Guarded-${suffix}`;
    const audience: string[] = [];
    for (let start = 0; start < audienceSize; start += 10) {
      await Promise.all(
        Array.from({ length: Math.min(10, audienceSize - start) }, (_, index) => {
          const email = `guarded${start + index}-${suffix}@example.com`;
          audience.push(email);
          return api('POST', '/contacts', { key, body: { email, subscribed: true, data: { name: `Guarded ${start + index}`, batch } } });
        }),
      );
    }
    const segment = await api('POST', '/segments', { key, body: { name: batch, filters: { operator: 'AND', conditions: [{ field: 'data.batch', operator: 'equals', value: batch }] } } });
    const campaign = await createCampaign(subject, { segmentId: segment.body.data.id });
    const stats = async () => (await api('GET', `/campaigns/${campaign.id}/stats`, { key })).body.data;

    // Act: once 30 are sent, SES holds every further send from the project's domain back
    // (throttled: the sender retries it later, nothing is lost), so the campaign cannot end before its bounces are counted, however
    // late the SES events reach the service; then 10 of the mails sent bounce (10 of at most 150
    // sends is above 5 %)
    await api('POST', `/campaigns/${campaign.id}/send`, { key });
    await until(async () => ((await stats()).sentCount >= 30 ? true : undefined));
    await sesFaults({ throttleRate: 1, fromDomain: domain });
    let paused: any;
    let simulated: Response[];
    try {
      const bounced = (await mailsWithSubject(subject)).slice(0, bounces);
      simulated = await Promise.all(
        bounced.map((mail) => fetch(`${stack.sesUrl}/_local/simulate`, { method: 'POST', body: JSON.stringify({ messageId: mail.messageId, type: 'bounce', bounceType: 'Permanent' }) })),
      );
      paused = await waitForStatus(campaign.id, 'PAUSED', 30_000);
      // No claimed email is left between its last status check and SES: from here on, every
      // email still to send meets the PAUSED status before it can leave.
      await until(async () => ((await campaignEmails(campaign.id, 'SENDING')).length === 0 ? true : undefined));
    } finally {
      await sesFaults({ throttleRate: 0, fromDomain: null });
    }
    const pausedList = (await api('GET', '/campaigns?status=PAUSED', { key })).body.data;
    const heldAt = (await mailsWithSubject(subject)).length;
    const pausedStats = await until(async () => {
      const current = await stats();
      return current.sentCount === heldAt ? current : undefined;
    });
    // SES takes mail again: the held sends come back (after their backoff) and are parked, not sent.
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    const stillHeld = (await mailsWithSubject(subject)).length;
    const resume = await api('POST', `/campaigns/${campaign.id}/send`, { key });
    const done = await waitForStatus(campaign.id, 'SENT', 30_000);
    const finalStats = await until(async () => {
      const current = await stats();
      return current.sentCount === audienceSize && current.bouncedCount === bounces ? current : undefined;
    });
    await new Promise((resolve) => setTimeout(resolve, 1_000));

    // Assess: paused with its reason, and no mail reached SES while PAUSED
    expect(simulated.map((response) => response.status)).toEqual(Array(bounces).fill(202));
    expect(paused.pauseReason).toMatch(/^Bounce rate \d+\.\d\d % over \d+ sends passed the 5 % threshold$/);
    expect(Date.parse(paused.pausedAt)).toBeGreaterThan(Date.parse(paused.sentAt));
    expect(heldAt).toBeLessThan(audienceSize);
    expect(stillHeld).toBe(heldAt);
    expect(pausedStats.sentCount).toBe(heldAt);
    expect(pausedList).toMatchObject({ total: 1, items: [expect.objectContaining({ id: campaign.id, status: 'PAUSED', pauseReason: paused.pauseReason })] });
    // Resumed: SENDING at once, the rest sent, each recipient's mail exactly once
    expect(resume.status).toBe(200);
    expect(resume.body.data).toMatchObject({ status: 'SENDING', pausedAt: null, pauseReason: null });
    expect(done).toMatchObject({ totalRecipients: audienceSize, pausedAt: null, pauseReason: null });
    const mails = await mailsWithSubject(subject);
    expect(mails).toHaveLength(audienceSize);
    expect(mails.map((mail) => mail.destination.to[0]).sort()).toEqual([...audience].sort());
    expect(finalStats).toMatchObject({ totalRecipients: audienceSize, sentCount: audienceSize, bouncedCount: bounces, cancelledCount: 0, failedCount: 0, suppressedCount: 0 });
  });
});

describe('a campaign audience, counted before sending, and a Markdown template', () => {
  const tag = Math.random().toString(36).slice(2, 8);
  const ownDomain = `audience-${tag}.test`;
  let ownKey: string;

  const call = (method: string, route: string, body?: unknown) => api(method, route, { key: ownKey, ...(body === undefined ? {} : { body }) });

  beforeAll(async () => {
    ownKey = (await admin<{ secretKey: string }>('create-project', '--name', `campaign-audience-${tag}`)).secretKey;
    expect((await call('POST', '/domains', { domain: ownDomain })).status).toBe(201);
    await admin('verify-domain', '--domain', ownDomain);
    await until(async () => ((await call('GET', '/domains')).body.data.items as { domain: string; status: string }[]).find((item) => item.domain === ownDomain && item.status === 'VERIFIED'));
    for (const label of ['r1', 'r2', 'r3']) await call('POST', '/contacts', { email: `${label}-${tag}@example.com`, subscribed: true, data: { name: label } });
    await call('POST', '/contacts', { email: `off-${tag}@example.com`, subscribed: false, data: { name: 'off' } });
    // A bounced address: suppressed (and unsubscribed), then subscribed again by hand — still suppressed.
    const bounced = `bounced-${tag}@example.com`;
    const first = await call('POST', '/v1/send', { to: bounced, from: `hello@${ownDomain}`, subject: `Bounce ${tag}`, body: 'x' });
    expect(first.status).toBe(200);
    const emailId = first.body.data.emails[0].email;
    await until(async () => ((await call('GET', `/emails/${emailId}`)).body.data?.status === 'DELIVERED' ? true : undefined));
    await fetch(`${stack.sesUrl}/_local/simulate`, { method: 'POST', body: JSON.stringify({ emailId, type: 'bounce', bounceType: 'Permanent' }) });
    const contactId = first.body.data.emails[0].contact.id;
    await until(async () => ((await call('GET', `/contacts/${contactId}`)).body.data.subscribed === false ? true : undefined));
    expect((await call('PATCH', `/contacts/${contactId}`, { subscribed: true })).status).toBe(200);
  });

  it('counts contacts, subscribed, suppressed and recipients; sending queues exactly the recipients, rendered from the Markdown template', async () => {
    // Prepare
    const template = await call('POST', '/templates', { name: 'News', subject: `Audience ${tag} for {{contact.data.name}}`, body: '# Hello {{contact.data.name}}\n\n**News** of the week', format: 'markdown', type: 'MARKETING', from: `news@${ownDomain}` });
    const created = await call('POST', '/campaigns', { name: `Audience ${tag}`, templateId: template.body.data.id });
    expect(created.status).toBe(201);

    // Act
    const audience = await call('GET', `/campaigns/${created.body.data.id}/audience`);
    await call('POST', `/campaigns/${created.body.data.id}/send`);
    const sent = await until(async () => {
      const { body } = await call('GET', `/campaigns/${created.body.data.id}`);
      return body.data.status === 'SENT' ? body.data : undefined;
    }, 45_000);
    const mails = await until(async () => {
      const found = (await storedEmails()).filter((mail) => mail.subject.startsWith(`Audience ${tag}`));
      return found.length >= 3 ? found : undefined;
    });

    // Assess
    expect(audience.status).toBe(200);
    expect(audience.body.data).toEqual({ contacts: 5, subscribed: 4, suppressed: 1, recipients: 3, estimatedCost: expect.objectContaining({ ses: 0.0003, currency: 'USD' }) });
    expect(sent.totalRecipients).toBe(audience.body.data.recipients);
    expect(mails.map((mail) => mail.destination.to[0]).sort()).toEqual(['r1', 'r2', 'r3'].map((label) => `${label}-${tag}@example.com`));
    const r1 = mails.find((mail) => mail.destination.to[0]!.startsWith('r1-'))!;
    expect(r1.subject).toBe(`Audience ${tag} for r1`);
    expect(r1.body.html).toContain('<h1>Hello r1</h1>');
    expect(r1.body.html).toContain('<strong>News</strong> of the week');

    // Link and hourly figures after simulated opens and clicks (r1 clicks a twice and b once, r2 clicks a once)
    const r2 = mails.find((mail) => mail.destination.to[0]!.startsWith('r2-'))!;
    const simulate = (mail: StoredEmail, type: string, link?: string) => fetch(`${stack.sesUrl}/_local/simulate`, { method: 'POST', body: JSON.stringify({ messageId: mail.messageId, type, ...(link ? { link } : {}) }) });
    for (const [mail, type, link] of [[r1, 'open'], [r1, 'click', 'https://example.com/a'], [r1, 'click', 'https://example.com/a'], [r1, 'click', 'https://example.com/b'], [r2, 'click', 'https://example.com/a']] as const) {
      expect((await simulate(mail, type, link)).status).toBe(202);
    }
    const stats = await until(async () => {
      const { body } = await call('GET', `/campaigns/${created.body.data.id}/stats`);
      return body.data.clicks >= 4 && body.data.links.reduce((sum: number, item: { clicks: number }) => sum + item.clicks, 0) >= 4 ? body.data : undefined;
    });
    expect(stats.links).toEqual([
      { url: 'https://example.com/a', clicks: 3, uniqueClicks: 2 },
      { url: 'https://example.com/b', clicks: 1, uniqueClicks: 1 },
    ]);
    const totals = stats.hourly.reduce((sum: { delivered: number; opened: number; clicked: number }, hour: { delivered: number; opened: number; clicked: number }) => ({ delivered: sum.delivered + hour.delivered, opened: sum.opened + hour.opened, clicked: sum.clicked + hour.clicked }), { delivered: 0, opened: 0, clicked: 0 });
    expect(stats.hourly[0].hour).toBe(`${sent.sentAt.slice(0, 13)}:00:00.000Z`);
    expect(totals).toEqual({ delivered: stats.deliveredCount, opened: stats.opens, clicked: stats.clicks });
    expect(totals.clicked).toBe(4);
  });

  it('answers 404 for an unknown campaign', async () => {
    expect((await call('GET', '/campaigns/01JD0000000000000000000000/audience')).status).toBe(404);
  });
});
