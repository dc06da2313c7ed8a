import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import { documentClient } from '../aws/clients';
import { requiredEnv } from '../config/env';
import { variables } from '../config/variables';
import { sortKeyPrefixRange } from '../db/schema';
import { tableName } from '../db/table';
import { transactWrite } from '../db/transactions';
import { decodeCursor, pageOf } from '../http/cursor';
import { ApiError, validationFailed } from '../http/errors';
import type { Caller } from '../http/handler';
import { logger } from '../observability/logger';
import { notificationWriteItem } from '../notifications/notifications';
import { sendMessageBatches } from '../queue/send-batches';
import { cancelSchedule, scheduleOnce } from '../scheduler/schedules';
import { assertTemplateParses } from '../templates/render';
import { approvalRequired, assertApproved, editFields, editorOf, recordSendAudit, systemCaller } from './approval';
import { dropAbSchedule } from './ab-test';
import { checkAbTest } from './ab-test-model';
import { audienceReader, assertSegmentExists, contactIdBound, countAudience, hasRecipients, type AudienceCounts } from './audience';
import { resolveContent } from './content';
import { estimateCampaignCost, type CostEstimate } from './cost';
import { readGuardCounters } from './progress';
import { campaignKeys, campaignScheduleName } from './keys';
import { deleteZoneSchedules, stopPendingZones } from './local-time-send';
import type { FanoutMessage } from './queues';
import { campaignLimits, type CampaignChanges, type CreateCampaignInput, type ListCampaignsQuery } from './schemas';
import { queueDispatchOrRollBack } from './start-dispatch';
import { nextStatus } from './status';
import { countersItem, present, readCampaign, startFields, toItem, transitionItems, writeCampaignChange, type Campaign, type StoredCampaign } from './store';

/** Configuration, read once at cold start. */
const config = {
  fanoutQueueUrl: requiredEnv(variables.campaignFanoutQueueUrl),
  fanoutQueueArn: requiredEnv(variables.campaignFanoutQueueArn),
};

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
  hasMore: boolean;
  total: number;
}

/** Who a call acts as when none is named (the system: scripts and tests). */

/** POST /campaigns: a DRAFT. Its template, sender domain and segment are checked now and again when it is sent. */
export async function createCampaign(projectId: string, input: CreateCampaignInput, caller: Caller = systemCaller): Promise<Campaign> {
  const now = new Date().toISOString();
  const campaign: StoredCampaign = {
    id: ulid(),
    name: input.name,
    description: input.description ?? null,
    subject: input.subject ?? null,
    body: input.body ?? null,
    text: input.text ?? null,
    templateId: input.templateId ?? null,
    from: input.from ?? null,
    replyTo: input.replyTo ?? null,
    segmentId: input.segmentId ?? null,
    spreadOverMinutes: input.spreadOverMinutes ?? null,
    status: 'DRAFT',
    scheduledFor: null,
    sentAt: null,
    totalRecipients: 0,
    cancelledAt: null,
    failureReason: null,
    pausedAt: null,
    pauseReason: null,
    createdAt: now,
    updatedAt: now,
    version: 1,
    lastEditedBy: editorOf(caller),
    ...(input.abTest ? { abTest: input.abTest } : {}),
  };
  await checkContent(projectId, campaign);
  await transactWrite([
    { Put: { TableName: tableName, Item: toItem(projectId, campaign), ConditionExpression: 'attribute_not_exists(PK)' } },
    countersItem(projectId, { to: 'DRAFT', total: 1 }),
  ]);
  return present(campaign, await approvalRequired(projectId));
}

export async function getCampaign(projectId: string, campaignId: string): Promise<Campaign> {
  const [campaign, required] = await Promise.all([readCampaign(projectId, campaignId), approvalRequired(projectId)]);
  return present(campaign, required);
}

