import type { OutcomeListener } from '../delivery/outcomes';
import { countVariantOutcome } from './ab-test-counts';
import { countCampaignActivity } from './engagement';
import { pauseIfUndeliverable } from './pause';
import { countCampaignEngagement, settleCampaignEmail } from './progress';

/**
 * What a campaign does with each recorded outcome of its mail (shared/delivery/outcomes.ts):
 * counts its unique openers and clickers, its per-link clicks and hourly figures, settles the email the sender (or SES, in the sender's
 * place) ended — which completes the campaign after its last — and lets the deliverability guard
 * check its rates after each bounce or complaint. Passed to the sender and the SES event handling
 * by their functions.
 */
export const campaignOutcomeListener: OutcomeListener = async (outcome) => {
  const { email, metrics, settles } = outcome;
  if (email.source.type !== 'campaign') return;
  await countCampaignActivity(outcome);
  await countVariantOutcome(outcome);
  if (metrics.includes('opened')) await countCampaignEngagement(email, 'opened');
  if (metrics.includes('clicked')) await countCampaignEngagement(email, 'clicked');
  if (settles) await settleCampaignEmail(email, settles);
  if (metrics.includes('bounced') || metrics.includes('complained')) await pauseIfUndeliverable(email.projectId, email.source.id!);
};
