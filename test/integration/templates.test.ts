import { admin, api } from '../support/api-client';

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
    expect(badSubject.body.error.errors).toEqual([{ field: 'subject', code: 'INVALID_TEMPLATE', message: 'Unclosed tag at 9' }]);
    expect(empty.status).toBe(422);
    expect(after.body.data).toEqual(patched.body.data);
  });

  it('rejects a create whose body does not parse', async () => {
    const response = await api('POST', '/templates', { key, body: template({ body: '{{#open}}' }) });

    expect(response.status).toBe(422);
    expect(response.body.error.errors).toEqual([{ field: 'body', code: 'INVALID_TEMPLATE', message: 'Unclosed section "open" at 9' }]);
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
