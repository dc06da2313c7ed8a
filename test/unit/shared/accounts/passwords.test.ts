import { generatePassword, hashPassword, SCRYPT_PARAMS, verifyPassword } from '../../../../shared/accounts/passwords';

// A real N=2^17 hash takes seconds on a busy test machine: one, made once.
const SLOW_MS = 60_000;

describe('password hashing', () => {
  let stored: string;
  beforeAll(async () => {
    stored = await hashPassword('correct horse battery');
  }, SLOW_MS);

  it('hashes with scrypt N=2^17, r=8, p=1 and a 16-byte salt, stored beside the hash', () => {
    const [scheme, n, r, p, salt, hash] = stored.split('$');
    expect(SCRYPT_PARAMS).toEqual({ N: 131072, r: 8, p: 1 });
    expect([scheme, n, r, p]).toEqual(['scrypt', '131072', '8', '1']);
    expect(Buffer.from(salt!, 'base64')).toHaveLength(16);
    expect(Buffer.from(hash!, 'base64')).toHaveLength(32);
  });

  it('verifies the right password and refuses a wrong one', async () => {
    await expect(verifyPassword('correct horse battery', stored)).resolves.toBe(true);
    await expect(verifyPassword('correct horse battery!', stored)).resolves.toBe(false);
  }, SLOW_MS);

  it('salts every hash, and verifies with the parameters stored beside it', async () => {
    const cheap = await hashPassword('another long password', { N: 1024, r: 8, p: 1 });
    const again = await hashPassword('another long password', { N: 1024, r: 8, p: 1 });

    expect(cheap).not.toBe(again);
    expect(cheap.startsWith('scrypt$1024$8$1$')).toBe(true);
    await expect(verifyPassword('another long password', cheap)).resolves.toBe(true);
  });

  it('refuses stored parameters that would make a verify allocate too much', async () => {
    const stored = (await hashPassword('another long password', { N: 1024, r: 8, p: 1 })).replace('scrypt$1024$', `scrypt$${2 ** 24}$`);

    await expect(verifyPassword('another long password', stored)).rejects.toThrow('Unreadable password hash');
  });

  it('generates 20-character passwords that differ', () => {
    const first = generatePassword();

    expect(first).toMatch(/^[A-Za-z2-9]{20}$/);
    expect(generatePassword()).not.toBe(first);
  });
});
