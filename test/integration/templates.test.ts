import { admin, api, stack, uniqueEmail } from '../support/api-client';
import { waitForEmails } from '../support/mail-viewer';

const template = (overrides: Record<string, unknown> = {}) => ({
  name: 'Welcome',
  subject: 'Hi {{name}} & welcome',
  body: '<p>Hello {{contact.email}}</p>{{{footer}}}',
  type: 'TRANSACTIONAL',
  ...overrides,
});

describe('templates over HTTP', () => {
  let key: string;
  let publicKey: string;

  beforeAll(async () => {
    ({ secretKey: key, publicKey } = await admin<{ secretKey: string; publicKey: string }>('create-project', '--name', 'templates-test'));
  });

  it('creates with 201 and echoes the fields, then gets it by id', async () => {
    const created = await api('POST', '/templates', {
      key,
      body: template({ name: '  Welcome  ', from: { name: 'Acme', email: 'Hello@Acme.test' }, replyTo: 'support@acme.test' }),
    });
    const fetched = await api('GET', `/templates/${created.body.data.id}`, { key });

    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      success: true,
      data: {
        id: expect.stringMatching(/^[0-9A-Z]{26}$/),
        name: 'Welcome',
        subject: 'Hi {{name}} & welcome',
        body: '<p>Hello {{contact.email}}</p>{{{footer}}}',
        format: 'html',
        text: null,
        type: 'TRANSACTIONAL',
        from: { name: 'Acme', email: 'hello@acme.test' },
        replyTo: 'support@acme.test',
        createdAt: expect.any(String),
        updatedAt: created.body.data.createdAt,
      },
    });
    expect(fetched.status).toBe(200);
    expect(fetched.body.data).toEqual(created.body.data);
  });

  it('stores a from string as { email } and defaults from and replyTo to null', async () => {
    const withFrom = await api('POST', '/templates', { key, body: template({ from: 'news@acme.test' }) });
    const bare = await api('POST', '/templates', { key, body: template() });

    expect(withFrom.body.data.from).toEqual({ email: 'news@acme.test' });
    expect(bare.body.data).toMatchObject({ from: null, replyTo: null });
  });

  it('patches fields, removes from with null, and rejects templates that do not parse', async () => {
    const { body } = await api('POST', '/templates', { key, body: template({ from: 'a@acme.test' }) });
    const id = body.data.id;

    const patched = await api('PATCH', `/templates/${id}`, { key, body: { subject: 'New {{name}}', from: null, type: 'MARKETING' } });
    const badBody = await api('PATCH', `/templates/${id}`, { key, body: { body: '<p>{{#open}}</p>' } });
    const badSubject = await api('PATCH', `/templates/${id}`, { key, body: { subject: 'Hi {{name' } });
    const empty = await api('PATCH', `/templates/${id}`, { key, body: {} });
    const after = await api('GET', `/templates/${id}`, { key });

    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({ id, subject: 'New {{name}}', from: null, type: 'MARKETING', body: body.data.body, name: 'Welcome' });
    expect(patched.body.data.updatedAt >= body.data.updatedAt).toBe(true);
    expect(badBody.status).toBe(422);
    expect(badBody.body.error).toMatchObject({ code: 'VALIDATION_ERROR', errors: [{ field: 'body', code: 'INVALID_TEMPLATE' }] });
    expect(badSubject.status).toBe(422);
    expect(badSubject.body.error.errors).toEqual([{ field: 'subject', code: 'INVALID_TEMPLATE', message: 'Unclosed tag at 9', line: 1 }]);
    expect(empty.status).toBe(422);
    expect(after.body.data).toEqual(patched.body.data);
  });

  it('rejects a create whose body does not parse', async () => {
    const response = await api('POST', '/templates', { key, body: template({ body: '{{#open}}' }) });

    expect(response.status).toBe(422);
    expect(response.body.error.errors).toEqual([{ field: 'body', code: 'INVALID_TEMPLATE', message: 'Unclosed section "open" at 9', line: 1 }]);
  });

  it('deletes, then answers 404', async () => {
    const { body } = await api('POST', '/templates', { key, body: template() });
    const id = body.data.id;

    const deleted = await api('DELETE', `/templates/${id}`, { key });
    const gone = await api('GET', `/templates/${id}`, { key });
    const patchGone = await api('PATCH', `/templates/${id}`, { key, body: { name: 'x' } });
    const deletedAgain = await api('DELETE', `/templates/${id}`, { key });

    expect(deleted.body).toEqual({ success: true, data: { id, deleted: true } });
    expect(gone.status).toBe(404);
    expect(gone.body.error.code).toBe('NOT_FOUND');
    expect(patchGone.status).toBe(404);
    expect(deletedAgain.status).toBe(404);
  });

  it('answers 404 for unknown and malformed ids', async () => {
    const unknown = await api('GET', '/templates/01JD0000000000000000000000', { key });
    const malformed = await api('GET', '/templates/not-an-id', { key });

    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatchObject({ code: 'NOT_FOUND', message: 'Template not found' });
    expect(malformed.status).toBe(404);
  });

  it('validates input with 422 and field errors', async () => {
    const missing = await api('POST', '/templates', { key, body: { name: 'x' } });
    const badType = await api('POST', '/templates', { key, body: template({ type: 'PROMO', from: 'not-an-email' }) });
    const badLimit = await api('GET', '/templates?limit=0', { key });
    const badFilter = await api('GET', '/templates?type=promo', { key });

    expect(missing.status).toBe(422);
    expect(missing.body.error).toMatchObject({ code: 'VALIDATION_ERROR', statusCode: 422 });
    expect(missing.body.error.errors.map((e: { field: string; code: string }) => `${e.field}:${e.code}`).sort()).toEqual(['body:REQUIRED', 'subject:REQUIRED', 'type:REQUIRED']);
    expect(badType.status).toBe(422);
    expect(badType.body.error.errors.map((e: { field: string }) => e.field).sort()).toEqual(['from', 'type']);
    expect(badLimit.body.error.errors[0].field).toBe('query.limit');
    expect(badFilter.body.error.errors[0].field).toBe('query.type');
  });

  it('refuses a public key with 403', async () => {
    const response = await api('GET', '/templates', { key: publicKey });

    expect(response.status).toBe(403);
    expect(response.body.error.code).toBe('FORBIDDEN');
  });
});

