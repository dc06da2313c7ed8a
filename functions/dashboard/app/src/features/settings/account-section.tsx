import { useNavigate } from 'react-router';
import { ConfirmButton } from '../../components/confirm';
import { ErrorNote, Field } from '../../components/ui';
import { formatDateTime } from '../../lib/format';
import { MIN_PASSWORD_LENGTH } from '../../lib/password-rules';
import { useChangePassword, useEndEverySession, useEndSession, useMySessions } from './api';

export function AccountSection() {
  const navigate = useNavigate();
  const sessions = useMySessions();
  const password = useChangePassword();
  const endSession = useEndSession();
  const endAll = useEndEverySession(() => navigate('/sign-in'));

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
                <ConfirmButton className="danger" question={{ title: 'Sign this session out?', message: 'That browser has to sign in again.', confirmLabel: 'Sign out session' }} onConfirm={() => endSession.mutate(session.id)}>
                  Sign out
                </ConfirmButton>
              </>
            )}
          </li>
        ))}
      </ul>
      <ConfirmButton className="danger" question={{ title: 'Sign out everywhere?', message: 'Every session of yours ends, this one included.', confirmLabel: 'Sign out everywhere' }} onConfirm={() => endAll.mutate()}>
        Sign out everywhere
      </ConfirmButton>
    </section>
  );
}
