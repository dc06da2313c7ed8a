import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../lib/api-client';
import { afterDelete } from '../../lib/query-client';
import type { paths } from '../../lib/schema';

export type CampaignsQuery = NonNullable<paths['/campaigns']['get']['parameters']['query']>;
export type CampaignInput = paths['/campaigns']['post']['requestBody'] extends { content: { 'application/json': infer Body } } ? Body : never;
export type CampaignChanges = paths['/campaigns/{id}']['patch']['requestBody'] extends { content: { 'application/json': infer Body } } ? Body : never;
export type Campaign = paths['/campaigns/{id}']['get']['responses'][200]['content']['application/json']['data'];
export type CampaignStatus = Campaign['status'];
export type CampaignAudience = paths['/campaigns/{id}/audience']['get']['responses'][200]['content']['application/json']['data'];
export type CampaignStats = paths['/campaigns/{id}/stats']['get']['responses'][200]['content']['application/json']['data'];

/** While a campaign sends, its page and its row's progress read again this often. */
const LIVE_MS = 3000;
const live = (status: CampaignStatus | undefined) => (status === 'SENDING' ? LIVE_MS : false);

export const campaignKeys = {
  all: ['campaigns'] as const,
  list: (query: CampaignsQuery) => [...campaignKeys.all, 'list', query] as const,
  detail: (id: string) => [...campaignKeys.all, 'one', id] as const,
  stats: (id: string) => [...campaignKeys.detail(id), 'stats'] as const,
  audience: (id: string) => [...campaignKeys.detail(id), 'audience'] as const,
  /** What the compose form offers: MARKETING templates, segments, verified domains. */
  options: (what: 'templates' | 'segments' | 'domains') => [...campaignKeys.all, 'options', what] as const,
  /** The members' emails, for who approved or last changed a campaign. */
  members: () => [...campaignKeys.all, 'members'] as const,
};

export const useCampaigns = (query: CampaignsQuery) =>
  useQuery({ queryKey: campaignKeys.list(query), queryFn: () => unwrap(api.GET('/campaigns', { params: { query } })), placeholderData: keepPreviousData });

/**
 * A campaign, read again every few seconds while it is SENDING (and only then), and once when a
 * SCHEDULED one is due, so its page shows it start without a reload (a second later while the
 * scheduler has not fired yet).
 */
export const useCampaign = (id: string) =>
  useQuery({ queryKey: campaignKeys.detail(id), queryFn: () => unwrap(api.GET('/campaigns/{id}', { params: { path: { id } } })), enabled: Boolean(id), refetchInterval: (query) => campaignRefetch(query.state.data) });

/** A timer's longest useful wait: browsers fire longer ones (over 2^31 ms) at once. */
const MAX_WAIT_MS = 60 * 60_000;

function campaignRefetch(campaign: Campaign | undefined): number | false {
  if (campaign?.status === 'SCHEDULED' && campaign.scheduledFor) return Math.min(MAX_WAIT_MS, Math.max(1_000, Date.parse(campaign.scheduledFor) - Date.now() + 1_000));
  return live(campaign?.status);
}

export const useCampaignStats = (id: string, status: CampaignStatus | undefined) =>
  useQuery({ queryKey: campaignKeys.stats(id), queryFn: () => unwrap(api.GET('/campaigns/{id}/stats', { params: { path: { id } } })), refetchInterval: live(status) });

/** Who sending now would reach: contacts, subscribed, suppressed and the recipients it would queue. */
export const useCampaignAudience = (id: string, enabled: boolean) =>
  useQuery({ queryKey: campaignKeys.audience(id), queryFn: () => unwrap(api.GET('/campaigns/{id}/audience', { params: { path: { id } } })), enabled });

export const useMarketingTemplates = () =>
  useQuery({ queryKey: campaignKeys.options('templates'), queryFn: () => unwrap(api.GET('/templates', { params: { query: { type: 'MARKETING', limit: '100' } } })) });

export const useSegmentOptions = () => useQuery({ queryKey: campaignKeys.options('segments'), queryFn: () => unwrap(api.GET('/segments', { params: { query: { limit: '100' } } })) });

export const useDomainOptions = () => useQuery({ queryKey: campaignKeys.options('domains'), queryFn: () => unwrap(api.GET('/domains', {})) });

/** After any change to a campaign: its page, its figures and every list read again. */
function useCampaignMutation<Input>(id: string, call: (input: Input) => Promise<Campaign>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: (campaign) => {
      queryClient.setQueryData(campaignKeys.detail(campaign.id), campaign);
      return Promise.all([queryClient.invalidateQueries({ queryKey: [...campaignKeys.all, 'list'] }), id && queryClient.invalidateQueries({ queryKey: campaignKeys.detail(id) })]);
    },
  });
}

export const useCreateCampaign = () => useCampaignMutation('', (input: CampaignInput) => unwrap(api.POST('/campaigns', { body: input })));

export const useUpdateCampaign = (id: string) =>
  useCampaignMutation(id, (changes: CampaignChanges) => unwrap(api.PATCH('/campaigns/{id}', { params: { path: { id } }, body: changes })));

/** Sends now (no time), schedules (an ISO time) or resumes a PAUSED campaign (no time). */
export const useSendCampaign = (id: string) =>
  useCampaignMutation(id, (scheduledFor: string | null) => unwrap(api.POST('/campaigns/{id}/send', { params: { path: { id } }, body: scheduledFor ? { scheduledFor } : {} })));

/** Sends at a local time in each recipient's time zone (POST /campaigns/{id}/send with localTime). */
export type LocalTimeSend = { localTime: string; timeZoneField: string; fallbackTimeZone: string };
export const useSendAtLocalTime = (id: string) =>
  useCampaignMutation(id, (input: LocalTimeSend) => unwrap(api.POST('/campaigns/{id}/send', { params: { path: { id } }, body: input })));

export const useCancelCampaign = (id: string) => useCampaignMutation(id, () => unwrap(api.POST('/campaigns/{id}/cancel', { params: { path: { id } } })));

export function useDeleteCampaign(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(api.DELETE('/campaigns/{id}', { params: { path: { id } } })),
    onSuccess: () => afterDelete(queryClient, { lists: [...campaignKeys.all, 'list'], own: campaignKeys.detail(id) }),
  });
}

/** Four-eyes approval by a signed-in owner who is not the last editor. */
export const useApproveCampaign = (id: string) => useCampaignMutation(id, () => unwrap(api.POST('/campaigns/{id}/approve', { params: { path: { id } } })));

export const useMemberEmails = (enabled: boolean) => useQuery({ queryKey: campaignKeys.members(), queryFn: () => unwrap(api.GET('/members', {})), enabled, staleTime: 60_000 });

export const useTestCampaign = (id: string) => useMutation({ mutationFn: (email: string) => unwrap(api.POST('/campaigns/{id}/test', { params: { path: { id } }, body: { email } })) });

/** Ends an A/B test's wait with this variant (0-based): the rest of the audience gets its subject. */
export const useAbWinner = (id: string) => useCampaignMutation(id, (variant: number) => unwrap(api.POST('/campaigns/{id}/ab-winner', { params: { path: { id } }, body: { variant } })));