describe('paging templates', () => {
  let key: string;

  beforeAll(async () => {
    ({ secretKey: key } = await admin<{ secretKey: string }>('create-project', '--name', 'templates-paging'));
    for (let i = 0; i < 5; i++) {
      await api('POST', '/templates', { key, body: template({ name: `T${i}`, type: i % 2 === 0 ? 'MARKETING' : 'TRANSACTIONAL' }) });
    }
  });

  it('pages 5 templates with limit=2 in 3 pages, newest first, the same total on each', async () => {
    const pages = [];
    let cursor: string | null = null;
    do {
      const response: { body: { data: { items: { name: string }[]; nextCursor: string | null; hasMore: boolean; total: number } } } = await api(
        'GET',
        `/templates?limit=2${cursor ? `&cursor=${cursor}` : ''}`,
        { key },
      );
      pages.push(response.body.data);
      cursor = response.body.data.nextCursor;
    } while (cursor);

    expect(pages.map((page) => page.items.map((item) => item.name))).toEqual([['T4', 'T3'], ['T2', 'T1'], ['T0']]);
    expect(pages.map((page) => page.hasMore)).toEqual([true, true, false]);
    expect(pages.every((page) => page.total === 5)).toBe(true);
  });

  it('filters by type with that type total, and refuses a cursor from another query', async () => {
    const marketing = await api('GET', '/templates?type=MARKETING&limit=100', { key });
    const first = await api('GET', '/templates?limit=1', { key });
    const replayed = await api('GET', `/templates?type=MARKETING&cursor=${first.body.data.nextCursor}`, { key });

    expect(marketing.body.data.items.map((item: { name: string }) => item.name)).toEqual(['T4', 'T2', 'T0']);
    expect(marketing.body.data.total).toBe(3);
    expect(replayed.status).toBe(400);
    expect(replayed.body.error.code).toBe('INVALID_CURSOR');
  });

  it('keeps the per-type totals exact across a type change and a delete', async () => {
    const { body } = await api('POST', '/templates', { key, body: template({ name: 'moving', type: 'MARKETING' }) });
    await api('PATCH', `/templates/${body.data.id}`, { key, body: { type: 'TRANSACTIONAL' } });
    const moved = await api('GET', '/templates?type=TRANSACTIONAL&limit=1', { key });
    await api('DELETE', `/templates/${body.data.id}`, { key });
    const after = await api('GET', '/templates?limit=1', { key });
    const marketing = await api('GET', '/templates?type=MARKETING&limit=1', { key });

    expect(moved.body.data.total).toBe(3);
    expect(after.body.data.total).toBe(5);
    expect(marketing.body.data.total).toBe(3);
  });
});

