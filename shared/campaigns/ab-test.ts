import { DeleteCommand, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Context } from 'aws-lambda';
import { documentClient } from '../aws/clients';
import { requiredEnv } from '../config/env';
import { variables } from '../config/variables';
import { tableName } from '../db/table';
import { updateIfStill } from '../db/transactions';
import { putEmailOnce } from '../emails/emails';
import { ApiError, conflict, validationFailed } from '../http/errors';
import { logger } from '../observability/logger';
import { sendMessageBatches } from '../queue/send-batches';
import { cancelSchedule, scheduleOnce } from '../scheduler/schedules';
import { statsKeys } from '../stats/keys';
import { bestVariant, variantStats } from './ab-test-model';
import type { Recipient } from './audience';
import { tallyEmails } from './completion-check';
import { campaignEmail } from './content';
import { abScheduleName, campaignKeys } from './keys';
import type { FanoutMessage } from './queues';
import { present, readCampaign, type Campaign, type StoredCampaign } from './store';

/**
 * The A/B subject test of a campaign (described in /docs under POST /campaigns): the frozen audience
 * is read once, by the dispatch; every sample position gets its variant's subject at once, every
 * other recipient is held as a marker in the campaign's rest partition. When the audience has been
 * read, the phase moves SAMPLE → WAITING and one one-time schedule is made for `waitMinutes`
 * later; its run looks whether the sample has gone out and comes back until `waitMinutes` after
 * its last email did; then it (or POST /campaigns/{id}/ab-winner) moves WAITING → WINNER, once, by a
 * conditional write, and then the rest partition is paged onto the campaign send queue with the
 * winner's subject. Email ids derive from campaign and contact (content.ts), records are put
 * once and the sender's claim sends a twice-queued email once: a redelivery or restart sends no
 * one twice and picks no winner twice. The campaign's `recipients` (progress.ts) is the whole
 * audience, sample and rest, so it completes (SENT) only after the rest has settled.
 */
/** Configuration, read when first used: the campaigns API uses the fan-out queue only, the dispatch all three. */
const config = {
  get fanoutQueueUrl() {
    return requiredEnv(variables.campaignFanoutQueueUrl);
  },
  get fanoutQueueArn() {
    return requiredEnv(variables.campaignFanoutQueueArn);
  },
  get campaignSendQueueUrl() {
    return requiredEnv(variables.campaignSendQueueUrl);
  },
};

const PUT_CONCURRENCY = 16;

/** Holds the recipients not in the sample: one marker each in the campaign's rest partition (a redo puts the same). */
export async function holdRest(projectId: string, campaignId: string, recipients: Recipient[]): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(PUT_CONCURRENCY, recipients.length) }, async () => {
      while (next < recipients.length) {
        const recipient = recipients[next++]!;
        await documentClient.send(new PutCommand({ TableName: tableName, Item: { ...campaignKeys.abRest(projectId, campaignId, recipient.id), recipient } }));
      }
    }),
  );
}

/**
 * The whole audience has been read: WAITING, with its one-time schedule. Called by the dispatch
 * before it marks the fan-out done, so a crash in between redoes it: the schedule first (made
 * again, it is replaced), then the phase, conditioned on it not being set. The schedule's run
 * accepts a campaign whose phase was never set, so neither order of a crash loses the pick.
 * A cancelled campaign gets none.
 */
export async function startWaiting(projectId: string, campaign: Pick<StoredCampaign, 'id' | 'status' | 'abTest'>, now = Date.now()): Promise<void> {
  const campaignId = campaign.id;
  const test = campaign.abTest;
  if (!test || test.phase || (campaign.status !== 'SENDING' && campaign.status !== 'PAUSED')) return;
  const at = new Date(now + test.waitMinutes * 60_000);
  const message: FanoutMessage = { kind: 'ab-winner', projectId, campaignId };
  await scheduleOnce({ name: abScheduleName(campaignId), at, targetArn: config.fanoutQueueArn, message });
  const waiting = await updateIfStill({
    TableName: tableName,
    Key: campaignKeys.campaign(projectId, campaignId),
    UpdateExpression: 'SET abTest.phase = :waiting, abTest.waitUntil = :at',
    ConditionExpression: 'attribute_exists(abTest) AND attribute_not_exists(abTest.phase)',
    ExpressionAttributeValues: { ':waiting': 'WAITING', ':at': at.toISOString() },
  });
  if (waiting) logger.info('A/B sample queued; waiting for the winner', { projectId, campaignId, waitUntil: at.toISOString() });
}

