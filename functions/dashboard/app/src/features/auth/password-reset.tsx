import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ErrorNote, Field } from '../../components/ui';
import { MIN_PASSWORD_LENGTH } from '../../lib/password-rules';
import { confirmPasswordReset, requestPasswordReset } from './api';
import { AuthPage } from './auth-page';

/** Without a token: ask for the reset email. With the token from that email: choose a new password. */
export function PasswordResetPage() {
  const [params] = useSearchParams();
  const token = params.get('token');
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setError(null);
    try {
      if (token) await confirmPasswordReset({ token, password: String(form.get('password')) });
      else await requestPasswordReset(String(form.get('email')));
      setDone(true);
    } catch (failure) {
      setError(failure);
    }
  };

  if (done) {
    return (
      <AuthPage title={token ? 'Password changed' : 'Check your email'}>
        <p role="status">{token ? 'Your new password is set.' : 'If an account uses this address, a reset link is on its way. It works once and expires soon.'}</p>
        <p>
          <Link to="/sign-in">Back to sign in</Link>
        </p>
      </AuthPage>
    );
  }
  return (
    <AuthPage title={token ? 'Choose a new password' : 'Reset your password'}>
      <form onSubmit={submit} className="stack">
        {token ? (
          <Field label="New password" name="password" type="password" autoComplete="new-password" required minLength={MIN_PASSWORD_LENGTH} maxLength={200} hint={`At least ${MIN_PASSWORD_LENGTH} characters`} />
        ) : (
          <Field label="Email" name="email" type="email" autoComplete="username" required maxLength={254} />
        )}
        <ErrorNote error={error} />
        <button type="submit" className="primary">
          {token ? 'Set the password' : 'Send the reset link'}
        </button>
      </form>
      <p>
        <Link to="/sign-in">Back to sign in</Link>
      </p>
    </AuthPage>
  );
}
