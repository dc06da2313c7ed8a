import { BatchGetCommand, GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import { documentClient } from '../aws/clients';
import { tableName } from '../db/table';
import { transactWrite, type TransactItem } from '../db/transactions';
import { decodeCursor, pageOf } from '../http/cursor';
import { conflict, notFound } from '../http/errors';
import { projectKeys } from '../projects/keys';
import type { Role } from './access-tokens';
import { accountKeys } from './keys';

export interface User {
  userId: string;
  email: string;
  name: string | null;
  createdAt: string;
}

export interface Membership {
  userId: string;
  projectId: string;
  email: string;
  name: string | null;
  role: Role;
  createdAt: string;
}

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

const isCancelledBy = (error: unknown, index: number) =>
  (error as Error).name === 'TransactionCanceledException' && (error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons?.[index]?.Code === 'ConditionalCheckFailed';

/** The user item and the claim that makes its email unique, in one transaction (409 EMAIL_TAKEN). */
export function newUserItems(input: { email: string; name?: string | null; passwordHash: string }, now = new Date().toISOString()): { user: User; items: TransactItem[] } {
  const user: User = { userId: ulid(), email: normalizeEmail(input.email), name: input.name ?? null, createdAt: now };
  return {
    user,
    items: [
      { Put: { TableName: tableName, Item: { ...accountKeys.userEmail(user.email), userId: user.userId }, ConditionExpression: 'attribute_not_exists(PK)' } },
      { Put: { TableName: tableName, Item: { ...accountKeys.user(user.userId), ...user, passwordHash: input.passwordHash }, ConditionExpression: 'attribute_not_exists(PK)' } },
    ],
  };
}

export async function createUser(input: { email: string; name?: string | null; passwordHash: string }): Promise<User> {
  const { user, items } = newUserItems(input);
  try {
    await transactWrite(items);
  } catch (error) {
    if (isCancelledBy(error, 0)) throw conflict('EMAIL_TAKEN', 'A user with this email exists');
    throw error;
  }
  return user;
}

export async function getUserWithHash(userId: string): Promise<(User & { passwordHash: string }) | undefined> {
  const { Item } = await documentClient.send(new GetCommand({ TableName: tableName, Key: accountKeys.user(userId), ConsistentRead: true }));
  return Item ? { ...toUser(Item), passwordHash: Item.passwordHash as string } : undefined;
}

export async function getUser(userId: string): Promise<User | undefined> {
  const found = await getUserWithHash(userId);
  if (!found) return undefined;
  const { passwordHash: _hash, ...user } = found;
  return user;
}

export async function findUserByEmail(email: string): Promise<(User & { passwordHash: string }) | undefined> {
  const { Item } = await documentClient.send(new GetCommand({ TableName: tableName, Key: accountKeys.userEmail(normalizeEmail(email)), ConsistentRead: true }));
  return Item ? getUserWithHash(Item.userId as string) : undefined;
}

export const setPasswordItem = (userId: string, passwordHash: string): TransactItem => ({
  Update: {
    TableName: tableName,
    Key: accountKeys.user(userId),
    UpdateExpression: 'SET passwordHash = :hash, passwordChangedAt = :now',
    ConditionExpression: 'attribute_exists(PK)',
    ExpressionAttributeValues: { ':hash': passwordHash, ':now': new Date().toISOString() },
  },
});

export async function setPassword(userId: string, passwordHash: string): Promise<void> {
  await documentClient.send(new UpdateCommand(setPasswordItem(userId, passwordHash).Update as never));
}

// ---- Memberships -----------------------------------------------------------------------------

/**
 * A membership and the project's counters (memberCount, ownerCount: the last-owner rule reads
 * ownerCount in the same transaction that changes it, so two concurrent demotions cannot both pass).
 */
export function addMembershipItems(projectId: string, user: Pick<User, 'userId' | 'email' | 'name'>, role: Role, now = new Date().toISOString()): TransactItem[] {
  return [
    {
      Put: {
        TableName: tableName,
        Item: { ...accountKeys.membership(projectId, user.userId), ...accountKeys.userProjects(user.userId, projectId), userId: user.userId, projectId, email: user.email, name: user.name, role, createdAt: now },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    },
    {
      Update: {
        TableName: tableName,
        Key: projectKeys.project(projectId),
        UpdateExpression: role === 'OWNER' ? 'ADD memberCount :one, ownerCount :one' : 'ADD memberCount :one',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeValues: { ':one': 1 },
      },
    },
  ];
}

export async function addMembership(projectId: string, user: Pick<User, 'userId' | 'email' | 'name'>, role: Role): Promise<void> {
  try {
    await transactWrite(addMembershipItems(projectId, user, role));
  } catch (error) {
    if (isCancelledBy(error, 0)) throw conflict('ALREADY_MEMBER', 'The user is already a member of this project');
    if (isCancelledBy(error, 1)) throw notFound('Project');
    throw error;
  }
}

export async function getMembership(projectId: string, userId: string): Promise<Membership | undefined> {
  const { Item } = await documentClient.send(new GetCommand({ TableName: tableName, Key: accountKeys.membership(projectId, userId), ConsistentRead: true }));
  return Item ? toMembership(Item) : undefined;
}

/** GET /members: one page of the project's members (by user id) and the memberCount counter. */
export async function listMembers(projectId: string, query: { limit: number; cursor?: string }) {
  const partition = accountKeys.membership(projectId, '').PK;
  const binding = `members:${projectId}`;
  const startKey = query.cursor ? decodeCursor(query.cursor, binding, { PK: partition }, ['SK']) : undefined;
  const [result, project] = await Promise.all([
    documentClient.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
        ExpressionAttributeValues: { ':pk': partition, ':prefix': accountKeys.membershipPrefix },
        Limit: query.limit + 1,
        ExclusiveStartKey: startKey,
      }),
    ),
    documentClient.send(new GetCommand({ TableName: tableName, Key: projectKeys.project(projectId), ProjectionExpression: 'memberCount' })),
  ]);
  const { page, hasMore, nextCursor } = pageOf(result, query.limit, ['PK', 'SK'], binding);
  return { items: page.map(toMembership), nextCursor, hasMore, total: (project.Item?.memberCount as number | undefined) ?? 0 };
}

