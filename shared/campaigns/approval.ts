import { actorOf, auditWriteItems, recordAudit } from '../accounts/audit';
import { transactWrite } from '../db/transactions';
import { ApiError, conflict, forbidden } from '../http/errors';
import type { Caller } from '../http/handler';
import { getProject } from '../projects/projects';
import type { Editor } from './approval-view';
import type { CampaignChanges } from './schemas';
import { present, readCampaign, transitionItems, type Campaign, type StoredCampaign } from './store';

/**
 * Four-eyes approval of campaigns (/docs "Campaigns"). With the project's `requireCampaignApproval`
 * on, a campaign is sent or scheduled only once an owner, signed in, who is not its last editor
 * approved it. Every change of content, audience or schedule records its editor (`lastEditedBy`: a
 * user, or an API key by its id) and clears the approval, in the same write conditioned on the
 * version read, so an approval never covers what its approver did not see.
 */

/** The campaign fields that are neither content, audience nor schedule: changing them keeps the approval. */
const labelFields = new Set(['name', 'description']);

/** The caller of work no request started (a schedule, a test): it edits and sends as the system. */
export const systemCaller: Caller = { kind: 'none' };

export function editorOf(caller: Caller): Editor {
  return actorOf(caller);
}

/** What a change records on the campaign: its editor, and no approval (empty for a label-only change). */
export function editFields(caller: Caller, changes?: CampaignChanges): Record<string, unknown> {
  if (changes && Object.entries(changes).every(([field, value]) => value === undefined || labelFields.has(field))) return {};
  return { lastEditedBy: editorOf(caller), approvedBy: null, approvedAt: null };
}

/** The project's setting (a project that is gone requires nothing: its requests are refused before). */
export async function approvalRequired(projectId: string): Promise<boolean> {
  return (await getProject(projectId))?.requireCampaignApproval ?? false;
}

/**
 * Before sending or scheduling: with approval required and none given, 409 APPROVAL_REQUIRED,
 * the refused attempt recorded in the audit trail (`campaign.approval_requested`). Returns the
 * project's setting.
 */
export async function assertApproved(projectId: string, campaign: StoredCampaign, caller: Caller, action: 'send' | 'schedule'): Promise<boolean> {
  const required = await approvalRequired(projectId);
  if (campaign.approvedAt || !required) return required;
  await recordAudit(projectId, { action: 'campaign.approval_requested', actor: editorOf(caller), target: campaign.id, detail: { name: campaign.name, attempted: action } });
  throw new ApiError(409, 'APPROVAL_REQUIRED', 'This project requires campaigns to be approved before they are sent or scheduled', {
    suggestion: 'An owner other than the campaign\'s last editor approves it in the dashboard (POST /campaigns/{id}/approve); then send again.',
  });
}

/**
 * When a schedule fires: a campaign whose approval was cleared after it was scheduled (an edit,
 * a reschedule) while the project requires approval is not started (the fire sends it back to
 * DRAFT with this failureReason).
 */
export async function assertApprovedToStart(projectId: string, campaign: StoredCampaign): Promise<void> {
  if (campaign.approvedAt || !(await approvalRequired(projectId))) return;
  throw conflict('APPROVAL_REQUIRED', 'The campaign was changed after it was approved');
}

/**
 * POST /campaigns/{id}/approve: a signed-in OWNER (the route keeps MEMBER sessions out) who is
 * not the last editor; API keys 403. DRAFT or SCHEDULED campaigns. The write is conditioned on
 * the version read, so an edit in between is a 409 and approves nothing. Approving an approved
 * campaign changes nothing.
 */
export async function approveCampaign(projectId: string, campaignId: string, caller: Caller): Promise<StoredCampaign> {
  if (caller.kind !== 'session') throw forbidden('APPROVAL_NEEDS_OWNER', 'Only a signed-in owner approves campaigns; API keys cannot');
  if (caller.role !== 'OWNER') throw forbidden('APPROVAL_NEEDS_OWNER', 'Only an owner approves campaigns');
  const current = await readCampaign(projectId, campaignId);
  if (current.status !== 'DRAFT' && current.status !== 'SCHEDULED') {
    throw conflict('INVALID_CAMPAIGN_STATE', `Cannot approve a campaign that is ${current.status}; only a DRAFT or SCHEDULED campaign can be`);
  }
  if (current.approvedAt) return current;
  const editor = current.lastEditedBy;
  if (editor?.type === 'user' && editor.userId === caller.userId) {
    throw forbidden('OWN_CHANGES', 'You made the latest changes to this campaign: another owner must approve it');
  }
  const approvedAt = new Date().toISOString();
  const approvedBy: Editor = { type: 'user', userId: caller.userId };
  try {
    // The approval and its audit entry in one transaction: both or neither.
    await transactWrite([
      ...transitionItems(projectId, { campaign: current, action: 'edit', set: { approvedBy, approvedAt } }, approvedAt),
      ...auditWriteItems(projectId, { action: 'campaign.approved', actor: approvedBy, target: campaignId, detail: { name: current.name, ...editorDetail(editor) } }, Date.parse(approvedAt)),
    ]);
  } catch (error) {
    const reasons = (error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
    if (!reasons.some((reason) => reason.Code === 'ConditionalCheckFailed')) throw error;
    throw conflict('CONCURRENT_MODIFICATION', 'The campaign changed while it was being approved; review it and approve again');
  }
  return { ...current, approvedBy, approvedAt, updatedAt: approvedAt, version: current.version + 1 };
}

/** POST /campaigns/{id}/approve as the API answers it: the campaign, approved. */
export async function approveCampaignAs(projectId: string, campaignId: string, caller: Caller): Promise<Campaign> {
  const [approved, required] = await Promise.all([approveCampaign(projectId, campaignId, caller), approvalRequired(projectId)]);
  return present(approved, required);
}

/** The audit entry of a send or schedule: who started it and who had approved it. */
export async function recordSendAudit(projectId: string, campaign: StoredCampaign, caller: Caller, scheduledFor: string | undefined): Promise<void> {
  const detail: Record<string, string> = { name: campaign.name, ...(scheduledFor ? { scheduledFor } : {}) };
  if (campaign.approvedBy?.type === 'user') Object.assign(detail, { approvedBy: campaign.approvedBy.userId, approvedAt: campaign.approvedAt ?? '' });
  await recordAudit(projectId, { action: scheduledFor ? 'campaign.scheduled' : 'campaign.send_started', actor: editorOf(caller), target: campaign.id, detail });
}

const editorDetail = (editor: Editor | null | undefined): Record<string, string> =>
  editor?.type === 'user' ? { lastEditedBy: editor.userId } : editor?.type === 'key' ? { lastEditedBy: `key:${editor.keyId}` } : {};
