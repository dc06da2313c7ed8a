import { notFoundCase, type ErrorCase, type OperationDoc } from '../http/operation-doc';
import { deletedSchema, pageSchema } from '../http/responses';
import {
  acceptInvitationSchema,
  changePasswordSchema,
  createKeySchema,
  inviteSchema,
  pageQuerySchema,
  passwordResetConfirmSchema,
  passwordResetRequestSchema,
  patchMemberSchema,
  patchProjectSchema,
  refreshSchema,
  signInSchema,
} from './schemas';
import {
  apiKeyResponseSchema,
  auditEntryResponseSchema,
  createdApiKeyResponseSchema,
  invitationResponseSchema,
  memberResponseSchema,
  meResponseSchema,
  okSchema,
  projectResponseSchema,
  revokedSessionsSchema,
  rotatedApiKeyResponseSchema,
  sessionGrantSchema,
  sessionResponseSchema,
} from './responses';

// A pattern, not an enum: a one-value enum on a header froze the reference page's (Scalar) request client.
const csrfHeader = { name: 'X-Mailwright-Request', description: 'Must be 1: with a same-origin Origin (or Sec-Fetch-Site: same-origin), the CSRF check of every session route', schema: { type: 'string', pattern: '^1$', maxLength: 1 } };
const csrf: ErrorCase = { status: 403, code: 'CSRF_REJECTED', when: 'Not a same-origin request with X-Mailwright-Request: 1' };
const sessionEnded: ErrorCase = { status: 401, code: 'UNAUTHORIZED', when: 'No refresh cookie, or its session has ended' };
const throttled: ErrorCase = { status: 429, code: 'TOO_MANY_ATTEMPTS', when: 'Too many failed sign-ins for this account or address (Retry-After says when to retry)' };
const invalidToken: ErrorCase = { status: 400, code: 'INVALID_TOKEN', when: 'The link token is unknown, expired or already used' };
const notMember: ErrorCase = { status: 403, code: 'NOT_A_MEMBER', when: 'projectId names a project the user is not a member of' };
const ownersOnly: ErrorCase = { status: 403, code: 'FORBIDDEN', when: 'A MEMBER session (owners only)' };
const lastOwner: ErrorCase = { status: 409, code: 'LAST_OWNER', when: 'The project would be left without an owner' };
const grant = { status: 200, description: 'Signed in: the access token, and Set-Cookie mw_refresh (HttpOnly; Secure; SameSite=Strict; Path=/dashboard/session)', data: sessionGrantSchema };

