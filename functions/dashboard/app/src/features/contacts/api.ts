import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../lib/api-client';

export interface ContactFilter {
  search?: string;
  subscribed?: 'true' | 'false';
  cursor?: string;
}

export const useContacts = (filter: ContactFilter) =>
  useQuery({
    queryKey: ['contacts', 'list', filter],
    queryFn: () => unwrap(api.GET('/contacts', { params: { query: { limit: '25', ...filter } } })),
    placeholderData: (previous) => previous,
  });

export const useContact = (id: string) => useQuery({ queryKey: ['contacts', 'one', id], queryFn: () => unwrap(api.GET('/contacts/{id}', { params: { path: { id } } })) });

/** Every contact query (lists, counts, pages) is stale after a change. */
export function useContactMutation<T>(run: (input: T) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: run, onSettled: () => queryClient.invalidateQueries({ queryKey: ['contacts'] }) });
}

export const createContact = (body: { email: string; subscribed: boolean }) => unwrap(api.POST('/contacts', { body }));

export const patchContact = (id: string, body: { subscribed?: boolean; data?: Record<string, unknown> }) => unwrap(api.PATCH('/contacts/{id}', { params: { path: { id } }, body: body as never }));

export const deleteContact = (id: string) => unwrap(api.DELETE('/contacts/{id}', { params: { path: { id } } }));

/** Bulk actions run as the single-contact calls, a few at a time, and report what failed. */
export async function forEachContact(ids: readonly string[], run: (id: string) => Promise<unknown>, concurrency = 4): Promise<string[]> {
  const failed: string[] = [];
  const queue = [...ids];
  await Promise.all(
    Array.from({ length: Math.min(concurrency, queue.length) }, async () => {
      for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
        try {
          await run(id);
        } catch {
          failed.push(id);
        }
      }
    }),
  );
  return failed;
}
