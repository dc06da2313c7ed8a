import { jest } from '@jest/globals';
import { admin, api, stack, until } from '../support/api-client';
import { waitForEmails } from '../support/mail-viewer';

jest.setTimeout(90_000);

const suffix = Math.random().toString(36).slice(2, 8);
const domain = `activity-${suffix}.test`;
const from = `hello@${domain}`;
let key: string;

interface Summary {
  id: string;
  to: string;
  status: string;
  source: string;
  sourceId: string | null;
  subject: string;
}

const today = () => new Date().toISOString().slice(0, 10);
const list = async (query: string) => (await api('GET', `/emails${query}`, { key })).body.data as { items: Summary[]; nextCursor: string | null; hasMore: boolean; total: number };
const send = async (to: string, subject: string) => {
  const response = await api('POST', '/v1/send', { key, body: { to, from, subject, body: `<p>${subject}</p>` } });
  expect(response.status).toBe(200);
  return response.body.data.emails[0].email as string;
};
const waitForStatus = (id: string, status: string) =>
  until(async () => {
    const { body } = await api('GET', `/emails/${id}`, { key });
    return body.data?.status === status ? body.data : undefined;
  });
const simulate = (emailId: string, type: string, extra: Record<string, string> = {}) =>
  fetch(`${stack.sesUrl}/_local/simulate`, { method: 'POST', body: JSON.stringify({ emailId, type, ...extra }) });

beforeAll(async () => {
  // A fresh project: its emails and day counters are exactly those made here.
  key = (await admin<{ secretKey: string }>('create-project', '--name', `activity-${suffix}`)).secretKey;
  expect((await api('POST', '/domains', { key, body: { domain } })).status).toBe(201);
  await admin('verify-domain', '--domain', domain);
  await until(async () => ((await api('GET', '/domains', { key })).body.data.items as { domain: string; status: string }[]).find((item) => item.domain === domain && item.status === 'VERIFIED'));
});

