import { NoSuchKey } from '@aws-sdk/client-s3';
import { SendEmailCommand } from '@aws-sdk/client-sesv2';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Context, SQSRecord } from 'aws-lambda';
import * as v from 'valibot';
import { documentClient } from '../aws/clients';
import { integerEnv, requiredEnv } from '../config/env';
import { variables } from '../config/variables';
import { contactKeys } from '../contacts/keys';
import { tableName } from '../db/table';
import { endClaim, recordSendEnd, recordSendEndEvent, type OutcomeListener } from '../delivery/outcomes';
import { claimEmail, releaseEmail, withContent, type EmailRecord, type SendMessage, type StoredEmail } from '../emails/emails';
import { logger } from '../observability/logger';
import { countMetric, metricNames, timeMetric } from '../observability/metrics';
import { getPayload } from '../payloads/payloads';
import { RetryLater } from '../queue/errors';
import { isSuppressed } from '../suppression/suppression';
import { acquireSendSlot, admitSend, type SendLane } from './pacer';
import { queuedMailFate, recentQueuedMailFate } from '../campaigns/fate';
import { parkCampaignEmail } from '../campaigns/progress';
import { holdUntilDue } from '../campaigns/spread';
import { buildSendEmailInput, classifySesError, gateSendEmail, isSesThrottle, sesClient, type AttachmentContent } from './ses';

/** Configuration, read once at cold start. */
const config = {
  configurationSet: requiredEnv(variables.sesConfigurationSet),
  ratePerSecond: integerEnv(variables.sendRatePerSecond, 14, { max: 10_000 }),
};

// Besides its paced slot, every SendEmail passes this instance's per-second cap where it leaves.
gateSendEmail(() => admitSend(config.ratePerSecond));

/**
 * How long a claim owns the email. No SES call starts after it (the sender checks before the
 * call, and its Lambda's 30-s timeout, infra/constructs/consumers.ts, ends it sooner anyway), so
 * the lease's end is the latest moment a claim's mail can have gone to SES.
 */
export const LEASE_MS = 60_000;
/**
 * A claim that ran out unfinished may have reached SES: its sender stopped (a timeout, a crash)
 * after SES accepted the mail and before recording SENT. Its email is left SENDING, untouched,
 * for this long after the lease's end, while SES's Send, Delivery or Bounce event (through
 * shared/delivery/ses-events.ts) records it; only then is it claimed and sent again (SES never
 * got it: the sender stopped before the call). Ten minutes covers events minutes behind under
 * load (the faults bench saw several); each wait costs the message one receive of its 30.
 */
export const UNSETTLED_GRACE_MS = 10 * 60_000;
/**
 * Time kept for the SES call and recording SENT, before the lease's end and the invocation's: a
 * sender that has no slot by then gives the claim back (QUEUED, retried after a backoff) rather
 * than let its Lambda's timeout leave the email SENDING for UNSETTLED_GRACE_MS.
 */
const SEND_RESERVE_MS = 8_000;
/** Backoff cap for retried sends, in seconds. */
const MAX_BACKOFF_SECONDS = 300;
const RECORD_ATTEMPTS = 4;

/** The send queue's message (`SendMessage` in shared/emails/emails.ts). */
export const sendMessageSchema = v.object({
  projectId: v.pipe(v.string(), v.nonEmpty()),
  emailId: v.pipe(v.string(), v.nonEmpty()),
  correlationId: v.optional(v.pipe(v.string(), v.maxLength(200))),
  notBefore: v.optional(v.pipe(v.string(), v.isoTimestamp())),
  campaignId: v.optional(v.pipe(v.string(), v.nonEmpty())),
});

export const parseSendMessage = (body: unknown): SendMessage => v.parse(sendMessageSchema, body);

/**
 * A send queue's consumer, which tells every outcome it records to `outcomeListeners`: in the
 * pacer's transactional lane for the send queue (transactional and workflow mail), in its campaign
 * lane for the campaign send queue (transactional mail goes first).
 */
export const sendMessageProcessor =
  (lane: SendLane, outcomeListeners: readonly OutcomeListener[]) =>
  (message: SendMessage, record?: SQSRecord, context?: Context): Promise<void> =>
    processEmail(message, record, lane, outcomeListeners, context);

/**
 * Sends one email record, at most once per claim:
 * claim (QUEUED → SENDING with a lease; a redelivered message finds the email sent, and writes
 * the event its end still owes, or comes back after another sender's lease, or after the grace of
 * a claim that ran out unfinished) → marketing to an unsubscribed contact, or any mail to a
 * suppressed address → SUPPRESSED → attachments from S3 → a paced slot (none in time: the claim
 * is given back) → SES SendEmail → SENT, then `email.sent` (recordSendEnd).
 * SES throttling or trouble: the claim is released and the message retried after a backoff
 * (RetryLater); SES rejection: FAILED + `email.failed`, not retried.
 */
