import { createHash, randomBytes } from 'node:crypto';
import type { KeyKind } from '../http/routes';

/**
 * API keys: `sk_` (secret) or `pk_` (public) + 43 base62 characters (256 random bits, so they
 * survive a double-click select). Only the SHA-256 of a key is ever stored.
 */
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const BODY_LENGTH = 43;
const PREFIX: Record<KeyKind, string> = { secret: 'sk_', public: 'pk_' };
const KEY_PATTERN = /^(sk|pk)_[0-9A-Za-z]{43}$/;

export function generateApiKey(kind: KeyKind): string {
  let body = '';
  while (body.length < BODY_LENGTH) {
    for (const byte of randomBytes(64)) {
      // Rejection sampling keeps every character equally likely (248 = 4 × 62).
      if (byte < 248 && body.length < BODY_LENGTH) body += ALPHABET[byte % 62];
    }
  }
  return PREFIX[kind] + body;
}

export const hashApiKey = (key: string) => createHash('sha256').update(key).digest('hex');

/** A short, non-secret label to tell keys apart in listings. */
export const displayPrefix = (key: string) => `${key.slice(0, 7)}…`;

export interface PresentedKey {
  key: string;
  kind: KeyKind;
}

/** Reads `Authorization: Bearer <key>`; null when absent or not shaped like one of our keys. */
export function parseAuthorizationHeader(header: string | undefined): PresentedKey | null {
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header.trim());
  const key = match?.[1];
  if (!key || !KEY_PATTERN.test(key)) return null;
  return { key, kind: key.startsWith('sk_') ? 'secret' : 'public' };
}
