import path from 'node:path';
import { createFixturesResolver, loadDnsFixtures, type MxResolver } from '../../../../shared/verification/dns';
import { ROLE_LOCAL_PARTS, verifyEmail } from '../../../../shared/verification/verify';

const resolver = createFixturesResolver(loadDnsFixtures(path.resolve('test/fixtures/dns.json')));
const verify = (email: string) => verifyEmail(email, resolver);

const FIELDS = ['email', 'valid', 'isDisposable', 'isAlias', 'isTypo', 'isPlusAddressed', 'domainExists', 'hasMxRecords', 'reasons'];

function expectSpecShape(result: object) {
  expect(Object.keys(result).sort()).toEqual([...FIELDS].sort());
  const r = result as Record<string, unknown>;
  expect(typeof r.email).toBe('string');
  for (const field of FIELDS.slice(1, -1)) expect(typeof r[field]).toBe('boolean');
  expect(Array.isArray(r.reasons)).toBe(true);
  expect((r.reasons as unknown[]).length).toBeGreaterThan(0);
  for (const reason of r.reasons as unknown[]) expect(reason).toMatch(/^\S.*[.?)]$/);
}

describe('verifyEmail', () => {
  it('finds the typo and the +tag in john+news@gmial.com', async () => {
    const result = await verify('john+news@gmial.com');
    expectSpecShape(result);
    expect(result).toMatchObject({ email: 'john+news@gmial.com', isTypo: true, isPlusAddressed: true, isAlias: false });
    expect(result.reasons).toContain('The domain looks like a typo. Did you mean john+news@gmail.com?');
    expect(result.reasons.join(' ')).toMatch(/\+tag \("news"\)/);
  });

  it('reports mailinator.com as disposable and so not valid', async () => {
    const result = await verify('x@mailinator.com');
    expectSpecShape(result);
    expect(result).toMatchObject({ valid: false, isDisposable: true, domainExists: true, hasMxRecords: true });
    expect(result.reasons).toContain('mailinator.com is a disposable (throwaway) email provider.');
  });

  it('treats sub-domains of a disposable domain as disposable', async () => {
    expect((await verify('x@eu.mailinator.com')).isDisposable).toBe(true);
  });

  it('reports info@ as a role address that is still valid', async () => {
    const result = await verify('info@example.com');
    expectSpecShape(result);
    expect(result).toMatchObject({ valid: true, isAlias: true, domainExists: true, hasMxRecords: true, isTypo: false });
    expect(result.reasons).toContain('info@ is a role address (a shared mailbox), not a person.');
  });

  it('answers not-an-email with valid false, every boolean false and the reason', async () => {
    const result = await verify('not-an-email');
    expectSpecShape(result);
    expect(result).toEqual({
      email: 'not-an-email',
      valid: false,
      isDisposable: false,
      isAlias: false,
      isTypo: false,
      isPlusAddressed: false,
      domainExists: false,
      hasMxRecords: false,
      reasons: ['The address is not valid.', 'The address has no @ between the mailbox name and the domain.'],
    });
  });

  it('echoes the address trimmed with its domain lower-cased', async () => {
    expect((await verify('  John.Doe@Example.COM ')).email).toBe('John.Doe@example.com');
  });

  it('is valid for an address whose domain has MX records', async () => {
    const result = await verify('jane@gmail.com');
    expect(result).toMatchObject({ valid: true, isDisposable: false, isTypo: false, domainExists: true, hasMxRecords: true });
    expect(result.reasons[0]).toMatch(/^The address is valid/);
  });

  it('matches role accounts case-insensitively and after removing a +tag', async () => {
    expect(await verify('Support+billing@example.com')).toMatchObject({ isAlias: true, isPlusAddressed: true, valid: true });
    expect(await verify('postmaster@example.com')).toMatchObject({ isAlias: true });
    expect(await verify('john@example.com')).toMatchObject({ isAlias: false });
    expect(ROLE_LOCAL_PARTS.has('noreply')).toBe(true);
  });

  it('does not count a leading + or a quoted + as a tag', async () => {
    expect((await verify('+15551234@example.com')).isPlusAddressed).toBe(false);
    expect((await verify('"a+b"@example.com')).isPlusAddressed).toBe(false);
  });

  it('is valid, with a note, for a quoted local part', async () => {
    const result = await verify('"john doe"@example.com');
    expect(result.valid).toBe(true);
    expect(result.reasons.join(' ')).toMatch(/many mail providers reject/);
  });

  it('verifies IDN domains through their punycode form', async () => {
    const result = await verify('anna@bücher.de');
    expect(result).toMatchObject({ email: 'anna@bücher.de', valid: true, hasMxRecords: true });
    expect(result.reasons.join(' ')).toMatch(/xn--bcher-kva\.de/);
  });

  it('is not valid for a null MX (RFC 7505)', async () => {
    const result = await verify('a@nullmx.test');
    expect(result).toMatchObject({ valid: false, domainExists: true, hasMxRecords: false, isTypo: false });
    expect(result.reasons).toContain('nullmx.test publishes a null MX record (RFC 7505): it accepts no email.');
  });

  it('is valid through the A/AAAA fallback, saying so', async () => {
    const result = await verify('a@afallback.test');
    expect(result).toMatchObject({ valid: true, domainExists: true, hasMxRecords: false });
    expect(result.reasons).toContain('afallback.test has no MX records; mail would be delivered to its A/AAAA record.');
  });

  it('is not valid for a domain that does not exist', async () => {
    const result = await verify('a@nodomain.test');
    expect(result).toMatchObject({ valid: false, domainExists: false, hasMxRecords: false });
    expect(result.reasons).toContain('The domain nodomain.test does not exist (DNS answered NXDOMAIN).');
  });

  it('says DNS was unreachable instead of claiming the domain does not exist, within about 2 s', async () => {
    const never: MxResolver = { resolveMx: () => new Promise(() => {}), resolve4: () => new Promise(() => {}), resolve6: () => new Promise(() => {}) };
    const started = Date.now();
    const result = await verifyEmail('jane@acme-corp.com', never);
    expect(Date.now() - started).toBeLessThan(2600);
    expectSpecShape(result);
    expect(result).toMatchObject({ valid: false, domainExists: false, hasMxRecords: false });
    expect(result.reasons.join(' ')).toMatch(/DNS could not be reached .*whether acme-corp\.com exists is unknown/);
    expect(result.reasons.join(' ')).not.toMatch(/does not exist/);
  }, 5000);

  it('reports syntax problems as reasons without looking up DNS', async () => {
    const throwing: MxResolver = { resolveMx: () => { throw new Error('must not be called'); }, resolve4: async () => [], resolve6: async () => [] };
    const result = await verifyEmail('john..doe@[1.2.3.4]', throwing);
    expect(result.valid).toBe(false);
    expect(result.reasons.join(' ')).toMatch(/two dots in a row.*IP address/);
  });

  it('does not flag large providers missing from the spell checker as typos', async () => {
    expect((await verify('a@gmx.net')).isTypo).toBe(false);
    expect((await verify('a@protonmail.ch')).isTypo).toBe(false);
  });
});
