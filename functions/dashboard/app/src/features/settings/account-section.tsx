import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useConfirm } from '../../components/confirm';
import { ErrorNote, Field } from '../../components/ui';
import { api, unwrap } from '../../lib/api-client';
import { formatDateTime } from '../../lib/format';
import { sessionStore } from '../../lib/session';
import { MIN_PASSWORD_LENGTH } from '../auth/accept-invitation';

export function AccountSection() {
  const confirm = useConfirm();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const sessions = useQuery({ queryKey: ['me', 'sessions'], queryFn: () => unwrap(api.GET('/me/sessions', {})) });
  const password = useMutation({ mutationFn: (body: { currentPassword: string; newPassword: string }) => unwrap(api.PATCH('/me/password', { body })) });
  const endSession = useMutation({
    mutationFn: (id: string) => unwrap(api.DELETE('/me/sessions/{id}', { params: { path: { id } } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['me', 'sessions'] }),
  });
  const endAll = useMutation({
    mutationFn: () => unwrap(api.DELETE('/me/sessions', {})),
    // This browser's session ends too.
    onSuccess: () => {
      sessionStore.set(null);
      queryClient.clear();
      navigate('/sign-in');
    },
  });

  return (
    <section className="panel" aria-labelledby="account-title">
      <h2 id="account-title">Your account</h2>
      <form
        className="stack narrow"
        onSubmit={(event) => {
          event.preventDefault();
          const form = new FormData(event.currentTarget);
          const target = event.currentTarget;
          password.mutate({ currentPassword: String(form.get('currentPassword')), newPassword: String(form.get('newPassword')) }, { onSuccess: () => target.reset() });
        }}
      >
        <h3>Change your password</h3>
        <Field label="Current password" name="currentPassword" type="password" autoComplete="current-password" required maxLength={200} />
        <Field label="New password" name="newPassword" type="password" autoComplete="new-password" required minLength={MIN_PASSWORD_LENGTH} maxLength={200} hint={`At least ${MIN_PASSWORD_LENGTH} characters`} />
        <ErrorNote error={password.error} />
        {password.isSuccess && <p role="status">Password changed.</p>}
        <button type="submit" className="primary" disabled={password.isPending}>
          Change password
        </button>
      </form>

      <h3>Sessions</h3>
      <ErrorNote error={sessions.error ?? endSession.error ?? endAll.error} />
      <ul className="plain-list">
        {sessions.data?.items.map((session) => (
          <li key={session.id}>
            {session.userAgent ?? 'A browser'} · signed in {formatDateTime(session.createdAt)}
            {session.lastUsedAt ? ` · last used ${formatDateTime(session.lastUsedAt)}` : ''}
            {session.current ? (
              ' (this browser)'
            ) : (
              <>
                {' '}
                <button
                  type="button"
                  className="danger"
                  onClick={async () => {
                    if (await confirm({ title: 'Sign this session out?', message: 'That browser has to sign in again.', confirmLabel: 'Sign out session' })) endSession.mutate(session.id);
                  }}
                >
                  Sign out
                </button>
              </>
            )}
          </li>
        ))}
      </ul>
      <button
        type="button"
        className="danger"
        onClick={async () => {
          if (await confirm({ title: 'Sign out everywhere?', message: 'Every session of yours ends, this one included.', confirmLabel: 'Sign out everywhere' })) endAll.mutate();
        }}
      >
        Sign out everywhere
      </button>
    </section>
  );
}
