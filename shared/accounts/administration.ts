import { notFound } from '../http/errors';
import type { Caller } from '../http/handler';
import { getProject, updateProjectSettings, type Project, type ProjectSettings } from '../projects/projects';
import type { Role } from './access-tokens';
import { actorOf, recordAudit } from './audit';
import { inviteMember, revokeInvitation } from './invitations';
import { revokeSessions } from './sessions';
import { changeRole, getUser, listUserProjects, removeMembership } from './users';

/**
 * The project's administration as the API does it (members, invitations, its name; keys in
 * key-administration.ts), each change with its audit entry. The admin CLI calls shared/projects directly: it acts as the
 * operator, outside any project's trail.
 */
export async function projectView(projectId: string) {
  const project = await getProject(projectId);
  if (!project) throw notFound('Project');
  return toView(project);
}

const toView = (project: Project) => ({ id: project.projectId, name: project.name, status: project.status, createdAt: project.createdAt, requireCampaignApproval: project.requireCampaignApproval });

/** PATCH /project: the name and the settings given, each change with its audit entry. */
export async function updateProjectAs(projectId: string, caller: Caller, settings: ProjectSettings) {
  const project = await updateProjectSettings(projectId, settings);
  if (settings.name !== undefined) await recordAudit(projectId, { action: 'project.renamed', actor: actorOf(caller), target: projectId, detail: { name: settings.name } });
  if (settings.requireCampaignApproval !== undefined) {
    await recordAudit(projectId, { action: 'project.settings_changed', actor: actorOf(caller), target: projectId, detail: { requireCampaignApproval: String(settings.requireCampaignApproval) } });
  }
  return toView(project);
}

export async function setMemberRole(projectId: string, caller: Caller, userId: string, role: Role) {
  const { before, after } = await changeRole(projectId, userId, role);
  if (before.role !== after.role) {
    // Their access tokens carry the old role: the next request's check refuses them and the app refreshes.
    await recordAudit(projectId, { action: 'member.role_changed', actor: actorOf(caller), target: userId, detail: { from: before.role, to: after.role } });
  }
  return memberView(after);
}

/** Removes the member and ends their sessions on this project (the per-request check stops their current token). */
export async function removeMember(projectId: string, caller: Caller, userId: string) {
  const removed = await removeMembership(projectId, userId);
  await revokeSessions(userId, { projectId });
  await recordAudit(projectId, { action: 'member.removed', actor: actorOf(caller), target: userId, detail: { email: removed.email, role: removed.role } });
  return { id: userId, deleted: true as const };
}

export async function invite(projectId: string, caller: Caller, input: { email: string; role: Role }, dashboardUrl: string) {
  const invitedBy = caller.kind === 'session' ? caller.userId : caller.kind === 'key' ? `key:${caller.keyId}` : 'system';
  const invitation = await inviteMember(projectId, { ...input, invitedBy }, dashboardUrl);
  await recordAudit(projectId, { action: 'member.invited', actor: actorOf(caller), target: invitation.id, detail: { email: invitation.email, role: invitation.role } });
  return invitation;
}

export async function cancelInvitation(projectId: string, caller: Caller, invitationId: string) {
  const invitation = await revokeInvitation(projectId, invitationId);
  await recordAudit(projectId, { action: 'member.invitation_revoked', actor: actorOf(caller), target: invitation.id, detail: { email: invitation.email } });
  return { id: invitation.id, deleted: true as const };
}

export const memberView = (member: { userId: string; email: string; name: string | null; role: Role; createdAt: string }) => ({
  userId: member.userId,
  email: member.email,
  name: member.name,
  role: member.role,
  createdAt: member.createdAt,
});

/** GET /me: the user, the project and role of this token, and every project of theirs. */
export async function me(caller: { userId: string; role: Role }, projectId: string) {
  const [user, projects] = await Promise.all([getUser(caller.userId), listUserProjects(caller.userId)]);
  if (!user) throw notFound('User');
  return { user: { id: user.userId, email: user.email, name: user.name }, projectId, role: caller.role, projects };
}
