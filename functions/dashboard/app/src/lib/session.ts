import { useSyncExternalStore } from 'react';
import { api, renewSession, unwrap } from './api-client';
import type { SessionGrant } from './api-types';
import { currentRole, sessionStore } from './session-store';

export const useSession = () => useSyncExternalStore(sessionStore.subscribe, sessionStore.get);

/** Owners manage keys, members, domains and webhooks; the API refuses members too. */
export const useIsOwner = () => {
  useSession();
  return currentRole() === 'OWNER';
};

export async function signIn(body: { email: string; password: string }) {
  sessionStore.set(await unwrap<SessionGrant>(api.POST('/dashboard/session', { body })));
}

/** Accepting an invitation signs the new member in. */
export async function acceptInvitation(body: { token: string; password: string; name?: string }) {
  sessionStore.set(await unwrap<SessionGrant>(api.POST('/dashboard/session/invitations/accept', { body })));
}

/** Forgets the session and every cached answer here (the server has ended it already). */
export function forgetSession(clearCache: () => void) {
  sessionStore.set(null);
  clearCache();
}

/** Signs out on the server (revokes the session, clears the cookie), then forgets everything here. */
export async function signOut(clearCache: () => void) {
  try {
    await api.DELETE('/dashboard/session');
  } finally {
    forgetSession(clearCache);
  }
}

/** On start: a browser with a refresh cookie is signed in again without asking. */
export const resumeSession = () => renewSession();
