import type { OutcomeListener } from '../delivery/outcomes';
import { countVariantOutcome } from './ab-test-counts';
import { countCampaignActivity } from './engagement';
import { pauseIfUndeliverable } from './pause';
import { countCampaignEngagement, countCampaignOutcome } from './progress';

/**
 * What a campaign does with each recorded outcome of its mail (shared/delivery/outcomes.ts):
 * counts it on the campaign's stats and settles the email the sender (or SES, in the sender's
 * place) ended, in one ADD — which completes the campaign after its last —, counts its unique
 * openers and clickers, its per-link clicks and hourly figures, and lets the deliverability guard
 * check its rates after each bounce or complaint. Passed to the sender and the SES event handling
 * by their functions.
 */
export const campaignOutcomeListener: OutcomeListener = async (outcome) => {
  const { email, metrics, settles } = outcome;
  if (email.source.type !== 'campaign') return;
  await countCampaignOutcome(email, metrics, settles);
  await countCampaignActivity(outcome);
  await countVariantOutcome(outcome);
  if (metrics.includes('opened')) await countCampaignEngagement(email, 'opened');
  if (metrics.includes('clicked')) await countCampaignEngagement(email, 'clicked');
  if (metrics.includes('bounced') || metrics.includes('complained')) await pauseIfUndeliverable(email.projectId, email.source.id!);
};
