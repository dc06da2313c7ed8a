import { ulid } from 'ulid';
import { requiredEnv } from '../config/env';
import { variables } from '../config/variables';
import { ApiError, validationFailed } from '../http/errors';
import { logger } from '../observability/logger';
import { sendMessageBatches } from '../queue/send-batches';
import { cancelSchedule, scheduleOnce } from '../scheduler/schedules';
import type { Caller } from '../http/handler';
import { assertApproved, recordSendAudit, systemCaller } from './approval';
import { audienceReader, contactIdBound, hasRecipients } from './audience';
import { resolveContent } from './content';
import { campaignScheduleName, zoneScheduleName } from './keys';
import { allMoments, momentOfKey, parseLocalTimeInput, type LocalTimeDelivery, type LocalTimeInput } from './local-time';
import type { FanoutMessage } from './queues';
import { campaignLimits } from './schemas';
import { queueDispatchOrRollBack } from './start-dispatch';
import { nextStatus } from './status';
import { present, readCampaign, startFields, transitionItems, writeCampaignChange, type Campaign, type StoredCampaign } from './store';

/**
 * POST /campaigns/{id}/send with `localTime`: the API side of local-time delivery
 * (shared/campaigns/local-time.ts). One one-time schedule per distinct future moment of the plan
 * (never per recipient): the first is the campaign's own schedule (its start freezes the
 * audience), the others release their moment's held mail (shared/campaigns/zones.ts). Moments
 * already passed are released at once: when the first has passed, the campaign is SENDING now.
 * Schedules are made before the campaign is written: if the write fails, their messages name a
 * plan the campaign does not have and do nothing.
 */

/** Configuration, read once at cold start. */
const config = {
  fanoutQueueUrl: requiredEnv(variables.campaignFanoutQueueUrl),
  fanoutQueueArn: requiredEnv(variables.campaignFanoutQueueArn),
};

export interface LocalTimeSendInput extends LocalTimeInput {
  scheduledFor?: string | null;
}

/** Schedules created or deleted at once. */
const SCHEDULE_CONCURRENCY = 8;

export async function sendAtLocalTime(projectId: string, campaignId: string, input: LocalTimeSendInput, caller: Caller = systemCaller, now = Date.now()): Promise<Campaign> {
  if (input.scheduledFor) {
    throw validationFailed([{ field: 'scheduledFor', code: 'CONFLICTING_FIELDS', message: 'Give either scheduledFor or localTime, not both' }]);
  }
  const { localTime, wall, timeZoneField, fallbackTimeZone } = parseLocalTimeInput(input);
  const current = await readCampaign(projectId, campaignId);
  assertCombinable(current);
  nextStatus('schedule', current.status);
  const required = await assertApproved(projectId, current, caller, 'schedule');
  const moments = allMoments(wall);
  const last = momentOfKey(moments[moments.length - 1]!);
  if (last > now + campaignLimits.maxScheduleDays * 24 * 3600_000) {
    throw validationFailed([{ field: 'localTime', code: 'BEYOND_HORIZON', message: `localTime must be at most ${campaignLimits.maxScheduleDays} days ahead in every time zone` }]);
  }
  const content = await resolveContent(projectId, current);
  if (!(await hasRecipients(await audienceReader(projectId, current.segmentId, contactIdBound(now))))) {
    throw new ApiError(422, 'EMPTY_AUDIENCE', current.segmentId ? 'The campaign\'s segment has no subscribed contacts' : 'The project has no subscribed contacts', {
      suggestion: 'Add subscribed contacts (or members to the segment) before sending.',
    });
  }
  const planId = ulid();
  const updatedAt = new Date(now).toISOString();
  const passed = moments.filter((moment) => momentOfKey(moment) <= now);
  const future = moments.filter((moment) => momentOfKey(moment) > now);
  const delivery: LocalTimeDelivery = { mode: 'LOCAL_TIME', localTime, timeZoneField, fallbackTimeZone, planId, moments, released: Object.fromEntries(passed.map((moment) => [moment, updatedAt])), zones: {} };

  if (passed.length === 0) {
    // SCHEDULED: the first moment starts it (the audience frozen then), the others release their zones.
    const [first, ...rest] = future as [string, ...string[]];
    await schedule([{ name: campaignScheduleName(campaignId), moment: first, message: { kind: 'start', projectId, campaignId, scheduleId: planId } }, ...zoneSchedules(projectId, campaignId, planId, rest)]);
    const scheduledFor = new Date(momentOfKey(first)).toISOString();
    await writeCampaignChange(projectId, transitionItems(projectId, { campaign: current, action: 'schedule', set: { scheduledFor, scheduleId: planId, failureReason: null, delivery } }, updatedAt), current);
    await deleteStaleSchedules(current, [campaignScheduleName(campaignId), ...rest.map((moment) => zoneScheduleName(campaignId, moment))]);
    await recordSendAudit(projectId, current, caller, scheduledFor);
    logger.info('Campaign scheduled at a local time', { projectId, campaignId, localTime, moments: moments.length });
    return present({ ...current, status: 'SCHEDULED', scheduledFor, scheduleId: planId, failureReason: null, delivery, updatedAt, version: current.version + 1 }, required);
  }

  // The first moment has passed: SENDING now (the audience frozen now), the passed moments released.
  await schedule(zoneSchedules(projectId, campaignId, planId, future));
  const fields = { ...startFields(updatedAt, content), delivery };
  await writeCampaignChange(projectId, transitionItems(projectId, { campaign: current, action: 'send', set: { ...fields, scheduledFor: null, scheduleId: null } }, updatedAt), current);
  const version = current.version + 1;
  await queueDispatchOrRollBack(projectId, current, version);
  await deleteStaleSchedules(current, future.map((moment) => zoneScheduleName(campaignId, moment)));
  if (current.status === 'SCHEDULED') await cancelSchedule(campaignScheduleName(campaignId));
  await recordSendAudit(projectId, current, caller, undefined);
  logger.info('Campaign sending at a local time', { projectId, campaignId, localTime, released: passed.length, pending: future.length });
  return present({ ...current, ...fields, status: 'SENDING', scheduledFor: null, updatedAt, version }, required);
}