/** The user's projects with their names and the user's role in each (at most 100). */
export async function listUserProjects(userId: string): Promise<{ id: string; name: string; role: Role }[]> {
  const { Items = [] } = await documentClient.send(
    new QueryCommand({
      TableName: tableName,
      IndexName: 'GSI1',
      KeyConditionExpression: 'GSI1PK = :pk',
      ExpressionAttributeValues: { ':pk': accountKeys.userProjects(userId, '').GSI1PK },
      Limit: 100,
    }),
  );
  if (Items.length === 0) return [];
  const { Responses } = await documentClient.send(
    new BatchGetCommand({
      RequestItems: { [tableName]: { Keys: Items.map((item) => projectKeys.project(item.projectId as string)), ProjectionExpression: 'projectId, #name', ExpressionAttributeNames: { '#name': 'name' } } },
    }),
  );
  const names = new Map((Responses?.[tableName] ?? []).map((project) => [project.projectId as string, project.name as string]));
  return Items.filter((item) => names.has(item.projectId as string)).map((item) => ({ id: item.projectId as string, name: names.get(item.projectId as string)!, role: item.role as Role }));
}

/**
 * Changes a member's role; demoting an owner takes one from ownerCount only while another owner
 * remains (409 LAST_OWNER). Returns the membership as it was.
 */
export async function changeRole(projectId: string, userId: string, role: Role): Promise<{ before: Membership; after: Membership }> {
  const before = await getMembership(projectId, userId);
  if (!before) throw notFound('Member');
  if (before.role === role) return { before, after: before };
  const delta = role === 'OWNER' ? 1 : -1;
  try {
    await transactWrite([
      {
        Update: {
          TableName: tableName,
          Key: accountKeys.membership(projectId, userId),
          UpdateExpression: 'SET #role = :role',
          ConditionExpression: '#role = :was',
          ExpressionAttributeNames: { '#role': 'role' },
          ExpressionAttributeValues: { ':role': role, ':was': before.role },
        },
      },
      ownerCountItem(projectId, delta),
    ]);
  } catch (error) {
    if (isCancelledBy(error, 1)) throw lastOwner();
    if (isCancelledBy(error, 0)) throw conflict('CONCURRENT_MODIFICATION', 'The membership changed concurrently; retry');
    throw error;
  }
  return { before, after: { ...before, role } };
}

/** Removes a member; the last owner cannot be removed (409 LAST_OWNER). */
export async function removeMembership(projectId: string, userId: string): Promise<Membership> {
  const member = await getMembership(projectId, userId);
  if (!member) throw notFound('Member');
  try {
    await transactWrite([
      {
        Delete: {
          TableName: tableName,
          Key: accountKeys.membership(projectId, userId),
          ConditionExpression: '#role = :was',
          ExpressionAttributeNames: { '#role': 'role' },
          ExpressionAttributeValues: { ':was': member.role },
        },
      },
      member.role === 'OWNER'
        ? ownerCountItem(projectId, -1, 'memberCount')
        : { Update: { TableName: tableName, Key: projectKeys.project(projectId), UpdateExpression: 'ADD memberCount :minusOne', ExpressionAttributeValues: { ':minusOne': -1 } } },
    ]);
  } catch (error) {
    if (isCancelledBy(error, 1)) throw lastOwner();
    if (isCancelledBy(error, 0)) throw conflict('CONCURRENT_MODIFICATION', 'The membership changed concurrently; retry');
    throw error;
  }
  return member;
}

const lastOwner = () => conflict('LAST_OWNER', 'The project must keep at least one owner');

/** ownerCount ± 1 on the project item; a decrement only while more than one owner is counted. */
function ownerCountItem(projectId: string, delta: 1 | -1, alsoDecrement?: 'memberCount'): TransactItem {
  return {
    Update: {
      TableName: tableName,
      Key: projectKeys.project(projectId),
      UpdateExpression: alsoDecrement ? 'ADD ownerCount :delta, memberCount :delta' : 'ADD ownerCount :delta',
      ...(delta < 0 ? { ConditionExpression: 'ownerCount > :one', ExpressionAttributeValues: { ':delta': delta, ':one': 1 } } : { ConditionExpression: 'attribute_exists(PK)', ExpressionAttributeValues: { ':delta': delta } }),
    },
  };
}

function toUser(item: Record<string, unknown>): User {
  return { userId: item.userId as string, email: item.email as string, name: (item.name as string | null | undefined) ?? null, createdAt: item.createdAt as string };
}

function toMembership(item: Record<string, unknown>): Membership {
  return {
    userId: item.userId as string,
    projectId: item.projectId as string,
    email: item.email as string,
    name: (item.name as string | null | undefined) ?? null,
    role: item.role as Role,
    createdAt: item.createdAt as string,
  };
}
