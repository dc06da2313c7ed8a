import { forbidden } from '../http/errors';
import type { Caller } from '../http/handler';
import type { KeyKind } from '../http/routes';
import { createApiKey, listApiKeys, replaceApiKey, revokeApiKey, type ApiKeySummary } from '../projects/projects';
import { actorOf, recordAudit } from './audit';

/**
 * A project's API keys as the API manages them (GET/POST /keys, rotate, revoke), each change with
 * its audit entry. Apart from the rest of the administration so the keys function bundles no
 * mail or session code (and needs no variable of theirs).
 */
const apiKeyView = (key: ApiKeySummary) => ({ id: key.keyId, name: key.name, kind: key.kind, prefix: key.prefix, last4: key.last4, createdAt: key.createdAt, lastUsedAt: key.lastUsedAt });

export async function listKeys(projectId: string) {
  const keys = (await listApiKeys(projectId)).map(apiKeyView);
  return { items: keys, nextCursor: null, hasMore: false, total: keys.length };
}

export async function createKey(projectId: string, caller: Caller, input: { name: string; kind: KeyKind }) {
  const { key, summary } = await createApiKey(projectId, input);
  await recordAudit(projectId, { action: 'key.created', actor: actorOf(caller), target: summary.keyId, detail: { name: summary.name, kind: summary.kind } });
  return { ...apiKeyView(summary), key };
}

export async function rotateKey(projectId: string, caller: Caller, keyId: string) {
  const { key, summary, replaced } = await replaceApiKey(projectId, keyId);
  await recordAudit(projectId, { action: 'key.rotated', actor: actorOf(caller), target: summary.keyId, detail: { name: summary.name, kind: summary.kind, replaced } });
  return { ...apiKeyView(summary), key, replaced };
}

/** A key cannot revoke itself: the caller would lock itself out mid-request. */
export async function revokeKey(projectId: string, caller: Caller, keyId: string) {
  if (caller.kind === 'key' && caller.keyId === keyId) throw forbidden('KEY_IN_USE', 'A key cannot revoke itself; use another secret key or the dashboard');
  const revoked = await revokeApiKey(projectId, keyId);
  await recordAudit(projectId, { action: 'key.revoked', actor: actorOf(caller), target: revoked.keyId, detail: { name: revoked.name, kind: revoked.kind } });
  return { id: revoked.keyId, deleted: true as const };
}

