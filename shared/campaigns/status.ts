import { conflict } from '../http/errors';

/**
 * Campaign statuses and what may happen in each, as tables: a new status (e.g. PAUSED) is a row
 * here plus the code of its own action, and every other rule keeps working.
 *
 *   DRAFT ──schedule──► SCHEDULED ──fire──► SENDING ──complete──► SENT
 *     │  ◄───cancel────────┘                 │ ▲  │
 *     └──────────send (now)─────────────────►│ │  └──cancel──► CANCELLED
 *                                       pause│ │send (resume)      ▲
 *                                            ▼ │                   │
 *                                           PAUSED ─────cancel─────┘
 */
export const campaignStatuses = ['DRAFT', 'SCHEDULED', 'SENDING', 'PAUSED', 'SENT', 'CANCELLED'] as const;
export type CampaignStatus = (typeof campaignStatuses)[number];

export type CampaignAction = 'edit' | 'delete' | 'send' | 'schedule' | 'fire' | 'pause' | 'cancel' | 'complete';

/** For each action, the statuses it may start from and the status each leads to. */
export const transitions: Record<CampaignAction, Partial<Record<CampaignStatus, CampaignStatus>>> = {
  edit: { DRAFT: 'DRAFT', SCHEDULED: 'SCHEDULED' },
  delete: { DRAFT: 'DRAFT' },
  /** From PAUSED: the resume (shared/campaigns/guard.ts). */
  send: { DRAFT: 'SENDING', SCHEDULED: 'SENDING', PAUSED: 'SENDING' },
  schedule: { DRAFT: 'SCHEDULED', SCHEDULED: 'SCHEDULED' },
  fire: { SCHEDULED: 'SENDING' },
  /** The deliverability guard's, never the API's. */
  pause: { SENDING: 'PAUSED' },
  cancel: { SCHEDULED: 'DRAFT', SENDING: 'CANCELLED', PAUSED: 'CANCELLED' },
  complete: { SENDING: 'SENT' },
};

export type QueuedMailFate = 'send' | 'park' | 'cancel';

/**
 * What the sender does with a queued email of a campaign in each status (checked right before
 * SES): a PAUSED campaign's mail is parked until the campaign is resumed or cancelled.
 */
export const queuedMailFates: Record<CampaignStatus, QueuedMailFate> = {
  DRAFT: 'cancel',
  SCHEDULED: 'cancel',
  SENDING: 'send',
  PAUSED: 'park',
  SENT: 'send',
  CANCELLED: 'cancel',
};

const verbs: Record<CampaignAction, string> = {
  edit: 'edit',
  delete: 'delete',
  send: 'send',
  schedule: 'schedule',
  fire: 'start',
  pause: 'pause',
  cancel: 'cancel',
  complete: 'complete',
};

/** The status `action` leads to from `current`, or 409 INVALID_CAMPAIGN_STATE naming the current status. */
export function nextStatus(action: CampaignAction, current: CampaignStatus): CampaignStatus {
  const next = transitions[action][current];
  if (next) return next;
  const allowed = Object.keys(transitions[action]).join(' or ');
  throw conflict('INVALID_CAMPAIGN_STATE', `Cannot ${verbs[action]} a campaign that is ${current}; only a ${allowed} campaign can be`);
}
