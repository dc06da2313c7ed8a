import { createHash } from 'node:crypto';
import { badRequest } from './errors';

/**
 * Opaque pagination cursors. A cursor carries DynamoDB's LastEvaluatedKey plus a fingerprint of
 * the project and query it came from; decoding checks both, so a cursor replayed against another
 * query or project, or edited by hand, is a 400 and never reaches DynamoDB.
 */
type Key = Record<string, string>;

const fingerprint = (binding: string) => createHash('sha256').update(binding).digest('base64url').slice(0, 16);

export function encodeCursor(key: Record<string, unknown> | undefined, binding: string): string | null {
  if (!key) return null;
  return Buffer.from(JSON.stringify({ b: fingerprint(binding), k: key })).toString('base64url');
}

/**
 * @param fixed key attributes whose value is known from the query (its partition keys); the
 *   decoded key must carry exactly these plus `free` attributes, each a string.
 */
export function decodeCursor(cursor: string, binding: string, fixed: Key, free: string[]): Key {
  const invalid = () => badRequest('INVALID_CURSOR', 'The cursor is invalid or belongs to another query', 'Omit cursor to start from the first page.');
  let parsed: unknown;
  try {
    if (cursor.length > 2048 || !/^[A-Za-z0-9_-]+$/.test(cursor)) throw invalid();
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (typeof parsed !== 'object' || parsed === null) throw invalid();
  const { b, k } = parsed as { b?: unknown; k?: unknown };
  if (b !== fingerprint(binding) || typeof k !== 'object' || k === null || Array.isArray(k)) throw invalid();
  // Only the exact encoding we issued is accepted (base64 decoding ignores some edits, like a trailing character).
  if (encodeCursor(k as Record<string, unknown>, binding) !== cursor) throw invalid();
  const key = k as Record<string, unknown>;
  const expected = new Set([...Object.keys(fixed), ...free]);
  const names = Object.keys(key);
  if (names.length !== expected.size || !names.every((name) => expected.has(name) && typeof key[name] === 'string')) throw invalid();
  for (const [name, value] of Object.entries(fixed)) if (key[name] !== value) throw invalid();
  return key as Key;
}

/**
 * A list page from a Query made with `Limit: limit + 1`: the extra item only says there is more,
 * so a last full page never promises an empty one. The cursor is the key (`keyNames`) of the last
 * item returned, or DynamoDB's LastEvaluatedKey when a filter ended the Query before the limit.
 */
export function pageOf(
  result: { Items?: Record<string, unknown>[]; LastEvaluatedKey?: Record<string, unknown> },
  limit: number,
  keyNames: string[],
  binding: string,
): { page: Record<string, unknown>[]; hasMore: boolean; nextCursor: string | null } {
  const items = result.Items ?? [];
  const page = items.slice(0, limit);
  const last = page[page.length - 1];
  const overflow = items.length > limit && last !== undefined;
  const lastKey = overflow ? Object.fromEntries([...new Set(keyNames)].map((name) => [name, last[name]])) : result.LastEvaluatedKey;
  const hasMore = overflow || result.LastEvaluatedKey !== undefined;
  return { page, hasMore, nextCursor: hasMore ? encodeCursor(lastKey, binding) : null };
}