/** GET /campaigns: newest first, one Query per page; `status` filters; `total` is a counter read. */
export async function listCampaigns(projectId: string, query: ListCampaignsQuery): Promise<Page<Campaign>> {
  const partition = campaignKeys.partition(projectId);
  const binding = JSON.stringify(['campaigns', projectId, query.status ?? null]);
  const startKey = query.cursor ? decodeCursor(query.cursor, binding, { PK: partition }, ['SK']) : undefined;
  const filter = query.status
    ? { FilterExpression: '#status = :status', ExpressionAttributeNames: { '#status': 'status' }, ExpressionAttributeValues: { ':status': query.status } }
    : { ExpressionAttributeValues: {} };
  const [result, counters, required] = await Promise.all([
    documentClient.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'PK = :pk AND SK BETWEEN :prefixLow AND :prefixHigh',
        ...filter,
        ExpressionAttributeValues: { ':pk': partition, ...sortKeyPrefixRange(campaignKeys.campaignPrefix), ...filter.ExpressionAttributeValues },
        ScanIndexForward: false,
        Limit: query.limit + 1,
        ExclusiveStartKey: startKey,
      }),
    ),
    documentClient.send(new GetCommand({ TableName: tableName, Key: campaignKeys.counters(projectId) })),
    approvalRequired(projectId),
  ]);
  const { page, hasMore, nextCursor } = pageOf(result, query.limit, ['PK', 'SK'], binding);
  const total = (counters.Item?.[query.status ?? 'total'] as number | undefined) ?? 0;
  return { items: page.map((item) => present(item as unknown as StoredCampaign, required)), nextCursor, hasMore, total };
}

/** PATCH: DRAFT and SCHEDULED campaigns only; null removes an optional field. */
export async function updateCampaign(projectId: string, campaignId: string, changes: CampaignChanges, caller: Caller = systemCaller): Promise<Campaign> {
  const current = await readCampaign(projectId, campaignId);
  nextStatus('edit', current.status);
  const set = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
  Object.assign(set, editFields(caller, changes));
  const next: StoredCampaign = { ...current, ...set, updatedAt: new Date().toISOString(), version: current.version + 1 };
  if (!next.templateId && (!next.subject || !next.body)) {
    throw validationFailed([{ field: next.subject ? 'body' : 'subject', code: 'REQUIRED', message: 'subject and body are required unless templateId is given' }]);
  }
  await checkContent(projectId, next);
  await writeCampaignChange(projectId, transitionItems(projectId, { campaign: current, action: 'edit', set }, next.updatedAt), current);
  return present(next, await approvalRequired(projectId));
}

/** DELETE: DRAFT campaigns only. */
export async function deleteCampaign(projectId: string, campaignId: string): Promise<void> {
  const current = await readCampaign(projectId, campaignId);
  nextStatus('delete', current.status);
  await writeCampaignChange(
    projectId,
    [
      {
        Delete: {
          TableName: tableName,
          Key: campaignKeys.campaign(projectId, campaignId),
          ConditionExpression: '#status = :status AND #version = :version',
          ExpressionAttributeNames: { '#status': 'status', '#version': 'version' },
          ExpressionAttributeValues: { ':status': current.status, ':version': current.version },
        },
      },
      countersItem(projectId, { from: current.status, total: -1 }),
    ],
    current,
  );
}

/**
 * POST /campaigns/{id}/send. Without scheduledFor: SENDING now (its content resolved and kept,
 * its audience read from this moment) and the fan-out queued; a SCHEDULED campaign's schedule is
 * deleted. With scheduledFor: SCHEDULED, with one one-time schedule (replaced on a reschedule)
 * that delivers a start message to the fan-out queue. 422 EMPTY_AUDIENCE when nobody would get it.
 * A PAUSED campaign is resumed instead.
 */