async function processEmail(message: SendMessage, record: SQSRecord | undefined, lane: SendLane, listeners: readonly OutcomeListener[], context?: Context): Promise<void> {
  const log = { projectId: message.projectId, emailId: message.emailId };
  // A spread campaign's mail not due yet goes back to the queue, unclaimed.
  await holdUntilDue(message);
  const claimedAt = Date.now();
  // The lease's end bounds when this claim's mail can reach SES (UNSETTLED_GRACE_MS counts from it).
  const sendBy = Math.min(claimedAt + LEASE_MS, context ? claimedAt + context.getRemainingTimeInMillis() : Infinity) - SEND_RESERVE_MS;
  const claim = await claimEmail(message.projectId, message.emailId, { leaseMs: LEASE_MS, graceMs: UNSETTLED_GRACE_MS }, claimedAt);
  if (claim.status === 'held') {
    const reason = claim.unsettled ? 'A claim ran out unfinished and may have reached SES; back after its grace, by when SES has told' : 'Another sender holds the email; back after its lease';
    throw new RetryLater(Math.max(1, Math.ceil((claim.until - Date.now()) / 1000) + 1), reason);
  }
  if (claim.status === 'done') {
    // A sender that stopped between ending its claim and writing the end's event left it owed: written now (a no-op when it is there).
    if (claim.email) await recordSendEndEvent(claim.email, listeners);
    logger.info('Email not there to send (already sent, failed or suppressed); message done', log);
    return;
  }
  const { email } = claim;

  let attachments: AttachmentContent[];
  let content: EmailRecord;
  try {
    // Mail of a campaign cancelled or paused before its turn is held first: no contact or suppression read, no pacer slot (the look is a hint; the hold reads again).
    if (email.source.type === 'campaign' && (await recentQueuedMailFate(email.projectId, email.source.id!)) !== 'send' && (await holdCampaignMail(email, listeners))) return;
    const blocked = await blockReason(email);
    if (blocked) {
      await recordSendEnd(email, 'SUPPRESSED', { failureReason: blocked }, listeners);
      logger.info('Email suppressed', { ...log, reason: blocked });
      return;
    }
    // The content (its own item) is read with the attachments, before the slot: nothing between the slot and SES.
    const [loaded, withItsContent] = await Promise.all([loadAttachments(email), withContent(email)]);
    if (!loaded) {
      await recordSendEnd(email, 'FAILED', { failureReason: 'ATTACHMENT_MISSING' }, listeners);
      logger.error('Attachment missing from the payload bucket; email failed', log);
      return;
    }
    attachments = loaded;
    content = withItsContent;
    await slotBefore(sendBy, lane, record);
    // Checked at the last moment: mail of a campaign cancelled or paused while this waited never leaves.
    if (email.source.type === 'campaign' && (await holdCampaignMail(email, listeners))) return;
    if (Date.now() > sendBy) throw new RetryLater(retryDelaySeconds(receiveCountOf(record)), 'No time left in the claim or the invocation for the send; given back');
  } catch (error) {
    await releaseEmail(email.projectId, email.id);
    throw error;
  }

  let sesMessageId: string;
  try {
    const result = await sesClient.send(new SendEmailCommand(buildSendEmailInput(content, attachments, config.configurationSet)));
    sesMessageId = result.MessageId ?? '';
  } catch (error) {
    const verdict = classifySesError(error);
    if (isSesThrottle(error)) countMetric(metricNames.sesThrottles);
    if (verdict.action === 'reject') {
      await recordSendEnd(email, 'FAILED', { failureReason: verdict.reason }, listeners);
      logger.warn('SES rejected the email; failed for good', { ...log, reason: verdict.reason });
      return;
    }
    await releaseEmail(email.projectId, email.id);
    throw new RetryLater(verdict.delaySeconds ?? retryDelaySeconds(receiveCountOf(record)), verdict.reason);
  }

  timeMetric(metricNames.sendLatency, Date.now() - Date.parse(email.createdAt), { source: email.source.type });
  await recordSent(email, sesMessageId, listeners);
}

/**
 * A paced slot, if one comes before `sendBy`; otherwise RetryLater (the slot then goes unused).
 * The timer is cleared either way, and a late answer of the abandoned wait is settled here.
 */
async function slotBefore(sendBy: number, lane: SendLane, record: SQSRecord | undefined): Promise<void> {
  const slot = acquireSendSlot(config.ratePerSecond, Date.now, lane);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), Math.max(0, sendBy - Date.now()))));
  try {
    const first = await Promise.race([slot, late]);
    if (first === 'late') {
      slot.catch(() => undefined);
      throw new RetryLater(retryDelaySeconds(receiveCountOf(record)), 'No send slot before the claim or the invocation runs out; given back');
    }
  } finally {
    clearTimeout(timer);
  }
}

