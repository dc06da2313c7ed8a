import { Webhook } from 'standardwebhooks';
import { admin, api, stack, uniqueEmail, until } from '../support/api-client';
import { localOwner } from '../support/dashboard-session';
import { storedEmails } from '../support/mail-viewer';
import { useWebhookReceiver } from '../support/webhook-receiver';

const FROM = 'hello@example.com';

/** The local receiver answers each path's queued statuses, then 200. */
const answers = new Map<string, number[]>();
const receiver = useWebhookReceiver((path) => {
  const status = answers.get(path)?.shift() ?? 200;
  return { status, body: status === 200 ? 'ok' : 'not now' };
});
const received = receiver.received;

const at = (path: string) => received.filter((entry) => entry.path === path);

async function waitFor<T>(what: string, check: () => T | undefined | false, timeoutMs = 40_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function createWebhook(path: string, events: string[], key?: string) {
  const response = await api('POST', '/webhooks', { key, body: { url: `${receiver.url}${path}`, events, description: `test ${path}` } });
  expect(response.status).toBe(201);
  return response.body.data as { id: string; secret: string; url: string; events: string[] };
}

describe('outbound webhooks', () => {
  it('delivers email.delivered and contact.unsubscribed as signed POSTs that verify with standardwebhooks', async () => {
    // Prepare
    const webhook = await createWebhook('/new-user', ['email.delivered', 'contact.unsubscribed']);
    const to = uniqueEmail('webhook');

    // Act: send an email, then unsubscribe its contact
    const sent = await api('POST', '/v1/send', { body: { to, from: FROM, subject: 'Hello', body: '<p>hi</p>', subscribed: true } });
    const { contact, email: emailId } = sent.body.data.emails[0];
    // Other test files share the project: pick this email's and this contact's events.
    const about = (entry: { body: string }) => {
      const { data } = JSON.parse(entry.body) as { data: { id?: string; contactId?: string } };
      return data.contactId === contact.id || data.id === contact.id;
    };
    const delivered = await waitFor('email.delivered', () => at('/new-user').find((entry) => about(entry) && JSON.parse(entry.body).type === 'email.delivered'));
    const unsubscribed = await api('PATCH', `/contacts/${contact.id}`, { body: { subscribed: false } });
    const unsubscribe = await waitFor('contact.unsubscribed', () => at('/new-user').find((entry) => about(entry) && JSON.parse(entry.body).type === 'contact.unsubscribed'));

    // Assess
    expect(sent.status).toBe(200);
    expect(unsubscribed.status).toBe(200);
    expect(webhook.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const verifier = new Webhook(webhook.secret);
    for (const entry of [delivered, unsubscribe]) {
      expect(entry.headers['webhook-id']).toMatch(/^msg_[0-9A-Z]{26}$/);
      expect(entry.headers['content-type']).toBe('application/json');
      expect(verifier.verify(entry.body, entry.headers as Record<string, string>)).toEqual(JSON.parse(entry.body));
    }
    expect(JSON.parse(delivered.body)).toEqual({
      type: 'email.delivered',
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      data: { id: expect.any(String), name: 'email.delivered', contactId: contact.id, emailId, data: expect.any(Object), createdAt: expect.any(String) },
    });
    expect(JSON.parse(unsubscribe.body)).toEqual({
      type: 'contact.unsubscribed',
      timestamp: expect.any(String),
      data: { id: contact.id, email: to, subscribed: false, data: {}, createdAt: expect.any(String), updatedAt: expect.any(String) },
    });
    // Only the kinds it subscribed to, each once for this contact.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(at('/new-user').filter(about).map((entry) => JSON.parse(entry.body).type).sort()).toEqual(['contact.unsubscribed', 'email.delivered']);
    expect(new Set(at('/new-user').map((entry) => JSON.parse(entry.body).type))).toEqual(new Set(['contact.unsubscribed', 'email.delivered']));
  }, 90_000);

  it('retries a failing receiver with the same webhook-id until it answers 2xx, and logs the attempts', async () => {
    // Prepare: 500 three times, then 200
    const eventName = `webhook-retry-${Date.now().toString(36)}`;
    answers.set('/flaky', [500, 500, 500]);
    const webhook = await createWebhook('/flaky', [`event:${eventName}`]);

    // Act
    const tracked = await api('POST', '/v1/track', { body: { email: uniqueEmail('flaky'), event: eventName, data: { plan: 'pro' } } });
    await waitFor('4 attempts', () => at('/flaky').length >= 4);
    const deliveries = await waitForDelivered(webhook.id);

    // Assess
    expect(tracked.status).toBe(200);
    const attempts = at('/flaky');
    expect(attempts).toHaveLength(4);
    expect(new Set(attempts.map((entry) => entry.headers['webhook-id'])).size).toBe(1);
    expect(new Set(attempts.map((entry) => entry.body)).size).toBe(1);
    expect(JSON.parse(attempts[0]!.body)).toMatchObject({ type: `event:${eventName}`, data: { name: eventName, data: { plan: 'pro' } } });
    expect(deliveries).toEqual([
      expect.objectContaining({
        id: attempts[0]!.headers['webhook-id'],
        eventId: tracked.body.data.event,
        type: `event:${eventName}`,
        status: 'delivered',
        attempts: 4,
        lastStatusCode: 200,
        lastError: null,
        nextAttemptAt: null,
        deliveredAt: expect.any(String),
      }),
    ]);
  }, 90_000);

  it('replays a failed delivery: the same body and webhook-id, freshly signed, one more attempt in the log', async () => {
    // Prepare: a receiver that fails all five attempts (the first and four retries), then works
    const eventName = `webhook-replay-${Date.now().toString(36)}`;
    answers.set('/replay', [500, 500, 500, 500, 500]);
    const webhook = await createWebhook('/replay', [`event:${eventName}`]);
    await api('POST', '/v1/track', { body: { email: uniqueEmail('replay'), event: eventName } });
    const [failed] = await waitForDeliveries(webhook.id, (items) => items.length === 1 && items[0]!.status === 'failed');

    // Act
    const replayed = await api('POST', `/webhooks/${webhook.id}/deliveries/${failed!.id}/replay`);
    const [delivered] = await waitForDeliveries(webhook.id, (items) => items[0]!.status === 'delivered');
    const again = await api('POST', `/webhooks/${webhook.id}/deliveries/${failed!.id}/replay`);
    await waitForDeliveries(webhook.id, (items) => items[0]!.status === 'delivered' && items[0]!.attempts === 7);
    const unknown = await api('POST', `/webhooks/${webhook.id}/deliveries/msg_01JD00000000000000000000ZZ/replay`);

    // Assess
    expect(replayed.status).toBe(202);
    expect(replayed.body.data).toMatchObject({ id: failed!.id, status: 'pending', attempts: 5 });
    const attempts = at('/replay');
    expect(attempts).toHaveLength(7);
    expect(new Set(attempts.map((entry) => entry.headers['webhook-id']))).toEqual(new Set([failed!.id]));
    expect(new Set(attempts.map((entry) => entry.body)).size).toBe(1);
    expect(new Webhook(webhook.secret).verify(attempts[5]!.body, attempts[5]!.headers as Record<string, string>)).toEqual(JSON.parse(attempts[0]!.body));
    // Freshly signed: its timestamp (whole seconds) is later than the first attempt's, at least four 1-s retries before.
    expect(Number(attempts[5]!.headers['webhook-timestamp'])).toBeGreaterThan(Number(attempts[0]!.headers['webhook-timestamp']));
    expect(attempts[5]!.headers['webhook-signature']).not.toBe(attempts[0]!.headers['webhook-signature']);
    expect(delivered).toMatchObject({ status: 'delivered', attempts: 6, lastStatusCode: 200, lastError: null });
    expect(again.status).toBe(202);
    expect(unknown.status).toBe(404);
  }, 90_000);

  it('disables an endpoint whose deliveries all fail for the set period (20 s in the test stack), mails the owner, queues nothing more for it, and starts afresh when enabled', async () => {
    // Prepare: a receiver that never works
    const eventName = `webhook-dead-${Date.now().toString(36)}`;
    answers.set('/dead', Array.from({ length: 1000 }, () => 500));
    const webhook = await createWebhook('/dead', [`event:${eventName}`]);
    const owner = localOwner(stack);

    // Act: an event every 2 s until the service disables the endpoint
    let endpoint: { status: string; enabled: boolean; disabledReason: string | null; failingSince: string | null } | undefined;
    const deadline = Date.now() + 120_000;
    while (Date.now() < deadline) {
      await api('POST', '/v1/track', { body: { email: uniqueEmail('dead'), event: eventName } });
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      endpoint = (await api('GET', `/webhooks/${webhook.id}`)).body.data;
      if (endpoint!.status === 'DISABLED') break;
    }
    const notice = await until(async () =>
      (await storedEmails()).find((email) => email.destination.to.some((to) => to.includes(owner.email)) && email.body.html?.includes(`${receiver.url}/dead`)),
    );
    const deliveriesWhenDisabled = (await api('GET', `/webhooks/${webhook.id}/deliveries?limit=100`)).body.data.items.length;
    await api('POST', '/v1/track', { body: { email: uniqueEmail('dead'), event: eventName } });
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const deliveriesAfter = (await api('GET', `/webhooks/${webhook.id}/deliveries?limit=100`)).body.data.items.length;
    const reenabled = await api('PATCH', `/webhooks/${webhook.id}`, { body: { enabled: true } });

    // Assess
    expect(endpoint).toMatchObject({ status: 'DISABLED', enabled: false, failingSince: expect.any(String) });
    expect(endpoint!.disabledReason).toMatch(/^Every delivery failed for 20 seconds \(since .+\); the last: HTTP 500/);
    expect(notice.subject).toBe('A webhook endpoint of your project was disabled');
    expect(notice.body.html).toContain('Every delivery failed for 20 seconds');
    expect(deliveriesAfter).toBe(deliveriesWhenDisabled);
    expect(reenabled.body.data).toMatchObject({ status: 'ENABLED', enabled: true, disabledReason: null, failingSince: null });
  }, 180_000);

  it('refuses private and non-https destinations with 422 at create time', async () => {
    for (const url of ['https://169.254.169.254/latest/meta-data/', 'https://internal.test/hook', 'http://hooks.example.com/hook', 'https://[::1]/', 'not a url']) {
      const response = await api('POST', '/webhooks', { body: { url, events: ['*'] } });
      expect({ url, status: response.status, code: response.body.error?.code, field: response.body.error?.errors?.[0]?.field }).toEqual({ url, status: 422, code: 'VALIDATION_ERROR', field: 'url' });
    }
    const publicHost = await api('POST', '/webhooks', { body: { url: 'https://hooks.example.com/hook', events: ['*'] } });
    expect(publicHost.status).toBe(201);
    await api('DELETE', `/webhooks/${publicHost.body.data.id}`);
  }, 60_000);

  it('validates event kinds and patches', async () => {
    const unknownKind = await api('POST', '/webhooks', { body: { url: `${receiver.url}/x`, events: ['email.sent', 'email.nope'] } });
    const none = await api('POST', '/webhooks', { body: { url: `${receiver.url}/x`, events: [] } });
    const webhook = await createWebhook('/patched', ['email.sent']);
    const emptyPatch = await api('PATCH', `/webhooks/${webhook.id}`, { body: {} });
    const patched = await api('PATCH', `/webhooks/${webhook.id}`, { body: { events: ['*', '*'], enabled: false, description: 'paused' } });
    const fetched = await api('GET', `/webhooks/${webhook.id}`);
    const listed = await api('GET', '/webhooks');

    expect(unknownKind.status).toBe(422);
    expect(unknownKind.body.error.errors[0].field).toBe('events[1]');
    expect(none.status).toBe(422);
    expect(emptyPatch.status).toBe(422);
    expect(patched.status).toBe(200);
    expect(fetched.body.data).toEqual({
      id: webhook.id,
      url: `${receiver.url}/patched`,
      events: ['*'],
      description: 'paused',
      enabled: false,
      status: 'DISABLED',
      disabledReason: null,
      failingSince: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(fetched.body.data).not.toHaveProperty('secret');
    expect(listed.body.data.items.map((item: { id: string }) => item.id)).toContain(webhook.id);
    expect(listed.body.data.items.every((item: object) => !('secret' in item))).toBe(true);
  }, 60_000);

  it('keeps the old secret signing beside the new one after rotate-secret', async () => {
    // Prepare
    const webhook = await createWebhook('/rotated', ['email.bounced']);


    // Act
    const rotated = await api('POST', `/webhooks/${webhook.id}/rotate-secret`);
    const test = await api('POST', `/webhooks/${webhook.id}/test`);
    const entry = await waitFor('the test event', () => at('/rotated')[0]);

    // Assess
    expect(rotated.status).toBe(200);
    expect(rotated.body.data.secret).toMatch(/^whsec_/);
    expect(rotated.body.data.secret).not.toBe(webhook.secret);
    expect(test.status).toBe(202);
    expect(test.body.data).toMatchObject({ type: 'webhook.test', status: 'pending', attempts: 0 });
    expect(entry.headers['webhook-id']).toBe(test.body.data.id);
    expect(String(entry.headers['webhook-signature']).split(' ')).toHaveLength(2);
    const headers = entry.headers as Record<string, string>;
    expect(new Webhook(rotated.body.data.secret).verify(entry.body, headers)).toMatchObject({ type: 'webhook.test', data: { webhookId: webhook.id } });
    expect(new Webhook(webhook.secret).verify(entry.body, headers)).toMatchObject({ type: 'webhook.test' });
  }, 60_000);

  it("answers 404 for another project's endpoint and for unknown ids", async () => {
    const other = await admin<{ projectId: string; secretKey: string }>('create-project', '--name', 'webhooks-other');
    const webhook = await createWebhook('/mine', ['*']);

    const attempts = await Promise.all([
      api('GET', `/webhooks/${webhook.id}`, { key: other.secretKey }),
      api('PATCH', `/webhooks/${webhook.id}`, { key: other.secretKey, body: { enabled: false } }),
      api('DELETE', `/webhooks/${webhook.id}`, { key: other.secretKey }),
      api('POST', `/webhooks/${webhook.id}/rotate-secret`, { key: other.secretKey }),
      api('POST', `/webhooks/${webhook.id}/test`, { key: other.secretKey }),
      api('GET', `/webhooks/${webhook.id}/deliveries`, { key: other.secretKey }),
      api('GET', '/webhooks/not-an-id'),
    ]);
    const stillMine = await api('GET', `/webhooks/${webhook.id}`);
    const otherList = await api('GET', '/webhooks', { key: other.secretKey });

    expect(attempts.map((response) => response.status)).toEqual([404, 404, 404, 404, 404, 404, 404]);
    expect(stillMine.body.data.enabled).toBe(true);
    expect(otherList.body.data.items).toEqual([]);
    const deleted = await api('DELETE', `/webhooks/${webhook.id}`);
    expect(deleted.status).toBe(200);
    expect((await api('GET', `/webhooks/${webhook.id}`)).status).toBe(404);
  }, 60_000);
});

type Delivery = { id: string; status: string; attempts: number; lastStatusCode: number | null; lastError: string | null };

async function waitForDeliveries(webhookId: string, done: (items: Delivery[]) => boolean) {
  return until(async () => {
    const items = (await api('GET', `/webhooks/${webhookId}/deliveries`)).body.data.items as Delivery[];
    return items.length > 0 && done(items) ? items : undefined;
  }, 40_000);
}

async function waitForDelivered(webhookId: string) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const response = await api('GET', `/webhooks/${webhookId}/deliveries`);
    const items = response.body.data.items as { status: string }[];
    if (items.length > 0 && items.every((item) => item.status === 'delivered')) return items;
    if (Date.now() > deadline) throw new Error(`Deliveries not delivered: ${JSON.stringify(items)}`);
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}