describe('the activity API', () => {
  const jane = `jane-${suffix}@example.com`;
  const bob = `bob-${suffix}@example.com`;
  let delivered: string;
  let bounced: string;

  it('finds a /v1/send email in GET /emails as delivered, with its timeline on GET /emails/{id}', async () => {
    // Act
    delivered = await send(jane, 'Reset your password');
    await waitForEmails(jane);
    const email = await waitForStatus(delivered, 'DELIVERED');
    await simulate(delivered, 'click', { link: 'https://acme.test/reset' });
    const clicked = await until(async () => {
      const { body } = await api('GET', `/emails/${delivered}`, { key });
      const types = body.data.timeline.map((entry: { type: string }) => entry.type);
      return types.includes('delivered') && types.includes('clicked') ? body.data : undefined;
    });
    const listed = await list(`?email=${encodeURIComponent(jane.toUpperCase())}`);

    // Assess
    expect(email).toMatchObject({ id: delivered, to: jane, subject: 'Reset your password', source: 'transactional', status: 'DELIVERED', sentAt: expect.any(String), deliveredAt: expect.any(String), html: '<p>Reset your password</p>' });
    expect(clicked.timeline.map((entry: { type: string }) => entry.type)).toEqual(['queued', 'sent', 'delivered', 'clicked']);
    expect(clicked.timeline.at(-1).data).toMatchObject({ link: 'https://acme.test/reset' });
    expect(listed).toMatchObject({ hasMore: false, items: [expect.objectContaining({ id: delivered, to: jane, status: 'DELIVERED', source: 'transactional' })] });
  });

  it('shows a bounce with its type and reason, and filters by status', async () => {
    // Act
    bounced = await send(bob, 'Your invoice');
    await waitForStatus(bounced, 'DELIVERED');
    expect((await simulate(bounced, 'bounce', { bounceType: 'Permanent' })).status).toBe(202);
    // The status moves before ses-events writes the event: wait for both.
    const email = await until(async () => {
      const { body } = await api('GET', `/emails/${bounced}`, { key });
      return body.data.status === 'BOUNCED' && body.data.timeline.some((entry: { type: string }) => entry.type === 'bounced') ? body.data : undefined;
    });
    const byStatus = await list('?status=BOUNCED');
    const byOtherStatus = await list('?status=DELIVERED');

    // Assess
    const bounce = email.timeline.find((entry: { type: string }) => entry.type === 'bounced');
    expect(bounce.data).toMatchObject({ bounceType: 'Permanent' });
    expect(email.failureReason).toBe('Permanent');
    expect(byStatus.items.map((item) => item.id)).toEqual([bounced]);
    expect(byOtherStatus.items.map((item) => item.id)).toEqual([delivered]);
  });

  it('pages newest first with cursors, filters by source and date, and 404s an unknown id', async () => {
    // Act
    const first = await list('?limit=1');
    const second = await list(`?limit=1&cursor=${first.nextCursor}`);
    const campaigns = await list('?source=campaign');
    const transactional = await list(`?source=transactional&from=${today()}&to=${today()}`);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const before = await list(`?to=${yesterday}`);
    const unknown = await api('GET', '/emails/01KAQ5VZ3N4G8T2M6P0R9S7W1X', { key });
    const malformed = await api('GET', `/emails/${'x'.repeat(300)}`, { key });
    const badFilter = await api('GET', '/emails?status=LOST&from=2026-02-30', { key });
    const badCursor = await api('GET', `/emails?status=SENT&cursor=${first.nextCursor}`, { key });

    // Assess
    expect(first).toMatchObject({ items: [expect.objectContaining({ id: bounced })], hasMore: true, total: 2 });
    expect(second).toMatchObject({ items: [expect.objectContaining({ id: delivered })], hasMore: false, nextCursor: null });
    expect(campaigns.items).toEqual([]);
    expect(transactional.items.map((item) => item.id)).toEqual([bounced, delivered]);
    expect(before.items).toEqual([]);
    expect([unknown.status, malformed.status]).toEqual([404, 404]);
    expect(badFilter.status).toBe(422);
    expect(badFilter.body.error.errors.map((error: { field: string }) => error.field)).toEqual(['query.status', 'query.from']);
    expect(badCursor.status).toBe(400);
  });

  it('counts today\'s sends, deliveries, clicks and the bounce on GET /analytics, with rates and thresholds', async () => {
    // Act
    const analytics = await until(async () => {
      const { body } = await api('GET', `/analytics?from=${today()}&to=${today()}`, { key });
      return body.data.totals.delivered >= 2 && body.data.totals.bounced >= 1 && body.data.totals.clicked >= 1 ? body.data : undefined;
    });
    const tooLong = await api('GET', '/analytics?from=2025-01-01&to=2026-01-02', { key });
    const reversed = await api('GET', '/analytics?from=2026-11-24&to=2026-11-23', { key });

    // Assess
    expect(analytics).toEqual({
      from: today(),
      to: today(),
      days: [{ date: today(), sent: 2, delivered: 2, opened: 0, clicked: 1, bounced: 1, complained: 0 }],
      totals: { sent: 2, delivered: 2, opened: 0, clicked: 1, bounced: 1, complained: 0 },
      bounceRate: 0.5,
      complaintRate: 0,
      thresholds: { bounceRate: 0.05, complaintRate: 0.001 },
      contacts: 2,
      subscribers: 0,
    });
    expect([tooLong.status, reversed.status]).toEqual([422, 422]);
  });

  it('counts a complaint after the bounce once, leaving the other figures as they were', async () => {
    // Act
    await simulate(bounced, 'complaint');
    const analytics = await until(async () => {
      const { body } = await api('GET', `/analytics?from=${today()}&to=${today()}`, { key });
      return body.data.totals.complained >= 1 ? body.data : undefined;
    });

    // Assess
    expect(analytics.totals).toEqual({ sent: 2, delivered: 2, opened: 0, clicked: 1, bounced: 1, complained: 1 });
  });

  it('counts the emails\' events by name on GET /events/names and in the events total, each once', async () => {
    // Act
    const names = await until(async () => {
      const { body } = await api('GET', '/events/names', { key });
      return body.data.items.some((item: { name: string; count: number }) => item.name === 'email.complained' && item.count === 1) ? body.data : undefined;
    });
    const events = await api('GET', '/events?limit=1', { key });

    // Assess
    const counts = Object.fromEntries(names.items.map((item: { name: string; count: number }) => [item.name, item.count]));
    expect(counts).toMatchObject({ 'email.sent': 2, 'email.delivered': 2, 'email.clicked': 1, 'email.bounced': 1, 'email.complained': 1 });
    expect(names.total).toBe(names.items.length);
    expect(events.body.data.total).toBe(Object.values(counts).reduce((sum: number, count) => sum + (count as number), 0));
  });

  it('lists a campaign\'s test send as source test, found by its campaign', async () => {
    // Prepare
    const created = await api('POST', '/campaigns', { key, body: { name: `Launch ${suffix}`, subject: 'Launch day', body: '<p>Hi</p><p><a href="{{unsubscribeUrl}}">Unsubscribe</a></p>', from: { email: from } } });
    const campaignId = created.body.data.id as string;
    const me = `me-${suffix}@example.com`;

    // Act
    const tested = await api('POST', `/campaigns/${campaignId}/test`, { key, body: { email: me } });
    const tests = await list(`?source=test&campaignId=${campaignId}`);
    const campaignMail = await list(`?campaignId=${campaignId}`);
    const mine = await list(`?email=${encodeURIComponent(me)}&source=test`);

    // Assess
    expect(tested.status).toBe(200);
    expect(tests.items).toEqual([expect.objectContaining({ to: me, subject: '[TEST] Launch day', source: 'test', sourceId: campaignId, status: expect.stringMatching(/^(SENT|DELIVERED)$/) })]);
    expect(mine.items.map((item) => item.id)).toEqual([tests.items[0]!.id]);
    expect(campaignMail.items).toEqual([]);
  });

  it('finds a sent campaign\'s mail by campaignId (ids carrying its start), and each recipient\'s by address', async () => {
    // Prepare: two subscribed contacts, the project's whole audience
    const readers = [0, 1].map((index) => `reader${index}-${suffix}@example.com`);
    for (const email of readers) await api('POST', '/contacts', { key, body: { email, subscribed: true } });
    const created = await api('POST', '/campaigns', { key, body: { name: `News ${suffix}`, subject: 'News', body: '<p>News</p><p><a href="{{unsubscribeUrl}}">Unsubscribe</a></p>', from: { email: from } } });
    const campaignId = created.body.data.id as string;

    // Act
    expect((await api('POST', `/campaigns/${campaignId}/send`, { key })).status).toBe(200);
    const mail = await until(async () => {
      const page = await list(`?campaignId=${campaignId}`);
      return page.items.length === 2 ? page : undefined;
    });
    const reader = await list(`?email=${encodeURIComponent(readers[1]!)}&campaignId=${campaignId}`);
    const others = await list('?source=transactional');

    // Assess
    expect(mail.items.map((item) => item.to).sort()).toEqual(readers);
    expect(mail.items.every((item) => item.source === 'campaign' && item.sourceId === campaignId)).toBe(true);
    expect(reader.items.map((item) => item.to)).toEqual([readers[1]]);
    expect(others.items.map((item) => item.source)).toEqual(['transactional', 'transactional']);
  });
});
