import { DeleteCommand, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import { documentClient } from '../aws/clients';
import { tableName } from '../db/table';
import { transactWrite, type TransactItem } from '../db/transactions';
import { ApiError, conflict, notFound } from '../http/errors';
import { getProject } from '../projects/projects';
import type { Role } from './access-tokens';
import { accountKeys } from './keys';
import { queueDashboardMail } from './mail';
import { hashOneTimeToken, newOneTimeToken } from './one-time-tokens';
import { getMembership, normalizeEmail } from './users';

export const INVITATION_TTL_MS = 7 * 24 * 3600_000;
/** Pending invitations a project may have at once: the list is one bounded page. */
export const MAX_PENDING_INVITATIONS = 100;

export interface Invitation {
  id: string;
  email: string;
  role: Role;
  invitedBy: string;
  createdAt: string;
  expiresAt: string;
}

/** What a presented invitation token finds: the invitation it belongs to. */
export interface InvitationGrant {
  projectId: string;
  invitationId: string;
  email: string;
  role: Role;
  tokenHash: string;
}

export const invalidToken = () => new ApiError(400, 'INVALID_TOKEN', 'The link is invalid, expired or already used', { suggestion: 'Ask for a new invitation or password reset.' });

/**
 * POST /members/invitations: stores the invitation and its token's hash, then queues the mail
 * with the link (`<dashboardUrl>/accept-invitation#token=…`, a fragment so it reaches no log).
 */
export async function inviteMember(projectId: string, input: { email: string; role: Role; invitedBy: string }, dashboardUrl: string, now = Date.now()): Promise<Invitation> {
  const email = normalizeEmail(input.email);
  const project = await getProject(projectId);
  if (!project) throw notFound('Project');
  const existing = await findUserIdByEmail(email);
  if (existing && (await getMembership(projectId, existing))) throw conflict('ALREADY_MEMBER', 'This address is already a member of the project');
  if ((await pendingInvitations(projectId, now)).length >= MAX_PENDING_INVITATIONS) {
    throw conflict('TOO_MANY_INVITATIONS', `A project has at most ${MAX_PENDING_INVITATIONS} pending invitations; revoke some or wait until they are accepted or expire`);
  }

  const token = newOneTimeToken();
  const tokenHash = hashOneTimeToken(token);
  const invitation: Invitation = { id: ulid(now), email, role: input.role, invitedBy: input.invitedBy, createdAt: new Date(now).toISOString(), expiresAt: new Date(now + INVITATION_TTL_MS).toISOString() };
  const ttl = Math.ceil((now + INVITATION_TTL_MS) / 1000);
  await transactWrite([
    { Put: { TableName: tableName, Item: { ...accountKeys.invitation(projectId, invitation.id), ...invitation, tokenHash, expiresAtMs: now + INVITATION_TTL_MS, expiresAt: ttl, expiresAtIso: invitation.expiresAt }, ConditionExpression: 'attribute_not_exists(PK)' } },
    { Put: { TableName: tableName, Item: { ...accountKeys.invitationToken(tokenHash), projectId, invitationId: invitation.id, email, role: input.role, expiresAtMs: now + INVITATION_TTL_MS, expiresAt: ttl }, ConditionExpression: 'attribute_not_exists(PK)' } },
  ]);
  await queueDashboardMail({
    to: email,
    subject: `You are invited to ${project.name} on Mailwright`,
    paragraphs: [`You have been invited to join the project "${project.name}" as ${input.role === 'OWNER' ? 'an owner' : 'a member'}.`, 'The link works once and expires in 7 days.'],
    link: { url: `${dashboardUrl}/accept-invitation#token=${token}`, label: 'Accept the invitation' },
    subjectId: invitation.id,
  });
  return invitation;
}

async function findUserIdByEmail(email: string): Promise<string | undefined> {
  const { Item } = await documentClient.send(new GetCommand({ TableName: tableName, Key: accountKeys.userEmail(email), ConsistentRead: true }));
  return Item?.userId as string | undefined;
}

/**
 * The pending invitations, oldest first: at most MAX_PENDING_INVITATIONS (inviting more is
 * refused), read newest first from one bounded Query (expired ones are left out; their items
 * expire by TTL).
 */
async function pendingInvitations(projectId: string, now: number): Promise<Invitation[]> {
  const { Items = [] } = await documentClient.send(
    new QueryCommand({
      TableName: tableName,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      FilterExpression: 'expiresAtMs > :now',
      ExpressionAttributeValues: { ':pk': accountKeys.invitation(projectId, '').PK, ':prefix': accountKeys.invitationPrefix, ':now': now },
      ScanIndexForward: false,
      Limit: 2 * MAX_PENDING_INVITATIONS,
    }),
  );
  // Newest first: the live ones are the newest, as every invitation lives 7 days.
  return Items.slice(0, MAX_PENDING_INVITATIONS).map(toInvitation).reverse();
}

/** Pending invitations, oldest first, in one page like GET /domains. */
export async function listInvitations(projectId: string, now = Date.now()) {
  const items = await pendingInvitations(projectId, now);
  return { items, nextCursor: null, hasMore: false, total: items.length };
}

/** Revokes a pending invitation and its token. */
export async function revokeInvitation(projectId: string, invitationId: string): Promise<Invitation> {
  const { Attributes } = await documentClient.send(new DeleteCommand({ TableName: tableName, Key: accountKeys.invitation(projectId, invitationId), ReturnValues: 'ALL_OLD' }));
  if (!Attributes) throw notFound('Invitation');
  await documentClient.send(new DeleteCommand({ TableName: tableName, Key: accountKeys.invitationToken(Attributes.tokenHash as string) }));
  return toInvitation(Attributes);
}

/** The invitation a token opens, or 400 INVALID_TOKEN. */
export async function findInvitation(token: string, now = Date.now()): Promise<InvitationGrant> {
  const tokenHash = hashOneTimeToken(token);
  const { Item } = await documentClient.send(new GetCommand({ TableName: tableName, Key: accountKeys.invitationToken(tokenHash), ConsistentRead: true }));
  if (!Item || (Item.expiresAtMs as number) <= now) throw invalidToken();
  return { projectId: Item.projectId as string, invitationId: Item.invitationId as string, email: Item.email as string, role: Item.role as Role, tokenHash };
}

/**
 * The writes that use up an invitation: its token (conditional: a second use of the link fails
 * the whole transaction) and the invitation item. The caller adds the membership (and the new
 * user, if any) to the same transaction.
 */
export function consumeInvitationItems(grant: InvitationGrant, now = Date.now()): TransactItem[] {
  return [
    { Delete: { TableName: tableName, Key: accountKeys.invitationToken(grant.tokenHash), ConditionExpression: 'attribute_exists(PK) AND expiresAtMs > :now', ExpressionAttributeValues: { ':now': now } } },
    { Delete: { TableName: tableName, Key: accountKeys.invitation(grant.projectId, grant.invitationId) } },
  ];
}

function toInvitation(item: Record<string, unknown>): Invitation {
  return { id: item.id as string, email: item.email as string, role: item.role as Role, invitedBy: item.invitedBy as string, createdAt: item.createdAt as string, expiresAt: item.expiresAtIso as string };
}
