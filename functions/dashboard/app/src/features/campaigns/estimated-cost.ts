import type { CampaignAudience } from './api';

type Cost = CampaignAudience['estimatedCost'];

/**
 * Dollars: cents from a cent up, else four decimals (a small campaign costs a fraction of a cent);
 * under a hundredth of a cent, "< $0.0001", which a rounded "$0.0000" would hide.
 */
export const formatUsd = (amount: number) => {
  if (amount >= 0.01 || amount === 0) return `$${amount.toFixed(2)}`;
  return amount < 0.0001 ? '< $0.0001' : `$${amount.toFixed(4)}`;
};

/** "$0.0024 (SES $0.0020, other AWS $0.0004)": the estimate of GET /campaigns/{id}/audience. */
export const costSentence = (cost: Cost) => `${formatUsd(cost.total)} (SES ${formatUsd(cost.ses)}, other AWS ${formatUsd(cost.aws)})`;