describe('Markdown templates', () => {
  it('keeps the format and sends a Markdown template through /v1/send as HTML, raw HTML escaped and variables escaped', async () => {
    // Prepare
    const created = await api('POST', '/templates', {
      body: { name: 'Markdown', subject: 'Hi {{name}}', body: '# Hello {{name}}\n\n**Plan:** {{contact.data.plan}}\n\n<script>x</script>', format: 'markdown', type: 'TRANSACTIONAL', from: 'hello@example.com' },
    });
    const to = uniqueEmail('markdown');

    // Act
    const sent = await api('POST', '/v1/send', { body: { to, template: created.body.data.id, data: { name: '<i>Jane</i>' } } });
    const [mail] = await waitForEmails(to);

    // Assess
    expect(created.status).toBe(201);
    expect(created.body.data.format).toBe('markdown');
    expect(sent.status).toBe(200);
    expect(mail!.subject).toBe('Hi <i>Jane</i>');
    expect(mail!.body.html).toContain('<h1>Hello &lt;i&gt;Jane&lt;&#x2F;i&gt;</h1>');
    expect(mail!.body.html).toContain('<strong>Plan:</strong>');
    expect(mail!.body.html).toContain('&lt;script&gt;x&lt;/script&gt;');
    expect(mail!.body.html).not.toContain('<script>');
    expect(mail!.body.text).toContain('HELLO <I>JANE</I>');
  });

  it('patches the format and refuses an unknown one', async () => {
    const created = await api('POST', '/templates', { body: template({ body: '*hi*' }) });

    const patched = await api('PATCH', `/templates/${created.body.data.id}`, { body: { format: 'markdown' } });
    const bad = await api('PATCH', `/templates/${created.body.data.id}`, { body: { format: 'rtf' } });

    expect(created.body.data.format).toBe('html');
    expect(patched.body.data.format).toBe('markdown');
    expect(bad.status).toBe(422);
    expect(bad.body.error.errors[0]).toMatchObject({ field: 'format' });
  });
});

