import { admin, api, stack, uniqueEmail } from '../support/api-client';
import { waitForEmails } from '../support/mail-viewer';

async function waitForStatus(id: string, status: string, key: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await api('GET', '/domains', { key });
    const domain = response.body.data.items.find((item: { id: string }) => item.id === id);
    if (domain?.status === status || Date.now() > deadline) return domain;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

describe('sender domains', () => {
  let key: string;

  beforeAll(async () => {
    ({ secretKey: key } = await admin<{ secretKey: string }>('create-project', '--name', 'domains-test'));
  });

  it('adds a domain as PENDING with its DNS records, verifies it, sends from it, and stops sending once it is deleted', async () => {
    const domain = `mail.acme-${Date.now().toString(36)}.test`;
    const to = uniqueEmail('domain');

    const refusedBefore = await api('POST', '/v1/send', { key, body: { to, from: `hello@${domain}`, subject: 's', body: 'b' } });
    const created = await api('POST', '/domains', { key, body: { domain: domain.toUpperCase() } });
    const verified = await waitForStatus(created.body.data.id, 'VERIFIED', key);
    const sent = await api('POST', '/v1/send', { key, body: { to, from: { name: 'Acme', email: `hello@${domain}` }, subject: 'From my domain', body: 'b' } });
    const delivered = await waitForEmails(to);
    const deleted = await api('DELETE', `/domains/${created.body.data.id}`, { key });
    const refusedAfter = await api('POST', '/v1/send', { key, body: { to, from: `hello@${domain}`, subject: 's', body: 'b' } });
    const listed = await api('GET', '/domains', { key });

    expect(refusedBefore.status).toBe(403);
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ id: expect.any(String), domain, status: 'PENDING', verifiedAt: null });
    const dkim = created.body.data.records.filter((record: { purpose: string }) => record.purpose === 'DKIM');
    expect(dkim).toHaveLength(3);
    for (const record of dkim) {
      expect(record.type).toBe('CNAME');
      expect(record.name).toMatch(new RegExp(`^[a-z0-9]+\\._domainkey\\.${domain.replace(/\./g, '\\.')}$`));
      expect(record.value).toMatch(/^[a-z0-9]+\.dkim\.amazonses\.com$/);
    }
    expect(created.body.data.records).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'TXT', name: domain, value: expect.stringContaining('v=spf1') }), expect.objectContaining({ type: 'TXT', name: `_dmarc.${domain}` })]));
    expect(verified).toMatchObject({ status: 'VERIFIED', verifiedAt: expect.any(String) });
    expect(sent.status).toBe(200);
    expect(delivered).toHaveLength(1);
    expect(deleted.body.data).toEqual({ id: created.body.data.id, deleted: true });
    expect(refusedAfter.status).toBe(403);
    expect(refusedAfter.body.error.code).toBe('FROM_DOMAIN_NOT_VERIFIED');
    expect(listed.body.data.items.find((item: { id: string }) => item.id === created.body.data.id)).toBeUndefined();
  }, 40_000);

  it('answers 409 for the same domain twice, and for a domain another project holds', async () => {
    const domain = `dup-${Date.now().toString(36)}.test`;
    const other = await admin<{ secretKey: string }>('create-project', '--name', 'domains-other');

    const first = await api('POST', '/domains', { key, body: { domain } });
    const again = await api('POST', '/domains', { key, body: { domain } });
    const taken = await api('POST', '/domains', { key: other.secretKey, body: { domain } });
    const seeded = await api('POST', '/domains', { key: other.secretKey, body: { domain: 'example.com' } });

    expect(first.status).toBe(201);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('DOMAIN_EXISTS');
    expect(taken.status).toBe(409);
    expect(taken.body.error.code).toBe('DOMAIN_TAKEN');
    expect(seeded.status).toBe(409);
  });

  it('verifies at once through the admin CLI', async () => {
    const domain = `cli-${Date.now().toString(36)}.test`;
    const created = await api('POST', '/domains', { key, body: { domain } });

    await admin('verify-domain', '--domain', domain);
    // The API re-reads SES's identity at most every 2 s: poll rather than sleep past that.
    const fetched = await waitForStatus(created.body.data.id, 'VERIFIED', key, 10_000);

    expect(fetched?.status).toBe('VERIFIED');
  });

  it.each([['1.2.3.4'], ['co.uk'], ['localhost'], ['not a domain'], ['-bad.com'], [''], ['a'.repeat(64) + '.com']])('refuses %p with 422', async (domain) => {
    const response = await api('POST', '/domains', { key, body: { domain } });

    expect(response.status).toBe(422);
    expect(response.body.error.errors[0].field).toBe('domain');
  });

  it('answers 404 for an unknown domain id and 403 to a public key', async () => {
    const unknown = await api('DELETE', '/domains/01JD0000000000000000000000', { key });
    const publicKey = await api('GET', '/domains', { key: stack.publicKey });

    expect(unknown.status).toBe(404);
    expect(publicKey.status).toBe(403);
  });
});
