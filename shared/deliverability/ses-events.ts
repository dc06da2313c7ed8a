import type { EventBridgeEvent } from 'aws-lambda';
import { countDaily } from '../analytics/counters';
import { patchContact } from '../contacts/contacts';
import { advanceStatus, advanceStatusUpdate, getEmail, movesForward, type EmailRecord, type EmailStatus } from '../emails/emails';
import { writeOnce } from '../db/transactions';
import { countEvents, eventWriteItems, newEvent } from '../events/events';
import { ApiError } from '../http/errors';
import { logger } from '../observability/logger';
import { countOutcome, type StatsMetric } from '../stats/stats';
import { suppressionPutItem } from '../suppression/suppression';
import { pauseIfUndeliverable } from '../campaigns/pause';
import { countCampaignEngagement, settleCampaignEmail } from '../campaigns/progress';

/** The `detail` of an SES event on EventBridge (only the fields used here). */
export interface SesEventDetail {
  eventType: string;
  mail: { messageId: string; timestamp: string; tags?: Record<string, string[]> };
  bounce?: { bounceType: string; bounceSubType?: string; bouncedRecipients?: { emailAddress: string; diagnosticCode?: string }[]; timestamp: string };
  complaint?: { complaintFeedbackType?: string; complainedRecipients?: { emailAddress: string }[]; timestamp: string };
  delivery?: { timestamp: string; smtpResponse?: string; processingTimeMillis?: number };
  open?: { timestamp: string; ipAddress?: string; userAgent?: string };
  click?: { timestamp: string; link: string; linkTags?: Record<string, string[]>; ipAddress?: string; userAgent?: string };
  reject?: { reason: string };
  failure?: { errorMessage: string; templateName?: string };
  deliveryDelay?: { timestamp: string; delayType: string; expirationTime?: string };
  send?: Record<string, never>;
}

export type SesEvent = EventBridgeEvent<string, SesEventDetail>;

interface Outcome {
  /** The contact event recorded, with what it carries. */
  name: string;
  data: Record<string, unknown>;
  /** Where the email record moves (forward only), if anywhere. */
  status?: EmailStatus;
  metric: StatsMetric;
  /** Permanent bounces and complaints protect the sender: suppress and unsubscribe. */
  suppress?: 'BOUNCE' | 'COMPLAINT';
  at: string;
}

/** What each SES event type means for Mailwright. */
export function interpret(detail: SesEventDetail): Outcome | undefined {
  const at = detail.mail.timestamp;
  switch (detail.eventType) {
    case 'Send':
      return { name: 'email.sent', data: { sesMessageId: detail.mail.messageId }, status: 'SENT', metric: 'sent', at };
    case 'Delivery':
      return { name: 'email.delivered', data: { smtpResponse: detail.delivery?.smtpResponse }, status: 'DELIVERED', metric: 'delivered', at: detail.delivery?.timestamp ?? at };
    case 'Bounce': {
      const permanent = detail.bounce?.bounceType === 'Permanent';
      return {
        name: 'email.bounced',
        data: { bounceType: detail.bounce?.bounceType, bounceSubType: detail.bounce?.bounceSubType, diagnosticCode: detail.bounce?.bouncedRecipients?.[0]?.diagnosticCode },
        ...(permanent ? { status: 'BOUNCED' as const, suppress: 'BOUNCE' as const } : {}),
        metric: 'bounced',
        at: detail.bounce?.timestamp ?? at,
      };
    }
    case 'Complaint':
      return { name: 'email.complained', data: { feedbackType: detail.complaint?.complaintFeedbackType }, status: 'COMPLAINED', suppress: 'COMPLAINT', metric: 'complained', at: detail.complaint?.timestamp ?? at };
    case 'Reject':
      return { name: 'email.rejected', data: { reason: detail.reject?.reason }, status: 'FAILED', metric: 'rejected', at };
    case 'Rendering Failure':
      return { name: 'email.failed', data: { reason: detail.failure?.errorMessage }, status: 'FAILED', metric: 'failed', at };
    case 'DeliveryDelay':
      return { name: 'email.delayed', data: { delayType: detail.deliveryDelay?.delayType, expirationTime: detail.deliveryDelay?.expirationTime }, metric: 'delayed', at: detail.deliveryDelay?.timestamp ?? at };
    case 'Open':
      return { name: 'email.opened', data: { ipAddress: detail.open?.ipAddress, userAgent: detail.open?.userAgent }, metric: 'opened', at: detail.open?.timestamp ?? at };
    case 'Click':
      return { name: 'email.clicked', data: { link: detail.click?.link, linkTags: detail.click?.linkTags, ipAddress: detail.click?.ipAddress }, metric: 'clicked', at: detail.click?.timestamp ?? at };
    default:
      return undefined;
  }
}

/**
 * Applies one SES event, idempotently: the status moves forward only; suppression and
 * unsubscription are idempotent; the contact event's id is derived from the EventBridge event id
 * (its time part is the event's time), so writing it again is refused by its condition and a
 * replay changes nothing; then the counters are added to. Events of mail we did not tag, or of
 * unknown emails, are logged and dropped (never retried).
 */
