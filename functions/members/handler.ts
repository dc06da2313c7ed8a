import { changePassword } from '../../shared/accounts/password-changes';
import { cancelInvitation, invite, me, memberView, projectView, removeMember, setMemberRole, updateProjectAs } from '../../shared/accounts/administration';
import { listAudit } from '../../shared/accounts/audit';
import { dashboardUrl } from '../../shared/accounts/browser';
import { listInvitations } from '../../shared/accounts/invitations';
import { changePasswordSchema, inviteSchema, pageQuerySchema, patchMemberSchema, patchProjectSchema } from '../../shared/accounts/schemas';
import { listSessions, revokeSession, revokeSessions } from '../../shared/accounts/sessions';
import { listMembers } from '../../shared/accounts/users';
import { createHttpHandler, type HttpRequest } from '../../shared/http/handler';
import { notFound } from '../../shared/http/errors';
import { pathId } from '../../shared/http/ids';
import { parseInput } from '../../shared/http/validation';

/** The signed-in user of a session-only route (the route table lets no API key in). */
function sessionUser(request: HttpRequest) {
  if (request.caller.kind !== 'session') throw new Error('Session-only route reached without a session');
  return request.caller;
}

export const handler = createHttpHandler({
  'GET /me': async (request) => ({ data: await me(sessionUser(request), request.projectId) }),

  'PATCH /me/password': async (request) => {
    const caller = sessionUser(request);
    await changePassword(caller.userId, caller.sessionId, parseInput(changePasswordSchema, request.body));
    return { data: { ok: true } };
  },

  'GET /me/sessions': async (request) => {
    const caller = sessionUser(request);
    const sessions = await listSessions(caller.userId);
    const items = sessions.map((session) => ({
      id: session.sessionId,
      projectId: session.projectId,
      createdAt: session.createdAt,
      lastUsedAt: session.lastUsedAt,
      expiresAt: new Date(Math.min(session.idleExpiresAt, session.absoluteExpiresAt)).toISOString(),
      userAgent: session.userAgent,
      current: session.sessionId === caller.sessionId,
    }));
    return { data: { items, nextCursor: null, hasMore: false, total: items.length } };
  },

  'DELETE /me/sessions': async (request) => ({ data: { revoked: await revokeSessions(sessionUser(request).userId) } }),

  'DELETE /me/sessions/{id}': async (request) => {
    const id = pathId(request.pathParameters, 'Session');
    if (!(await revokeSession(sessionUser(request).userId, id))) throw notFound('Session');
    return { data: { id, deleted: true } };
  },

  'GET /project': async ({ projectId }) => ({ data: await projectView(projectId) }),

  'PATCH /project': async ({ projectId, caller, body }) => ({ data: await updateProjectAs(projectId, caller, parseInput(patchProjectSchema, body)) }),

  'GET /members': async ({ projectId, query }) => {
    const page = await listMembers(projectId, parseInput(pageQuerySchema, query));
    return { data: { ...page, items: page.items.map(memberView) } };
  },

  'PATCH /members/{userId}': async ({ projectId, caller, pathParameters, body }) => ({
    data: await setMemberRole(projectId, caller, pathId(pathParameters, 'Member', 'userId'), parseInput(patchMemberSchema, body).role),
  }),

  'DELETE /members/{userId}': async ({ projectId, caller, pathParameters }) => ({ data: await removeMember(projectId, caller, pathId(pathParameters, 'Member', 'userId')) }),

  'GET /members/invitations': async ({ projectId }) => ({ data: await listInvitations(projectId) }),

  'POST /members/invitations': async ({ projectId, caller, body, headers, basePath }) => ({
    statusCode: 201,
    data: await invite(projectId, caller, parseInput(inviteSchema, body), dashboardUrl(headers, basePath)),
  }),

  'DELETE /members/invitations/{id}': async ({ projectId, caller, pathParameters }) => ({ data: await cancelInvitation(projectId, caller, pathId(pathParameters, 'Invitation')) }),

  'GET /audit': async ({ projectId, query }) => ({ data: await listAudit(projectId, parseInput(pageQuerySchema, query)) }),
});
