import { useEffect, useRef } from 'react';
import { NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { queryClient } from '../lib/query-client';
import { signOut, useSession } from '../lib/session';

const links = [
  ['/', 'Overview'],
  ['/contacts', 'Contacts'],
  ['/emails', 'Emails'],
  ['/events', 'Events'],
  ['/templates', 'Templates'],
  ['/segments', 'Segments'],
  ['/campaigns', 'Campaigns'],
  ['/workflows', 'Workflows'],
  ['/domains', 'Domains'],
  ['/webhooks', 'Webhooks'],
  ['/settings', 'Settings'],
] as const;

export function Layout() {
  const session = useSession();
  const navigate = useNavigate();
  const project = session?.projects.find((candidate) => candidate.id === session.projectId);
  const { pathname } = useLocation();
  const main = useRef<HTMLElement>(null);
  const firstPage = useRef(true);
  // After a client-side navigation, keyboard and screen-reader users start at the new page's content.
  useEffect(() => {
    if (firstPage.current) firstPage.current = false;
    else main.current?.focus();
  }, [pathname]);

  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <span className="brand">Mailwright</span>
        <nav aria-label="Main">
          <ul>
            {links.map(([to, label]) => (
              <li key={to}>
                <NavLink to={to} end={to === '/'}>
                  {label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="account">
          <span className="who">
            {session?.user.email}
            {project ? ` · ${project.name}` : ''}
          </span>
          <button type="button" onClick={() => void signOut(() => queryClient.clear()).then(() => navigate('/sign-in'))}>
            Sign out
          </button>
        </div>
      </header>
      <main id="main" tabIndex={-1} ref={main}>
        <Outlet />
      </main>
    </div>
  );
}