/**
 * A local-time campaign's schedules after it is sent another way or goes back to DRAFT: the
 * schedules of its moments are deleted (the campaign's own schedule is the caller's).
 */
export async function deleteZoneSchedules(campaign: Pick<StoredCampaign, 'id' | 'delivery'>): Promise<void> {
  if (!campaign.delivery) return;
  await deleteStaleSchedules(campaign, []);
}

/**
 * A SENDING or PAUSED local-time campaign was cancelled: the moments not yet released are
 * stopped (their schedules deleted), and each gets a release message now, which queues its held
 * mail unmarked, for the sender to end CANCELLED (zones.ts).
 */
export async function stopPendingZones(projectId: string, campaign: Pick<StoredCampaign, 'id' | 'delivery'>): Promise<void> {
  const { delivery } = campaign;
  if (!delivery) return;
  const pending = delivery.moments.filter((moment) => delivery.released?.[moment] === undefined);
  await inGroups(pending, (moment) => cancelSchedule(zoneScheduleName(campaign.id, moment)));
  await sendMessageBatches(
    config.fanoutQueueUrl,
    pending.map((moment) => JSON.stringify({ kind: 'zone', projectId, campaignId: campaign.id, planId: delivery.planId, moment } satisfies FanoutMessage)),
  );
}

/**
 * 422 for what a local-time send does not combine with: an A/B test (its sample and winner
 * cannot wait for each zone) or a spread send (each zone's moment is its own burst). Named here
 * by field so that either feature's field refuses it, whichever lands.
 */
function assertCombinable(campaign: StoredCampaign): void {
  const fields = campaign as unknown as Record<string, unknown>;
  if (fields.abTest) throw new ApiError(422, 'LOCAL_TIME_WITH_AB_TEST', 'localTime cannot be combined with abTest: remove the campaign\'s abTest or send it without localTime');
  if (fields.spreadOverMinutes) throw new ApiError(422, 'LOCAL_TIME_WITH_SPREAD', 'localTime cannot be combined with spreadOverMinutes: remove the campaign\'s spreadOverMinutes or send it without localTime');
}

interface PlannedSchedule {
  name: string;
  moment: string;
  message: FanoutMessage;
}

const zoneSchedules = (projectId: string, campaignId: string, planId: string, moments: string[]): PlannedSchedule[] =>
  moments.map((moment) => ({ name: zoneScheduleName(campaignId, moment), moment, message: { kind: 'zone', projectId, campaignId, planId, moment } }));

async function schedule(schedules: PlannedSchedule[]): Promise<void> {
  await inGroups(schedules, ({ name, moment, message }) => scheduleOnce({ name, at: new Date(momentOfKey(moment)), targetArn: config.fanoutQueueArn, message }));
}

/** Deletes the zone schedules of the campaign's earlier plan that the new one does not reuse. */
async function deleteStaleSchedules(campaign: Pick<StoredCampaign, 'id' | 'delivery'>, keep: string[]): Promise<void> {
  const names = (campaign.delivery?.moments ?? []).map((moment) => zoneScheduleName(campaign.id, moment)).filter((name) => !keep.includes(name));
  await inGroups(names, (name) => cancelSchedule(name));
}

async function inGroups<T>(items: T[], run: (item: T) => Promise<void>): Promise<void> {
  for (let start = 0; start < items.length; start += SCHEDULE_CONCURRENCY) await Promise.all(items.slice(start, start + SCHEDULE_CONCURRENCY).map(run));
}

