import { useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { ErrorNote, Field } from '../../components/ui';
import { MIN_PASSWORD_LENGTH } from '../../lib/password-rules';
import { acceptInvitation } from '../../lib/session';
import { AuthPage } from './auth-page';

export function AcceptInvitationPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [error, setError] = useState<unknown>(null);
  const token = params.get('token') ?? '';

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setError(null);
    try {
      const name = String(form.get('name') ?? '').trim();
      await acceptInvitation({ token, password: String(form.get('password')), ...(name ? { name } : {}) });
      navigate('/', { replace: true });
    } catch (failure) {
      setError(failure);
    }
  };

  return (
    <AuthPage title="Join the project">
      {token ? (
        <form onSubmit={submit} className="stack">
          <Field label="Your name" name="name" autoComplete="name" maxLength={100} />
          <Field label="Choose a password" name="password" type="password" autoComplete="new-password" required minLength={MIN_PASSWORD_LENGTH} maxLength={200} hint={`At least ${MIN_PASSWORD_LENGTH} characters`} />
          <ErrorNote error={error} />
          <button type="submit" className="primary">
            Accept the invitation
          </button>
        </form>
      ) : (
        <p role="alert">This invitation link is incomplete: open the link from the invitation email again.</p>
      )}
    </AuthPage>
  );
}
