import { projectPartition } from '../projects/keys';

/**
 * Table keys of campaigns: built here and nowhere else. A campaign's delivery counters are the
 * stats item of its source (shared/stats/keys.ts: STATS#campaign#<id>).
 *
 * | item       | PK            | SK                                             | TTL       |
 * |------------|---------------|------------------------------------------------|-----------|
 * | campaign   | PROJECT#<pid> | CAMPAIGN#<ulid>                                |           |
 * | counters   | PROJECT#<pid> | COUNTER#CAMPAIGNS (total and one per status)   |           |
 * | engagement | PROJECT#<pid> | CAMPAIGN_ENGAGED#<cid>#<opened/clicked>#<contactId> | 400 days |
 * | parked     | PROJECT#<pid>#CAMPAIGN#<cid>#PARKED | EMAIL#<emailId>                  |           |
 * | link       | PROJECT#<pid> | CAMPAIGN_LINK#<cid>#<sha256 of the url, 32 hex> (url, clicks, uniqueClicks) | |
 * | link count | PROJECT#<pid> | CAMPAIGN_LINKS#<cid> (linkCount: at most MAX_CAMPAIGN_LINKS) |  |
 * | link clicker | PROJECT#<pid> | CAMPAIGN_ENGAGED#<cid>#link#<hash>#<contactId>  | 400 days |
 * | hourly     | PROJECT#<pid> | CAMPAIGN_HOURLY#<cid>#<day since the send started, 00–13> (<metric>_<hour since the send started>; before 2026-11-27 one item, CAMPAIGN_HOURLY#<cid>) | |
 * | held in zone | PROJECT#<pid>#CAMPAIGN#<cid>#ZONE#<moment key> | EMAIL#<emailId>        | 400 days  |
 * | A/B rest   | PROJECT#<pid>#CAMPAIGN#<cid>#ABREST | RECIPIENT#<contactId>             |           |
 *
 * An engagement item exists once per contact who opened (clicked) a campaign: its conditional put
 * decides whether an open is the contact's first, for the unique counts. A parked item marks an
 * email of a PAUSED campaign the sender held back (/docs "Campaigns"): a partition per campaign,
 * so the resume reads exactly that campaign's held mail, page by page. An A/B rest item holds a
 * recipient of an A/B test outside its sample until the winner is picked (shared/campaigns/ab-test.ts).
 * A held-in-zone item marks an email of a local-time send waiting for its zone's moment
 * (shared/campaigns/zones.ts): a partition per moment, read when that moment's schedule fires.
 */
export const campaignKeys = {
  campaign: (projectId: string, campaignId: string) => ({ PK: projectPartition(projectId), SK: `CAMPAIGN#${campaignId}` }),
  campaignPrefix: 'CAMPAIGN#',
  partition: (projectId: string) => projectPartition(projectId),
  counters: (projectId: string) => ({ PK: projectPartition(projectId), SK: 'COUNTER#CAMPAIGNS' }),
  engagement: (projectId: string, campaignId: string, kind: 'opened' | 'clicked', contactId: string) => ({
    PK: projectPartition(projectId),
    SK: `CAMPAIGN_ENGAGED#${campaignId}#${kind}#${contactId}`,
  }),
  link: (projectId: string, campaignId: string, urlHash: string) => ({ PK: projectPartition(projectId), SK: `CAMPAIGN_LINK#${campaignId}#${urlHash}` }),
  linkPrefix: (campaignId: string) => `CAMPAIGN_LINK#${campaignId}#`,
  linkCount: (projectId: string, campaignId: string) => ({ PK: projectPartition(projectId), SK: `CAMPAIGN_LINKS#${campaignId}` }),
  linkClicker: (projectId: string, campaignId: string, urlHash: string, contactId: string) => ({ PK: projectPartition(projectId), SK: `CAMPAIGN_ENGAGED#${campaignId}#link#${urlHash}#${contactId}` }),
  /** A day's hourly counters: an item per day keeps each write to a day's size (an item's ADD is billed by its whole size). */
  hourly: (projectId: string, campaignId: string, day: number) => ({ PK: projectPartition(projectId), SK: `CAMPAIGN_HOURLY#${campaignId}#${String(day).padStart(2, '0')}` }),
  /** Every hourly item of a campaign: its days', and the single item campaigns counted in before. */
  hourlyPrefix: (campaignId: string) => `CAMPAIGN_HOURLY#${campaignId}`,
  parkedPartition: (projectId: string, campaignId: string) => `${projectPartition(projectId)}#CAMPAIGN#${campaignId}#PARKED`,
  parked: (projectId: string, campaignId: string, emailId: string) => ({ PK: campaignKeys.parkedPartition(projectId, campaignId), SK: `EMAIL#${emailId}` }),
  zonePartition: (projectId: string, campaignId: string, moment: string) => `${projectPartition(projectId)}#CAMPAIGN#${campaignId}#ZONE#${moment}`,
  heldInZone: (projectId: string, campaignId: string, moment: string, emailId: string) => ({ PK: campaignKeys.zonePartition(projectId, campaignId, moment), SK: `EMAIL#${emailId}` }),
  abRestPartition: (projectId: string, campaignId: string) => `${projectPartition(projectId)}#CAMPAIGN#${campaignId}#ABREST`,
  abRest: (projectId: string, campaignId: string, contactId: string) => ({ PK: campaignKeys.abRestPartition(projectId, campaignId), SK: `RECIPIENT#${contactId}` }),
};

/** The one-time EventBridge Scheduler schedule of a scheduled campaign (≤ 64 characters). */
export const campaignScheduleName = (campaignId: string) => `campaign-${campaignId}`;

/** The one-time schedule of one moment of a local-time send (its first moment uses campaignScheduleName): ≤ 64 characters. */
export const zoneScheduleName = (campaignId: string, moment: string) => `campaign-${campaignId}-${moment}`;
/** The one-time schedule that picks an A/B test's winner (≤ 64 characters). */
export const abScheduleName = (campaignId: string) => `campaign-ab-${campaignId}`;