/**
 * WAITING → WINNER, once: conditioned on the campaign still sending (or paused) and on the phase
 * (`from`). Returns false when the condition refused it (picked already, cancelled).
 */
async function pick(projectId: string, campaignId: string, variant: number, pickedBy: 'schedule' | 'hand', from: 'waiting' | 'waiting-or-unset'): Promise<boolean> {
  const picked = await updateIfStill({
    TableName: tableName,
    Key: campaignKeys.campaign(projectId, campaignId),
    UpdateExpression: 'SET abTest.phase = :winner, abTest.winner = :variant, abTest.pickedBy = :by, abTest.pickedAt = :now',
    ConditionExpression: `#status IN (:sending, :paused) AND attribute_exists(abTest) AND (abTest.phase = :waiting${from === 'waiting-or-unset' ? ' OR attribute_not_exists(abTest.phase)' : ''})`,
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: { ':winner': 'WINNER', ':variant': variant, ':by': pickedBy, ':now': new Date().toISOString(), ':sending': 'SENDING', ':paused': 'PAUSED', ':waiting': 'WAITING' },
  });
  if (picked) logger.info('A/B winner picked', { projectId, campaignId, variant, pickedBy });
  return picked;
}

/**
 * POST /campaigns/{id}/ab-winner: ends the wait with this variant. 409 AB_TEST_NOT_WAITING unless
 * the campaign is SENDING (or PAUSED) and WAITING; 422 on a variant it does not have. The rest is
 * queued by a fan-out message; the schedule is deleted after (if that fails, its run finds the
 * winner and only sends what is still held).
 */
export async function chooseWinner(projectId: string, campaignId: string, variant: number): Promise<Campaign> {
  const campaign = await readCampaign(projectId, campaignId);
  const test = campaign.abTest;
  if (!test) throw conflict('NO_AB_TEST', 'The campaign has no A/B test');
  if (variant >= test.variants.length) throw validationFailed([{ field: 'variant', code: 'OUT_OF_RANGE', message: `variant must be between 0 and ${test.variants.length - 1}` }]);
  const waiting = test.phase === 'WAITING' && (campaign.status === 'SENDING' || campaign.status === 'PAUSED');
  if (!waiting || !(await pick(projectId, campaignId, variant, 'hand', 'waiting'))) {
    const now = await readCampaign(projectId, campaignId);
    throw conflict('AB_TEST_NOT_WAITING', `The A/B test is not waiting for a winner (the campaign is ${now.status}, its test ${now.abTest?.phase ?? 'SAMPLE'})`);
  }
  await sendMessageBatches(config.fanoutQueueUrl, [JSON.stringify({ kind: 'ab-winner', projectId, campaignId } satisfies FanoutMessage)]);
  await cancelSchedule(abScheduleName(campaignId));
  return present(await readCampaign(projectId, campaignId));
}

/** A cancelled campaign's pending pick is dropped (its run would find it CANCELLED and do nothing anyway). */
export async function dropAbSchedule(campaign: Pick<StoredCampaign, 'id' | 'abTest'>): Promise<void> {
  if (campaign.abTest) await cancelSchedule(abScheduleName(campaign.id));
}

/** Markers read, queued and deleted per step of the rest's fan-out. */
const REST_PAGE_SIZE = 250;
const RESERVE_MS = 10_000;

/**
 * The `ab-winner` fan-out message (from the schedule, the hand pick, or its own continuation):
 * picks the winner if none is yet (highest rate, ties the first), then queues the held rest with
 * the winner's subject, page by page (records put once, markers deleted after their messages are
 * queued). A campaign no longer SENDING or PAUSED gets nothing (cancel while WAITING sends no more).
 */
