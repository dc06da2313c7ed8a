/**
 * The fan-out queue's messages (start and continue a campaign's dispatch; also what its
 * schedule delivers). The campaign send queue carries the send queue's messages (SendMessage),
 * read by the sender in the pacer's campaign lane.
 */
export type FanoutMessage =
  /** From the campaign's one-time schedule: start it if it is still SCHEDULED by this schedule (its id). */
  | { kind: 'start'; projectId: string; campaignId: string; scheduleId: string }
  /** Page the audience of a SENDING campaign onto the campaign send queue. */
  | { kind: 'dispatch'; projectId: string; campaignId: string }
  /** After a resume or a cancel of a PAUSED campaign: queue its parked mail again, then continue its dispatch. */
  | { kind: 'unpark'; projectId: string; campaignId: string }
  /** A moment of a local-time send came (its schedule) or the campaign was cancelled: release that moment's held mail (shared/campaigns/zones.ts). */
  | { kind: 'zone'; projectId: string; campaignId: string; planId: string; moment: string }
  /** From the end of its fan-out until it ends, every minute: complete it if its counters missed a settled email (shared/campaigns/completion-check.ts). */
  | { kind: 'check'; projectId: string; campaignId: string }
  /** From an A/B test's schedule or hand pick (or its own continuation): pick the winner if none is yet, then queue the held rest. */
  | { kind: 'ab-winner'; projectId: string; campaignId: string };
