import type { Caller } from '../http/handler';
import { ulid } from 'ulid';
import { countedPutItems, pageWithTotal, putCounted, type CountedListing } from '../db/listing';
import type { TransactItem } from '../db/transactions';
import { projectPartition } from '../projects/keys';
import { accountKeys } from './keys';

/** Who did it: a signed-in user, or an API key (the admin CLI and scripts). */
export type Actor = { type: 'user'; userId: string; email?: string } | { type: 'key'; keyId: string } | { type: 'system' };

export type AuditAction =
  | 'session.signed_in'
  | 'session.sign_in_failed'
  | 'member.invited'
  | 'member.invitation_revoked'
  | 'member.joined'
  | 'member.role_changed'
  | 'member.removed'
  | 'key.created'
  | 'key.rotated'
  | 'key.revoked'
  | 'project.renamed'
  | 'project.settings_changed'
  | 'campaign.approval_requested'
  | 'campaign.approved'
  | 'campaign.send_started'
  | 'campaign.scheduled';

export interface AuditEntry {
  id: string;
  action: AuditAction;
  actor: Actor;
  /** What it was done to: a user id, key id, invitation id… */
  target: string | null;
  detail: Record<string, string>;
  createdAt: string;
}

const auditListing = (projectId: string): CountedListing => ({
  partition: projectPartition(projectId),
  prefix: accountKeys.auditPrefix,
  counter: { PK: projectPartition(projectId), SK: 'AUDITCOUNT' },
});

type NewAuditEntry = { action: AuditAction; actor: Actor; target?: string | null; detail?: Record<string, string> };

const storedEntry = (entry: NewAuditEntry, now: number): AuditEntry => ({ id: ulid(now), action: entry.action, actor: entry.actor, target: entry.target ?? null, detail: entry.detail ?? {}, createdAt: new Date(now).toISOString() });

/** One entry, counted for GET /audit's total; the id is a ULID, so the trail reads newest first. */
export async function recordAudit(projectId: string, entry: NewAuditEntry, now = Date.now()): Promise<AuditEntry> {
  const stored = storedEntry(entry, now);
  await putCounted(auditListing(projectId), { ...accountKeys.audit(projectId, stored.id), ...stored });
  return stored;
}

/** An entry as transaction items, written with the change it records (both or neither). */
export function auditWriteItems(projectId: string, entry: NewAuditEntry, now = Date.now()): TransactItem[] {
  const stored = storedEntry(entry, now);
  return countedPutItems(auditListing(projectId), { ...accountKeys.audit(projectId, stored.id), ...stored });
}

export async function listAudit(projectId: string, query: { limit: number; cursor?: string }) {
  const page = await pageWithTotal(auditListing(projectId), query, `audit:${projectId}`);
  return { ...page, items: page.items.map(toEntry) };
}

function toEntry(item: Record<string, unknown>): AuditEntry {
  return { id: item.id as string, action: item.action as AuditAction, actor: item.actor as Actor, target: (item.target as string | null) ?? null, detail: (item.detail as Record<string, string>) ?? {}, createdAt: item.createdAt as string };
}

/** Who a request acts as, for the trail: a signed-in user, an API key, or the system. */
export function actorOf(caller: Caller): Actor {
  if (caller.kind === 'session') return { type: 'user', userId: caller.userId };
  if (caller.kind === 'key') return { type: 'key', keyId: caller.keyId };
  return { type: 'system' };
}
