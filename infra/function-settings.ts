import { priceSettings } from '../shared/campaigns/cost';
import { variables } from '../shared/config/variables';

/**
 * Tunables an operator may set at deploy as CDK context (`cdk deploy -c webhookAllowedHosts=…`):
 * each one given reaches every function as its variable (they are read by shared modules that many
 * functions bundle, so one list serves instead of a second import graph). Unset, the variable is
 * absent and the code's default applies. The local stack passes them from its own environment
 * variables of the same names (infra/local/settings.ts).
 */
export const functionSettings = [
  { context: 'webhookAllowedHosts', env: variables.webhookAllowedHosts.name },
  { context: 'webhookRetrySchedule', env: variables.webhookRetrySchedule.name },
  { context: 'webhookDisableAfterSeconds', env: variables.webhookDisableAfterSeconds.name },
  { context: 'webhookEndpointConcurrency', env: variables.webhookEndpointConcurrency.name },
  { context: 'segmentInlineBuildMaxContacts', env: variables.segmentInlineBuildMaxContacts.name },
  { context: 'segmentOnDemandMaxContacts', env: variables.segmentOnDemandMaxContacts.name },
  { context: 'importRowConcurrency', env: variables.importRowConcurrency.name },
  ...Object.values(priceSettings).map((setting) => ({ context: setting.context, env: setting.variable.name })),
  { context: 'dnsFixtures', env: variables.localDnsFixtures.name },
] as const;
