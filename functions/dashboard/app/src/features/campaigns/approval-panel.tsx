import { ErrorNote } from '../../components/ui';
import { formatDateTime } from '../../lib/format';
import { useIsOwner, useSession } from '../../lib/session';
import { useApproveCampaign, useMemberEmails, type Campaign } from './api';

type Editor = NonNullable<Campaign['approval']['lastEditedBy']>;

/** Whether sending or scheduling waits for an approval (the API would answer 409 APPROVAL_REQUIRED). */
export const awaitsApproval = (campaign: Campaign) => campaign.approval.required === true && !campaign.approval.approved;

/**
 * Four-eyes approval on the campaign page (projects with requireCampaignApproval): who approved
 * it, or who may approve it and why the signed-in user may not (members; the last editor).
 */
export function ApprovalPanel({ campaign }: { campaign: Campaign }) {
  const me = useSession()?.user.id;
  const owner = useIsOwner();
  const approve = useApproveCampaign(campaign.id);
  const members = useMemberEmails(campaign.approval.required === true);
  const { approval } = campaign;
  if (!approval.required && !approval.approved) return null;

  const nameOf = (editor: Editor | null) => {
    if (!editor) return 'nobody yet';
    if (editor.type === 'key') return `the API key ${editor.keyId ?? ''}`.trim();
    if (editor.type === 'system') return 'the system';
    if (editor.userId === me) return 'you';
    return members.data?.items.find((member) => member.userId === editor.userId)?.email ?? 'another member';
  };
  const ownChanges = approval.lastEditedBy?.type === 'user' && approval.lastEditedBy.userId === me;
  const whyNot = !owner ? 'Only owners approve campaigns.' : ownChanges ? 'You made the latest changes: another owner approves them.' : null;

  return (
    <section className="panel" aria-labelledby="approval-title">
      <h2 id="approval-title">Approval</h2>
      {approval.approved ? (
        <p role="status" className="ok-note">
          Approved by <strong>{nameOf(approval.approvedBy)}</strong> on {formatDateTime(approval.approvedAt)}.
        </p>
      ) : (
        <p role="status">
          <strong>Needs approval.</strong> This project sends or schedules a campaign only after an owner other than its last editor approved it.
        </p>
      )}
      <p className="muted">Last changed by {nameOf(approval.lastEditedBy)}; any change to its content, audience or schedule asks for approval again.</p>
      <ErrorNote error={approve.error} />
      {!approval.approved &&
        (whyNot ? (
          <p className="muted" id="approve-why-not">
            {whyNot}
          </p>
        ) : (
          <div className="actions">
            <button type="button" className="primary" disabled={approve.isPending} onClick={() => approve.mutate()}>
              Approve
            </button>
          </div>
        ))}
    </section>
  );
}
