/** The spread as GET /campaigns/{id} shows it once sending has started (shared/campaigns/spread.ts: how a spread send goes). */
export interface SpreadView {
  overMinutes: number;
  startedAt: string;
  /** When the last email is due: startedAt + overMinutes (later only if the SES rate cannot keep up). */
  endsAt: string;
  /** The audience counted when the dispatch started (N); null until then. */
  recipients: number | null;
}

export function spreadView(campaign: { spreadOverMinutes?: number | null; sentAt: string | null; dispatch?: { spreadOf?: number } }): SpreadView | null {
  if (!campaign.spreadOverMinutes || !campaign.sentAt) return null;
  return {
    overMinutes: campaign.spreadOverMinutes,
    startedAt: campaign.sentAt,
    endsAt: new Date(Date.parse(campaign.sentAt) + campaign.spreadOverMinutes * 60_000).toISOString(),
    recipients: campaign.dispatch?.spreadOf ?? null,
  };
}
