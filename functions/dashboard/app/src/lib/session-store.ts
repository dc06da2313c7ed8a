import type { SessionGrant } from './api-types';

/**
 * The signed-in session, in memory only: never in localStorage, sessionStorage or a readable
 * cookie, so a script injected into the page finds no credential that outlives the page. A
 * reload signs in again silently through the HttpOnly refresh cookie.
 */
let grant: SessionGrant | null = null;
const listeners = new Set<() => void>();

export const sessionStore = {
  get: () => grant,
  set(next: SessionGrant | null) {
    grant = next;
    for (const listener of listeners) listener();
  },
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  },
};

export const accessToken = () => grant?.accessToken ?? null;

export const currentRole = () => grant?.projects.find((project) => project.id === grant?.projectId)?.role ?? null;
