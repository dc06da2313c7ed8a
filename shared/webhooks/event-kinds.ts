// No imports: the dashboard offers these kinds in its endpoint form (features/webhooks).

/**
 * The event kinds an endpoint can subscribe to (/docs "Webhooks"): the service's contact events
 * (EVENT# items), contact changes (CONTACT# items) and project-level notifications
 * (NOTIFICATION# items); `*` for every kind; `event:<name>` for a custom tracked event.
 */
export const WEBHOOK_EVENT_KINDS = [
  'email.sent',
  'email.delivered',
  'email.delayed',
  'email.bounced',
  'email.complained',
  'email.rejected',
  'email.failed',
  'email.opened',
  'email.clicked',
  'email.suppressed',
  'contact.created',
  'contact.updated',
  'contact.deleted',
  'contact.unsubscribed',
  'segment.entered',
  'segment.exited',
  'campaign.sent',
  'campaign.cancelled',
  'campaign.paused',
  'workflow.execution.completed',
  'workflow.execution.failed',
  'webhook.disabled',
] as const;
