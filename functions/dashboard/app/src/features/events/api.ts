import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../lib/api-client';
import type { paths } from '../../lib/schema';

export type EventsQuery = NonNullable<paths['/events']['get']['parameters']['query']>;

export const eventKeys = {
  all: ['events'] as const,
  list: (query: EventsQuery) => [...eventKeys.all, query] as const,
  names: () => [...eventKeys.all, 'names'] as const,
};

export const useEvents = (query: EventsQuery) =>
  useQuery({ queryKey: eventKeys.list(query), queryFn: () => unwrap(api.GET('/events', { params: { query } })), placeholderData: (previous) => previous });

/** The event names recorded so far, offered in the name filter. */
export const useEventNames = () => useQuery({ queryKey: eventKeys.names(), queryFn: () => unwrap(api.GET('/events/names', { params: { query: { limit: '100' } } })) });
