import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../lib/api-client';
import { afterDelete } from '../../lib/query-client';
import type { paths } from '../../lib/schema';

export type TemplatesQuery = NonNullable<paths['/templates']['get']['parameters']['query']>;
export type TemplateInput = paths['/templates']['post']['requestBody'] extends { content: { 'application/json': infer Body } } ? Body : never;
export type TemplateChanges = paths['/templates/{id}']['patch']['requestBody'] extends { content: { 'application/json': infer Body } } ? Body : never;

export const templateKeys = {
  all: ['templates'] as const,
  list: (query: TemplatesQuery) => [...templateKeys.all, 'list', query] as const,
  detail: (id: string) => [...templateKeys.all, 'one', id] as const,
};

export const useTemplates = (query: TemplatesQuery) =>
  useQuery({ queryKey: templateKeys.list(query), queryFn: () => unwrap(api.GET('/templates', { params: { query } })), placeholderData: keepPreviousData });

export const useTemplate = (id: string | undefined) =>
  useQuery({ queryKey: templateKeys.detail(id ?? ''), queryFn: () => unwrap(api.GET('/templates/{id}', { params: { path: { id: id! } } })), enabled: Boolean(id) });

export function useSaveTemplate(id: string | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: TemplateInput) =>
      id ? unwrap(api.PATCH('/templates/{id}', { params: { path: { id } }, body: input as TemplateChanges })) : unwrap(api.POST('/templates', { body: input })),
    onSuccess: (template) => {
      queryClient.setQueryData(templateKeys.detail(template.id), template);
      return queryClient.invalidateQueries({ queryKey: [...templateKeys.all, 'list'] });
    },
  });
}

export function useDeleteTemplate(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(api.DELETE('/templates/{id}', { params: { path: { id } } })),
    onSuccess: () => afterDelete(queryClient, { lists: [...templateKeys.all, 'list'], own: templateKeys.detail(id) }),
  });
}

/**
 * A test of the template to yourself: POST /v1/send with the saved template and the preview's
 * sample data (what a send with this template sends, from the template's own sender).
 */
export const useSendTemplateTest = () =>
  useMutation({
    mutationFn: (input: { templateId: string; to: string; data: Record<string, unknown> }) =>
      unwrap(api.POST('/v1/send', { body: { to: input.to, template: input.templateId, data: input.data } })),
  });
