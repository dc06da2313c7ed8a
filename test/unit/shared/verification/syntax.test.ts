import { checkSyntax } from '../../../../shared/verification/syntax';

const local64 = 'a'.repeat(64);
const label63 = 'b'.repeat(63);

describe('address syntax', () => {
  it.each([
    ['plain', 'john@example.com', 'example.com'],
    ['dots inside the local part', 'john.q.doe@example.com', 'example.com'],
    ['a +tag', 'john+news@gmail.com', 'gmail.com'],
    ['RFC 5322 specials', "o'brien!#$%&*=?^_`{|}~-@example.com", 'example.com'],
    ['a 64-character local part', `${local64}@example.com`, 'example.com'],
    ['a 63-character label', `a@${label63}.com`, `${label63}.com`],
    ['an upper-case domain, lower-cased', 'John@Example.COM', 'example.com'],
    ['a multi-label public suffix', 'a@bbc.co.uk', 'bbc.co.uk'],
    ['a testing TLD (RFC 6761)', 'a@nullmx.test', 'nullmx.test'],
  ])('accepts %s', (_label, address, domain) => {
    const result = checkSyntax(address);
    expect(result.ok).toBe(true);
    expect(result.domain).toBe(domain);
  });

  it('converts IDN domains to punycode and says so', () => {
    const result = checkSyntax('Anna@Bücher.de');
    expect(result).toMatchObject({ ok: true, localPart: 'Anna', domain: 'xn--bcher-kva.de', displayDomain: 'bücher.de' });
    expect(result.reasons).toEqual([expect.stringContaining('xn--bcher-kva.de')]);
  });

  it('accepts quoted local parts as the RFCs do, noting that providers often reject them', () => {
    for (const address of ['"john doe"@example.com', '"a@b"@example.com', '"quote\\"inside"@example.com']) {
      const result = checkSyntax(address);
      expect(result.ok).toBe(true);
      expect(result.quoted).toBe(true);
      expect(result.reasons.join(' ')).toMatch(/many mail providers reject/);
    }
    expect(checkSyntax('"unterminated@example.com').ok).toBe(false);
    expect(checkSyntax('"bad"quote"@example.com').ok).toBe(false);
  });

  it.each([
    ['an empty string', '   ', /empty/],
    ['no @', 'not-an-email', /no @/],
    ['an empty local part', '@example.com', /before the @ is empty/],
    ['an empty domain', 'john@', /domain after the @ is empty/],
    ['a leading dot', '.john@example.com', /must not start with a dot/],
    ['a trailing dot', 'john.@example.com', /must not end with a dot/],
    ['two dots in a row', 'john..doe@example.com', /two dots in a row/],
    ['a space outside quotes', 'john doe@example.com', /only allowed inside quotes: " "/],
    ['a 65-character local part', `${'a'.repeat(65)}@example.com`, /65 characters long; the limit is 64/],
    ['a 64-character label', `a@${'b'.repeat(64)}.com`, /64 characters long; the limit is 63/],
    ['an address over 254 characters', `${local64}@${label63}.${label63}.${'c'.repeat(58)}.com`, /255 characters long; the limit is 254/],
    ['a domain over 255 characters', `a@${label63}.${label63}.${label63}.${'c'.repeat(60)}.com`, /domain is 256 characters long; the limit is 255/],
    ['an IPv4 literal', 'john@[1.2.3.4]', /IP address \(\[1\.2\.3\.4\]\).*do not accept/],
    ['an IPv6 literal', 'john@[IPv6:2001:db8::1]', /IP address/],
    ['a bare IPv4 domain', 'john@1.2.3.4', /IP address/],
    ['a domain without a dot', 'john@localhost', /no dot/],
    ['a trailing dot in the domain', 'john@example.com.', /must not start or end with a dot/],
    ['a double dot in the domain', 'john@example..com', /two dots in a row/],
    ['an underscore in the domain', 'john@my_host.com', /only have letters, digits and inner hyphens/],
    ['a label starting with a hyphen', 'john@-acme.com', /inner hyphens/],
    ['an unknown TLD', 'john@acme.notatld', /\.notatld does not exist/],
    ['a bare public suffix', 'john@co.uk', /co\.uk is a public suffix/],
    ['a special-use name', 'john@printer.local', /special-use name/],
  ])('rejects %s with a reason', (_label, address, reason) => {
    const result = checkSyntax(address);
    expect(result.ok).toBe(false);
    expect(result.reasons.join(' ')).toMatch(reason);
  });
});
