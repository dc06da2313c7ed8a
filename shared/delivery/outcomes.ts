import { decodeTime, ulid } from 'ulid';
import { patchContact } from '../contacts/contacts';
import { writeOnce, type TransactItem } from '../db/transactions';
import { eventIdsNamedBy, finishClaim, type EmailStatus, type SendEndStatus, type StoredEmail } from '../emails/emails';
import { eventWriteItems, type ContactEvent } from '../events/events';
import { ApiError } from '../http/errors';
import { logger } from '../observability/logger';
import { countMetric, metricNames } from '../observability/metrics';
import { emitOutcomeMetrics, type StatsMetric } from '../stats/stats';
import { suppressionPutItem, type SuppressionReason } from '../suppression/suppression';
import { tallyOf } from './tallies';

/**
 * One thing that happened to an email — the sender ended it (sent, failed, suppressed,
 * cancelled) or SES reported on it (sent, delivered, bounced, complained, opened, clicked,
 * rejected, failed, delayed) — as recorded by recordOutcome.
 */
export interface Outcome {
  /** The email as it was before this outcome. */
  email: StoredEmail;
  /** The email's status move, when it is written with the events; its condition refuses a move no longer due. */
  transition?: TransactItem;
  /** The contact events recorded, in order; a replayed outcome carries the same ids, whose writes are refused. */
  events: ContactEvent[];
  /** The id of one of `events` that this outcome's status move names on the record (its `deliveredEventId`). */
  namedByRecord?: string;
  /** A permanent bounce or a complaint protects the sender: the address is suppressed (with the events) and the contact unsubscribed. */
  suppress?: Exclude<SuppressionReason, 'MANUAL'>;
  /** Added to the stats of the email's source: tallied for the table stream, or by a campaign's listener (shared/campaigns/outcome-listener.ts). */
  metrics: StatsMetric[];
  /** Added to the project's day counters (shared/analytics/counters.ts), each on the UTC day it happened. */
  daily: { metric: StatsMetric; at: string }[];
  /** The final status the email reaches on the sender's side (SENT, FAILED, SUPPRESSED, CANCELLED), when this outcome sets it. */
  settles?: EmailStatus;
}

/**
 * What another domain does when an outcome was recorded (campaigns settle their mail and guard
 * their deliverability: shared/campaigns/outcome-listener.ts). Listeners are passed in by the
 * function that records outcomes, never registered on import, so a bundle cannot miss one; each
 * is awaited in turn.
 */
export type OutcomeListener = (outcome: Outcome) => Promise<void>;

/**
 * Records one outcome, at most once: the status move, the events and a suppression are written
 * together, all or none, under conditions that refuse a repeat (a redelivered message or SES event,
 * another sender); only a new write is told to the listeners, so nothing counts twice. The first
 * event carries the outcome's tally (its source stats and day counts), which the table stream adds
 * up with the events' own counts (shared/delivery/tallies.ts); a campaign's stats are added by its
 * listener, in one ADD with the progress counters it keeps on the same item. Returns false when the
 * write was refused.
 */
export async function recordOutcome(outcome: Outcome, listeners: readonly OutcomeListener[]): Promise<boolean> {
  const { email } = outcome;
  if (outcome.suppress) await unsubscribe(email);
  const campaign = email.source.type === 'campaign';
  const tally = tallyOf(campaign ? undefined : email.source, outcome.metrics, outcome.daily);
  // The events the record names (as it was, or as this outcome's move leaves it) need no entry in the email's index.
  const named = new Set([...eventIdsNamedBy(email), ...(outcome.namedByRecord ? [outcome.namedByRecord] : [])]);
  const written = await writeOnce([
    ...(outcome.transition ? [outcome.transition] : []),
    ...outcome.events.flatMap((event, index) =>
      eventWriteItems(email.projectId, event, { tally: index === 0 ? tally : tallyOf(undefined, [], []), namedByEmailRecord: named.has(event.id) }),
    ),
    ...(outcome.suppress ? [suppressionPutItem(email.projectId, email.to.email, outcome.suppress)] : []),
  ]);
  if (!written) return false;
  emitOutcomeMetrics(email, outcome.metrics);
  if (outcome.settles === 'FAILED') countMetric(metricNames.emailsFailed, { source: email.source.type });
  for (const listener of listeners) await listener(outcome);
  return true;
}

