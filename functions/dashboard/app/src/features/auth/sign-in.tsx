import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { ErrorNote, Field } from '../../components/ui';
import { signIn } from '../../lib/session';
import { AuthPage } from './auth-page';

export function SignInPage() {
  const navigate = useNavigate();
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setError(null);
    try {
      await signIn({ email: String(form.get('email')), password: String(form.get('password')) });
      navigate('/', { replace: true });
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthPage title="Sign in">
      <form onSubmit={submit} className="stack">
        <Field label="Email" name="email" type="email" autoComplete="username" required maxLength={254} />
        <Field label="Password" name="password" type="password" autoComplete="current-password" required maxLength={200} />
        <ErrorNote error={error} />
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      <p>
        <Link to="/password-reset">Forgot your password?</Link>
      </p>
    </AuthPage>
  );
}
