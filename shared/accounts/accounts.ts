import { forbidden, unauthorized } from '../http/errors';
import { transactWrite } from '../db/transactions';
import { logger } from '../observability/logger';
import { signAccessToken, type Role } from './access-tokens';
import { recordAudit } from './audit';
import { consumeInvitationItems, findInvitation, invalidToken } from './invitations';
import { invalidCredentials } from './password-changes';
import { hashPassword, spendVerifyTime, verifyPassword } from './passwords';
import { resetPassword, sendPasswordReset } from './password-resets';
import { createSession, parseRefreshCredential, revokeSession, revokeSessions, rotateSession, sessionOf, type RefreshCredential, type Session } from './sessions';
import { assertMayTry, clearFailures, recordFailure } from './throttle';
import { addMembershipItems, findUserByEmail, getUser, listUserProjects, newUserItems, normalizeEmail, type User } from './users';

/** What a sign-in, refresh or accepted invitation answers (the access token) and sets (the refresh cookie). */
export interface SessionGrant {
  accessToken: string;
  expiresAt: string;
  user: { id: string; email: string; name: string | null };
  projectId: string;
  projects: { id: string; name: string; role: Role }[];
}

export interface Granted {
  grant: SessionGrant;
  credential: RefreshCredential;
}

const sessionEnded = () => unauthorized('The session has ended; sign in again');

/** Where the request came from, for throttling and the sessions list. */
export interface ClientInfo {
  sourceIp: string;
  userAgent?: string;
}

/** The project a grant is for: the one asked for (must be a member), else the session's, else the first. */
function chooseProject(projects: SessionGrant['projects'], wanted: string | undefined, fallback?: string) {
  if (wanted) {
    const found = projects.find((project) => project.id === wanted);
    if (!found) throw forbidden('NOT_A_MEMBER', 'You are not a member of this project');
    return found;
  }
  return projects.find((project) => project.id === fallback) ?? projects[0];
}

function grantFor(user: User, session: Session, project: SessionGrant['projects'][number], projects: SessionGrant['projects']): SessionGrant {
  const { token, expiresAt } = signAccessToken({ userId: user.userId, projectId: project.id, role: project.role, sessionId: session.sessionId });
  return { accessToken: token, expiresAt: new Date(expiresAt).toISOString(), user: { id: user.userId, email: user.email, name: user.name }, projectId: project.id, projects };
}

/**
 * POST /dashboard/session. The same 401 for an unknown email and a wrong password, after the same
 * scrypt work; throttled per account and per source address before any hashing.
 */
export async function signIn(input: { email: string; password: string; projectId?: string }, client: ClientInfo): Promise<Granted> {
  const email = normalizeEmail(input.email);
  const subjects = [{ email }, { ip: client.sourceIp }];
  await assertMayTry(subjects);
  const user = await findUserByEmail(email);
  if (!user) {
    await spendVerifyTime(input.password);
    await recordFailure(subjects);
    throw invalidCredentials();
  }
  if (!(await verifyPassword(input.password, user.passwordHash))) {
    await recordFailure(subjects);
    const projects = await listUserProjects(user.userId);
    await Promise.all(projects.map((project) => recordAudit(project.id, { action: 'session.sign_in_failed', actor: { type: 'user', userId: user.userId, email }, target: user.userId, detail: { sourceIp: client.sourceIp } })));
    throw invalidCredentials();
  }
  await clearFailures({ email });
  const projects = await listUserProjects(user.userId);
  const project = chooseProject(projects, input.projectId);
  if (!project) throw forbidden('NO_PROJECT', 'This account is not a member of any project');
  const { session, credential } = await createSession(user.userId, project.id, client.userAgent);
  await recordAudit(project.id, { action: 'session.signed_in', actor: { type: 'user', userId: user.userId, email }, target: user.userId, detail: { sourceIp: client.sourceIp } });
  return { grant: grantFor(user, session, project, projects), credential };
}

/** POST /dashboard/session/refresh: a new access token and a new refresh secret (the old one stops). */
export async function refresh(cookie: string | undefined, input: { projectId?: string }): Promise<Granted> {
  const credential = parseRefreshCredential(cookie);
  const session = credential && (await sessionOf(credential));
  if (!session) throw sessionEnded();
  const [user, projects] = await Promise.all([getUser(session.userId), listUserProjects(session.userId)]);
  const project = chooseProject(projects, input.projectId, session.projectId);
  if (!user || !project) {
    await revokeSession(session.userId, session.sessionId);
    throw sessionEnded();
  }
  const rotated = await rotateSession(session, project.id);
  if (!rotated) throw sessionEnded();
  return { grant: grantFor(user, rotated.session, project, projects), credential: rotated.credential };
}

/** DELETE /dashboard/session: ends the cookie's session, if it is one. */
export async function signOut(cookie: string | undefined): Promise<void> {
  const credential = parseRefreshCredential(cookie);
  const session = credential && (await sessionOf(credential, 0));
  if (session) await revokeSession(session.userId, session.sessionId);
}

/** POST /dashboard/session/password-reset: mails a link when the account exists; says nothing either way. */
export async function requestPasswordReset(email: string, dashboardUrl: string): Promise<void> {
  const user = await findUserByEmail(email);
  if (!user) {
    logger.info('Password reset for an unknown address; nothing sent');
    return;
  }
  await sendPasswordReset(user, dashboardUrl);
}

/** POST /dashboard/session/password-reset/confirm: new password, and every session of the user ends. */
export async function confirmPasswordReset(token: string, password: string): Promise<void> {
  const userId = await resetPassword(token, await hashPassword(password));
  await revokeSessions(userId);
  const user = await getUser(userId);
  if (user) await clearFailures({ email: user.email });
}

/**
 * POST /dashboard/session/invitations/accept: joins the invitation's project, creating the account
 * (with this password) or, for an existing account, checking its password; then signs in there.
 */
export async function acceptInvitation(input: { token: string; password: string; name?: string }, client: ClientInfo): Promise<Granted> {
  const invitation = await findInvitation(input.token);
  const existing = await findUserByEmail(invitation.email);
  let user: User;
  const joinItems = consumeInvitationItems(invitation);
  if (existing) {
    await assertMayTry([{ email: existing.email }, { ip: client.sourceIp }]);
    if (!(await verifyPassword(input.password, existing.passwordHash))) {
      await recordFailure([{ email: existing.email }, { ip: client.sourceIp }]);
      throw invalidCredentials();
    }
    const { passwordHash: _hash, ...rest } = existing;
    user = rest;
  } else {
    const created = newUserItems({ email: invitation.email, name: input.name ?? null, passwordHash: await hashPassword(input.password) });
    user = created.user;
    joinItems.push(...created.items);
  }
  joinItems.push(...addMembershipItems(invitation.projectId, user, invitation.role));
  try {
    await transactWrite(joinItems);
  } catch (error) {
    if ((error as Error).name === 'TransactionCanceledException') throw invalidToken();
    throw error;
  }
  await recordAudit(invitation.projectId, { action: 'member.joined', actor: { type: 'user', userId: user.userId, email: user.email }, target: user.userId, detail: { role: invitation.role, invitationId: invitation.invitationId } });
  const projects = await listUserProjects(user.userId);
  const project = chooseProject(projects, invitation.projectId);
  const { session, credential } = await createSession(user.userId, invitation.projectId, client.userAgent);
  return { grant: grantFor(user, session, project!, projects), credential };
}
