import { useSyncExternalStore } from 'react';
import { api, renewSession, unwrap } from '../../lib/api-client';
import type { SessionGrant } from '../../lib/api-types';
import { currentRole, sessionStore } from '../../lib/session';

export const useSession = () => useSyncExternalStore(sessionStore.subscribe, sessionStore.get);

/** Owners manage keys, members, domains and webhooks; the API refuses members too. */
export const useIsOwner = () => {
  useSession();
  return currentRole() === 'OWNER';
};

export async function signIn(body: { email: string; password: string }) {
  sessionStore.set(await unwrap<SessionGrant>(api.POST('/dashboard/session', { body })));
}

export async function acceptInvitation(body: { token: string; password: string; name?: string }) {
  sessionStore.set(await unwrap<SessionGrant>(api.POST('/dashboard/session/invitations/accept', { body })));
}

export const requestPasswordReset = (email: string) => unwrap(api.POST('/dashboard/session/password-reset', { body: { email } }));

export const confirmPasswordReset = (body: { token: string; password: string }) => unwrap(api.POST('/dashboard/session/password-reset/confirm', { body }));

/** Signs out on the server (revokes the session, clears the cookie), then forgets everything here. */
export async function signOut(clearCache: () => void) {
  try {
    await api.DELETE('/dashboard/session');
  } finally {
    sessionStore.set(null);
    clearCache();
  }
}

/** On start: a browser with a refresh cookie is signed in again without asking. */
export const resumeSession = () => renewSession();
