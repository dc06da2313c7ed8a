import { QueryClient, type QueryKey } from '@tanstack/react-query';

export const queryClient = new QueryClient({
  defaultOptions: {
    // A 4xx will not change on retry; the client already renewed the session once on a 401.
    queries: { staleTime: 15_000, retry: (count, error) => count < 2 && ((error as { status?: number }).status ?? 500) >= 500 },
  },
});

/**
 * After a DELETE: the lists are refetched and the deleted thing's own queries are only marked
 * stale. Removing them instead would let the page still on screen (re-rendered by the mutation
 * before it navigates away) build them anew and read a 404.
 */
export async function afterDelete(client: QueryClient, keys: { lists: QueryKey; own: QueryKey }) {
  await client.invalidateQueries({ queryKey: keys.own, refetchType: 'none' });
  await client.invalidateQueries({ queryKey: keys.lists });
}
