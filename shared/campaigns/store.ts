import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../aws/clients';
import { tableName } from '../db/table';
import { transactWrite, type TransactItem } from '../db/transactions';
import { conflict, notFound } from '../http/errors';
import type { Sender } from '../templates/schemas';
import { approvalView, type ApprovalFields, type ApprovalView } from './approval-view';
import { presentAbTest, type AbTest, type StoredAbTest } from './ab-test-model';
import type { CampaignContent } from './content';
import type { GuardCounters } from './guard';
import { campaignKeys } from './keys';
import { presentDelivery, type DeliveryView, type LocalTimeDelivery } from './local-time';
import { spreadView, type SpreadView } from './spread-view';
import { nextStatus, type CampaignAction, type CampaignStatus } from './status';

/** A campaign as the API shows it (names as in Plunk's campaigns API). */
export interface Campaign {
  id: string;
  name: string;
  description: string | null;
  subject: string | null;
  /** HTML with mustache variables; with templateId, overrides the template's body. */
  body: string | null;
  /** The plain-text part with mustache variables; null: the template's, or made from the rendered body. */
  text: string | null;
  templateId: string | null;
  from: Sender | null;
  replyTo: string | null;
  /** null: every subscribed contact. */
  segmentId: string | null;
  status: CampaignStatus;
  scheduledFor: string | null;
  /** When sending started. */
  sentAt: string | null;
  /** Recipients queued so far while SENDING; the frozen audience size once it has been read. */
  totalRecipients: number;
  cancelledAt: string | null;
  failureReason: string | null;
  /** When the deliverability guard paused it; cleared when it is resumed. */
  pausedAt: string | null;
  /** Why it was paused, e.g. "Bounce rate 6.00 % over 250 sends passed the 5 % threshold"; cleared when it is resumed. */
  pauseReason: string | null;
  /** How it is delivered when sent at a local time in each recipient's zone (shared/campaigns/local-time.ts); null otherwise. */
  delivery: DeliveryView | null;
  /** Spread the mail evenly over this many minutes from when sending starts (shared/campaigns/spread.ts); null: at once. */
  spreadOverMinutes: number | null;
  /** The spread once sending has started: its window and the audience it spreads. */
  spread: SpreadView | null;
  createdAt: string;
  updatedAt: string;
  /** Four-eyes approval and the last editor (shared/campaigns/approval.ts). */
  approval: ApprovalView;
  /** The A/B subject test (shared/campaigns/ab-test.ts); null: none. */
  abTest: AbTest | null;
}

/** The stored item: the campaign plus what sending keeps on it. */
export interface StoredCampaign extends Omit<Campaign, 'delivery' | 'spread' | 'spreadOverMinutes' | 'abTest' | 'approval'>, ApprovalFields {
  /** Absent on campaigns stored before spreads existed. */
  spreadOverMinutes?: number | null;
  /** The A/B test's settings and, once sending, its phase and winner. */
  abTest?: StoredAbTest | null;
  /** Bumped on every change; writes are conditioned on the version read. */
  version: number;
  /** The id of the schedule a SCHEDULED campaign waits for (its start message names it). */
  scheduleId?: string;
  /** The content resolved when sending started: later template edits do not change a send. */
  content?: CampaignContent;
  /** The fan-out's progress (shared/campaigns/dispatch.ts). */
  dispatch?: { cursor?: Record<string, unknown>; owner?: string; leaseUntil?: number; done?: boolean; spreadOf?: number; spreadCounted?: number; spreadCursor?: Record<string, unknown> };
  /** The delivery counters when it was last resumed: the guard measures rates over the mail sent since (shared/campaigns/guard.ts). */
  guardBaseline?: GuardCounters;
  /** A local-time send's plan, releases and zone counts (shared/campaigns/local-time.ts). */
  delivery?: LocalTimeDelivery;
}


export async function readCampaign(projectId: string, campaignId: string): Promise<StoredCampaign> {
  const { Item } = /^[0-9A-HJKMNP-TV-Z]{26}$/.test(campaignId)
    ? await documentClient.send(new GetCommand({ TableName: tableName, Key: campaignKeys.campaign(projectId, campaignId), ConsistentRead: true }))
    : { Item: undefined };
  if (!Item) throw notFound('Campaign');
  return fromItem(Item);
}

export function toItem(projectId: string, campaign: StoredCampaign): Record<string, unknown> {
  return { ...campaignKeys.campaign(projectId, campaign.id), ...campaign };
}

export function fromItem(item: Record<string, unknown>): StoredCampaign {
  const { PK: _pk, SK: _sk, ...campaign } = item;
  return campaign as unknown as StoredCampaign;
}

/** What a campaign carries from the moment it starts sending (now or by its schedule). */
export const startFields = (sentAt: string, content: StoredCampaign['content']) => ({ sentAt, content, dispatch: {}, totalRecipients: 0, failureReason: null });

