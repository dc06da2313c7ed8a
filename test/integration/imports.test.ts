import { jest } from '@jest/globals';
import { parse } from 'csv-parse/sync';

// client.ts validates responses against the OpenAPI document, whose modules read TABLE_NAME at
// import; these black-box tests never touch the table themselves.
process.env.TABLE_NAME ??= 'mailwright';
const { admin, api, stack, until } = await import('../support/api-client');

// Generous waits: on a loaded 2-core machine DynamoDB Local may take minutes over 5,000 upserts.
jest.setTimeout(1_200_000);

const IMPORT_WAIT_MS = 900_000;

const project = (name: string) => admin<{ projectId: string; secretKey: string }>('create-project', '--name', name);

async function finished(key: string, kind: 'imports' | 'exports', id: string) {
  return until(async () => {
    const job = await api('GET', `/contacts/${kind}/${id}`, { key });
    expect(job.status).toBe(200);
    return ['COMPLETED', 'FAILED'].includes(job.body.data.status) ? job.body.data : undefined;
  }, IMPORT_WAIT_MS);
}

async function importCsv(key: string, csv: string | Buffer, query = '') {
  const response = await fetch(`${stack.baseUrl}/contacts/imports${query}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'text/csv' },
    body: csv,
  });
  expect(response.status).toBe(202);
  return ((await response.json()) as { data: { id: string; status: string } }).data;
}

const run = Math.random().toString(36).slice(2, 8);

/**
 * A 5,000-row CSV as another tool exports it: a UTF-8 BOM, CRLF line ends, a `data.` prefixed
 * column, quoted fields with commas, quotes and line breaks, every spelling of subscribed, 20 bad
 * emails and 30 rows repeating an earlier email (the repeat carries the value that must win).
 */
function messyCsv() {
  const lines = ['Email,Subscribed,data.company,notes,city'];
  const unique = 4_950;
  const subscribedValues = ['yes', 'no', '1', '0', 'TRUE', 'false', ''];
  const emailOf = (index: number) => `Person.${index}-${run}@Example.com`;
  const rows: string[] = [];
  for (let index = 0; index < unique; index++) {
    const notes = index % 10 === 0 ? `"Said ""hi"", then left,\r\ncame back"` : index % 7 === 0 ? '"a, b, c"' : `note ${index}`;
    rows.push(`${emailOf(index)},${subscribedValues[index % subscribedValues.length]},"Acme, Inc. ${index % 50}",${notes},City${index}`);
  }
  // Duplicates: each repeats an earlier row's email (some within the same batch, most across).
  const duplicates = Array.from({ length: 30 }, (_, n) => n * 150 + 3);
  const withDuplicates: string[] = [];
  rows.forEach((row, index) => {
    withDuplicates.push(row);
    const repeated = duplicates.filter((source) => source + (source % 2 === 0 ? 5 : 700) === index);
    for (const source of repeated) withDuplicates.push(`${emailOf(source)},,,,Final${source}`);
  });
  const pending = duplicates.filter((source) => source + (source % 2 === 0 ? 5 : 700) >= unique);
  for (const source of pending) withDuplicates.push(`${emailOf(source)},,,,Final${source}`);
  // Bad emails, spread through the file.
  const bad: number[] = [];
  for (let n = 0; n < 20; n++) {
    const at = 100 + n * 240;
    withDuplicates.splice(at, 0, `not-an-email-${n},yes,Bad Co,,Nowhere`);
    bad.push(at + 1);
  }
  lines.push(...withDuplicates);
  return { csv: `\uFEFF${lines.join('\r\n')}\r\n`, unique, duplicates, badRows: bad, emailOf };
}

describe('imports: the checked scenario', () => {
  let key: string;
  let importJob: any;
  const file = messyCsv();

  beforeAll(async () => {
    ({ secretKey: key } = await project(`imports-${run}`));
    const queued = await importCsv(key, file.csv);
    expect(queued.status).toMatch(/QUEUED|PROCESSING/);
    importJob = await finished(key, 'imports', queued.id);
  });

  it('a 5,000-row messy CSV completes with exact counts and its 20 row errors', async () => {
    expect(importJob).toMatchObject({
      status: 'COMPLETED',
      rows: 5_000,
      processed: 5_000,
      created: file.unique,
      updated: 0,
      skipped: 0,
      duplicates: 30,
      failed: 20,
      failure: null,
    });
    expect(importJob.errors).toHaveLength(20);
    expect(importJob.errors.map((error: { row: number }) => error.row)).toEqual(file.badRows);
    for (const error of importJob.errors) expect(error).toMatchObject({ code: 'INVALID_EMAIL', email: expect.stringMatching(/^not-an-email-/) });
    expect(importJob.startedAt).toEqual(expect.any(String));
    expect(importJob.finishedAt).toEqual(expect.any(String));
  });

  it('GET /contacts total rises by the created count; the last row of a duplicate wins; quoted fields survive', async () => {
    const list = await api('GET', '/contacts?limit=1', { key });
    expect(list.body.data.total).toBe(file.unique);

    const duplicate = file.duplicates[4]!;
    const found = await api('GET', `/contacts?search=${encodeURIComponent(file.emailOf(duplicate).toLowerCase())}`, { key });
    expect(found.body.data.items).toHaveLength(1);
    expect(found.body.data.items[0].data).toMatchObject({ city: `Final${duplicate}`, company: `Acme, Inc. ${duplicate % 50}` });

    const quoted = await api('GET', `/contacts?search=${encodeURIComponent(file.emailOf(10).toLowerCase())}`, { key });
    expect(quoted.body.data.items[0]).toMatchObject({ subscribed: false, data: { notes: 'Said "hi", then left,\r\ncame back', city: 'City10' } });
    const yes = await api('GET', `/contacts?search=${encodeURIComponent(file.emailOf(7).toLowerCase())}`, { key });
    expect(yes.body.data.items[0]).toMatchObject({ subscribed: true, data: { notes: 'a, b, c' } });
  });

  it('the export of the project round-trips those contacts, and imports back into another project', async () => {
    const queued = await api('POST', '/contacts/exports', { key, body: {} });
    expect(queued.status).toBe(202);
    const job = await finished(key, 'exports', queued.body.data.id);
    expect(job).toMatchObject({ status: 'COMPLETED', rows: file.unique, downloadUrl: expect.any(String) });

    const download = await fetch(job.downloadUrl);
    expect(download.status).toBe(200);
    const text = await download.text();
    const records = parse(text, { columns: true }) as Record<string, string>[];
    expect(Object.keys(records[0]!)).toEqual(['id', 'email', 'subscribed', 'createdAt', 'updatedAt', 'data.city', 'data.company', 'data.notes']);
    expect(records).toHaveLength(file.unique);
    const byEmail = new Map(records.map((record) => [record.email, record]));
    expect(byEmail.get(file.emailOf(10).toLowerCase())).toMatchObject({ subscribed: 'false', 'data.notes': 'Said "hi", then left,\r\ncame back', 'data.city': 'City10' });

    const { secretKey: other } = await project(`imports-copy-${run}`);
    const copied = await finished(other, 'imports', (await importCsv(other, text)).id);
    expect(copied).toMatchObject({ status: 'COMPLETED', created: file.unique, failed: 0, duplicates: 0 });
    const copy = await api('GET', `/contacts?search=${encodeURIComponent(file.emailOf(10).toLowerCase())}`, { key: other });
    expect(copy.body.data.items[0]).toMatchObject({ subscribed: false, data: { notes: 'Said "hi", then left,\r\ncame back', city: 'City10', company: 'Acme, Inc. 10' } });
    expect(Object.keys(copy.body.data.items[0].data).sort()).toEqual(['city', 'company', 'notes']);
  });

  it('an export of subscribed contacts only has those', async () => {
    const queued = await api('POST', '/contacts/exports', { key, body: { subscribed: false } });
    const job = await finished(key, 'exports', queued.body.data.id);
    const unsubscribed = await api('GET', '/contacts?subscribed=false&limit=1', { key });
    expect(job.rows).toBe(unsubscribed.body.data.total);
    const records = parse(await (await fetch(job.downloadUrl)).text(), { columns: true }) as Record<string, string>[];
    expect(new Set(records.map((record) => record.subscribed))).toEqual(new Set(['false']));
  });

  it('lists the project\'s imports newest first, cursor-paged', async () => {
    const first = await api('GET', '/contacts/imports?limit=1', { key });
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ total: 1, hasMore: false, nextCursor: null });
    expect(first.body.data.items[0].id).toBe(importJob.id);
  });
});

describe('imports: uploads, JSON, failures, isolation', () => {
  let key: string;

  beforeAll(async () => {
    ({ secretKey: key } = await project(`imports-more-${run}`));
  });

  it('a presigned upload is taken by the local S3, and start imports it; start before the upload is a 409', async () => {
    const created = await api('POST', '/contacts/imports', { key, body: { upload: true, subscribed: false } });
    expect(created.status).toBe(202);
    expect(created.body.data).toMatchObject({ status: 'QUEUED', upload: { method: 'PUT', url: expect.stringContaining('X-Amz-Signature'), maxBytes: 100 * 1024 * 1024 } });
    const early = await api('POST', `/contacts/imports/${created.body.data.id}/start`, { key });
    expect(early.status).toBe(409);
    expect(early.body.error.code).toBe('UPLOAD_MISSING');

    const rows = Array.from({ length: 300 }, (_, index) => `up-${index}-${run}@example.com,${index}`);
    const put = await fetch(created.body.data.upload.url, { method: 'PUT', body: `email,seats\n${rows.join('\n')}\n` });
    expect(put.status).toBe(200);
    const started = await api('POST', `/contacts/imports/${created.body.data.id}/start`, { key });
    expect(started.status).toBe(202);
    const job = await finished(key, 'imports', created.body.data.id);
    expect(job).toMatchObject({ status: 'COMPLETED', rows: 300, created: 300, failed: 0 });
    const contact = await api('GET', `/contacts?search=up-7-${run}`, { key });
    expect(contact.body.data.items[0]).toMatchObject({ subscribed: false, data: { seats: '7' } });
  });

  it('a JSON import merges data; updateExisting false skips contacts that existed', async () => {
    const existing = `json-existing-${run}@example.com`;
    await api('POST', '/contacts', { key, body: { email: existing, data: { plan: 'free' } } });
    const merged = await api('POST', '/contacts/imports', { key, body: { contacts: [{ email: existing, data: { seats: 3 } }, { email: `json-new-${run}@example.com`, subscribed: false, data: { plan: 'pro' } }] } });
    expect(merged.status).toBe(202);
    expect(await finished(key, 'imports', merged.body.data.id)).toMatchObject({ status: 'COMPLETED', rows: 2, created: 1, updated: 1 });
    const after = await api('GET', `/contacts?search=${existing}`, { key });
    expect(after.body.data.items[0].data).toEqual({ plan: 'free', seats: 3 });

    const skipping = await api('POST', '/contacts/imports', { key, body: { updateExisting: false, contacts: [{ email: existing, data: { plan: 'gold' } }, { email: `json-other-${run}@example.com` }, { email: 'nope' }, { email: `json-bad-key-${run}@example.com`, data: { 'bad key': 1 } }] } });
    const job = await finished(key, 'imports', skipping.body.data.id);
    expect(job).toMatchObject({ status: 'COMPLETED', rows: 4, created: 1, skipped: 1, failed: 2 });
    expect(job.errors).toEqual([
      { row: 3, email: 'nope', code: 'INVALID_EMAIL', message: expect.any(String) },
      { row: 4, email: `json-bad-key-${run}@example.com`, code: 'INVALID_KEY', message: expect.stringContaining('data.bad key') },
    ]);
    expect((await api('GET', `/contacts?search=${existing}`, { key })).body.data.items[0].data.plan).toBe('free');
  });

  it('exports a tracked segment\'s members', async () => {
    const created = await api('POST', '/segments', { key, body: { name: `pro-${run}`, trackMembership: true, filters: { operator: 'AND', conditions: [{ field: 'data.plan', operator: 'equals', value: 'pro' }] } } });
    expect(created.status).toBe(201);
    const segment = await until(async () => {
      const current = await api('GET', `/segments/${created.body.data.id}`, { key });
      return current.body.data.membershipStatus === 'READY' ? current.body.data : undefined;
    }, IMPORT_WAIT_MS);
    expect(segment.memberCount).toBe(1);
    const queued = await api('POST', '/contacts/exports', { key, body: { segmentId: segment.id } });
    const job = await finished(key, 'exports', queued.body.data.id);
    expect(job).toMatchObject({ status: 'COMPLETED', rows: 1, filter: { segmentId: segment.id } });
    const records = parse(await (await fetch(job.downloadUrl)).text(), { columns: true }) as Record<string, string>[];
    expect(records).toEqual([expect.objectContaining({ email: `json-new-${run}@example.com`, subscribed: 'false', 'data.plan': 'pro' })]);
  });

  it('files that cannot be imported fail with a clear reason', async () => {
    const noEmail = await finished(key, 'imports', (await importCsv(key, 'name,city\nJane,Paris\n')).id);
    expect(noEmail).toMatchObject({ status: 'FAILED', failure: { code: 'NO_EMAIL_COLUMN', message: expect.stringContaining('email') }, created: 0 });
    const headerOnly = await finished(key, 'imports', (await importCsv(key, 'email,city\r\n')).id);
    expect(headerOnly).toMatchObject({ status: 'FAILED', failure: { code: 'EMPTY_FILE' } });
    const empty = await api('POST', '/contacts/imports', { key, body: { contacts: [] } });
    expect(empty.body.data).toMatchObject({ status: 'FAILED', failure: { code: 'EMPTY_FILE' } });

    const upload = await api('POST', '/contacts/imports', { key, body: { upload: true } });
    await fetch(upload.body.data.upload.url, { method: 'PUT', body: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]) });
    const binary = await api('POST', `/contacts/imports/${upload.body.data.id}/start`, { key });
    expect(binary.status).toBe(202);
    expect(binary.body.data).toMatchObject({ status: 'FAILED', failure: { code: 'NOT_CSV_OR_JSON' } });

    const bad = await api('POST', '/contacts/imports', { key, body: { contacts: 'nope' } });
    expect(bad.status).toBe(422);
    const both = await api('POST', '/contacts/imports', { key, body: { upload: true, contacts: [] } });
    expect(both.status).toBe(422);
  });

  it('another project\'s jobs are 404, and so are unknown ids', async () => {
    const mine = await api('POST', '/contacts/imports', { key, body: { contacts: [{ email: `mine-${run}@example.com` }] } });
    const exported = await api('POST', '/contacts/exports', { key, body: {} });
    const { secretKey: other } = await project(`imports-other-${run}`);
    for (const path of [`/contacts/imports/${mine.body.data.id}`, `/contacts/exports/${exported.body.data.id}`, '/contacts/imports/not-an-id']) {
      const response = await api('GET', path, { key: other });
      expect(response.status).toBe(404);
    }
    expect((await api('POST', `/contacts/imports/${mine.body.data.id}/start`, { key: other })).status).toBe(404);
    expect((await api('POST', '/contacts/exports', { key: other, body: { segmentId: '01HZZZZZZZZZZZZZZZZZZZZZZZ' } })).status).toBe(404);
  });

  it('/contacts/imports is not taken for a contact id', async () => {
    const listed = await api('GET', '/contacts/imports', { key });
    expect(listed.status).toBe(200);
    expect(listed.body.data.items.length).toBeGreaterThan(0);
  });
});
