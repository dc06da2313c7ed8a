import { allMoments, momentKey, wallClock, type LocalTimeDelivery } from '../../shared/campaigns/local-time';
import type { EmailRecord } from '../../shared/emails/emails';

/** A stored campaign item (as DynamoDB holds it) of project P1 that has started sending; tests override what they are about. */
export const P = 'P1';
export const C = '01HZY3K8Q2V9J6M4T7W5X0C1AB';
export const campaignKey = { PK: `PROJECT#${P}`, SK: `CAMPAIGN#${C}` };
export const statsKey = { PK: `PROJECT#${P}`, SK: `STATS#campaign#${C}` };

export const startedCampaignItem = (overrides: Record<string, unknown>) => ({
  ...campaignKey,
  id: C,
  name: 'November',
  description: null,
  subject: 'Hi',
  body: '<p>Hi</p>',
  templateId: null,
  from: { email: 'news@acme.test' },
  replyTo: null,
  segmentId: null,
  status: 'SENDING',
  scheduledFor: null,
  sentAt: '2026-11-23T09:00:00.000Z',
  totalRecipients: 500,
  cancelledAt: null,
  failureReason: null,
  pausedAt: null,
  pauseReason: null,
  createdAt: '2026-11-23T08:00:00.000Z',
  updatedAt: '2026-11-23T09:00:00.000Z',
  ...overrides,
});

/** One recipient's email record of that campaign; tests override its status and what they are about. */
export const campaignEmailRecord = (overrides: Partial<EmailRecord>): EmailRecord => ({
  id: 'E1',
  projectId: P,
  contactId: 'K1',
  to: { email: 'jane@example.com' },
  from: { email: 'news@acme.test' },
  replyTo: [],
  subject: 'November',
  html: '<p>Hi</p>',
  headers: [],
  attachments: [],
  source: { type: 'campaign', id: C },
  marketing: true,
  status: 'SENT',
  createdAt: '2026-11-23T10:00:00.000Z',
  updatedAt: '2026-11-23T10:00:01.000Z',
  ...overrides,
});

/** The first moment of a send at 09:00 local time on 1 December 2026: UTC+14's, 19:00 UTC the day before. */
export const PLUS14_MOMENT = momentKey(Date.parse('2026-11-30T19:00:00Z'));

/** A local-time send's plan (09:00 on 1 December 2026 in each recipient's zone) whose first moment, UTC+14's, has been released. */
export const localTimeDelivery: LocalTimeDelivery = {
  mode: 'LOCAL_TIME',
  localTime: '2026-12-01T09:00',
  timeZoneField: 'data.timezone',
  fallbackTimeZone: 'UTC',
  planId: 'PLAN1',
  moments: allMoments(wallClock('2026-12-01T09:00')),
  released: { [PLUS14_MOMENT]: '2026-11-30T19:00:01.000Z' },
  zones: {},
};