export async function applySesEvent(event: SesEvent): Promise<void> {
  const detail = event.detail;
  const projectId = detail.mail.tags?.mw_project?.[0];
  const emailId = detail.mail.tags?.mw_email?.[0];
  const outcome = interpret(detail);
  if (!outcome) {
    logger.info('Ignoring SES event type', { eventType: detail.eventType });
    return;
  }
  if (!projectId || !emailId) return dropUnknown(detail);
  if (detail.eventType === 'Send') return repairSend(event, projectId, emailId, outcome);

  // A status update hands back the record as it was; outcomes without a status, and late or
  // replayed ones (the status did not move), read it.
  const previous = outcome.status ? await advanceStatus(projectId, emailId, outcome.status, statusFields(outcome, detail), outcome.status === 'FAILED' ? {} : sentFields(detail)) : undefined;
  const email = previous ?? (await getEmail(projectId, emailId));
  if (!email) return dropUnknown(detail);
  if (outcome.suppress) await unsubscribe(email);

  const events = [newEvent({ name: outcome.name, contactId: email.contactId, emailId: email.id, data: withoutUndefined({ ...outcome.data, source: email.source }) }, new Date(outcome.at), event.id)];
  // SES told of the delivery (bounce, complaint) before the sender recorded SENT, which it now
  // cannot: its email.sent is recorded here, with this event's writes.
  const overtookSender = previous?.status === 'SENDING' && outcome.status !== 'FAILED';
  if (overtookSender) events.unshift(sentEvent(email, detail, `${event.id}#sent`));
  const written = await writeOnce([
    ...events.flatMap((contactEvent) => eventWriteItems(email.projectId, contactEvent)),
    ...(outcome.suppress ? [suppressionPutItem(email.projectId, email.to.email, outcome.suppress)] : []),
  ]);
  if (!written) {
    logger.info('SES event already applied', { eventId: event.id });
    return;
  }
  // Counted only when this event's write was new (above): a redelivered event never counts twice.
  await Promise.all([
    countEvents(email.projectId, events),
    countOutcome(email, ...(overtookSender ? ['sent' as const] : []), outcome.metric),
    countDaily(email.projectId, [
      ...(overtookSender ? [{ metric: 'sent' as const, at: detail.mail.timestamp }] : []),
      // A transient bounce is not a bounce to SES's bounce rate: the day counts only permanent ones.
      ...(outcome.metric !== 'bounced' || outcome.status === 'BOUNCED' ? [{ metric: outcome.metric, at: outcome.at }] : []),
    ]),
  ]);
  if (email.source.type !== 'campaign') return;
  // Campaigns also count unique openers and clickers and the email the sender could not settle,
  // and each bounce or complaint lets the deliverability guard check the campaign's rates.
  if (outcome.metric === 'opened' || outcome.metric === 'clicked') await countCampaignEngagement(email, outcome.metric);
  if (overtookSender) await settleCampaignEmail(email, 'SENT');
  if (outcome.metric === 'bounced' || outcome.metric === 'complained') await pauseIfUndeliverable(email.projectId, email.source.id!);
}

/**
 * The sender records SENT and email.sent itself when SES accepts the mail, so SES's Send event
 * usually finds the email SENT or beyond and stops after one read. It repairs a record the sender
 * could not finish (still QUEUED or SENDING): the status and email.sent in one transaction, whose
 * condition also settles a race with the sender finishing at the same moment.
 */
async function repairSend(event: SesEvent, projectId: string, emailId: string, outcome: Outcome): Promise<void> {
  const email = await getEmail(projectId, emailId);
  if (!email) return dropUnknown(event.detail);
  if (!movesForward(email.status, 'SENT')) return;
  const sent = sentEvent(email, event.detail, event.id);
  const repaired = await writeOnce([{ Update: advanceStatusUpdate(projectId, emailId, 'SENT', statusFields(outcome, event.detail)) }, ...eventWriteItems(projectId, sent)]);
  if (!repaired) return;
  logger.info('Send event recorded an email the sender had not', { projectId, emailId });
  await Promise.all([countEvents(projectId, [sent]), countOutcome(email, 'sent'), countDaily(projectId, [{ metric: 'sent', at: event.detail.mail.timestamp }])]);
  if (email.source.type === 'campaign') await settleCampaignEmail(email, 'SENT');
}

const sentEvent = (email: EmailRecord, detail: SesEventDetail, idSeed: string) =>
  newEvent({ name: 'email.sent', contactId: email.contactId, emailId: email.id, data: { sesMessageId: detail.mail.messageId, source: email.source } }, new Date(detail.mail.timestamp), idSeed);

/** What a record the sender did not finish lacks: kept where the sender wrote them. */
const sentFields = (detail: SesEventDetail) => ({ sesMessageId: detail.mail.messageId, sentAt: detail.mail.timestamp });

function dropUnknown(detail: SesEventDetail): void {
  logger.warn('SES event for an unknown message; dropped', { messageId: detail.mail.messageId, eventType: detail.eventType });
}

function statusFields(outcome: Outcome, detail: SesEventDetail): Record<string, unknown> {
  if (outcome.status === 'DELIVERED') return { deliveredAt: outcome.at };
  if (outcome.status === 'SENT') return { sesMessageId: detail.mail.messageId, sentAt: outcome.at };
  if (outcome.status === 'BOUNCED' || outcome.status === 'COMPLAINED' || outcome.status === 'FAILED') {
    return { failureReason: String(outcome.data.bounceType ?? outcome.data.feedbackType ?? outcome.data.reason ?? detail.eventType) };
  }
  return {};
}

/** A permanent bounce or a complaint unsubscribes the contact (gone contacts are fine). */
async function unsubscribe(email: EmailRecord): Promise<void> {
  try {
    await patchContact(email.projectId, email.contactId, { subscribed: false });
  } catch (error) {
    if (!(error instanceof ApiError && error.statusCode === 404)) throw error;
  }
}

const withoutUndefined = (data: Record<string, unknown>) => Object.fromEntries(Object.entries(data).filter(([, value]) => value !== undefined));
