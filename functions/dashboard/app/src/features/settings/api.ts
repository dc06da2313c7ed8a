import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../lib/api-client';
import type { CreatedApiKey, Role } from '../../lib/api-types';
import { forgetSession } from '../../lib/session';

export const projectKeys = {
  all: ['project'] as const,
};

export const apiKeyKeys = {
  all: ['keys'] as const,
  page: (cursor: string | undefined) => [...apiKeyKeys.all, cursor] as const,
};

/** Every key under `all` (the members, the invitations, the audit log's names) goes stale after a change to the members. */
export const memberKeys = {
  all: ['members'] as const,
  page: (cursor: string | undefined) => [...memberKeys.all, cursor] as const,
  invitations: () => [...memberKeys.all, 'invitations'] as const,
  auditNames: () => [...memberKeys.all, 'audit-names'] as const,
};

export const auditKeys = {
  all: ['audit'] as const,
  page: (cursor: string | undefined) => [...auditKeys.all, cursor] as const,
};

/** The signed-in user's own sessions. */
export const mySessionKeys = {
  all: ['me', 'sessions'] as const,
};

/** A mutation after which every query under `key` is read again, whether it succeeded or not. */
function useMutationRefreshing<Input, Output>(key: readonly unknown[], run: (input: Input) => Promise<Output>, onSuccess?: (output: Output) => void) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: run, ...(onSuccess ? { onSuccess } : {}), onSettled: () => queryClient.invalidateQueries({ queryKey: key }) });
}

export const useProject = () => useQuery({ queryKey: projectKeys.all, queryFn: () => unwrap(api.GET('/project', {})) });

export function useRenameProject() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => unwrap(api.PATCH('/project', { body: { name } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: projectKeys.all }),
  });
}

/** PATCH /project's settings, e.g. `requireCampaignApproval` (four-eyes approval of campaigns). */
export function useProjectSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { requireCampaignApproval: boolean }) => unwrap(api.PATCH('/project', { body })),
    onSuccess: (project) => queryClient.setQueryData(projectKeys.all, project),
    onSettled: () => queryClient.invalidateQueries({ queryKey: projectKeys.all }),
  });
}

// GET /keys and GET /members answer every item in one page; the cursor only keys the pager's page.
export const useApiKeys = (cursor: string | undefined) => useQuery({ queryKey: apiKeyKeys.page(cursor), queryFn: () => unwrap(api.GET('/keys', {})) });

/** Creating and rotating a key answer the secret, shown once: `onRevealed` receives it. */
export const useCreateApiKey = (onRevealed: (key: CreatedApiKey) => void) =>
  useMutationRefreshing(apiKeyKeys.all, (body: { name: string; kind: 'secret' | 'public' }) => unwrap(api.POST('/keys', { body })), onRevealed);

export const useRotateApiKey = (onRevealed: (key: CreatedApiKey) => void) =>
  useMutationRefreshing(apiKeyKeys.all, (id: string) => unwrap(api.POST('/keys/{id}/rotate', { params: { path: { id } } })), onRevealed);

export const useRevokeApiKey = () => useMutationRefreshing(apiKeyKeys.all, (id: string) => unwrap(api.DELETE('/keys/{id}', { params: { path: { id } } })));

export const useMembers = (cursor: string | undefined) => useQuery({ queryKey: memberKeys.page(cursor), queryFn: () => unwrap(api.GET('/members', {})) });

/** The members' emails by user id, for the audit log's names. */
export const useMemberNames = () => useQuery({ queryKey: memberKeys.auditNames(), queryFn: () => unwrap(api.GET('/members', {})) });

export const useInvitations = () => useQuery({ queryKey: memberKeys.invitations(), queryFn: () => unwrap(api.GET('/members/invitations', {})) });

export const useInviteMember = () => useMutationRefreshing(memberKeys.all, (body: { email: string; role: Role }) => unwrap(api.POST('/members/invitations', { body })));

export const useChangeRole = () =>
  useMutationRefreshing(memberKeys.all, ({ userId, role }: { userId: string; role: Role }) => unwrap(api.PATCH('/members/{userId}', { params: { path: { userId } }, body: { role } })));

export const useRemoveMember = () => useMutationRefreshing(memberKeys.all, (userId: string) => unwrap(api.DELETE('/members/{userId}', { params: { path: { userId } } })));

export const useCancelInvitation = () => useMutationRefreshing(memberKeys.all, (id: string) => unwrap(api.DELETE('/members/invitations/{id}', { params: { path: { id } } })));

export const useAuditLog = (cursor: string | undefined) =>
  useQuery({ queryKey: auditKeys.page(cursor), queryFn: () => unwrap(api.GET('/audit', { params: { query: { limit: '25', ...(cursor ? { cursor } : {}) } } })) });

export const useMySessions = () => useQuery({ queryKey: mySessionKeys.all, queryFn: () => unwrap(api.GET('/me/sessions', {})) });

export const useChangePassword = () => useMutation({ mutationFn: (body: { currentPassword: string; newPassword: string }) => unwrap(api.PATCH('/me/password', { body })) });

export const useEndSession = () => useMutationRefreshing(mySessionKeys.all, (id: string) => unwrap(api.DELETE('/me/sessions/{id}', { params: { path: { id } } })));

/** Ends every session of the user, this browser's too: then it is forgotten here and `onEnded` runs. */
export function useEndEverySession(onEnded: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(api.DELETE('/me/sessions', {})),
    onSuccess: () => {
      forgetSession(() => queryClient.clear());
      onEnded();
    },
  });
}
