import { generateApiKey, hashApiKey, parseAuthorizationHeader } from '../../../../shared/projects/api-keys';

describe('API keys', () => {
  it('generates sk_/pk_ keys of 43 base62 characters, all different', () => {
    const keys = Array.from({ length: 200 }, (_, i) => generateApiKey(i % 2 ? 'secret' : 'public'));

    expect(keys.every((key) => /^(sk|pk)_[0-9A-Za-z]{43}$/.test(key))).toBe(true);
    expect(new Set(keys).size).toBe(200);
  });

  it('hashes with SHA-256 (hex), so only the hash is stored', () => {
    expect(hashApiKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(hashApiKey('sk_abc')).not.toBe(hashApiKey('sk_abd'));
  });

  it.each([
    [undefined, null],
    ['', null],
    ['sk_abc', null],
    ['Basic dXNlcjpwYXNz', null],
    [`Bearer sk_${'a'.repeat(42)}`, null],
    [`Bearer xk_${'a'.repeat(43)}`, null],
    [`Bearer sk_${'a'.repeat(42)}!`, null],
  ])('rejects the header %p', (header, expected) => {
    expect(parseAuthorizationHeader(header)).toBe(expected);
  });

  it('reads secret and public keys, case-insensitive scheme', () => {
    const secret = `sk_${'a'.repeat(43)}`;
    const publicKey = `pk_${'B'.repeat(43)}`;

    expect(parseAuthorizationHeader(`Bearer ${secret}`)).toEqual({ key: secret, kind: 'secret' });
    expect(parseAuthorizationHeader(`bearer  ${publicKey} `)).toEqual({ key: publicKey, kind: 'public' });
  });
});
