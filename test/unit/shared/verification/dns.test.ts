import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  createCachingResolver,
  createFixturesResolver,
  DnsError,
  loadDnsFixtures,
  lookupDomain,
  resolverFromEnvironment,
  type MxResolver,
} from '../../../../shared/verification/dns';

const fixtures = loadDnsFixtures(path.resolve('test/fixtures/dns.json'));
const resolver = createFixturesResolver(fixtures);

/** A resolver whose answers are given per query, counting calls. */
function fakeResolver(answers: Partial<Record<keyof MxResolver, () => Promise<unknown>>>) {
  const calls = { resolveMx: 0, resolve4: 0, resolve6: 0 };
  const nodata = () => Promise.reject(new DnsError('ENODATA', 'no data'));
  const fake: MxResolver = {
    resolveMx: () => (calls.resolveMx++, (answers.resolveMx ?? nodata)() as Promise<never>),
    resolve4: () => (calls.resolve4++, (answers.resolve4 ?? nodata)() as Promise<never>),
    resolve6: () => (calls.resolve6++, (answers.resolve6 ?? nodata)() as Promise<never>),
  };
  return { fake, calls };
}

describe('lookupDomain', () => {
  it('finds MX records, best priority first', async () => {
    expect(await lookupDomain('gmail.com', resolver)).toMatchObject({
      domainExists: true,
      hasMx: true,
      nullMx: false,
      aFallback: false,
      unreachable: false,
      exchanges: ['gmail-smtp-in.l.google.com', 'alt1.gmail-smtp-in.l.google.com'],
    });
  });

  it('treats a null MX (RFC 7505) as no MX and does not fall back to A', async () => {
    expect(await lookupDomain('nullmx.test', resolver)).toMatchObject({ domainExists: true, hasMx: false, nullMx: true, aFallback: false });
  });

  it('falls back to A/AAAA records when there is no MX', async () => {
    expect(await lookupDomain('afallback.test', resolver)).toMatchObject({ domainExists: true, hasMx: false, nullMx: false, aFallback: true });
  });

  it('reports a name with neither MX nor addresses as existing without mail', async () => {
    expect(await lookupDomain('nomail.test', resolver)).toMatchObject({ domainExists: true, hasMx: false, aFallback: false, unreachable: false });
  });

  it.each(['nodomain.test', 'absent-from-fixtures.com'])('reports NXDOMAIN for %s as not existing', async (domain) => {
    expect(await lookupDomain(domain, resolver)).toMatchObject({ domainExists: false, hasMx: false, unreachable: false });
  });

  it('reports a DNS failure as unreachable, existence unknown', async () => {
    expect(await lookupDomain('unreachable.test', resolver)).toMatchObject({ domainExists: 'unknown', unreachable: true, unreachableCode: 'ETIMEOUT' });
  });

  it('gives up on a resolver that never answers within about 2 s', async () => {
    const { fake } = fakeResolver({ resolveMx: () => new Promise(() => {}) });
    const started = Date.now();
    const outcome = await lookupDomain('slow.com', fake);
    const elapsed = Date.now() - started;
    expect(outcome).toMatchObject({ domainExists: 'unknown', unreachable: true, unreachableCode: 'ETIMEOUT' });
    expect(elapsed).toBeGreaterThanOrEqual(1900);
    expect(elapsed).toBeLessThan(2600);
  }, 5000);

  it('spends one budget on the MX and the A/AAAA lookups together', async () => {
    const { fake } = fakeResolver({ resolve4: () => new Promise(() => {}), resolve6: () => new Promise(() => {}) });
    const started = Date.now();
    const outcome = await lookupDomain('slow.com', fake, 300);
    expect(Date.now() - started).toBeLessThan(600);
    expect(outcome).toMatchObject({ domainExists: true, aFallback: false, unreachable: true });
  });

  it('treats a resolver that throws synchronously as unreachable', async () => {
    const fake: MxResolver = { resolveMx: () => { throw new Error('boom'); }, resolve4: async () => [], resolve6: async () => [] };
    expect(await lookupDomain('example.com', fake)).toMatchObject({ domainExists: 'unknown', unreachable: true });
  });
});

describe('createCachingResolver', () => {
  it('asks the resolver once for two lookups of one domain', async () => {
    const { fake, calls } = fakeResolver({ resolveMx: async () => [{ exchange: 'mx.example.com', priority: 10 }] });
    const cached = createCachingResolver(fake);
    await lookupDomain('example.com', cached);
    await lookupDomain('EXAMPLE.com', cached);
    expect(calls.resolveMx).toBe(1);
  });

  it('caches NXDOMAIN and NODATA answers', async () => {
    const { fake, calls } = fakeResolver({ resolveMx: () => Promise.reject(new DnsError('ENOTFOUND', 'nx')) });
    const cached = createCachingResolver(fake);
    await lookupDomain('nx.com', cached);
    await lookupDomain('nx.com', cached);
    expect(calls.resolveMx).toBe(1);
  });

  it('does not cache failures, so the next request asks again', async () => {
    const { fake, calls } = fakeResolver({ resolveMx: () => Promise.reject(new DnsError('ETIMEOUT', 'timeout')) });
    const cached = createCachingResolver(fake);
    await lookupDomain('down.com', cached);
    await lookupDomain('down.com', cached);
    expect(calls.resolveMx).toBe(2);
  });

  it('forgets answers after the TTL and keeps at most maxEntries names', async () => {
    let now = 0;
    const { fake, calls } = fakeResolver({ resolveMx: async () => [{ exchange: 'mx', priority: 1 }] });
    const cached = createCachingResolver(fake, { ttlMs: 1000, maxEntries: 2, now: () => now });
    await cached.resolveMx('a.com');
    now = 1001;
    await cached.resolveMx('a.com');
    expect(calls.resolveMx).toBe(2);
    await cached.resolveMx('b.com');
    await cached.resolveMx('c.com');
    await cached.resolveMx('a.com');
    expect(calls.resolveMx).toBe(5);
  });
});

describe('DNS fixtures', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'dns-fixtures-'));

  it('are chosen when LOCAL_DNS_FIXTURES is set', async () => {
    const chosen = resolverFromEnvironment({ LOCAL_DNS_FIXTURES: 'test/fixtures/dns.json' });
    expect(await chosen.resolveMx('example.com')).toEqual([{ exchange: 'mx.example.com', priority: 10 }]);
  });

  it('reject a file that is not fixtures with a ConfigError naming the variable', () => {
    const bad = path.join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ 'example.com': { mx: 'mx.example.com' } }));
    expect(() => loadDnsFixtures(bad)).toThrow(expect.objectContaining({ name: 'ConfigError', message: expect.stringContaining('LOCAL_DNS_FIXTURES') }));
    expect(() => loadDnsFixtures(path.join(dir, 'missing.json'))).toThrow(expect.objectContaining({ name: 'ConfigError' }));
  });

  it('answer NXDOMAIN for absent names and NODATA for absent record types', async () => {
    await expect(resolver.resolveMx('absent.com')).rejects.toMatchObject({ code: 'ENOTFOUND' });
    await expect(resolver.resolve6('example.com')).rejects.toMatchObject({ code: 'ENODATA' });
  });
});
