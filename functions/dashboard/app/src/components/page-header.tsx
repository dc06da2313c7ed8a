import type { ReactNode } from 'react';

/** A page's one h1, with the page's actions (links, buttons, a period picker) beside it. */
export function PageHeader({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <header className="page-header">
      <h1>{title}</h1>
      {children && <div className="page-actions">{children}</div>}
    </header>
  );
}
