import { admin, api, stack, uniqueEmail } from '../support/api-client';
import { storedEmails, waitForEmails } from '../support/mail-viewer';

const FROM = 'hello@example.com';

describe('POST /v1/send', () => {
  it('renders a template with data and delivers it with reply-to, headers, from name and attachments', async () => {
    const template = await api('POST', '/templates', {
      body: { name: 'Welcome', subject: 'Hi {{name}} & co', body: '<p>Hello {{name}}, you are {{contact.email}} {{{raw}}}</p>', type: 'TRANSACTIONAL', from: { name: 'Acme', email: FROM } },
    });
    const to = uniqueEmail('render');

    const response = await api('POST', '/v1/send', {
      body: {
        to: { name: 'Jane Doe', email: to },
        template: template.body.data.id,
        data: { name: '<script>alert(1)</script>', raw: '<b>bold</b>' },
        reply: 'support@example.com',
        headers: { 'X-Campaign': 'welcome-1' },
        attachments: [{ filename: 'hello.txt', content: Buffer.from('hello file').toString('base64'), contentType: 'text/plain' }],
      },
    });
    const [email] = await waitForEmails(to);

    expect(response.status).toBe(200);
    expect(response.body.data.emails).toEqual([{ contact: { id: expect.any(String), email: to }, email: expect.any(String) }]);
    expect(email).toBeDefined();
    expect(email!.subject).toBe('Hi <script>alert(1)</script> & co');
    expect(email!.body.html).toBe(`<p>Hello &lt;script&gt;alert(1)&lt;&#x2F;script&gt;, you are ${to} <b>bold</b></p>`);
    expect(email!.from).toContain('Acme');
    expect(email!.from).toContain(FROM);
    expect(email!.destination.to[0]).toContain(to);
    expect(email!.replyTo).toEqual(['support@example.com']);
    expect(email!.headers).toEqual(expect.arrayContaining([{ name: 'X-Campaign', value: 'welcome-1' }]));
    expect(email!.attachments).toEqual([expect.objectContaining({ filename: 'hello.txt', contentType: 'text/plain', size: 10 })]);
    expect(Buffer.from(email!.attachments[0]!.content, 'base64').toString()).toBe('hello file');
  });

  it('sends one email per distinct recipient and creates their contacts unsubscribed by default', async () => {
    const [a, b, c] = [uniqueEmail('a'), uniqueEmail('b'), uniqueEmail('c')];

    const response = await api('POST', '/v1/send', { body: { to: [a, { email: b }, c, a.toUpperCase()], from: FROM, subject: 'Three', body: '<p>hi</p>' } });
    const delivered = await Promise.all([a, b, c].map((to) => waitForEmails(to)));
    const contacts = await Promise.all(response.body.data.emails.map((sent: { contact: { id: string } }) => api('GET', `/contacts/${sent.contact.id}`)));

    expect(response.body.data.emails).toHaveLength(3);
    expect(new Set(response.body.data.emails.map((sent: { email: string }) => sent.email)).size).toBe(3);
    expect(delivered.map((emails) => emails.length)).toEqual([1, 1, 1]);
    expect(contacts.map((contact) => contact.body.data.subscribed)).toEqual([false, false, false]);
  });

  it('keeps an existing contact subscription unless subscribed is given', async () => {
    const to = uniqueEmail('keep');
    await api('POST', '/contacts', { body: { email: to } });

    await api('POST', '/v1/send', { body: { to, from: FROM, subject: 's', body: 'b' } });
    const kept = await api('POST', '/contacts', { body: { email: to } });
    await api('POST', '/v1/send', { body: { to, from: FROM, subject: 's', body: 'b', subscribed: false } });
    const changed = await api('POST', '/contacts', { body: { email: to } });

    expect(kept.body.data.subscribed).toBe(true);
    expect(changed.body.data.subscribed).toBe(false);
  });

  it('sends from a subdomain of a verified domain, and refuses an unverified domain', async () => {
    const to = uniqueEmail('sub');
    const fromSubdomain = await api('POST', '/v1/send', { body: { to, from: 'news@mail.example.com', subject: 's', body: 'b' } });
    const unverified = await api('POST', '/v1/send', { body: { to, from: 'me@not-verified.test', subject: 's', body: 'b' } });
    const lookalike = await api('POST', '/v1/send', { body: { to, from: 'me@badexample.com', subject: 's', body: 'b' } });

    expect(fromSubdomain.status).toBe(200);
    expect(unverified.status).toBe(403);
    expect(unverified.body.error.code).toBe('FROM_DOMAIN_NOT_VERIFIED');
    expect(lookalike.status).toBe(403);
  });

  it('answers 404 for an unknown template', async () => {
    const response = await api('POST', '/v1/send', { body: { to: uniqueEmail('x'), template: '01JD0000000000000000000000' } });

    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('NOT_FOUND');
  });

  it.each([
    ['no recipient', { from: FROM, subject: 's', body: 'b' }, 'to'],
    ['a bad recipient', { to: 'nope', from: FROM, subject: 's', body: 'b' }, 'to'],
    ['no subject without a template', { to: 'a@example.com', from: FROM, body: 'b' }, 'subject'],
    ['no from without a template from', { to: 'a@example.com', subject: 's', body: 'b' }, 'from'],
    ['a header with a line break', { to: 'a@example.com', from: FROM, subject: 's', body: 'b', headers: { 'X-A': 'a\r\nBcc: x@evil.test' } }, 'headers.X-A'],
    ['a header the service owns', { to: 'a@example.com', from: FROM, subject: 's', body: 'b', headers: { 'Content-Type': 'text/plain' } }, 'headers.Content-Type'],
    ['a subject with a line break', { to: 'a@example.com', from: FROM, subject: 'a\nBcc: x', body: 'b' }, 'subject'],
    ['bad base64', { to: 'a@example.com', from: FROM, subject: 's', body: 'b', attachments: [{ filename: 'a.txt', content: 'not base64!!' }] }, 'attachments[0].content'],
    ['eleven attachments', { to: 'a@example.com', from: FROM, subject: 's', body: 'b', attachments: Array.from({ length: 11 }, () => ({ filename: 'a.txt', content: 'aGk=' })) }, 'attachments'],
    ['51 recipients', { to: Array.from({ length: 51 }, (_, i) => `r${i}@example.com`), from: FROM, subject: 's', body: 'b' }, 'to'],
    ['a template that does not parse', { to: 'a@example.com', from: FROM, subject: '{{#open}}', body: 'b' }, 'subject'],
  ])('answers 422 for %s', async (_label, body, field) => {
    const response = await api('POST', '/v1/send', { body });

    expect(response.status).toBe(422);
    expect(response.body.success).toBe(false);
    expect(response.body.error.errors.map((error: { field: string }) => error.field)).toContain(field);
  });

  it('answers 413 stating the limit for a body over 6 MB', async () => {
    const content = Buffer.alloc(4_600_000, 1).toString('base64');

    const response = await api('POST', '/v1/send', { body: { to: 'a@example.com', from: FROM, subject: 's', body: 'b', attachments: [{ filename: 'big.bin', content }] } });

    expect(response.status).toBe(413);
    expect(response.body.error.message).toContain('6000000');
  });

  it('replays the first response for a repeated Idempotency-Key and sends nothing new; another body gets 409', async () => {
    const to = uniqueEmail('idem');
    const key = `idem-${Math.random()}`;
    const body = { to, from: FROM, subject: 'Once', body: 'only once' };

    const first = await api('POST', '/v1/send', { body, headers: { 'Idempotency-Key': key } });
    const second = await api('POST', '/v1/send', { body, headers: { 'Idempotency-Key': key } });
    const different = await api('POST', '/v1/send', { body: { ...body, subject: 'Other' }, headers: { 'Idempotency-Key': key } });
    await waitForEmails(to);
    await new Promise((resolve) => setTimeout(resolve, 1500));

    expect(second.status).toBe(first.status);
    expect(second.body.data).toEqual(first.body.data);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(different.status).toBe(409);
    expect((await storedEmails()).filter((email) => email.destination.to.some((address) => address.includes(to)))).toHaveLength(1);
  });

  it('answers 403 to a public key', async () => {
    const response = await api('POST', '/v1/send', { key: stack.publicKey, body: { to: 'a@example.com', from: FROM, subject: 's', body: 'b' } });

    expect(response.status).toBe(403);
  });

  it('keeps projects apart: another project cannot send from this project domain', async () => {
    const other = await admin<{ secretKey: string }>('create-project', '--name', 'no-domain');

    const response = await api('POST', '/v1/send', { key: other.secretKey, body: { to: 'a@example.com', from: FROM, subject: 's', body: 'b' } });

    expect(response.status).toBe(403);
    expect(response.body.error.code).toBe('FROM_DOMAIN_NOT_VERIFIED');
  });
});
