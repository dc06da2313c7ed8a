import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api, unwrap } from '../../lib/api-client';
import { afterDelete } from '../../lib/query-client';
import type { ApiFilter } from './filter-model';

/** Every key of this feature sits under `all`: a saved change makes lists, segments and members stale. */
export const segmentKeys = {
  all: ['segments'] as const,
  list: (cursor: string | undefined) => [...segmentKeys.all, 'list', cursor] as const,
  detail: (id: string) => [...segmentKeys.all, 'one', id] as const,
  members: (id: string, cursor: string | undefined) => [...segmentKeys.all, 'one', id, 'members', cursor] as const,
  preview: (filters: string) => [...segmentKeys.all, 'preview', filters] as const,
  eventNames: () => ['events', 'names'] as const,
};

export const useSegments = (cursor: string | undefined) =>
  useQuery({
    queryKey: segmentKeys.list(cursor),
    queryFn: () => unwrap(api.GET('/segments', { params: { query: { limit: '25', ...(cursor ? { cursor } : {}) } } })),
    placeholderData: keepPreviousData,
  });

const building = (segment: { membershipStatus: string | null } | undefined) => segment?.membershipStatus === 'BUILDING';

/** A segment; polled while its membership is BUILDING, so the count and status settle by themselves. */
export const useSegment = (id: string) =>
  useQuery({
    queryKey: segmentKeys.detail(id),
    queryFn: () => unwrap(api.GET('/segments/{id}', { params: { path: { id } } })),
    refetchInterval: (query) => (building(query.state.data) ? 1500 : false),
  });

/** A page of the segment's members (polled with the segment while it builds). */
export const useSegmentMembers = (id: string, cursor: string | undefined, polling: boolean) =>
  useQuery({
    queryKey: segmentKeys.members(id, cursor),
    queryFn: () => unwrap(api.GET('/segments/{id}/contacts', { params: { path: { id }, query: { limit: '25', ...(cursor ? { cursor } : {}) } } })),
    placeholderData: keepPreviousData,
    refetchInterval: polling ? 1500 : false,
  });

/** The event names recorded so far, offered in event conditions. */
export const useEventNames = () => useQuery({ queryKey: segmentKeys.eventNames(), queryFn: () => unwrap(api.GET('/events/names', { params: { query: { limit: '100' } } })), staleTime: 60_000 });

/** The value once it has stayed the same for `delayMs` (the live counts wait for typing to pause). */
export function useDebounced<T>(value: T, delayMs: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
}

const previewSegment = (filters: ApiFilter) => unwrap(api.POST('/segments/preview', { body: { filters } }));

/**
 * The counts of the filters being built (POST /segments/preview: nothing is saved), asked
 * 400 ms after the last change; the last figures stay on screen while the next are on their way.
 */
export function useSegmentPreview(filters: ApiFilter | null) {
  const json = useDebounced(filters ? JSON.stringify(filters) : null, 400);
  return useQuery({
    queryKey: segmentKeys.preview(json ?? ''),
    enabled: json !== null,
    queryFn: () => previewSegment(JSON.parse(json!) as ApiFilter),
    placeholderData: keepPreviousData,
    retry: false,
    staleTime: 10_000,
  });
}

export interface SegmentInput {
  name: string;
  filters: ApiFilter;
  trackMembership: boolean;
}

function useSegmentMutation<T, R>(run: (input: T) => Promise<R>, onDone: (result: R) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: (result) => {
      void queryClient.invalidateQueries({ queryKey: segmentKeys.all });
      onDone(result);
    },
  });
}

export const useCreateSegment = (onDone: (segment: { id: string }) => void) => useSegmentMutation((body: SegmentInput) => unwrap(api.POST('/segments', { body })), onDone);

export const useUpdateSegment = (id: string, onDone: (segment: { id: string }) => void) =>
  useSegmentMutation((body: Omit<SegmentInput, 'trackMembership'>) => unwrap(api.PATCH('/segments/{id}', { params: { path: { id } }, body })), onDone);

export function useDeleteSegment(id: string, onDone: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(api.DELETE('/segments/{id}', { params: { path: { id } } })),
    onSuccess: async () => {
      await afterDelete(queryClient, { lists: [...segmentKeys.all, 'list'], own: segmentKeys.detail(id) });
      onDone();
    },
  });
}