/** The contact event that tells each way a sender ends an email. */
const SEND_END_EVENTS: Record<SendEndStatus, string> = {
  SENT: 'email.sent',
  FAILED: 'email.failed',
  SUPPRESSED: 'email.suppressed',
  CANCELLED: 'email.cancelled',
};

/**
 * The sender's end of an email it claimed, in two writes rather than one transaction (which
 * DynamoDB bills at twice the units of both items): the claim ends with `status` and `fields`,
 * the record marked with the end and its event's id (its condition refuses once the claim is no
 * longer this sender's: another sender or an SES event finished it, and that one recorded it);
 * then the event (recordSendEndEvent). A sender that stops between the two leaves the event owed
 * on the record: its message comes back, finds the email done, and writes it then
 * (shared/sending/sender.ts). Returns the record as ended, or undefined when someone else ended it.
 * `fields` carry the reason as `failureReason`, or the SES message id: the event is made from them.
 */
export async function recordSendEnd(email: StoredEmail, status: SendEndStatus, fields: Record<string, unknown>, listeners: readonly OutcomeListener[]): Promise<StoredEmail | undefined> {
  const ended = await endClaim(email, status, fields);
  if (ended) await recordSendEndEvent(ended, listeners);
  return ended;
}

/** The first of recordSendEnd's two writes: the record as ended, or undefined when someone else ended it. */
export async function endClaim(email: StoredEmail, status: SendEndStatus, fields: Record<string, unknown>): Promise<StoredEmail | undefined> {
  const ended = await finishClaim(email, status, fields, ulid());
  if (!ended) logger.warn('Email was finished by someone else; leaving it', { projectId: email.projectId, emailId: email.id, status });
  return ended;
}

/**
 * Writes the event a sender's end owes (the record's `sendEnd`) unless it is written, made from
 * the record alone, so every try writes the same item; only the write that makes it is counted
 * and told to the listeners. A record no sender ended has nothing owed.
 */
export async function recordSendEndEvent(ended: StoredEmail, listeners: readonly OutcomeListener[]): Promise<void> {
  const event = sendEndEvent(ended);
  if (!event) return;
  const sent = ended.sendEnd!.status === 'SENT';
  await recordOutcome(
    {
      email: ended,
      events: [event],
      metrics: sent ? ['sent'] : [],
      daily: sent ? [{ metric: 'sent', at: event.createdAt }] : [],
      settles: ended.sendEnd!.status,
    },
    listeners,
  );
}

/** The event of a sender's end: at the time of its id, with the SES message id (sent) or the reason (failed, suppressed, cancelled). */
export function sendEndEvent(ended: StoredEmail): ContactEvent | undefined {
  const end = ended.sendEnd;
  if (!end) return undefined;
  const told = end.status === 'SENT' ? { sesMessageId: ended.sesMessageId } : { reason: ended.failureReason };
  return {
    id: end.eventId,
    name: SEND_END_EVENTS[end.status],
    contactId: ended.contactId,
    emailId: ended.id,
    data: { ...told, subject: ended.subject, source: ended.source },
    createdAt: new Date(decodeTime(end.eventId)).toISOString(),
  };
}

/** A permanent bounce or a complaint unsubscribes the contact (gone contacts are fine). */
async function unsubscribe(email: StoredEmail): Promise<void> {
  try {
    await patchContact(email.projectId, email.contactId, { subscribed: false });
  } catch (error) {
    if (!(error instanceof ApiError && error.statusCode === 404)) throw error;
  }
}
