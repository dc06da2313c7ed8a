import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../lib/api-client';
import { afterDelete } from '../../lib/query-client';
import type { WebhookWithSecret } from '../../lib/api-types';

export type WebhookInput = { url: string; events: string[]; description?: string };

/** Every key of this feature sits under `all`: a change to an endpoint makes its list and page stale. */
export const webhookKeys = {
  all: ['webhooks'] as const,
  list: () => [...webhookKeys.all, 'list'] as const,
  detail: (id: string) => [...webhookKeys.all, 'one', id] as const,
  deliveries: (id: string, cursor: string | undefined) => [...webhookKeys.all, 'one', id, 'deliveries', cursor] as const,
};

/** GET /webhooks answers every endpoint of the project (at most 20) in one page. */
export const useWebhooks = () => useQuery({ queryKey: webhookKeys.list(), queryFn: () => unwrap(api.GET('/webhooks', {})) });

export const useWebhook = (id: string) => useQuery({ queryKey: webhookKeys.detail(id), queryFn: () => unwrap(api.GET('/webhooks/{id}', { params: { path: { id } } })) });

/** A page of the delivery log, newest first; read again every 3 s while a delivery on it is pending, else every 10 s (new events arrive by themselves). */
export const useDeliveries = (id: string, cursor: string | undefined) =>
  useQuery({
    queryKey: webhookKeys.deliveries(id, cursor),
    queryFn: () => unwrap(api.GET('/webhooks/{id}/deliveries', { params: { path: { id }, query: { limit: '25', ...(cursor ? { cursor } : {}) } } })),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.items.some((delivery) => delivery.status === 'pending') ? 3000 : 10_000),
  });

function useWebhookMutation<Input, Output>(run: (input: Input) => Promise<Output>, onDone?: (output: Output) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: async (output) => {
      await queryClient.invalidateQueries({ queryKey: webhookKeys.all });
      onDone?.(output);
    },
  });
}

/** Creating answers the signing secret, shown once: `onCreated` receives it. */
export const useCreateWebhook = (onCreated: (webhook: WebhookWithSecret) => void) =>
  useWebhookMutation((body: WebhookInput) => unwrap(api.POST('/webhooks', { body })), onCreated);

export const useSetWebhookEnabled = (id: string) => useWebhookMutation((enabled: boolean) => unwrap(api.PATCH('/webhooks/{id}', { params: { path: { id } }, body: { enabled } })));

/** Rotating answers the new secret, shown once. */
export const useRotateWebhookSecret = (id: string, onRotated: (webhook: WebhookWithSecret) => void) =>
  useWebhookMutation(() => unwrap(api.POST('/webhooks/{id}/rotate-secret', { params: { path: { id } } })), onRotated);

export const useSendWebhookTest = (id: string) => useWebhookMutation(() => unwrap(api.POST('/webhooks/{id}/test', { params: { path: { id } } })));

export const useReplayDelivery = (id: string) =>
  useWebhookMutation((deliveryId: string) => unwrap(api.POST('/webhooks/{id}/deliveries/{deliveryId}/replay', { params: { path: { id, deliveryId } } })));

export function useDeleteWebhook(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(api.DELETE('/webhooks/{id}', { params: { path: { id } } })),
    onSuccess: () => afterDelete(queryClient, { lists: webhookKeys.list(), own: webhookKeys.detail(id) }),
  });
}
