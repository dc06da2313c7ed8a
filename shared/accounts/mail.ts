import { ulid } from 'ulid';
import { ConfigError, optionalEnv } from '../config/env';
import { variables } from '../config/variables';
import { ApiError } from '../http/errors';
import { putEmailOnce, type EmailRecord } from '../emails/emails';
import { enqueueEmails } from '../sending/send-queue';

/**
 * Invitations and password resets go out through the service's own pipeline (an email record +
 * a send-queue message, as /v1/send does), from the address the operator chose at deploy
 * (`-c dashboardMailFrom=…`, on a domain SES has verified). They are recorded under their own
 * partition, not under a customer project, so they never count in a project's emails or stats.
 */
const mailFrom = readMailFrom();

/**
 * DASHBOARD_MAIL_FROM (bindDashboardMail, from `-c dashboardMailFrom`): a stack deployed without
 * it still signs users in, but answers 503 where it would have to mail (invitations, resets).
 */
function readMailFrom(): string | undefined {
  const value = optionalEnv(variables.dashboardMailFrom)?.trim();
  if (!value) return undefined;
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)) throw new ConfigError(`DASHBOARD_MAIL_FROM must be an email address, got "${value}"`);
  return value;
}

/** Whether this deployment can send dashboard mail at all (mail that is only a courtesy is skipped without). */
export const dashboardMailConfigured = () => mailFrom !== undefined;

export function assertDashboardMailConfigured(): string {
  if (mailFrom) return mailFrom;
  throw new ApiError(503, 'DASHBOARD_MAIL_NOT_CONFIGURED', 'This deployment has no sender address for dashboard mail', {
    suggestion: 'Deploy with -c dashboardMailFrom=dashboard@<a verified domain>.',
  });
}
export const DASHBOARD_MAIL_PROJECT = 'mailwright-dashboard';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);

export interface DashboardMail {
  to: string;
  subject: string;
  /** Plain paragraphs; the link is added as a button-like anchor after them. */
  paragraphs: string[];
  link: { url: string; label: string };
  /** Stands in for the contact id on the record and its events: the user or invitation it concerns. */
  subjectId: string;
  /** The email's id when the mail answers something that may be handled twice (a retried stream batch): derived from it, so it is sent once. */
  id?: string;
}

export async function queueDashboardMail(mail: DashboardMail): Promise<string> {
  const from = assertDashboardMailConfigured();
  const now = new Date().toISOString();
  const html = [
    ...mail.paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`),
    `<p><a href="${escapeHtml(mail.link.url)}">${escapeHtml(mail.link.label)}</a></p>`,
    `<p>${escapeHtml(mail.link.url)}</p>`,
  ].join('\n');
  const record: EmailRecord = {
    id: mail.id ?? ulid(),
    projectId: DASHBOARD_MAIL_PROJECT,
    contactId: mail.subjectId,
    to: { email: mail.to },
    from: { email: from, name: 'Mailwright' },
    replyTo: [],
    subject: mail.subject,
    html,
    headers: [],
    attachments: [],
    source: { type: 'transactional' },
    marketing: false,
    status: 'QUEUED',
    createdAt: now,
    updatedAt: now,
  };
  // Queued even when the record was there already: a first run may have died before queueing it, and the sender claims a record once.
  await putEmailOnce(record);
  await enqueueEmails([{ projectId: record.projectId, emailId: record.id }]);
  return record.id;
}
