import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { useConfirm } from '../../components/confirm';
import { Pager, useCursorPages } from '../../components/pager';
import { ErrorNote, Field, SelectField } from '../../components/ui';
import { api, unwrap } from '../../lib/api-client';
import type { Role } from '../../lib/api-types';
import { formatDateTime } from '../../lib/format';
import { useSession } from '../auth/session';

const ROLES = [
  ['MEMBER', 'Member'],
  ['OWNER', 'Owner'],
] as const;

export function MembersSection() {
  const session = useSession();
  const confirm = useConfirm();
  const queryClient = useQueryClient();
  const pages = useCursorPages('members');
  const members = useQuery({ queryKey: ['members', pages.cursor], queryFn: () => unwrap(api.GET('/members', {})) });
  const invitations = useQuery({ queryKey: ['members', 'invitations'], queryFn: () => unwrap(api.GET('/members/invitations', {})) });
  const settle = { onSettled: () => queryClient.invalidateQueries({ queryKey: ['members'] }) };
  const invite = useMutation({ mutationFn: (body: { email: string; role: Role }) => unwrap(api.POST('/members/invitations', { body })), ...settle });
  const changeRole = useMutation({ mutationFn: ({ userId, role }: { userId: string; role: Role }) => unwrap(api.PATCH('/members/{userId}', { params: { path: { userId } }, body: { role } })), ...settle });
  const remove = useMutation({ mutationFn: (userId: string) => unwrap(api.DELETE('/members/{userId}', { params: { path: { userId } } })), ...settle });
  const cancelInvitation = useMutation({ mutationFn: (id: string) => unwrap(api.DELETE('/members/invitations/{id}', { params: { path: { id } } })), ...settle });

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
      <div className="table-wrap" tabIndex={0}>
        <table>
          <caption className="visually-hidden">Members</caption>
          <thead>
            <tr>
              <th scope="col">Member</th>
              <th scope="col">Role</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {members.data?.items.map((member) => {
              const self = member.userId === session?.user.id;
              return (
                <tr key={member.userId}>
                  <td>
                    {member.name ? `${member.name} · ` : ''}
                    {member.email}
                    {self ? ' (you)' : ''}
                  </td>
                  <td>
                    <select aria-label={`Role of ${member.email}`} value={member.role} disabled={self || changeRole.isPending} onChange={(event) => changeRole.mutate({ userId: member.userId, role: event.target.value as Role })}>
                      {ROLES.map(([value, label]) => (
                        <option key={value} value={value}>
                          {label}
                        </option>
                      ))}
                    </select>
                  </td>
                  <td className="row-actions">
                    {!self && (
                      <button
                        type="button"
                        className="danger"
                        onClick={async () => {
                          if (await confirm({ title: `Remove ${member.email}?`, message: 'They lose access to this project and their sessions end.', confirmLabel: 'Remove member' })) remove.mutate(member.userId);
                        }}
                      >
                        Remove
                      </button>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <Pager pages={pages} nextCursor={members.data?.nextCursor} total={members.data?.total} label="Members" />

      {invitations.data && invitations.data.items.length > 0 && (
        <>
          <h3>Pending invitations</h3>
          <ul className="plain-list">
            {invitations.data.items.map((invitation) => (
              <li key={invitation.id}>
                {invitation.email} · {invitation.role.toLowerCase()} · expires {formatDateTime(invitation.expiresAt)}{' '}
                <button
                  type="button"
                  className="danger"
                  onClick={async () => {
                    if (await confirm({ title: `Cancel the invitation of ${invitation.email}?`, message: 'The link in their email stops working.', confirmLabel: 'Cancel invitation' })) cancelInvitation.mutate(invitation.id);
                  }}
                >
                  Cancel
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
