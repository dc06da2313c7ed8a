import { addToCounters } from '../db/counters';
import type { Outcome } from '../delivery/outcomes';
import { statsKeys } from '../stats/keys';
import { variantCounter } from './ab-test-model';

/*
 * The A/B sample's per-variant counters, counted as outcomes are recorded. Apart from the rest of
 * the test (shared/campaigns/ab-test.ts, which schedules and queues): the sender and the SES events
 * import this through the outcome listener, and they have no scheduler configuration.
 */

/** Counts a sample email's sent and delivered outcomes on its variant (the outcome listener's). */
export async function countVariantOutcome(outcome: Pick<Outcome, 'email' | 'metrics'>): Promise<void> {
  const { email } = outcome;
  if (email.abVariant === undefined) return;
  const adds: Record<string, number> = {};
  for (const metric of outcome.metrics) if (metric === 'sent' || metric === 'delivered') adds[variantCounter(email.abVariant, metric)] = 1;
  if (Object.keys(adds).length > 0) await addToCounters(statsKeys.source(email.projectId, 'campaign', email.source.id!), adds);
}
