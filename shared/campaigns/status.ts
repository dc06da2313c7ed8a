import { conflict } from '../http/errors';

/**
 * Campaign statuses and what may happen in each, as tables: a new status (e.g. PAUSED) is a row
 * here plus the code of its own action, and every other rule keeps working.
 *
 *   DRAFT ──schedule──► SCHEDULED ──fire──► SENDING ──complete──► SENT
 *     │  ◄───cancel────────┘                  │
 *     └──────────send (now)──────────────────►│──cancel──► CANCELLED
 */
export const campaignStatuses = ['DRAFT', 'SCHEDULED', 'SENDING', 'SENT', 'CANCELLED'] as const;
export type CampaignStatus = (typeof campaignStatuses)[number];

export type CampaignAction = 'edit' | 'delete' | 'send' | 'schedule' | 'fire' | 'cancel' | 'complete';

/** For each action, the statuses it may start from and the status each leads to. */
export const transitions: Record<CampaignAction, Partial<Record<CampaignStatus, CampaignStatus>>> = {
  edit: { DRAFT: 'DRAFT', SCHEDULED: 'SCHEDULED' },
  delete: { DRAFT: 'DRAFT' },
  send: { DRAFT: 'SENDING', SCHEDULED: 'SENDING' },
  schedule: { DRAFT: 'SCHEDULED', SCHEDULED: 'SCHEDULED' },
  fire: { SCHEDULED: 'SENDING' },
  cancel: { SCHEDULED: 'DRAFT', SENDING: 'CANCELLED' },
  complete: { SENDING: 'SENT' },
};

/** What the sender does with a queued email of a campaign in each status (checked right before SES). */
export const queuedMailFates: Record<CampaignStatus, 'send' | 'cancel'> = {
  DRAFT: 'cancel',
  SCHEDULED: 'cancel',
  SENDING: 'send',
  SENT: 'send',
  CANCELLED: 'cancel',
};

const verbs: Record<CampaignAction, string> = {
  edit: 'edit',
  delete: 'delete',
  send: 'send',
  schedule: 'schedule',
  fire: 'start',
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
