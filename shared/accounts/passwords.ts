import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Password hashing with scrypt (RFC 7914) at N=2^17, r=8, p=1: 128 MiB and a few hundred
 * milliseconds per hash, OWASP's recommended floor. The parameters are stored beside the hash
 * (`scrypt$<N>$<r>$<p>$<salt>$<hash>`), so they can be raised later without breaking old hashes.
 */
export const SCRYPT_PARAMS = { N: 2 ** 17, r: 8, p: 1 } as const;
export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 256;
const SALT_BYTES = 16;
const KEY_BYTES = 32;
/** Stored parameters above this are refused: a corrupt item must not make a verify allocate gigabytes. */
const MAX_N = 2 ** 20;

/** scrypt needs 128·N·r bytes; Node's default maxmem (32 MiB) is below that for N=2^17. */
const maxmemFor = (N: number, r: number) => 128 * N * r * 2;

function derive(password: string, salt: Buffer, params: { N: number; r: number; p: number }): Promise<Buffer> {
  const options: ScryptOptions = { ...params, maxmem: maxmemFor(params.N, params.r) };
  return new Promise((resolve, reject) => scrypt(password.normalize('NFC'), salt, KEY_BYTES, options, (error, key) => (error ? reject(error) : resolve(key))));
}

export async function hashPassword(password: string, params: { N: number; r: number; p: number } = SCRYPT_PARAMS): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, params);
  return ['scrypt', params.N, params.r, params.p, salt.toString('base64'), key.toString('base64')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  const params = { N: Number(n), r: Number(r), p: Number(p) };
  if (scheme !== 'scrypt' || !salt || !hash || !Number.isInteger(params.N) || params.N < 2 || params.N > MAX_N || !(params.r >= 1 && params.r <= 32) || !(params.p >= 1 && params.p <= 16)) {
    throw new Error('Unreadable password hash');
  }
  const expected = Buffer.from(hash, 'base64');
  const actual = await derive(password, Buffer.from(salt, 'base64'), params);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/**
 * Spends the time of one verify for a sign-in with an unknown email, so the answer's timing does
 * not tell which addresses have accounts.
 */
export async function spendVerifyTime(password: string): Promise<void> {
  await derive(password, randomBytes(SALT_BYTES), SCRYPT_PARAMS);
}

/** A readable generated password (admin CLI): 20 characters of an unambiguous 56-letter alphabet, about 116 bits. */
export function generatePassword(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
  let out = '';
  while (out.length < 20) for (const byte of randomBytes(32)) if (byte < 224 && out.length < 20) out += alphabet[byte % 56];
  return out;
}
