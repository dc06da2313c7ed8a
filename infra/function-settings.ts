/**
 * Tunables an operator may set at deploy as CDK context (`cdk deploy -c webhookAllowedHosts=…`):
 * each one given reaches every function as its variable (they are read by shared modules that many
 * functions bundle, so one list serves instead of a second import graph). Unset, the variable is
 * absent and the code's default applies. The local stack passes them from its own environment
 * variables of the same names (infra/local/environment.ts).
 */
export const functionSettings = [
  /** Hosts outbound webhooks and workflow webhook steps may reach despite the SSRF check (comma-separated). */
  { context: 'webhookAllowedHosts', env: 'WEBHOOK_ALLOWED_HOSTS' },
  /** Seconds between webhook delivery retries (comma-separated). */
  { context: 'webhookRetrySchedule', env: 'WEBHOOK_RETRY_SCHEDULE' },
  { context: 'webhookEndpointConcurrency', env: 'WEBHOOK_ENDPOINT_CONCURRENCY' },
  /** Projects up to this many contacts get tracked segments built within the request. */
  { context: 'segmentInlineBuildMaxContacts', env: 'SEGMENT_INLINE_BUILD_MAX_CONTACTS' },
  { context: 'segmentOnDemandMaxContacts', env: 'SEGMENT_ON_DEMAND_MAX_CONTACTS' },
  { context: 'importRowConcurrency', env: 'IMPORT_ROW_CONCURRENCY' },
  /** A DNS fixtures file for POST /v1/verify without a resolver (offline demos and tests). */
  { context: 'dnsFixtures', env: 'LOCAL_DNS_FIXTURES' },
] as const;