/** Park attempts before the message is retried: the campaign's status changed under each one. */
const PARK_ATTEMPTS = 3;

/**
 * Campaign mail leaves only while its campaign is SENDING (shared/campaigns/status.ts): a
 * cancelled campaign's ends CANCELLED; a PAUSED campaign's is parked until a resume or cancel
 * queues it again, and its message is done (not retried towards the DLQ). A park that finds the
 * campaign no longer PAUSED reads the status again. Returns whether the email was held back.
 */
async function holdCampaignMail(email: StoredEmail, listeners: readonly OutcomeListener[]): Promise<boolean> {
  const log = { projectId: email.projectId, emailId: email.id, campaignId: email.source.id };
  for (let attempt = 1; attempt <= PARK_ATTEMPTS; attempt++) {
    const fate = await queuedMailFate(email.projectId, email.source.id!);
    if (fate === 'send') return false;
    if (fate === 'cancel') {
      await recordSendEnd(email, 'CANCELLED', { failureReason: 'CAMPAIGN_CANCELLED' }, listeners);
      logger.info('Campaign cancelled; email not sent', log);
      return true;
    }
    const parked = await parkCampaignEmail(email);
    if (parked !== 'not-paused') {
      logger.info(parked === 'parked' ? 'Campaign paused; email parked until it resumes' : 'Email taken by someone else while parking; message done', log);
      return true;
    }
  }
  throw new RetryLater(1, 'The campaign changed status during every park attempt');
}

/** Exponential backoff by receive: 1 s, 2 s, 4 s … capped at 300 s, plus up to 1 s of jitter. */
export function retryDelaySeconds(receiveCount: number, random: () => number = Math.random): number {
  return Math.min(MAX_BACKOFF_SECONDS, 2 ** (Math.max(1, receiveCount) - 1)) + random();
}

const receiveCountOf = (record: SQSRecord | undefined) => {
  const count = Number(record?.attributes?.ApproximateReceiveCount);
  return Number.isFinite(count) && count >= 1 ? count : 1;
};

/** Why this email must not go out, if it must not. */
async function blockReason(email: StoredEmail): Promise<'UNSUBSCRIBED' | 'SUPPRESSED' | undefined> {
  if (email.marketing && !(await isSubscribed(email.projectId, email.contactId))) return 'UNSUBSCRIBED';
  if (await isSuppressed(email.projectId, email.to.email)) return 'SUPPRESSED';
  return undefined;
}

/** A deleted contact counts as unsubscribed: marketing mail only reaches subscribed contacts. */
async function isSubscribed(projectId: string, contactId: string): Promise<boolean> {
  const { Item } = await documentClient.send(
    new GetCommand({
      TableName: tableName,
      Key: contactKeys.contact(projectId, contactId),
      ConsistentRead: true,
      ProjectionExpression: '#subscribed',
      ExpressionAttributeNames: { '#subscribed': 'subscribed' },
    }),
  );
  return Item?.subscribed === true;
}

/** The attachments' bytes, or undefined when one is gone from the bucket (expired). */
async function loadAttachments(email: StoredEmail): Promise<AttachmentContent[] | undefined> {
  try {
    return await Promise.all(
      email.attachments.map(async (attachment) => {
        return { filename: attachment.filename, contentType: attachment.contentType, content: await getPayload(attachment.key) };
      }),
    );
  } catch (error) {
    if (error instanceof NoSuchKey || (error as Error).name === 'NoSuchKey') return undefined;
    throw error;
  }
}

/**
 * After SES accepted the mail, the record must say so — but the message must not be retried for
 * it while the email is SENDING: a redelivery would claim the email again once its lease ends and
 * send it twice. So the end is retried here, and if DynamoDB still refuses, the error is logged
 * (with the SES message id) and the message is done: the email stays SENDING rather than going
 * out twice, and SES's Send event records it (shared/delivery/ses-events.ts). Once the email is
 * SENT a redelivery cannot send it again, so an email.sent that could not be written is left to
 * the message's redelivery, which writes what the record owes.
 */
async function recordSent(email: StoredEmail, sesMessageId: string, listeners: readonly OutcomeListener[]): Promise<void> {
  let ended: StoredEmail | undefined;
  try {
    ended = await retried(() => endClaim(email, 'SENT', { sesMessageId, sentAt: new Date().toISOString() }));
  } catch (error) {
    logger.error('Sent, but could not record it; the email stays SENDING', { projectId: email.projectId, emailId: email.id, sesMessageId, error: error as Error });
    return;
  }
  if (ended) await retried(() => recordSendEndEvent(ended, listeners));
}

/** `write`, tried up to RECORD_ATTEMPTS times with a doubling pause; the last error is thrown. */
async function retried<T>(write: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      if (attempt >= RECORD_ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 * 2 ** attempt));
    }
  }
}