export async function sendCampaign(projectId: string, campaignId: string, scheduledFor: string | null | undefined, caller: Caller = systemCaller): Promise<Campaign> {
  const current = await readCampaign(projectId, campaignId);
  const at = scheduledFor ? scheduleTime(scheduledFor) : undefined;
  nextStatus(at ? 'schedule' : 'send', current.status);
  if (current.status === 'PAUSED') return resumeCampaign(projectId, current);
  const required = await assertApproved(projectId, current, caller, at ? 'schedule' : 'send');
  const now = new Date();
  const content = await resolveContent(projectId, current);
  if (!(await hasRecipients(await audienceReader(projectId, current.segmentId, contactIdBound(now.getTime()))))) {
    throw new ApiError(422, 'EMPTY_AUDIENCE', current.segmentId ? 'The campaign\'s segment has no subscribed contacts' : 'The project has no subscribed contacts', {
      suggestion: 'Add subscribed contacts (or members to the segment) before sending.',
    });
  }
  const updatedAt = now.toISOString();
  const version = current.version + 1;

  if (at) {
    const iso = at.toISOString();
    // The schedule first: if the write then fails, its start message names a schedule id the campaign does not have, and sends nothing.
    const scheduleId = ulid();
    const message: FanoutMessage = { kind: 'start', projectId, campaignId, scheduleId };
    await scheduleOnce({ name: campaignScheduleName(campaignId), at, targetArn: config.fanoutQueueArn, message });
    // A reschedule is a change of schedule: it records its editor and clears the approval (shared/campaigns/approval.ts).
    const edit = current.status === 'SCHEDULED' ? editFields(caller) : {};
    await writeCampaignChange(projectId, transitionItems(projectId, { campaign: current, action: 'schedule', set: { scheduledFor: iso, scheduleId, failureReason: null, delivery: null, ...edit } }, updatedAt), current);
    await deleteZoneSchedules(current);
    await recordSendAudit(projectId, current, caller, iso);
    return present({ ...current, status: 'SCHEDULED', scheduledFor: iso, failureReason: null, delivery: undefined, updatedAt, version, ...edit }, required);
  }

  const fields = startFields(updatedAt, content);
  await writeCampaignChange(projectId, transitionItems(projectId, { campaign: current, action: 'send', set: { ...fields, scheduledFor: null, scheduleId: null, delivery: null } }, updatedAt), current);
  await queueDispatchOrRollBack(projectId, current, version);
  if (current.status === 'SCHEDULED') await cancelSchedule(campaignScheduleName(campaignId));
  await deleteZoneSchedules(current);
  await recordSendAudit(projectId, current, caller, undefined);
  return present({ ...current, ...fields, status: 'SENDING', scheduledFor: null, delivery: undefined, updatedAt, version }, required);
}

/**
 * POST /campaigns/{id}/send of a PAUSED campaign: PAUSED → SENDING first, so the sender parks no
 * more of its mail, then an unpark message on the fan-out queue, whose consumer queues the parked
 * mail again and continues the fan-out (not in this request: the parked set may be large). The
 * guard's rates start again from the counters at this moment (its baseline), so bounces of mail
 * sent before the pause do not pause it again at once. If the message cannot be queued, the
 * campaign goes back to PAUSED and the error stands, for the client to retry.
 */
async function resumeCampaign(projectId: string, current: StoredCampaign): Promise<Campaign> {
  const updatedAt = new Date().toISOString();
  const guardBaseline = await readGuardCounters(projectId, current.id);
  await writeCampaignChange(projectId, transitionItems(projectId, { campaign: current, action: 'send', set: { pausedAt: null, pauseReason: null, guardBaseline } }, updatedAt), current);
  const resumed: StoredCampaign = { ...current, status: 'SENDING', pausedAt: null, pauseReason: null, guardBaseline, updatedAt, version: current.version + 1 };
  try {
    await sendMessageBatches(config.fanoutQueueUrl, [JSON.stringify({ kind: 'unpark', projectId, campaignId: current.id } satisfies FanoutMessage)]);
  } catch (error) {
    await transactWrite(
      transitionItems(projectId, {
        campaign: resumed,
        action: 'pause',
        set: { pausedAt: current.pausedAt, pauseReason: current.pauseReason, guardBaseline: current.guardBaseline ?? null },
      }),
    );
    throw error;
  }
  logger.info('Campaign resumed', { projectId, campaignId: current.id });
  return present(resumed);
}

