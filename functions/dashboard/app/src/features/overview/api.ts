import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../lib/api-client';
import { isoDay } from '../../lib/format';

export const analyticsKeys = {
  all: ['analytics'] as const,
  lastDays: (days: number) => [...analyticsKeys.all, days] as const,
};

/** Under the contacts key, so every change made in Contacts refreshes these counts too. */
export const contactCountKeys = {
  all: ['contacts', 'count'] as const,
  subscribed: () => [...contactCountKeys.all, 'subscribed'] as const,
};

/** The figures of the last `days` days, today included. */
export function useAnalytics(days: number) {
  const to = new Date();
  const from = new Date(to.getTime() - (days - 1) * 86_400_000);
  return useQuery({
    queryKey: analyticsKeys.lastDays(days),
    queryFn: () => unwrap(api.GET('/analytics', { params: { query: { from: isoDay(from), to: isoDay(to) } } })),
  });
}

/** One contact per page is enough: the count is the page's `total`. */
export const useContactCount = () => useQuery({ queryKey: contactCountKeys.all, queryFn: () => unwrap(api.GET('/contacts', { params: { query: { limit: '1' } } })) });

export const useSubscriberCount = () =>
  useQuery({ queryKey: contactCountKeys.subscribed(), queryFn: () => unwrap(api.GET('/contacts', { params: { query: { limit: '1', subscribed: 'true' } } })) });
