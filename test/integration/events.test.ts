import { admin, api, stack, uniqueEmail, until } from '../support/api-client';
import { storedEmails, waitForEmails } from '../support/mail-viewer';

async function eventsOf(email: string, key = stack.secretKey): Promise<{ name: string; data: Record<string, unknown>; emailId?: string }[]> {
  const response = await api('GET', `/events?email=${encodeURIComponent(email)}&limit=100`, { key });
  return response.body.data.items;
}

async function waitForEvent(email: string, name: string, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = (await eventsOf(email)).find((event) => event.name === name);
    if (found || Date.now() > deadline) return found;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe('events', () => {
  it('tracks an event from a browser with the public key, preflight included', async () => {
    const email = uniqueEmail('track');
    const preflight = await fetch(`${stack.baseUrl}/v1/track`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://shop.example', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization,content-type' },
    });

    const tracked = await api('POST', '/v1/track', { key: stack.publicKey, headers: { Origin: 'https://shop.example' }, body: { email, event: 'signed up', data: { plan: 'pro' } } });
    const contact = await api('GET', `/contacts/${tracked.body.data.contact}`);
    const events = await eventsOf(email);

    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization');
    expect(tracked.status).toBe(200);
    expect(tracked.headers.get('access-control-allow-origin')).toBe('*');
    expect(tracked.body.data).toEqual({ contact: expect.any(String), event: expect.any(String), timestamp: expect.any(String) });
    expect(contact.body.data).toMatchObject({ email, subscribed: true, data: { plan: 'pro' } });
    expect(events).toEqual([expect.objectContaining({ id: tracked.body.data.event, name: 'signed up', contactId: tracked.body.data.contact, data: { plan: 'pro' } })]);
  });

  it('validates event names and reserves the service prefixes', async () => {
    const responses = await Promise.all(
      ['', ' ', 'email.opened', 'segment.entered', 'bad<name>', 'x'.repeat(101)].map((event) => api('POST', '/v1/track', { key: stack.publicKey, body: { email: uniqueEmail('n'), event } })),
    );

    for (const response of responses) {
      expect(response.status).toBe(422);
      expect(response.body.error.errors[0].field).toBe('event');
    }
  });

  it('lists events newest first with filters and pages, and event names with counts', async () => {
    const project = await admin<{ secretKey: string }>('create-project', '--name', 'events-list');
    const key = project.secretKey;
    const email = uniqueEmail('list');
    for (const event of ['viewed', 'viewed', 'bought', 'viewed']) await api('POST', '/v1/track', { key, body: { email, event } });
    await api('POST', '/v1/track', { key, body: { email: uniqueEmail('other'), event: 'viewed' } });

    const all = await api('GET', '/events?limit=2', { key });
    const next = await api('GET', `/events?limit=2&cursor=${all.body.data.nextCursor}`, { key });
    const byName = await api('GET', '/events?name=bought', { key });
    const byContactAndName = await api('GET', `/events?email=${encodeURIComponent(email)}&name=viewed`, { key });
    const future = await api('GET', `/events?from=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`, { key });
    const names = await api('GET', '/events/names', { key });
    const firstName = await api('GET', '/events/names?limit=1', { key });
    const nextName = await api('GET', `/events/names?limit=1&cursor=${firstName.body.data.nextCursor}`, { key });

    expect(all.body.data.items.map((event: { name: string }) => event.name)).toEqual(['viewed', 'viewed']);
    expect(all.body.data.total).toBe(5);
    expect(next.body.data.items).toHaveLength(2);
    expect(byName.body.data).toMatchObject({ total: 1, items: [expect.objectContaining({ name: 'bought' })] });
    expect(byContactAndName.body.data.items).toHaveLength(3);
    expect(future.body.data.items).toEqual([]);
    // Names come in name order, a page at a time like every list
    expect([firstName.body.data.items[0].name, nextName.body.data.items[0].name]).toEqual(names.body.data.items.slice(0, 2).map((item: { name: string }) => item.name));
    expect(firstName.body.data).toMatchObject({ hasMore: true, total: names.body.data.total });
    expect(names.body.data.items).toEqual(
      expect.arrayContaining([
        { name: 'viewed', count: 4, lastSeenAt: expect.any(String) },
        { name: 'bought', count: 1, lastSeenAt: expect.any(String) },
      ]),
    );
  });

  it('answers 422 for a bad time range and 400 for a cursor of another filter', async () => {
    const badTime = await api('GET', '/events?from=yesterday');
    const first = await api('GET', '/events?limit=1');
    const otherFilter = await api('GET', `/events?limit=1&name=viewed&cursor=${first.body.data.nextCursor}`);

    expect(badTime.status).toBe(422);
    expect(badTime.body.error.errors[0].field).toBe('query.from');
    expect(otherFilter.status).toBe(400);
  });

  it('answers 403 to a public key on GET /events and GET /events/names', async () => {
    const [events, names] = await Promise.all([api('GET', '/events', { key: stack.publicKey }), api('GET', '/events/names', { key: stack.publicKey })]);

    expect(events.status).toBe(403);
    expect(names.status).toBe(403);
  });

  it('records email.sent and email.delivered on the contact for a send', async () => {
    const to = uniqueEmail('delivered');

    const sent = await api('POST', '/v1/send', { body: { to, from: 'hello@example.com', subject: 'Delivered?', body: '<p>hi</p>' } });
    const delivered = await waitForEvent(to, 'email.delivered');
    const names = (await eventsOf(to)).map((event) => event.name);

    expect(delivered).toMatchObject({ emailId: sent.body.data.emails[0].email });
    expect(names).toEqual(expect.arrayContaining(['email.sent', 'email.delivered']));
  });

  it('suppresses and unsubscribes after a simulated permanent bounce; the next send is SUPPRESSED and never reaches the viewer', async () => {
    const to = uniqueEmail('bounce');
    await api('POST', '/contacts', { body: { email: to, subscribed: true } });
    const first = await api('POST', '/v1/send', { body: { to, from: 'hello@example.com', subject: 'First', body: 'x' } });
    await waitForEmails(to);
    const emailId = first.body.data.emails[0].email;

    const simulated = await fetch(`${stack.sesUrl}/_local/simulate`, { method: 'POST', body: JSON.stringify({ emailId, type: 'bounce', bounceType: 'Permanent' }) });
    // SES events reach the service through EventBridge, asynchronously, as in AWS.
    const contact = await until(async () => {
      const read = await api('GET', `/contacts/${first.body.data.emails[0].contact.id}`);
      return read.body.data.subscribed === false ? read : undefined;
    });
    // The contact is unsubscribed before the suppression is written (shared/delivery/outcomes.ts): wait for that too.
    const suppressed = await until(async () => {
      const listed = await admin<{ email: string }[]>('list-suppressed', '--project', stack.projectId);
      return listed.some((entry) => entry.email === to) ? listed : undefined;
    });
    await api('POST', '/v1/send', { body: { to, from: 'hello@example.com', subject: 'Second', body: 'x' } });
    const suppressedEvent = await waitForEvent(to, 'email.suppressed');
    const viewer = (await storedEmails()).filter((email) => email.destination.to.some((address) => address.includes(to)));

    expect(simulated.status).toBe(202);
    expect(contact.body.data.subscribed).toBe(false);
    expect(suppressed.map((entry) => entry.email)).toContain(to);
    expect((await eventsOf(to)).find((event) => event.name === 'email.bounced')?.data).toMatchObject({ bounceType: 'Permanent' });
    expect(suppressedEvent).toBeDefined();
    expect(viewer.map((email) => email.subject)).toEqual(['First']);
  });

  it('records opens and clicks, clicks with their link', async () => {
    const to = uniqueEmail('click');
    const sent = await api('POST', '/v1/send', { body: { to, from: 'hello@example.com', subject: 'Click me', body: '<a href="https://example.com/x">x</a>' } });
    await waitForEmails(to);
    const emailId = sent.body.data.emails[0].email;

    await fetch(`${stack.sesUrl}/_local/simulate`, { method: 'POST', body: JSON.stringify({ emailId, type: 'open' }) });
    await fetch(`${stack.sesUrl}/_local/simulate`, { method: 'POST', body: JSON.stringify({ emailId, type: 'click', link: 'https://example.com/x' }) });
    await waitForEvent(to, 'email.clicked');
    await waitForEvent(to, 'email.opened');
    const events = await eventsOf(to);

    expect(events.filter((event) => event.name === 'email.opened')).toHaveLength(1);
    expect(events.find((event) => event.name === 'email.clicked')?.data).toMatchObject({ link: 'https://example.com/x' });
  });
});
