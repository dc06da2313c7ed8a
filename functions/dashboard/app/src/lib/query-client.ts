import { QueryClient } from '@tanstack/react-query';

export const queryClient = new QueryClient({
  defaultOptions: {
    // A 4xx will not change on retry; the client already renewed the session once on a 401.
    queries: { staleTime: 15_000, retry: (count, error) => count < 2 && ((error as { status?: number }).status ?? 500) >= 500 },
  },
});
