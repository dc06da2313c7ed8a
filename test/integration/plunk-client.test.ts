import plunkModule from '@plunk/node';
import { api, stack, uniqueEmail } from '../support/api-client';
import { waitForEmails } from '../support/mail-viewer';

// @plunk/node is CommonJS with `exports.default`: under ESM its default import is the exports object.
/** Browser and cold starts on a busy machine: longer than jest's default 5 s. */
const TEST_TIMEOUT_MS = 120_000;
const Plunk = ((plunkModule as unknown as { default?: typeof plunkModule }).default ?? plunkModule) as typeof plunkModule;
const FROM = 'hello@example.com';

/** The official client, unchanged, pointed at the local stack: it posts to `${baseUrl}send` and `${baseUrl}track`. */
const plunk = new Plunk(stack.secretKey, { baseUrl: `${stack.baseUrl}/v1/` });

describe('@plunk/node against Mailwright', () => {
  it('tracks an event: persistent and plain values land on the contact, non-persistent ones only on the event', async () => {
    const email = uniqueEmail('plunk-track');

    const result = await plunk.events.track({
      event: 'pricing-viewed',
      email,
      data: { plan: { value: 'pro', persistent: true }, page: { value: '/pricing', persistent: false }, source: 'newsletter' },
    });
    const contacts = await api('GET', `/contacts?search=${encodeURIComponent(email)}`);
    const events = await api('GET', `/events?email=${encodeURIComponent(email)}`);

    expect(result).toMatchObject({ success: true, data: { contact: expect.any(String), event: expect.any(String), timestamp: expect.any(String) } });
    expect(contacts.body.data.items).toHaveLength(1);
    expect(contacts.body.data.items[0].data).toEqual({ plan: 'pro', source: 'newsletter' });
    expect(contacts.body.data.items[0].subscribed).toBe(true);
    expect(events.body.data.items).toEqual([expect.objectContaining({ name: 'pricing-viewed', data: { plan: 'pro', page: '/pricing', source: 'newsletter' } })]);
  }, TEST_TIMEOUT_MS);

  it('sends HTML by default', async () => {
    const to = uniqueEmail('plunk-html');

    const result = await plunk.emails.send({ to, subject: 'Hello', body: '<p>Hello <b>there</b></p>', from: FROM, name: 'Acme' });
    const [email] = await waitForEmails(to);

    expect(result).toMatchObject({ success: true, data: { emails: [{ contact: { email: to } }] } });
    expect(email!.body.html).toBe('<p>Hello <b>there</b></p>');
    expect(email!.from).toContain('Acme');
  }, TEST_TIMEOUT_MS);

  it('sends Markdown rendered to HTML, with raw HTML escaped', async () => {
    const to = uniqueEmail('plunk-markdown');

    await plunk.emails.send({ to, subject: 'Markdown', type: 'markdown', body: '# Welcome\n\nThis is **bold**, a [link](https://example.com) and <script>alert(1)</script>', from: FROM });
    const [email] = await waitForEmails(to);

    expect(email!.body.html).toContain('<h1>Welcome</h1>');
    expect(email!.body.html).toContain('<strong>bold</strong>');
    expect(email!.body.html).toContain('<a href="https://example.com">link</a>');
    expect(email!.body.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(email!.body.html).not.toContain('<script');
  }, TEST_TIMEOUT_MS);

  it("surfaces the service's message for a rejected call", async () => {
    const badKey = new Plunk('sk_not_a_key', { baseUrl: `${stack.baseUrl}/v1/` });

    await expect(plunk.emails.send({ to: 'not-an-email', subject: 's', body: 'b', from: FROM })).rejects.toThrow(/^The request did not pass validation: to: .+/);
    await expect(plunk.emails.send({ to: uniqueEmail('plunk-unverified'), subject: 's', body: 'b', from: 'me@unverified-domain.test' })).rejects.toThrow(
      'The domain of me@unverified-domain.test is not a verified domain of this project',
    );
    await expect(badKey.events.track({ event: 'x', email: uniqueEmail('plunk-key') })).rejects.toThrow('A valid API key is required');
  }, TEST_TIMEOUT_MS);
});
