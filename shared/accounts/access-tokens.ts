import { createHmac, timingSafeEqual } from 'node:crypto';
import { requiredEnv } from '../config/env';
import { variables } from '../config/variables';

export type Role = 'OWNER' | 'MEMBER';

/** What an access token says: checked by the authorizer, handed to functions in its context. */
export interface AccessClaims {
  userId: string;
  projectId: string;
  role: Role;
  sessionId: string;
  /** Epoch milliseconds. */
  expiresAt: number;
}

/** Access tokens live 5 minutes; the app renews them through the refresh cookie. */
export const ACCESS_TOKEN_TTL_MS = 5 * 60_000;
export const ACCESS_TOKEN_PREFIX = 'mwa_';
const TOKEN_PATTERN = /^mwa_([A-Za-z0-9_-]{10,1000})\.([A-Za-z0-9_-]{43})$/;

/** Read once at cold start; bound by MailwrightFunction.bindAccessTokenKey. */
const signingKey = requiredEnv(variables.accessTokenSecret);

const sign = (payload: string) => createHmac('sha256', signingKey).update(payload).digest('base64url');

/** `mwa_<base64url JSON>.<HMAC-SHA256>`: short claim names keep the Authorization header small. */
export function signAccessToken(claims: Omit<AccessClaims, 'expiresAt'>, now = Date.now()): { token: string; expiresAt: number } {
  const expiresAt = now + ACCESS_TOKEN_TTL_MS;
  const payload = Buffer.from(JSON.stringify({ u: claims.userId, p: claims.projectId, r: claims.role, s: claims.sessionId, e: expiresAt })).toString('base64url');
  return { token: `${ACCESS_TOKEN_PREFIX}${payload}.${sign(payload)}`, expiresAt };
}

/** The claims of a genuine, unexpired token; null for anything else (tampered, expired, malformed). */
export function verifyAccessToken(token: string, now = Date.now()): AccessClaims | null {
  const match = TOKEN_PATTERN.exec(token);
  if (!match) return null;
  const [, payload, signature] = match as unknown as [string, string, string];
  const expected = Buffer.from(sign(payload));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  let parsed: { u?: unknown; p?: unknown; r?: unknown; s?: unknown; e?: unknown };
  try {
    parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  const { u, p, r, s, e } = parsed;
  if (typeof u !== 'string' || typeof p !== 'string' || typeof s !== 'string' || (r !== 'OWNER' && r !== 'MEMBER') || typeof e !== 'number') return null;
  if (e <= now) return null;
  return { userId: u, projectId: p, role: r, sessionId: s, expiresAt: e };
}

/** Reads `Authorization: Bearer mwa_…`; null when it is not an access token. */
export function parseAccessTokenHeader(header: string | undefined): string | null {
  const match = /^Bearer\s+(mwa_\S+)\s*$/i.exec(header?.trim() ?? '');
  return match?.[1] ?? null;
}
