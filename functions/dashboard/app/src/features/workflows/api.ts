import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { api, unwrap } from '../../lib/api-client';
import type { WorkflowStep } from '../../lib/api-types';

export type ExecutionFilter = { status?: string; contactId?: string };

/** Every key of this feature sits under `all`: a change to a workflow makes its list, page and figures stale. */
export const workflowKeys = {
  all: ['workflows'] as const,
  list: (cursor: string | undefined) => [...workflowKeys.all, 'list', cursor] as const,
  detail: (id: string) => [...workflowKeys.all, 'one', id] as const,
  stats: (id: string) => [...workflowKeys.all, 'one', id, 'stats'] as const,
  executions: (id: string, filter: ExecutionFilter, cursor: string | undefined) => [...workflowKeys.all, 'one', id, 'executions', filter, cursor] as const,
  execution: (id: string, executionId: string) => [...workflowKeys.all, 'one', id, 'execution', executionId] as const,
};

export const useWorkflows = (cursor: string | undefined) =>
  useQuery({
    queryKey: workflowKeys.list(cursor),
    queryFn: () => unwrap(api.GET('/workflows', { params: { query: { limit: '25', ...(cursor ? { cursor } : {}) } } })),
    placeholderData: keepPreviousData,
  });

export const useWorkflow = (id: string) => useQuery({ queryKey: workflowKeys.detail(id), queryFn: () => unwrap(api.GET('/workflows/{id}', { params: { path: { id } } })) });

/** Per-step figures; the workflow's page reads them again every 5 s (executions move by themselves), the list once. */
export const useWorkflowStats = (id: string, refetchInterval: number | false = 5000) =>
  useQuery({ queryKey: workflowKeys.stats(id), queryFn: () => unwrap(api.GET('/workflows/{id}/stats', { params: { path: { id } } })), refetchInterval });

export const useExecutions = (id: string, filter: ExecutionFilter, cursor: string | undefined) =>
  useQuery({
    queryKey: workflowKeys.executions(id, filter, cursor),
    queryFn: () =>
      unwrap(
        api.GET('/workflows/{id}/executions', {
          params: {
            path: { id },
            query: {
              limit: '25',
              ...(cursor ? { cursor } : {}),
              ...(filter.status ? { status: filter.status as never } : {}),
              ...(filter.contactId ? { contactId: filter.contactId } : {}),
            },
          },
        }),
      ),
    placeholderData: keepPreviousData,
    refetchInterval: 5000,
  });

export const useExecution = (id: string, executionId: string | null) =>
  useQuery({
    queryKey: workflowKeys.execution(id, executionId ?? ''),
    queryFn: () => unwrap(api.GET('/workflows/{id}/executions/{executionId}', { params: { path: { id, executionId: executionId! } } })),
    enabled: executionId !== null,
    refetchInterval: 5000,
  });

/** The templates a send step can use (the first 100, by name in the panel). */
export const useTemplateChoices = () =>
  useQuery({ queryKey: [...workflowKeys.all, 'templates'] as const, queryFn: () => unwrap(api.GET('/templates', { params: { query: { limit: '100' } } })), staleTime: 60_000 });

/** Template names by id, for the send steps' nodes. */
export function useTemplateNames(): Record<string, string> {
  const templates = useTemplateChoices();
  return useMemo(() => Object.fromEntries((templates.data?.items ?? []).map((template) => [template.id, template.name])), [templates.data]);
}

function useWorkflowMutation<Input, Output>(run: (input: Input) => Promise<Output>, onDone?: (output: Output) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: async (output) => {
      await queryClient.invalidateQueries({ queryKey: workflowKeys.all });
      onDone?.(output);
    },
  });
}

export type NewWorkflow = { name: string; trigger: { type: 'EVENT'; event: string } | { type: 'CONTACT_CREATED' }; enabled: boolean; steps: WorkflowStep[] };

/** Creating answers the signing secret of the workflow's WEBHOOK steps, shown once: `onCreated` receives it. */
export const useCreateWorkflow = (onCreated: (created: { id: string; webhookSecret: string }) => void) =>
  useWorkflowMutation((body: NewWorkflow) => unwrap(api.POST('/workflows', { body })), onCreated);

export const useSetWorkflowEnabled = (id: string) => useWorkflowMutation((enabled: boolean) => unwrap(api.PATCH('/workflows/{id}', { params: { path: { id } }, body: { enabled } })));

/** Saves the steps document as it is: the editor never adds fields of its own. */
export const useSaveSteps = (id: string) => useWorkflowMutation((steps: WorkflowStep[]) => unwrap(api.PATCH('/workflows/{id}', { params: { path: { id } }, body: { steps } })));

export const useCancelExecution = (id: string) =>
  useWorkflowMutation((executionId: string) => unwrap(api.POST('/workflows/{id}/executions/{executionId}/cancel', { params: { path: { id, executionId } } })));
