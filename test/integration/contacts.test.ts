import { admin, api, uniqueEmail } from '../support/api-client';

describe('contacts over HTTP', () => {
  let key: string;

  beforeAll(async () => {
    ({ secretKey: key } = await admin<{ secretKey: string }>('create-project', '--name', 'contacts-test'));
  });

  it('creates with 201 and isNew, then updates with 200 and isUpdate, merging data', async () => {
    const email = uniqueEmail('Jane');

    const created = await api('POST', '/contacts', { key, body: { email: `  ${email.toUpperCase()} `, data: { plan: 'pro', seats: 3 } } });
    const updated = await api('POST', '/contacts', { key, body: { email, data: { plan: null, company: 'Acme' } } });

    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ email: email.toLowerCase(), subscribed: true, data: { plan: 'pro', seats: 3 }, _meta: { isNew: true, isUpdate: false } });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ id: created.body.data.id, subscribed: true, data: { seats: 3, company: 'Acme' }, _meta: { isNew: false, isUpdate: true } });
    expect(updated.body.data.data).not.toHaveProperty('plan');
  });

  it('keeps subscribed on update unless given, and counts it in the subscribed total', async () => {
    const email = uniqueEmail('sub');
    await api('POST', '/contacts', { key, body: { email, subscribed: false } });
    const before = await api('GET', '/contacts?subscribed=false&limit=1', { key });

    const kept = await api('POST', '/contacts', { key, body: { email, data: { a: 1 } } });
    const flipped = await api('POST', '/contacts', { key, body: { email, subscribed: true } });
    const after = await api('GET', '/contacts?subscribed=false&limit=1', { key });

    expect(kept.body.data.subscribed).toBe(false);
    expect(flipped.body.data.subscribed).toBe(true);
    expect(after.body.data.total).toBe(before.body.data.total - 1);
  });

  it('gets, patches and deletes a contact by id', async () => {
    const { body } = await api('POST', '/contacts', { key, body: { email: uniqueEmail('crud') } });
    const id = body.data.id;
    const newEmail = uniqueEmail('renamed');

    const fetched = await api('GET', `/contacts/${id}`, { key });
    const patched = await api('PATCH', `/contacts/${id}`, { key, body: { email: newEmail, subscribed: false, data: { x: 'y' } } });
    const byNewEmail = await api('POST', '/contacts', { key, body: { email: newEmail } });
    const deleted = await api('DELETE', `/contacts/${id}`, { key });
    const gone = await api('GET', `/contacts/${id}`, { key });
    const deletedAgain = await api('DELETE', `/contacts/${id}`, { key });

    expect(fetched.body.data.id).toBe(id);
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({ id, email: newEmail, subscribed: false, data: { x: 'y' } });
    expect(byNewEmail.body.data).toMatchObject({ id, _meta: { isNew: false } });
    expect(deleted.body).toEqual({ success: true, data: { id, deleted: true } });
    expect(gone.status).toBe(404);
    expect(gone.body.error.code).toBe('NOT_FOUND');
    expect(deletedAgain.status).toBe(404);
  });

  it('answers 409 when a patch would take another contact email, and frees an old email after a change', async () => {
    const first = await api('POST', '/contacts', { key, body: { email: uniqueEmail('first') } });
    const second = await api('POST', '/contacts', { key, body: { email: uniqueEmail('second') } });
    const oldEmail = second.body.data.email;

    const clash = await api('PATCH', `/contacts/${second.body.data.id}`, { key, body: { email: first.body.data.email } });
    await api('PATCH', `/contacts/${second.body.data.id}`, { key, body: { email: uniqueEmail('moved') } });
    const reuse = await api('POST', '/contacts', { key, body: { email: oldEmail } });

    expect(clash.status).toBe(409);
    expect(clash.body.error.code).toBe('EMAIL_TAKEN');
    expect(reuse.status).toBe(201);
  });

  it('searches by email prefix and by whole domain', async () => {
    const tag = Math.random().toString(36).slice(2, 8);
    await api('POST', '/contacts', { key, body: { email: `zed${tag}@one.test` } });
    await api('POST', '/contacts', { key, body: { email: `zed${tag}-b@two.test` } });
    await api('POST', '/contacts', { key, body: { email: `amy${tag}@one.test` } });

    const byPrefix = await api('GET', `/contacts?search=ZED${tag}`, { key });
    const byDomain = await api('GET', '/contacts?search=@one.test', { key });
    const partialDomain = await api('GET', '/contacts?search=@one.te', { key });

    expect(byPrefix.body.data.items.map((c: { email: string }) => c.email)).toEqual([`zed${tag}-b@two.test`, `zed${tag}@one.test`]);
    expect(byDomain.body.data.items.map((c: { email: string }) => c.email)).toEqual(expect.arrayContaining([`zed${tag}@one.test`, `amy${tag}@one.test`]));
    expect(byDomain.body.data.items.every((c: { email: string }) => c.email.endsWith('@one.test'))).toBe(true);
    expect(partialDomain.body.data.items).toEqual([]);
  });

  it('validates input with 422 and field errors, malformed JSON with 400', async () => {
    const badEmail = await api('POST', '/contacts', { key, body: { email: 'not-an-email', subscribed: 'yes' } });
    const badData = await api('POST', '/contacts', { key, body: { email: uniqueEmail('d'), data: { 'a.b': 1, ok: { l2: { l3: { l4: { l5: 1 } } } } } } });
    const notObject = await api('POST', '/contacts', { key, body: [1, 2] });
    const malformed = await api('POST', '/contacts', { key, rawBody: '{"email":' });
    const badLimit = await api('GET', '/contacts?limit=101', { key });

    expect(badEmail.status).toBe(422);
    expect(badEmail.body.error).toMatchObject({ code: 'VALIDATION_ERROR', statusCode: 422 });
    expect(badEmail.body.error.errors.map((e: { field: string }) => e.field).sort()).toEqual(['email', 'subscribed']);
    expect(badData.status).toBe(422);
    expect(badData.body.error.errors.map((e: { field: string }) => e.field).sort()).toEqual(['data.a.b', 'data.ok']);
    expect(notObject.status).toBe(422);
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.code).toBe('INVALID_JSON');
    expect(badLimit.status).toBe(422);
    expect(badLimit.body.error.errors[0].field).toBe('query.limit');
  });

  it('answers 413 for a body over the route limit', async () => {
    const response = await api('POST', '/contacts', { key, rawBody: JSON.stringify({ email: uniqueEmail('big'), data: { blob: 'x'.repeat(300 * 1024) } }) });

    expect(response.status).toBe(413);
    expect(response.body.error.code).toBe('PAYLOAD_TOO_LARGE');
  });
});

