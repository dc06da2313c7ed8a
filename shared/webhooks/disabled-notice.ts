import { dashboardMailConfigured, queueDashboardMail } from '../accounts/mail';
import { listMembers } from '../accounts/users';
import { requiredEnv } from '../config/env';
import { variables } from '../config/variables';
import { derivedUlid } from '../events/events';
import { logger } from '../observability/logger';
import type { Notification } from '../notifications/notifications';
import type { WebhookEndpoint } from './endpoints';

const dashboardUrl = `${requiredEnv(variables.publicApiUrl).replace(/\/+$/, '')}/dashboard`;

/**
 * Tells a project's owners by email that the service disabled one of its webhook endpoints,
 * through the service's own sending (as invitations go). The webhook-events stream consumer calls
 * it for each `webhook.disabled` notification, which the disabling transaction wrote; each mail's
 * id derives from the notification and the owner, so a retried batch sends nothing twice.
 */
export async function emailOwnersOfDisabledEndpoint(projectId: string, notification: Notification): Promise<void> {
  if (!dashboardMailConfigured()) {
    logger.warn('Webhook endpoint disabled; no dashboard mail sender is configured to tell its owners', { projectId, notificationId: notification.id });
    return;
  }
  const endpoint = notification.data as unknown as WebhookEndpoint;
  for (const owner of await projectOwners(projectId)) {
    await queueDashboardMail({
      id: derivedUlid(Date.parse(notification.createdAt), `${notification.id}#${owner.userId}`),
      to: owner.email,
      subject: 'A webhook endpoint of your project was disabled',
      paragraphs: [
        `Mailwright disabled the webhook endpoint ${endpoint.url}.`,
        endpoint.disabledReason ?? 'Every delivery to it failed.',
        'No events are queued for it while it is disabled. When the receiver works again, enable the endpoint on the Webhooks page: its failing streak starts afresh.',
      ],
      link: { url: `${dashboardUrl}/webhooks`, label: 'Open Webhooks' },
      subjectId: owner.userId,
    });
  }
}

/** The project's owners: its members are few (a page of 100 at a time). */
async function projectOwners(projectId: string) {
  const owners: { userId: string; email: string }[] = [];
  let cursor: string | undefined;
  do {
    const page = await listMembers(projectId, { limit: 100, ...(cursor ? { cursor } : {}) });
    owners.push(...page.items.filter((member) => member.role === 'OWNER'));
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return owners;
}
