import type { EventBridgeEvent } from 'aws-lambda';
import { patchContact } from '../contacts/contacts';
import { tableName } from '../db/table';
import { advanceStatus, getEmail, type EmailRecord, type EmailStatus } from '../emails/emails';
import { transactWrite } from '../db/transactions';
import { countEvents, eventWriteItems, newEvent } from '../events/events';
import { eventKeys } from '../events/keys';
import { ApiError } from '../http/errors';
import { logger } from '../observability/logger';
import { countOutcome, type StatsMetric } from '../stats/stats';
import { suppressionPutItem } from '../suppression/suppression';

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

const PROCESSED_EVENT_TTL_SECONDS = 14 * 24 * 3600;

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
 * unsubscription are idempotent; the contact event is written in one transaction with a marker
 * of the EventBridge event id, so a replay changes nothing; then the counters are added to.
 * Events of mail we did not tag, or of unknown emails, are logged and dropped (never retried).
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
  // The sender records email.sent itself when SES accepts the mail; SES's own Send event only
  // repairs a record the sender could not finish, so it needs no read unless the status moves.
  if (detail.eventType === 'Send' && projectId && emailId && !(await advanceStatus(projectId, emailId, 'SENT', statusFields(outcome, detail)))) return;
  const email = projectId && emailId ? await getEmail(projectId, emailId) : undefined;
  if (!email) {
    logger.warn('SES event for an unknown message; dropped', { messageId: detail.mail.messageId, eventType: detail.eventType });
    return;
  }

  if (outcome.status && detail.eventType !== 'Send') await advanceStatus(email.projectId, email.id, outcome.status, statusFields(outcome, detail));
  if (outcome.suppress) await unsubscribe(email);

  const contactEvent = newEvent({ name: outcome.name, contactId: email.contactId, emailId: email.id, data: withoutUndefined({ ...outcome.data, source: email.source }) }, new Date(outcome.at));
  try {
    await transactWrite([
      {
        Put: {
          TableName: tableName,
          Item: { ...eventKeys.sesEventSeen(email.projectId, event.id), expiresAt: Math.floor(Date.now() / 1000) + PROCESSED_EVENT_TTL_SECONDS },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
      ...eventWriteItems(email.projectId, contactEvent),
      ...(outcome.suppress ? [suppressionPutItem(email.projectId, email.to.email, outcome.suppress)] : []),
    ]);
  } catch (error) {
    const reasons = (error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons;
    if (reasons?.[0]?.Code === 'ConditionalCheckFailed') {
      logger.info('SES event already applied', { eventId: event.id });
      return;
    }
    throw error;
  }
  await Promise.all([countEvents(email.projectId, [contactEvent]), countOutcome(email, outcome.metric)]);
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