describe('paging contacts', () => {
  let key: string;

  beforeAll(async () => {
    ({ secretKey: key } = await admin<{ secretKey: string }>('create-project', '--name', 'paging-test'));
    for (let start = 0; start < 250; start += 25) {
      await Promise.all(Array.from({ length: 25 }, (_, i) => api('POST', '/contacts', { key, body: { email: `page${start + i}@paging.test`, subscribed: (start + i) % 5 !== 0 } })));
    }
  }, 120_000);

  it('pages 250 contacts with limit=100 in 3 pages, no duplicate or gap, the same total on each', async () => {
    const pages = [];
    let cursor: string | null = null;
    do {
      const response: { body: { data: { items: { email: string }[]; nextCursor: string | null; hasMore: boolean; total: number } } } = await api(
        'GET',
        `/contacts?limit=100${cursor ? `&cursor=${cursor}` : ''}`,
        { key },
      );
      pages.push(response.body.data);
      cursor = response.body.data.nextCursor;
    } while (cursor);

    const emails = pages.flatMap((page) => page.items.map((item) => item.email));
    expect(pages.map((page) => page.items.length)).toEqual([100, 100, 50]);
    expect(pages.map((page) => page.hasMore)).toEqual([true, true, false]);
    expect(new Set(emails).size).toBe(250);
    expect(pages.every((page) => page.total === 250)).toBe(true);
  });

  it('pages the subscribed filter with its own total', async () => {
    const first = await api('GET', '/contacts?subscribed=false&limit=30', { key });
    const second = await api('GET', `/contacts?subscribed=false&limit=30&cursor=${first.body.data.nextCursor}`, { key });

    expect(first.body.data.total).toBe(50);
    expect(first.body.data.items).toHaveLength(30);
    expect(second.body.data.items).toHaveLength(20);
    expect(second.body.data.hasMore).toBe(false);
    expect([...first.body.data.items, ...second.body.data.items].every((c: { subscribed: boolean }) => !c.subscribed)).toBe(true);
  });

  it('rejects a tampered cursor, and a cursor from another query, with 400', async () => {
    const first = await api('GET', '/contacts?limit=10', { key });
    const cursor: string = first.body.data.nextCursor;
    const decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString());
    decoded.k.PK = 'PROJECT#someone-else';
    const tampered = Buffer.from(JSON.stringify(decoded)).toString('base64url');

    const responses = await Promise.all([
      api('GET', `/contacts?limit=10&cursor=${tampered}`, { key }),
      api('GET', `/contacts?limit=10&cursor=${cursor}x`, { key }),
      api('GET', `/contacts?limit=10&subscribed=true&cursor=${cursor}`, { key }),
      api('GET', '/contacts?limit=10&cursor=%7B%7D', { key }),
    ]);

    for (const response of responses) {
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('INVALID_CURSOR');
    }
  });
});
