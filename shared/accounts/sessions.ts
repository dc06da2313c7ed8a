import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import { documentClient } from '../aws/clients';
import { batchWriteAll } from '../db/batch';
import { tableName } from '../db/table';
import { updateIfStill } from '../db/transactions';
import { accountKeys } from './keys';

/**
 * Dashboard sessions (/docs "Dashboard session"): one item per signed-in browser, holding only
 * the SHA-256 of its refresh secret. A session ends after 7 days without a refresh or 30 days
 * after sign-in, whichever comes first, or when revoked (sign out, sign out everywhere, password
 * change or reset, removal from the project it is on). Every refresh replaces the secret.
 */
export const SESSION_IDLE_MS = 7 * 24 * 3600_000;
export const SESSION_ABSOLUTE_MS = 30 * 24 * 3600_000;
const SECRET_BYTES = 32;

export interface Session {
  sessionId: string;
  userId: string;
  projectId: string;
  createdAt: string;
  lastUsedAt: string;
  idleExpiresAt: number;
  absoluteExpiresAt: number;
  userAgent: string | null;
}

/** The cookie value: `<userId>.<sessionId>.<secret>` (the ids make the lookup one GetItem). */
export interface RefreshCredential {
  userId: string;
  sessionId: string;
  secret: string;
}

const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('hex');
const newSecret = () => randomBytes(SECRET_BYTES).toString('base64url');
const ttlSeconds = (idle: number, absolute: number) => Math.ceil(Math.min(idle, absolute) / 1000);

export const formatRefreshCredential = (credential: RefreshCredential) => `${credential.userId}.${credential.sessionId}.${credential.secret}`;

export function parseRefreshCredential(value: string | undefined): RefreshCredential | null {
  const match = /^([0-9A-HJKMNP-TV-Z]{26})\.([0-9A-HJKMNP-TV-Z]{26})\.([A-Za-z0-9_-]{43})$/.exec(value ?? '');
  return match ? { userId: match[1]!, sessionId: match[2]!, secret: match[3]! } : null;
}

export async function createSession(userId: string, projectId: string, userAgent: string | undefined, now = Date.now()): Promise<{ session: Session; credential: RefreshCredential }> {
  const secret = newSecret();
  const session: Session = {
    sessionId: ulid(now),
    userId,
    projectId,
    createdAt: new Date(now).toISOString(),
    lastUsedAt: new Date(now).toISOString(),
    idleExpiresAt: now + SESSION_IDLE_MS,
    absoluteExpiresAt: now + SESSION_ABSOLUTE_MS,
    userAgent: userAgent?.slice(0, 256) ?? null,
  };
  await documentClient.send(
    new PutCommand({
      TableName: tableName,
      Item: { ...accountKeys.session(userId, session.sessionId), ...session, secretHash: hashSecret(secret), expiresAt: ttlSeconds(session.idleExpiresAt, session.absoluteExpiresAt) },
      ConditionExpression: 'attribute_not_exists(PK)',
    }),
  );
  await trimSessions(userId, now);
  return { session, credential: { userId, sessionId: session.sessionId, secret } };
}

const isLive = (session: Session, now: number) => session.idleExpiresAt > now && session.absoluteExpiresAt > now;

export async function getSession(userId: string, sessionId: string, now = Date.now()): Promise<Session | undefined> {
  const { Item } = await documentClient.send(new GetCommand({ TableName: tableName, Key: accountKeys.session(userId, sessionId), ConsistentRead: true }));
  const session = Item ? toSession(Item) : undefined;
  return session && isLive(session, now) ? session : undefined;
}

/** The live session a refresh credential belongs to, or undefined (unknown, ended, wrong secret). */
export async function sessionOf(credential: RefreshCredential, now = Date.now()): Promise<(Session & { secretHash: string }) | undefined> {
  const { Item } = await documentClient.send(new GetCommand({ TableName: tableName, Key: accountKeys.session(credential.userId, credential.sessionId), ConsistentRead: true }));
  if (!Item) return undefined;
  const given = Buffer.from(hashSecret(credential.secret), 'hex');
  const stored = Buffer.from(String(Item.secretHash), 'hex');
  if (given.length !== stored.length || !timingSafeEqual(given, stored)) return undefined;
  const session = toSession(Item);
  return isLive(session, now) ? { ...session, secretHash: Item.secretHash as string } : undefined;
}

/**
 * Replaces the secret (the old cookie stops working: a conditional write on the old hash, so two
 * refreshes racing with one cookie give one new secret), slides the idle expiry and moves the
 * session to `projectId`. Undefined when the secret was replaced meanwhile.
 */