/**
 * POST /campaigns/{id}/cancel: SCHEDULED → DRAFT (the schedule deleted after the status changed,
 * so a fire in between finds DRAFT); SENDING → CANCELLED with `campaign.cancelled`: emails not yet
 * handed to SES end CANCELLED (the sender checks right before sending), the rest stands;
 * PAUSED → CANCELLED likewise, its parked mail queued once more to end CANCELLED.
 */
export async function cancelCampaign(projectId: string, campaignId: string): Promise<Campaign> {
  const current = await readCampaign(projectId, campaignId);
  const to = nextStatus('cancel', current.status);
  const updatedAt = new Date().toISOString();
  if (to === 'DRAFT') {
    await writeCampaignChange(projectId, transitionItems(projectId, { campaign: current, action: 'cancel', set: { scheduledFor: null, scheduleId: null, delivery: null } }, updatedAt), current);
    await cancelSchedule(campaignScheduleName(campaignId));
    await deleteZoneSchedules(current);
    return present({ ...current, status: 'DRAFT', scheduledFor: null, delivery: undefined, updatedAt, version: current.version + 1 });
  }
  const cancelled: StoredCampaign = { ...current, status: 'CANCELLED', cancelledAt: updatedAt, updatedAt, version: current.version + 1 };
  await writeCampaignChange(
    projectId,
    [...transitionItems(projectId, { campaign: current, action: 'cancel', set: { cancelledAt: updatedAt } }, updatedAt), notificationWriteItem(projectId, 'campaign.cancelled', { ...present(cancelled) }, campaignId)],
    current,
  );
  // A PAUSED campaign's parked mail goes through the sender once more, which ends it CANCELLED.
  if (current.status === 'PAUSED') await sendMessageBatches(config.fanoutQueueUrl, [JSON.stringify({ kind: 'unpark', projectId, campaignId } satisfies FanoutMessage)]);
  await dropAbSchedule(current);
  // A local-time send's zones not yet gone out stop here: their held mail ends CANCELLED.
  await stopPendingZones(projectId, current);
  logger.info('Campaign cancelled while sending', { projectId, campaignId, from: current.status });
  return present(cancelled);
}

/** A scheduledFor in the future and within the horizon (422 otherwise). */
export function scheduleTime(scheduledFor: string, now = Date.now()): Date {
  const at = new Date(scheduledFor);
  const horizon = now + campaignLimits.maxScheduleDays * 24 * 3600 * 1000;
  if (Number.isNaN(at.getTime()) || at.getTime() <= now) {
    throw validationFailed([{ field: 'scheduledFor', code: 'IN_THE_PAST', message: 'scheduledFor must be in the future' }]);
  }
  if (at.getTime() > horizon) {
    throw validationFailed([{ field: 'scheduledFor', code: 'BEYOND_HORIZON', message: `scheduledFor must be at most ${campaignLimits.maxScheduleDays} days ahead` }]);
  }
  return at;
}

/** What create and update check before writing: parsable content, an existing MARKETING template and segment, a verified sender. */
async function checkContent(projectId: string, campaign: StoredCampaign): Promise<void> {
  checkAbTest(campaign as unknown as Parameters<typeof checkAbTest>[0]);
  assertTemplateParses({ subject: campaign.subject ?? undefined, body: campaign.body ?? undefined, text: campaign.text ?? undefined });
  if (campaign.segmentId) await assertSegmentExists(projectId, campaign.segmentId);
  if (campaign.templateId || campaign.from) await resolveContent(projectId, campaign);
  else throw validationFailed([{ field: 'from', code: 'REQUIRED', message: 'from is required unless the template has a from address' }]);
}


/**
 * GET /campaigns/{id}/audience: who sending now would reach, counted by the dispatch's own
 * audience readers (subscribed, not suppressed), page by page. 422 when the segment is gone.
 */
export async function getCampaignAudience(projectId: string, campaignId: string): Promise<AudienceCounts & { estimatedCost: CostEstimate }> {
  const campaign = await readCampaign(projectId, campaignId);
  const counts = await countAudience(projectId, campaign.segmentId);
  return { ...counts, estimatedCost: estimateCampaignCost(counts.recipients) };
}
