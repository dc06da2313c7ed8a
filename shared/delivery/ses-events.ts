import type { EventBridgeEvent } from 'aws-lambda';
import { advanceStatus, advanceStatusUpdate, emailStatuses, getEmail, movesForward, SENDER_HELD_STATUSES, type EmailStatus, type StoredEmail } from '../emails/emails';
import { derivedUlid, newEvent } from '../events/events';
import { logger } from '../observability/logger';
import type { StatsMetric } from '../stats/stats';
import { recordOutcome, type Outcome, type OutcomeListener } from './outcomes';
import { sesTagNames } from './ses-tags';

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

/** What an SES event reports, for Mailwright. */
export interface ReportedOutcome {
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
export function interpret(detail: SesEventDetail): ReportedOutcome | undefined {
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

/** Rounds of applying one event when the sender keeps finishing the email under it; then EventBridge retries. */
const APPLY_ROUNDS = 3;

/** The statuses the sender is done with: an SES event moves the email from these on its own. */
const AFTER_SENDER = emailStatuses.filter((status) => !SENDER_HELD_STATUSES.includes(status));

/**
 * Applies SES events, telling each recorded outcome to `listeners`. One event is applied
 * idempotently: the status moves forward only; suppression and unsubscription are idempotent;
 * the contact event's id is derived from the EventBridge event id (its time part is the event's
 * time), so writing it again is refused by its condition and a replay changes nothing; then the
 * counters are added to (recordOutcome in shared/delivery/outcomes.ts). Events of mail we did not
 * tag, or of unknown emails, are logged and dropped (never retried).
 *
 * An event that finds the sender still holding the email (SES told of the delivery, bounce or
 * complaint before the sender recorded SENT, which it now cannot) moves it in one transaction with
 * its events, email.sent among them: were the move written first and the events lost to a fault,
 * the retry would find the email moved and never know that its email.sent was owed.
 */
export function sesEventApplier(listeners: readonly OutcomeListener[]): (event: SesEvent) => Promise<void> {
  return async (event) => {
    const detail = event.detail;
    const projectId = detail.mail.tags?.[sesTagNames.project]?.[0];
    const emailId = detail.mail.tags?.[sesTagNames.email]?.[0];
    const reported = interpret(detail);
    if (!reported) {
      logger.info('Ignoring SES event type', { eventType: detail.eventType });
      return;
    }
    if (!projectId || !emailId) return dropUnknown(detail);
    if (detail.eventType === 'Send') return repairSend(event, projectId, emailId, reported, listeners);

    for (let round = 1; round <= APPLY_ROUNDS; round++) {
      // A status move hands back the record as it was, or as it is when it did not move; outcomes without a status read it.
      const move = reported.status ? await advanceStatus(projectId, emailId, reported.status, moveOptions(event, reported, AFTER_SENDER)) : undefined;
      const email = move ? move.email : await getEmail(projectId, emailId);
      if (!email) return dropUnknown(detail);
      const takesOver = reported.status !== undefined && !move?.moved && SENDER_HELD_STATUSES.includes(email.status) && movesForward(email.status, reported.status);
      const recorded = await recordOutcome(takesOver ? takeOverOutcome(event, email, reported) : reportedOutcome(event, email, reported, move?.moved === true), listeners);
      if (recorded || !takesOver) {
        if (!recorded) logger.info('SES event already applied', { eventId: event.id });
        return;
      }
      // Refused: the sender finished the email meanwhile (or another event took it over); apply it to the record as it is now.
    }
    throw new Error(`The email kept changing while SES event ${event.id} was applied`);
  };
}

/** The event on an email whose status the sender is done with (or that does not move it); `moved`: this event's move was just made. */
function reportedOutcome(event: SesEvent, email: StoredEmail, reported: ReportedOutcome, moved: boolean): Outcome {
  return {
    email,
    events: [reportedEvent(event, email, reported)],
    ...(moved ? namedByMove(event, reported) : {}),
    ...(reported.suppress ? { suppress: reported.suppress } : {}),
    metrics: [reported.metric],
    daily: dailyOf(reported),
  };
}

/**
 * The event on an email the sender still holds: the move from exactly the status read, and the
 * events, in one transaction. Unless SES failed the mail, it was sent, and email.sent is recorded
 * with it (its id derived from this event's) and settles the email.
 */
function takeOverOutcome(event: SesEvent, email: StoredEmail, reported: ReportedOutcome): Outcome {
  const detail = event.detail;
  const transition = { Update: advanceStatusUpdate(email.projectId, email.id, reported.status!, moveOptions(event, reported, [email.status])) };
  if (reported.status === 'FAILED') return { ...reportedOutcome(event, email, reported, false), transition };
  return {
    email,
    transition,
    ...namedByMove(event, reported),
    events: [sentEvent(email, detail, `${event.id}#sent`), reportedEvent(event, email, reported)],
    ...(reported.suppress ? { suppress: reported.suppress } : {}),
    metrics: ['sent', reported.metric],
    daily: [{ metric: 'sent', at: detail.mail.timestamp }, ...dailyOf(reported)],
    settles: 'SENT',
  };
}

const moveOptions = (event: SesEvent, reported: ReportedOutcome, from: readonly EmailStatus[]) => ({
  fields: statusFields(event, reported),
  fieldsIfMissing: reported.status === 'FAILED' ? {} : sentFields(event.detail),
  from,
});

const reportedEvent = (event: SesEvent, email: StoredEmail, reported: ReportedOutcome) =>
  newEvent({ name: reported.name, contactId: email.contactId, emailId: email.id, data: withoutUndefined({ ...reported.data, source: email.source }) }, new Date(reported.at), event.id);

/** The id reportedEvent gives this event's contact event, derived as newEvent derives it. */
const reportedEventId = (event: SesEvent, reported: ReportedOutcome) => derivedUlid(new Date(reported.at).getTime(), event.id);

/** A move to DELIVERED names its email.delivered on the record (statusFields), which keeps it out of the email's index. */
const namedByMove = (event: SesEvent, reported: ReportedOutcome): Pick<Outcome, 'namedByRecord'> =>
  reported.status === 'DELIVERED' ? { namedByRecord: reportedEventId(event, reported) } : {};

/** A transient bounce is not a bounce to SES's bounce rate: the day counts only permanent ones. */
const dailyOf = (reported: ReportedOutcome) => (reported.metric !== 'bounced' || reported.status === 'BOUNCED' ? [{ metric: reported.metric, at: reported.at }] : []);

/**
 * The sender records SENT and email.sent itself when SES accepts the mail, so SES's Send event
 * usually finds the email SENT or beyond and stops after one read. It repairs a record the sender
 * could not finish (still QUEUED or SENDING): the status and email.sent in one transaction, whose
 * condition also settles a race with the sender finishing at the same moment.
 */
async function repairSend(event: SesEvent, projectId: string, emailId: string, reported: ReportedOutcome, listeners: readonly OutcomeListener[]): Promise<void> {
  const email = await getEmail(projectId, emailId);
  if (!email) return dropUnknown(event.detail);
  if (!movesForward(email.status, 'SENT')) return;
  const repaired = await recordOutcome(
    {
      email,
      transition: { Update: advanceStatusUpdate(projectId, emailId, 'SENT', { fields: statusFields(event, reported) }) },
      events: [sentEvent(email, event.detail, event.id)],
      metrics: ['sent'],
      daily: [{ metric: 'sent', at: event.detail.mail.timestamp }],
      settles: 'SENT',
    },
    listeners,
  );
  if (repaired) logger.info('Send event recorded an email the sender had not', { projectId, emailId });
}

const sentEvent = (email: StoredEmail, detail: SesEventDetail, idSeed: string) =>
  newEvent({ name: 'email.sent', contactId: email.contactId, emailId: email.id, data: { sesMessageId: detail.mail.messageId, source: email.source } }, new Date(detail.mail.timestamp), idSeed);

/** What a record the sender did not finish lacks: kept where the sender wrote them. */
const sentFields = (detail: SesEventDetail) => ({ sesMessageId: detail.mail.messageId, sentAt: detail.mail.timestamp });

function dropUnknown(detail: SesEventDetail): void {
  logger.warn('SES event for an unknown message; dropped', { messageId: detail.mail.messageId, eventType: detail.eventType });
}

function statusFields(event: SesEvent, reported: ReportedOutcome): Record<string, unknown> {
  const detail = event.detail;
  if (reported.status === 'DELIVERED') return { deliveredAt: reported.at, deliveredEventId: reportedEventId(event, reported) };
  if (reported.status === 'SENT') return { sesMessageId: detail.mail.messageId, sentAt: reported.at };
  if (reported.status === 'BOUNCED' || reported.status === 'COMPLAINED' || reported.status === 'FAILED') {
    return { failureReason: String(reported.data.bounceType ?? reported.data.feedbackType ?? reported.data.reason ?? detail.eventType) };
  }
  return {};
}

const withoutUndefined = (data: Record<string, unknown>) => Object.fromEntries(Object.entries(data).filter(([, value]) => value !== undefined));