export async function rotateSession(session: Session & { secretHash: string }, projectId: string, now = Date.now()): Promise<{ session: Session; credential: RefreshCredential } | undefined> {
  const secret = newSecret();
  const idleExpiresAt = now + SESSION_IDLE_MS;
  const rotated = await updateIfStill({
    TableName: tableName,
    Key: accountKeys.session(session.userId, session.sessionId),
    UpdateExpression: 'SET secretHash = :new, projectId = :projectId, lastUsedAt = :now, idleExpiresAt = :idle, expiresAt = :ttl',
    ConditionExpression: 'secretHash = :old',
    ExpressionAttributeValues: {
      ':new': hashSecret(secret),
      ':old': session.secretHash,
      ':projectId': projectId,
      ':now': new Date(now).toISOString(),
      ':idle': idleExpiresAt,
      ':ttl': ttlSeconds(idleExpiresAt, session.absoluteExpiresAt),
    },
  });
  if (!rotated) return undefined;
  const { secretHash: _old, ...rest } = session;
  return { session: { ...rest, projectId, idleExpiresAt, lastUsedAt: new Date(now).toISOString() }, credential: { userId: session.userId, sessionId: session.sessionId, secret } };
}

/**
 * A user has at most this many sessions: signing in on one more browser ends the oldest (its
 * next refresh signs it out), so listing and revoking a user's sessions reads a bounded page.
 */
export const MAX_SESSIONS = 50;

/** One page of the user's session items, newest first (expired ones included until their TTL removes them). */
async function sessionPage(userId: string, limit: number, startKey?: Record<string, unknown>) {
  const page = await documentClient.send(
    new QueryCommand({
      TableName: tableName,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': accountKeys.sessionPartition(userId), ':prefix': accountKeys.sessionPrefix },
      ScanIndexForward: false,
      Limit: limit,
      ExclusiveStartKey: startKey,
    }),
  );
  return { sessions: (page.Items ?? []).map(toSession), next: page.LastEvaluatedKey };
}

/** The user's live sessions, newest first: at most MAX_SESSIONS, from one bounded Query. */
export async function listSessions(userId: string, now = Date.now()): Promise<Session[]> {
  const { sessions } = await sessionPage(userId, 2 * MAX_SESSIONS);
  return sessions.filter((session) => isLive(session, now)).slice(0, MAX_SESSIONS);
}

/** Ends the sessions after the newest MAX_SESSIONS live ones, and the dead ones on the way (one bounded page per sign-in). */
async function trimSessions(userId: string, now: number): Promise<void> {
  const { sessions } = await sessionPage(userId, 2 * MAX_SESSIONS);
  const live = sessions.filter((session) => isLive(session, now));
  const beyond = new Set(live.slice(MAX_SESSIONS).map((session) => session.sessionId));
  await deleteSessions(userId, sessions.filter((session) => !isLive(session, now) || beyond.has(session.sessionId)));
}

/** Deletes one session; false when it was not there. */
export async function revokeSession(userId: string, sessionId: string): Promise<boolean> {
  const { Attributes } = await documentClient.send(new DeleteCommand({ TableName: tableName, Key: accountKeys.session(userId, sessionId), ReturnValues: 'ALL_OLD' }));
  return Attributes !== undefined;
}

/**
 * Sign out everywhere (or, with `projectId`, every session on that project; `except`: all but
 * that one), a page at a time; returns how many ended.
 */
export async function revokeSessions(userId: string, filter: { projectId?: string; except?: string } = {}): Promise<number> {
  let revoked = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const { sessions, next } = await sessionPage(userId, 100, startKey);
    const ending = sessions.filter((session) => (!filter.projectId || session.projectId === filter.projectId) && session.sessionId !== filter.except);
    await deleteSessions(userId, ending);
    revoked += ending.length;
    startKey = next;
  } while (startKey);
  return revoked;
}


const deleteSessions = (userId: string, sessions: Session[]) => batchWriteAll(sessions.map((session) => ({ DeleteRequest: { Key: accountKeys.session(userId, session.sessionId) } })));

function toSession(item: Record<string, unknown>): Session {
  return {
    sessionId: item.sessionId as string,
    userId: item.userId as string,
    projectId: item.projectId as string,
    createdAt: item.createdAt as string,
    lastUsedAt: item.lastUsedAt as string,
    idleExpiresAt: item.idleExpiresAt as number,
    absoluteExpiresAt: item.absoluteExpiresAt as number,
    userAgent: (item.userAgent as string | null | undefined) ?? null,
  };
}
