import type { ReactNode } from 'react';

export function AuthPage({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main id="main" className="auth-page">
      <div className="auth-card">
        <p className="brand" aria-hidden="true">
          Mailwright
        </p>
        <h1>{title}</h1>
        {children}
      </div>
    </main>
  );
}