/** The OpenAPI entries of the session, account, member and key routes; what spans them is under "Dashboard session" in shared/contract/introduction.ts. */
export const accountOperations: Record<string, OperationDoc> = {
  'POST /dashboard/session': {
    operationId: 'signIn',
    tag: 'Dashboard session',
    summary: 'Sign in',
    description: 'The same 401 for an unknown email and a wrong password. Failures slow down and then lock the account (10 in 15 minutes: 15 minutes) and the source address.',
    headers: [csrfHeader],
    body: signInSchema,
    bodyExample: { email: 'ada@example.com', password: 'correct horse battery' },
    success: grant,
    errors: [{ status: 401, code: 'INVALID_CREDENTIALS', when: 'Unknown email or wrong password' }, { status: 403, code: 'NO_PROJECT', when: 'The account belongs to no project' }, notMember, csrf, throttled],
  },
  'POST /dashboard/session/refresh': {
    operationId: 'refreshSession',
    tag: 'Dashboard session',
    summary: 'Renew the access token',
    description: 'Reads the mw_refresh cookie, answers a new access token (for projectId, if given) and replaces the cookie; the old cookie stops working.',
    headers: [csrfHeader],
    body: refreshSchema,
    success: { ...grant, description: 'A new access token and Set-Cookie with the replaced refresh secret' },
    errors: [sessionEnded, notMember, csrf],
  },
  'DELETE /dashboard/session': {
    operationId: 'signOut',
    tag: 'Dashboard session',
    summary: 'Sign out',
    description: 'Ends the cookie\'s session and clears the cookie.',
    headers: [csrfHeader],
    success: { status: 200, description: 'Signed out', data: okSchema },
    errors: [csrf],
  },
  'POST /dashboard/session/password-reset': {
    operationId: 'requestPasswordReset',
    tag: 'Dashboard session',
    summary: 'Ask for a password reset link',
    description: 'Always 202: when the account exists, a link valid for 1 hour is mailed to it.',
    headers: [csrfHeader],
    body: passwordResetRequestSchema,
    success: { status: 202, description: 'Accepted', data: okSchema },
    errors: [csrf],
  },
  'POST /dashboard/session/password-reset/confirm': {
    operationId: 'confirmPasswordReset',
    tag: 'Dashboard session',
    summary: 'Set a new password with a reset link',
    description: 'Uses up the token; every session of the account ends.',
    headers: [csrfHeader],
    body: passwordResetConfirmSchema,
    success: { status: 200, description: 'Password changed', data: okSchema },
    errors: [invalidToken, csrf],
  },
  'POST /dashboard/session/invitations/accept': {
    operationId: 'acceptInvitation',
    tag: 'Dashboard session',
    summary: 'Accept an invitation',
    description: 'Creates the account with this password (or, when the address has one, checks its password), joins the project and signs in there.',
    headers: [csrfHeader],
    body: acceptInvitationSchema,
    success: grant,
    errors: [invalidToken, { status: 401, code: 'INVALID_CREDENTIALS', when: 'The address has an account and this is not its password' }, csrf, throttled],
  },

  'GET /me': {
    operationId: 'getMe',
    tag: 'Account',
    summary: 'The signed-in user',
    description: 'Dashboard sessions only: the user, this token\'s project and role, and every project of the user.',
    success: { status: 200, description: 'The user', data: meResponseSchema },
  },
  'PATCH /me/password': {
    operationId: 'changePassword',
    tag: 'Account',
    summary: 'Change the password',
    description: 'Every other session of the user ends.',
    body: changePasswordSchema,
    success: { status: 200, description: 'Changed', data: okSchema },
    errors: [{ status: 401, code: 'INVALID_CREDENTIALS', when: 'currentPassword is wrong' }],
  },
  'GET /me/sessions': {
    operationId: 'listMySessions',
    tag: 'Account',
    summary: 'List my sessions',
    description:
      'Every live session of the signed-in user, newest first, with its device (`userAgent`), when it was last used and when it ends; `current` marks this one. A user has at most 50 sessions: signing in on one more browser ends the oldest.',
    success: { status: 200, description: 'Every live session of the user (one page)', data: pageSchema(sessionResponseSchema) },
  },
  'DELETE /me/sessions': {
    operationId: 'signOutEverywhere',
    tag: 'Account',
    summary: 'Sign out everywhere',
    description: 'Ends every session of the user, this one included; access tokens stop on their next request.',
    success: { status: 200, description: 'How many sessions ended', data: revokedSessionsSchema },
  },
  'DELETE /me/sessions/{id}': {
    operationId: 'revokeMySession',
    tag: 'Account',
    summary: 'End one session',
    description:
      'Ends one session of the signed-in user; its access token stops at its next request.',
    success: { status: 200, description: 'Ended', data: deletedSchema },
    errors: [notFoundCase('session')],
  },

  'GET /project': {
    operationId: 'getProject',
    tag: 'Project',
    summary: 'The project',
    description:
      'The project of the key or access token: its id, name and status (`ACTIVE` or `DISABLED`).',
    success: { status: 200, description: 'The project of the key or token', data: projectResponseSchema },
  },
  'PATCH /project': {
    operationId: 'renameProject',
    tag: 'Project',
    summary: 'Rename the project',
    description: 'Renames the project (recorded in the audit trail). Owners only.',
    body: patchProjectSchema,
    bodyExample: { name: 'Acme production' },
    success: { status: 200, description: 'The project', data: projectResponseSchema },
    errors: [ownersOnly],
  },
  'GET /members': {
    operationId: 'listMembers',
    tag: 'Members',
    summary: 'List members',
    description: 'The project\'s members with their roles.',
    query: pageQuerySchema,
    success: { status: 200, description: 'A page of members', data: pageSchema(memberResponseSchema) },
  },
  'PATCH /members/{userId}': {
    operationId: 'changeMemberRole',
    tag: 'Members',
    summary: 'Change a member\'s role',
    description: 'The last owner cannot be demoted. The member\'s current access token stops working at its next request; the app refreshes it with the new role.',
    body: patchMemberSchema,
    bodyExample: { role: 'OWNER' },
    success: { status: 200, description: 'The member', data: memberResponseSchema },
    errors: [notFoundCase('member'), lastOwner, ownersOnly, { status: 409, code: 'CONCURRENT_MODIFICATION', when: 'The membership changed concurrently; retry' }],
  },
  'DELETE /members/{userId}': {
    operationId: 'removeMember',
    tag: 'Members',
    summary: 'Remove a member',
    description: 'The last owner cannot be removed. The member\'s sessions on this project end and their access token stops at its next request.',
    success: { status: 200, description: 'Removed', data: deletedSchema },
    errors: [notFoundCase('member'), lastOwner, ownersOnly, { status: 409, code: 'CONCURRENT_MODIFICATION', when: 'The membership changed concurrently; retry' }],
  },
  'GET /members/invitations': {
    operationId: 'listInvitations',
    tag: 'Members',
    summary: 'List pending invitations',
    description: 'Invitations not yet accepted or revoked, with when each expires. Owners only.',
    success: { status: 200, description: 'Every pending invitation (one page)', data: pageSchema(invitationResponseSchema) },
    errors: [ownersOnly],
  },
  'POST /members/invitations': {
    operationId: 'inviteMember',
    tag: 'Members',
    summary: 'Invite a member',
    description: 'Mails a single-use link valid for 7 days, from the deployment\'s dashboard sender address.',
    body: inviteSchema,
    bodyExample: { email: 'grace@example.com', role: 'MEMBER' },
    success: { status: 201, description: 'The invitation', data: invitationResponseSchema },
    errors: [{ status: 409, code: 'ALREADY_MEMBER', when: 'The address is already a member' }, { status: 409, code: 'TOO_MANY_INVITATIONS', when: 'The project has 100 pending invitations' }, ownersOnly],
  },
  'DELETE /members/invitations/{id}': {
    operationId: 'revokeInvitation',
    tag: 'Members',
    summary: 'Revoke an invitation',
    description: 'Its link stops working at once. Owners only.',
    success: { status: 200, description: 'Revoked: its link no longer works', data: deletedSchema },
    errors: [notFoundCase('invitation'), ownersOnly],
  },
  'GET /audit': {
    operationId: 'listAudit',
    tag: 'Members',
    summary: 'The audit trail',
    description: 'Newest first: sign-ins and failed sign-ins, invitations, role changes, removals, key creation, rotation and revocation.',
    query: pageQuerySchema,
    success: { status: 200, description: 'A page of audit entries', data: pageSchema(auditEntryResponseSchema) },
    errors: [ownersOnly],
  },

  'GET /keys': {
    operationId: 'listKeys',
    tag: 'API keys',
    summary: 'List API keys',
    description:
      'Names, kinds, non-secret prefixes and last four characters, `createdAt` and `lastUsedAt` (recorded at most once a minute per key; with the gateway\'s 5-minute cache it may move only every 5 minutes per client); never the keys.',
    success: { status: 200, description: 'Every key of the project (one page): names and non-secret prefixes, never the keys', data: pageSchema(apiKeyResponseSchema) },
    errors: [ownersOnly],
  },
  'POST /keys': {
    operationId: 'createKey',
    tag: 'API keys',
    summary: 'Create an API key',
    description: 'The key is in the answer only: keep it now.',
    body: createKeySchema,
    bodyExample: { name: 'Production server', kind: 'secret' },
    success: { status: 201, description: 'The key, shown once', data: createdApiKeyResponseSchema },
    errors: [ownersOnly],
  },
  'POST /keys/{id}/rotate': {
    operationId: 'rotateKey',
    tag: 'API keys',
    summary: 'Rotate an API key',
    description: 'Issues a new key of the same name and kind and revokes this one: refused at once by every route, and at the gateway once its cached authorizer result expires (5 minutes).',
    success: { status: 200, description: 'The new key, shown once', data: rotatedApiKeyResponseSchema },
    errors: [notFoundCase('API key'), ownersOnly],
  },
  'DELETE /keys/{id}': {
    operationId: 'revokeKey',
    tag: 'API keys',
    summary: 'Revoke an API key',
    description: 'Refused at once by every route (the functions check the revoked set), and at the gateway once its cached authorizer result expires.',
    success: { status: 200, description: 'Revoked', data: deletedSchema },
    errors: [notFoundCase('API key'), ownersOnly, { status: 403, code: 'KEY_IN_USE', when: 'A key tried to revoke itself' }],
  },
};

