import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../lib/api-client';
import type { paths } from '../../lib/schema';

/** GET /emails's query as the document types it: status and source are the listed values. */
export type EmailsQuery = NonNullable<paths['/emails']['get']['parameters']['query']>;

export const emailKeys = {
  all: ['emails'] as const,
  list: (query: EmailsQuery) => [...emailKeys.all, query] as const,
  detail: (id: string) => [...emailKeys.all, 'one', id] as const,
};

export const useEmails = (query: EmailsQuery) =>
  useQuery({ queryKey: emailKeys.list(query), queryFn: () => unwrap(api.GET('/emails', { params: { query } })), placeholderData: (previous) => previous });

export const useEmail = (id: string) => useQuery({ queryKey: emailKeys.detail(id), queryFn: () => unwrap(api.GET('/emails/{id}', { params: { path: { id } } })) });
