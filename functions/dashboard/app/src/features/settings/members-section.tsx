import type { FormEvent } from 'react';
import { ConfirmButton } from '../../components/confirm';
import { DataTable } from '../../components/data-table';
import { Pager, useCursorPages } from '../../components/pager';
import { ErrorNote, Field, SelectField } from '../../components/ui';
import type { Role } from '../../lib/api-types';
import { formatDateTime } from '../../lib/format';
import { useSession } from '../../lib/session';
import { useCancelInvitation, useChangeRole, useInvitations, useInviteMember, useMembers, useRemoveMember } from './api';

const ROLES = [
  ['MEMBER', 'Member'],
  ['OWNER', 'Owner'],
] as const;

export function MembersSection() {
  const session = useSession();
  const isSelf = (member: { userId: string }) => member.userId === session?.user.id;
  const pages = useCursorPages('members');
  const members = useMembers(pages.cursor);
  const invitations = useInvitations();
  const invite = useInviteMember();
  const changeRole = useChangeRole();
  const remove = useRemoveMember();
  const cancelInvitation = useCancelInvitation();

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const target = event.currentTarget;
    invite.mutate({ email: String(form.get('email')).trim(), role: form.get('role') === 'OWNER' ? 'OWNER' : 'MEMBER' }, { onSuccess: () => target.reset() });
  };

  return (
    <section className="panel" aria-labelledby="members-title">
      <h2 id="members-title">Members</h2>
      <form className="inline-form" onSubmit={submit}>
        <Field label="Invite by email" name="email" type="email" required maxLength={254} />
        <SelectField label="Role" name="role" options={ROLES} />
        <button type="submit" className="primary" disabled={invite.isPending}>
          Send invitation
        </button>
        {invite.isSuccess && <p role="status">Invitation sent.</p>}
      </form>
      <ErrorNote error={invite.error ?? changeRole.error ?? remove.error ?? cancelInvitation.error ?? members.error} />
      <DataTable
        caption="Members"
        columns={[
          {
            header: 'Member',
            cell: (member) => (
              <>
                {member.name ? `${member.name} · ` : ''}
                {member.email}
                {isSelf(member) ? ' (you)' : ''}
              </>
            ),
          },
          {
            header: 'Role',
            cell: (member) => (
              <select aria-label={`Role of ${member.email}`} value={member.role} disabled={isSelf(member) || changeRole.isPending} onChange={(event) => changeRole.mutate({ userId: member.userId, role: event.target.value as Role })}>
                {ROLES.map(([value, label]) => (
                  <option key={value} value={value}>
                    {label}
                  </option>
                ))}
              </select>
            ),
          },
          {
            header: <span className="visually-hidden">Actions</span>,
            className: 'row-actions',
            cell: (member) =>
              !isSelf(member) && (
                <ConfirmButton className="danger" question={{ title: `Remove ${member.email}?`, message: 'They lose access to this project and their sessions end.', confirmLabel: 'Remove member' }} onConfirm={() => remove.mutate(member.userId)}>
                  Remove
                </ConfirmButton>
              ),
          },
        ]}
        rows={members.data?.items}
        rowKey={(member) => member.userId}
      />
      <Pager pages={pages} nextCursor={members.data?.nextCursor} total={members.data?.total} label="Members" />

      {invitations.data && invitations.data.items.length > 0 && (
        <>
          <h3>Pending invitations</h3>
          <ul className="plain-list">
            {invitations.data.items.map((invitation) => (
              <li key={invitation.id}>
                {invitation.email} · {invitation.role.toLowerCase()} · expires {formatDateTime(invitation.expiresAt)}{' '}
                <ConfirmButton
                  className="danger"
                  question={{ title: `Cancel the invitation of ${invitation.email}?`, message: 'The link in their email stops working.', confirmLabel: 'Cancel invitation' }}
                  onConfirm={() => cancelInvitation.mutate(invitation.id)}
                >
                  Cancel
                </ConfirmButton>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
