import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../lib/api-client';

export const domainKeys = {
  all: ['domains'] as const,
  list: () => [...domainKeys.all, 'list'] as const,
  detail: (id: string) => [...domainKeys.all, 'one', id] as const,
};

/** GET /domains answers every domain of the project in one page. */
export const useDomains = () => useQuery({ queryKey: domainKeys.list(), queryFn: () => unwrap(api.GET('/domains', {})) });

/** One domain: GET /domains/{id} asks SES for the status, so refetching it is the re-check. */
export const useDomain = (id: string) => useQuery({ queryKey: domainKeys.detail(id), queryFn: () => unwrap(api.GET('/domains/{id}', { params: { path: { id } } })) });

export function useAddDomain() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (domain: string) => unwrap(api.POST('/domains', { body: { domain } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: domainKeys.list() }),
  });
}

export function useRemoveDomain(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(api.DELETE('/domains/{id}', { params: { path: { id } } })),
    // The list drops the domain's card first; then its own query goes, so nothing reads the removed domain.
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: domainKeys.list() });
      queryClient.removeQueries({ queryKey: domainKeys.detail(id) });
    },
  });
}
