import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../lib/api-client';

export interface ContactFilter {
  search?: string;
  subscribed?: 'true' | 'false';
  cursor?: string;
}

/** Every key under `all` (this feature's lists and contacts, the Overview's counts) goes stale after a change. */
export const contactKeys = {
  all: ['contacts'] as const,
  list: (filter: ContactFilter) => [...contactKeys.all, 'list', filter] as const,
  details: () => [...contactKeys.all, 'one'] as const,
  detail: (id: string) => [...contactKeys.details(), id] as const,
};

/**
 * A contact's recent events and emails, under the events and emails keys rather than the
 * contact's: a change to the contact leaves them as they are.
 */
export const contactActivityKeys = {
  events: (contactId: string) => ['events', { contactId }] as const,
  emails: (email: string) => ['emails', { email }] as const,
};

export const exportKeys = {
  all: ['exports'] as const,
  page: (cursor: string | undefined) => [...exportKeys.all, cursor] as const,
  detail: (id: string) => [...exportKeys.all, 'one', id] as const,
};

export const importKeys = {
  all: ['imports'] as const,
  detail: (id: string | null) => [...importKeys.all, id] as const,
};

export const useContacts = (filter: ContactFilter) =>
  useQuery({
    queryKey: contactKeys.list(filter),
    queryFn: () => unwrap(api.GET('/contacts', { params: { query: { limit: '25', ...filter } } })),
    placeholderData: (previous) => previous,
  });

export const useContact = (id: string) => useQuery({ queryKey: contactKeys.detail(id), queryFn: () => unwrap(api.GET('/contacts/{id}', { params: { path: { id } } })) });

/** Every contact query (lists, counts, pages) is stale after a change. */
export function useContactMutation<T>(run: (input: T) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: run, onSettled: () => queryClient.invalidateQueries({ queryKey: contactKeys.all }) });
}

/** Deletes the contact; the lists and counts refresh, its own query is left alone (it would read a 404). */
export function useDeleteContact(id: string, onDeleted: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => deleteContact(id),
    onSuccess: () => {
      onDeleted();
      void queryClient.invalidateQueries({ queryKey: contactKeys.all, predicate: (query) => query.queryKey[1] !== contactKeys.details()[1] });
    },
  });
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

export const useContactEvents = (contactId: string) =>
  useQuery({ queryKey: contactActivityKeys.events(contactId), queryFn: () => unwrap(api.GET('/events', { params: { query: { contactId, limit: '20' } } })) });

export const useContactEmails = (email: string) =>
  useQuery({ queryKey: contactActivityKeys.emails(email), queryFn: () => unwrap(api.GET('/emails', { params: { query: { email, limit: '20' } } })) });

const finished = (job: { status: string } | undefined) => job !== undefined && ['COMPLETED', 'FAILED'].includes(job.status);

export const useExports = (cursor: string | undefined) =>
  useQuery({
    queryKey: exportKeys.page(cursor),
    queryFn: () => unwrap(api.GET('/contacts/exports', { params: { query: { limit: '10', ...(cursor ? { cursor } : {}) } } })),
    // Poll while an export is being written, so its download appears when ready.
    refetchInterval: (query) => (query.state.data?.items.some((job) => job.status === 'QUEUED' || job.status === 'PROCESSING') ? 1500 : false),
  });

const readExport = (id: string) => unwrap(api.GET('/contacts/exports/{id}', { params: { path: { id } } }));

/** An export being written: polled until it has finished. */
export const useExportProgress = (id: string) =>
  useQuery({ queryKey: exportKeys.detail(id), queryFn: () => readExport(id), refetchInterval: (query) => (finished(query.state.data) ? false : 1000) });

/** An export read on demand (its download link is signed for an hour at each read). */
export const useExport = (id: string, enabled: boolean) => useQuery({ queryKey: exportKeys.detail(id), enabled, queryFn: () => readExport(id) });

export function useStartExport(onStarted: (job: { id: string }) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (which: '' | 'true' | 'false') => unwrap(api.POST('/contacts/exports', { body: which ? { subscribed: which === 'true' } : {} })),
    onSuccess: (job) => {
      onStarted(job);
      void queryClient.invalidateQueries({ queryKey: exportKeys.all });
    },
  });
}

export interface ImportRequest {
  csv: string;
  updateExisting: boolean;
  subscribed: boolean;
}

export const useStartImport = (onStarted: (job: { id: string }) => void) =>
  useMutation({
    mutationFn: ({ csv, updateExisting, subscribed }: ImportRequest) =>
      unwrap(
        api.POST('/contacts/imports', {
          params: { query: { updateExisting: String(updateExisting) as 'true' | 'false', subscribed: String(subscribed) as 'true' | 'false' } },
          body: csv as never,
          bodySerializer: (body: unknown) => body as string,
          headers: { 'Content-Type': 'text/csv' },
        }),
      ),
    onSuccess: onStarted,
  });

/** The import job, polled while it runs; once it has completed, every contact query is stale. */
export function useImportJob(jobId: string | null) {
  const queryClient = useQueryClient();
  const job = useQuery({
    queryKey: importKeys.detail(jobId),
    enabled: jobId !== null,
    queryFn: () => unwrap(api.GET('/contacts/imports/{id}', { params: { path: { id: jobId! } } })),
    refetchInterval: (query) => (finished(query.state.data) ? false : 1000),
  });
  if (job.data?.status === 'COMPLETED') void queryClient.invalidateQueries({ queryKey: contactKeys.all });
  return job;
}
