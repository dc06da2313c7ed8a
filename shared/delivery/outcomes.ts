import { countDaily } from '../analytics/counters';
import { patchContact } from '../contacts/contacts';
import { writeOnce, type TransactItem } from '../db/transactions';
import { finishClaimItem, type EmailStatus, type StoredEmail } from '../emails/emails';
import { countEvents, eventWriteItems, newEvent, type ContactEvent } from '../events/events';
import { ApiError } from '../http/errors';
import { logger } from '../observability/logger';
import { countMetric, metricNames } from '../observability/metrics';
import { countOutcome, type StatsMetric } from '../stats/stats';
import { suppressionPutItem, type SuppressionReason } from '../suppression/suppression';

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
  /** A permanent bounce or a complaint protects the sender: the address is suppressed (with the events) and the contact unsubscribed. */
  suppress?: Exclude<SuppressionReason, 'MANUAL'>;
  /** Added to the stats of the email's source (shared/stats/stats.ts). */
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
 * another sender); only a new write is counted (events, source stats, day) and told to the
 * listeners, so nothing counts twice. Returns false when the write was refused.
 */
export async function recordOutcome(outcome: Outcome, listeners: readonly OutcomeListener[]): Promise<boolean> {
  const { email } = outcome;
  if (outcome.suppress) await unsubscribe(email);
  const written = await writeOnce([
    ...(outcome.transition ? [outcome.transition] : []),
    ...outcome.events.flatMap((event) => eventWriteItems(email.projectId, event)),
    ...(outcome.suppress ? [suppressionPutItem(email.projectId, email.to.email, outcome.suppress)] : []),
  ]);
  if (!written) return false;
  await Promise.all([
    countEvents(email.projectId, outcome.events),
    ...(outcome.metrics.length > 0 ? [countOutcome(email, ...outcome.metrics)] : []),
    countDaily(email.projectId, outcome.daily),
  ]);
  if (outcome.settles === 'FAILED') countMetric(metricNames.emailsFailed, { source: email.source.type });
  for (const listener of listeners) await listener(outcome);
  return true;
}

/** How the sender ends an email: the status (with the fields written beside it) and the contact event that tells it. */
export interface SendEnd {
  status: EmailStatus;
  fields: Record<string, unknown>;
  event: string;
  data: Record<string, unknown>;
}

/**
 * The sender's end of an email it claimed: the claim ends with `end.status` (its condition refuses
 * once the claim is no longer this sender's — another sender or an SES Send event finished it, and
 * that one counted it) and the event is recorded with it.
 */
export async function recordSendEnd(email: StoredEmail, end: SendEnd, listeners: readonly OutcomeListener[]): Promise<void> {
  const event = newEvent({ name: end.event, contactId: email.contactId, emailId: email.id, data: { ...end.data, subject: email.subject, source: email.source } });
  const sent = end.status === 'SENT';
  const recorded = await recordOutcome(
    {
      email,
      transition: finishClaimItem(email.projectId, email.id, end.status, end.fields),
      events: [event],
      metrics: sent ? ['sent'] : [],
      daily: sent ? [{ metric: 'sent', at: event.createdAt }] : [],
      settles: end.status,
    },
    listeners,
  );
  if (!recorded) logger.warn('Email was finished by someone else; leaving it', { projectId: email.projectId, emailId: email.id, status: end.status });
}

/** A permanent bounce or a complaint unsubscribes the contact (gone contacts are fine). */
async function unsubscribe(email: StoredEmail): Promise<void> {
  try {
    await patchContact(email.projectId, email.contactId, { subscribed: false });
  } catch (error) {
    if (!(error instanceof ApiError && error.statusCode === 404)) throw error;
  }
}