/** The API's view: every field present (null when unset), nothing of the sending state; `approvalRequired` where the request read the project's setting. */
export function present(campaign: StoredCampaign, approvalRequired?: boolean): Campaign {
  return {
    id: campaign.id,
    name: campaign.name,
    description: campaign.description ?? null,
    subject: campaign.subject ?? null,
    body: campaign.body ?? null,
    text: campaign.text ?? null,
    templateId: campaign.templateId ?? null,
    from: campaign.from ?? null,
    replyTo: campaign.replyTo ?? null,
    segmentId: campaign.segmentId ?? null,
    status: campaign.status,
    scheduledFor: campaign.scheduledFor ?? null,
    sentAt: campaign.sentAt ?? null,
    totalRecipients: campaign.totalRecipients ?? 0,
    cancelledAt: campaign.cancelledAt ?? null,
    failureReason: campaign.failureReason ?? null,
    pausedAt: campaign.pausedAt ?? null,
    pauseReason: campaign.pauseReason ?? null,
    delivery: campaign.delivery ? presentDelivery(campaign.delivery, campaign.status) : null,
    spreadOverMinutes: campaign.spreadOverMinutes ?? null,
    spread: spreadView(campaign),
    createdAt: campaign.createdAt,
    updatedAt: campaign.updatedAt,
    approval: approvalView(campaign, approvalRequired),
    abTest: presentAbTest(campaign),
  };
}

/** The counter item's update for a campaign entering `to` (from `from`, unless it is new). */
export function countersItem(projectId: string, change: { from?: CampaignStatus; to?: CampaignStatus; total?: number }): TransactItem {
  const adds: [string, number][] = [];
  if (change.total) adds.push(['total', change.total]);
  if (change.from) adds.push([change.from, -1]);
  if (change.to) adds.push([change.to, 1]);
  return {
    Update: {
      TableName: tableName,
      Key: campaignKeys.counters(projectId),
      UpdateExpression: `ADD ${adds.map((_, index) => `#c${index} :c${index}`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(adds.map(([name], index) => [`#c${index}`, name])),
      ExpressionAttributeValues: Object.fromEntries(adds.map(([, value], index) => [`:c${index}`, value])),
    },
  };
}

export interface Transition {
  /** The status the campaign had when read; the write is conditioned on it (and on its version). */
  campaign: Pick<StoredCampaign, 'id' | 'status' | 'version'>;
  action: CampaignAction;
  /** Attributes to set (null removes them). */
  set?: Record<string, unknown>;
  /** More condition, e.g. the schedule a fire was made for. */
  condition?: { expression: string; values: Record<string, unknown> };
}

/**
 * A status change as transaction items: the campaign's update, conditioned on the status and
 * version that were read (409 INVALID_CAMPAIGN_STATE before writing if the action is not allowed
 * from it), and the per-status counters. A concurrent change fails the condition.
 */
export function transitionItems(projectId: string, { campaign, action, set = {}, condition }: Transition, now = new Date().toISOString()): TransactItem[] {
  const to = nextStatus(action, campaign.status);
  const fields: Record<string, unknown> = { ...set, status: to, updatedAt: now };
  const names: Record<string, string> = { '#version': 'version' };
  const values: Record<string, unknown> = { ':from': campaign.status, ':version': campaign.version, ':one': 1, ...(condition?.values ?? {}) };
  const sets: string[] = ['#version = #version + :one'];
  const removes: string[] = [];
  Object.entries(fields).forEach(([name, value], index) => {
    names[`#f${index}`] = name;
    if (value === null || value === undefined) {
      removes.push(`#f${index}`);
    } else {
      values[`:f${index}`] = value;
      sets.push(`#f${index} = :f${index}`);
    }
  });
  // The status condition names #f<n> of status: look it up rather than hard-code the index.
  const statusAlias = Object.keys(names).find((alias) => names[alias] === 'status')!;
  return [
    {
      Update: {
        TableName: tableName,
        Key: campaignKeys.campaign(projectId, campaign.id),
        UpdateExpression: `SET ${sets.join(', ')}${removes.length ? ` REMOVE ${removes.join(', ')}` : ''}`,
        ConditionExpression: `${statusAlias} = :from AND #version = :version${condition ? ` AND (${condition.expression})` : ''}`,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      },
    },
    ...(to === campaign.status ? [] : [countersItem(projectId, { from: campaign.status, to })]),
  ];
}

/** Writes a change conditioned on what was read; a concurrent change meanwhile is a 409 naming the status now. */
export async function writeCampaignChange(projectId: string, items: TransactItem[], read: Pick<StoredCampaign, 'id' | 'status'>): Promise<void> {
  try {
    await transactWrite(items);
  } catch (error) {
    const reasons = (error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
    if (!reasons.some((reason) => reason.Code === 'ConditionalCheckFailed')) throw error;
    const now = await readCampaign(projectId, read.id).catch(() => undefined);
    if (now && now.status !== read.status) throw conflict('INVALID_CAMPAIGN_STATE', `The campaign is ${now.status} now`);
    throw conflict('CONCURRENT_MODIFICATION', 'The campaign changed concurrently; retry the request');
  }
}