export async function runAbWinner(projectId: string, campaignId: string, context?: Context): Promise<void> {
  const remaining = () => context?.getRemainingTimeInMillis() ?? 30_000;
  let campaign = await readCampaign(projectId, campaignId).catch((error: unknown) => {
    if (error instanceof ApiError && error.statusCode === 404) return undefined;
    throw error;
  });
  const active = (c: StoredCampaign | undefined): c is StoredCampaign => !!c?.abTest && (c.status === 'SENDING' || c.status === 'PAUSED');
  if (!active(campaign)) {
    logger.info('A/B winner run for a campaign no longer sending; nothing sent', { projectId, campaignId, status: (campaign as StoredCampaign | undefined)?.status });
    return;
  }
  if (campaign.abTest!.phase !== 'WINNER') {
    const due = await pickDueAt(projectId, campaign);
    if (due === undefined || due > Date.now()) {
      await runWinnerAgain(projectId, campaignId, due === undefined ? SAMPLE_CHECK_SECONDS : (due - Date.now()) / 1000);
      return;
    }
    const { Item } = await documentClient.send(new GetCommand({ TableName: tableName, Key: statsKeys.source(projectId, 'campaign', campaignId), ConsistentRead: true }));
    await pick(projectId, campaignId, bestVariant(variantStats(campaign, Item), campaign.abTest!.metric), 'schedule', 'waiting-or-unset');
    campaign = await readCampaign(projectId, campaignId);
  }
  for (;;) {
    if (!active(campaign) || campaign.abTest!.phase !== 'WINNER') return;
    if (remaining() < RESERVE_MS) {
      await sendMessageBatches(config.fanoutQueueUrl, [JSON.stringify({ kind: 'ab-winner', projectId, campaignId } satisfies FanoutMessage)]);
      return;
    }
    const page = await documentClient.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': campaignKeys.abRestPartition(projectId, campaignId) },
        ConsistentRead: true,
        Limit: REST_PAGE_SIZE,
      }),
    );
    const held = page.Items ?? [];
    if (held.length === 0) return;
    const test = campaign.abTest!;
    const content = { ...campaign.content!, subject: test.variants[test.winner!]!.subject };
    const now = new Date().toISOString();
    const records = held.map((item) => campaignEmail(projectId, { id: campaignId, sentAt: campaign!.sentAt! }, content, item.recipient as Recipient, now));
    await forEach(records, (record) => putEmailOnce(record));
    await sendMessageBatches(config.campaignSendQueueUrl, records.map((record) => JSON.stringify({ projectId, emailId: record.id })));
    await forEach(held, (item) => documentClient.send(new DeleteCommand({ TableName: tableName, Key: { PK: item.PK, SK: item.SK } })).then(() => undefined));
    logger.info('A/B rest queued with the winner', { projectId, campaignId, emails: records.length, winner: test.winner });
    campaign = await readCampaign(projectId, campaignId);
  }
}

/** How often a winner run looks again while the sample is still being sent. */
const SAMPLE_CHECK_SECONDS = 60;

/**
 * The pick is due `waitMinutes` after the sample has gone out: after the last of its emails was
 * sent (or otherwise settled), read from the campaign's emails (shared/campaigns/completion-check.ts;
 * while WAITING they are the sample's only). Undefined while some are still queued or sending.
 * Once known, the countdown the API shows (`waitUntil`) is moved to it.
 */
async function pickDueAt(projectId: string, campaign: StoredCampaign): Promise<number | undefined> {
  const tally = await tallyEmails(projectId, campaign);
  if (!tally) return undefined;
  const due = tally.lastSettledAt + campaign.abTest!.waitMinutes * 60_000;
  if (campaign.abTest!.waitUntil !== new Date(due).toISOString()) {
    await updateIfStill({
      TableName: tableName,
      Key: campaignKeys.campaign(projectId, campaign.id),
      UpdateExpression: 'SET abTest.waitUntil = :at',
      ConditionExpression: 'abTest.phase = :waiting',
      ExpressionAttributeValues: { ':at': new Date(due).toISOString(), ':waiting': 'WAITING' },
    });
  }
  return due;
}

/** The winner run again in `seconds` (SQS delays at most 15 minutes: a longer wait takes several). */
async function runWinnerAgain(projectId: string, campaignId: string, seconds: number): Promise<void> {
  const delaySeconds = Math.min(900, Math.max(1, Math.ceil(seconds)));
  await sendMessageBatches(config.fanoutQueueUrl, [JSON.stringify({ kind: 'ab-winner', projectId, campaignId } satisfies FanoutMessage)], { delaySeconds });
}

async function forEach<T>(items: T[], run: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(PUT_CONCURRENCY, items.length) }, async () => {
      while (next < items.length) await run(items[next++]!);
    }),
  );
}
