import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../aws/clients';
import { tableName } from '../db/table';
import { statsKeys } from '../stats/keys';
import { variantStats, type VariantStats } from './ab-test-model';
import { readCampaignHourly, readCampaignLinks, type HourStats, type LinkStats } from './engagement';
import { readCampaign } from './store';

export interface CampaignStats {
  totalRecipients: number;
  sentCount: number;
  deliveredCount: number;
  /** Unique contacts. */
  openedCount: number;
  /** Unique contacts. */
  clickedCount: number;
  opens: number;
  clicks: number;
  bouncedCount: number;
  complainedCount: number;
  unsubscribedCount: number;
  failedCount: number;
  suppressedCount: number;
  cancelledCount: number;
  deliveryRate: number;
  openRate: number;
  clickRate: number;
  bounceRate: number;
  complaintRate: number;
  unsubscribeRate: number;
  /** Clicks per link, most clicked first. */
  links: LinkStats[];
  /** Every UTC hour since sending started, up to 14 days. */
  hourly: HourStats[];
  /** An A/B test's sample, per variant ([] without a test). */
  variants: VariantStats[];
}

/** Percent of `of`, two decimals; 0 when nothing was sent. */
const rate = (count: number, of: number) => (of > 0 ? Math.round((count / of) * 10_000) / 100 : 0);

/** GET /campaigns/{id}/stats: two GetItems (the campaign, its counters) and two Queries (its hourly items, its links), whatever its size. */
export async function getCampaignStats(projectId: string, campaignId: string): Promise<CampaignStats> {
  const campaign = await readCampaign(projectId, campaignId);
  const [{ Item }, links, hourly] = await Promise.all([
    documentClient.send(new GetCommand({ TableName: tableName, Key: statsKeys.source(projectId, 'campaign', campaignId) })),
    readCampaignLinks(projectId, campaignId),
    readCampaignHourly(projectId, campaignId, campaign.sentAt ?? null),
  ]);
  const read = (name: string) => (Item?.[name] as number | undefined) ?? 0;
  const sent = read('sent');
  const counts = {
    totalRecipients: campaign.totalRecipients ?? 0,
    sentCount: sent,
    deliveredCount: read('delivered'),
    openedCount: read('uniqueOpened'),
    clickedCount: read('uniqueClicked'),
    opens: read('opened'),
    clicks: read('clicked'),
    bouncedCount: read('bounced'),
    complainedCount: read('complained'),
    unsubscribedCount: read('unsubscribed'),
    failedCount: read('failed') + read('rejected'),
    suppressedCount: read('suppressed'),
    cancelledCount: read('cancelled'),
  };
  return {
    ...counts,
    deliveryRate: rate(counts.deliveredCount, sent),
    openRate: rate(counts.openedCount, sent),
    clickRate: rate(counts.clickedCount, sent),
    bounceRate: rate(counts.bouncedCount, sent),
    complaintRate: rate(counts.complainedCount, sent),
    unsubscribeRate: rate(counts.unsubscribedCount, sent),
    links,
    hourly,
    variants: variantStats(campaign, Item),
  };
}