describe('POST /templates/render', () => {
  let contactId: string;
  const contactEmail = uniqueEmail('render-contact');

  beforeAll(async () => {
    const { body } = await api('POST', '/contacts', { body: { email: contactEmail, data: { plan: 'pro', name: '<b>Ann</b>' } } });
    contactId = body.data.id;
  });

  it('renders a draft for data: the subject unescaped, the body escaped, the text part generated', async () => {
    // Act
    const response = await api('POST', '/templates/render', { body: { subject: 'Hi {{name}} & co', body: '<p>Hi {{name}}</p>{{{raw}}}', data: { name: '<script>alert(1)</script>', raw: '<b>bold</b>' } } });

    // Assess
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({
      subject: 'Hi <script>alert(1)</script> & co',
      html: '<p>Hi &lt;script&gt;alert(1)&lt;&#x2F;script&gt;</p><b>bold</b>',
      text: 'Hi <script>alert(1)</script>\n\nbold',
      previewUrl: expect.stringMatching(/\/templates\/previews\/[A-Za-z0-9_-]{32}$/),
      previewExpiresAt: expect.any(String),
    });
    const lifetime = Date.parse(response.body.data.previewExpiresAt) - Date.now();
    expect(lifetime).toBeGreaterThan(13 * 60_000);
    expect(lifetime).toBeLessThanOrEqual(15 * 60_000);
  });

  it('renders a saved MARKETING Markdown template as a contact, with the unsubscribe link, as a campaign would', async () => {
    // Prepare
    const created = await api('POST', '/templates', {
      body: { name: 'News', subject: 'News for {{contact.data.name}}', body: 'Hello {{contact.data.name}}, plan **{{contact.data.plan}}**, {{email}}', format: 'markdown', type: 'MARKETING' },
    });

    // Act
    const byId = await api('POST', '/templates/render', { body: { templateId: created.body.data.id, contactId } });
    const byEmail = await api('POST', '/templates/render', { body: { templateId: created.body.data.id, email: contactEmail } });

    // Assess
    expect(byId.status).toBe(200);
    expect(byId.body.data.subject).toBe('News for <b>Ann</b>');
    expect(byId.body.data.html).toBe(`<p>Hello &lt;b&gt;Ann&lt;&#x2F;b&gt;, plan <strong>pro</strong>, ${contactEmail}</p>\n`);
    expect(byId.body.data.text).toMatch(/\n\nUnsubscribe: http:\/\/\S+\/unsubscribe\/preview\n$/);
    expect(byEmail.body.data).toMatchObject({ subject: byId.body.data.subject, html: byId.body.data.html, text: byId.body.data.text });
  });

  it('answers 422 INVALID_TEMPLATE with the field and line, and 422 for a contact that does not exist', async () => {
    const invalid = await api('POST', '/templates/render', { body: { subject: 'ok', body: '<p>one</p>\n<p>two</p>\n<p>{{#items}}</p>' } });
    const noContact = await api('POST', '/templates/render', { body: { subject: 'ok', body: 'ok', contactId: '01JD0000000000000000000000' } });
    const neither = await api('POST', '/templates/render', { body: { data: {} } });

    expect(invalid.status).toBe(422);
    expect(invalid.body.error).toMatchObject({ code: 'INVALID_TEMPLATE', errors: [{ field: 'body', code: 'INVALID_TEMPLATE', line: 3, message: expect.stringContaining('items') }] });
    expect(noContact.status).toBe(422);
    expect(noContact.body.error.errors).toEqual([expect.objectContaining({ field: 'contactId', code: 'NOT_FOUND' })]);
    expect(neither.status).toBe(422);
  });

  it('serves the preview without credentials, sandboxed, and a 404 page for an unknown token', async () => {
    // Prepare
    const { body } = await api('POST', '/templates/render', { body: { subject: 's', body: '<p style="color:red">Hi {{name}}</p><script>alert(1)</script>', data: { name: 'Jo' } } });
    const path = new URL(body.data.previewUrl).pathname;

    // Act
    const preview = await fetch(`${stack.baseUrl}${path}`);
    const html = await preview.text();
    const unknown = await fetch(`${stack.baseUrl}/templates/previews/${'A'.repeat(32)}`);
    const malformed = await fetch(`${stack.baseUrl}/templates/previews/nope`);

    // Assess
    expect(preview.status).toBe(200);
    expect(html).toBe(body.data.html);
    expect(preview.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const policy = preview.headers.get('content-security-policy')!;
    expect(policy).toMatch(/^sandbox; default-src 'none'; style-src 'unsafe-inline' \*; img-src \* data:/);
    expect(policy).not.toMatch(/script-src|allow-scripts/);
    expect(preview.headers.get('x-content-type-options')).toBe('nosniff');
    expect(preview.headers.get('cache-control')).toBe('no-store');
    expect(preview.headers.get('referrer-policy')).toBe('no-referrer');
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain('expired');
    expect(malformed.status).toBe(404);
  });
});
