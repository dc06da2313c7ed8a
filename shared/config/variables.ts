/**
 * Every environment variable a Mailwright function is given, each named once: the stack sets them
 * through these entries (the bind… methods of infra/constructs/mailwright-function.ts, the
 * deploy-time settings of infra/function-settings.ts) and the code reads them through the same
 * entries (shared/config/env.ts), so a name cannot differ between the two.
 */
export const variables = {
  // ---- Set by the bind… methods, with the access they grant ----
  tableName: { name: 'TABLE_NAME', holds: 'The single table (bindTable, bindTableUpdates)' },
  payloadBucket: { name: 'PAYLOAD_BUCKET', holds: 'The bucket of email payloads, import and export files (bindBucket, bindBucketPrefix)' },
  sesConfigurationSet: { name: 'SES_CONFIGURATION_SET', holds: 'The configuration set every email is sent through (bindSesSending)' },
  sendQueueUrl: { name: 'SEND_QUEUE_URL', holds: 'The send queue (POST /v1/emails, workflow and dashboard mail)' },
  segmentBuildQueueUrl: { name: 'SEGMENT_BUILD_QUEUE_URL', holds: 'The queue of tracked segment builds' },
  importQueueUrl: { name: 'IMPORT_QUEUE_URL', holds: 'The queue of contact import jobs' },
  exportQueueUrl: { name: 'EXPORT_QUEUE_URL', holds: 'The queue of contact export jobs' },
  workflowQueueUrl: { name: 'WORKFLOW_QUEUE_URL', holds: 'The queue of workflow steps' },
  workflowQueueArn: { name: 'WORKFLOW_QUEUE_ARN', holds: 'The workflow queue as a schedule target (waits beyond 15 minutes)' },
  webhookDeliveryQueueUrl: { name: 'WEBHOOK_DELIVERY_QUEUE_URL', holds: 'The queue of outbound webhook deliveries' },
  campaignFanoutQueueUrl: { name: 'CAMPAIGN_FANOUT_QUEUE_URL', holds: 'The queue of campaign fan-out pages' },
  campaignFanoutQueueArn: { name: 'CAMPAIGN_FANOUT_QUEUE_ARN', holds: 'The fan-out queue as a schedule target (scheduled campaigns)' },
  campaignSendQueueUrl: { name: 'CAMPAIGN_SEND_QUEUE_URL', holds: 'The queue of campaign emails to send' },
  scheduleGroupName: { name: 'SCHEDULE_GROUP_NAME', holds: 'The EventBridge Scheduler group of one-time schedules (bindScheduler)' },
  schedulerRoleArn: { name: 'SCHEDULER_ROLE_ARN', holds: 'The role the scheduler assumes to send to queues (bindScheduler)' },
  unsubscribeSecret: { name: 'UNSUBSCRIBE_SECRET', holds: 'Signs one-click unsubscribe links (bindUnsubscribeLinks)' },
  publicApiUrl: { name: 'PUBLIC_API_URL', holds: 'The API\'s public address, for links and the dashboard\'s base path' },
  accessTokenSecret: { name: 'ACCESS_TOKEN_SECRET', holds: 'Signs and checks dashboard access tokens (bindAccessTokenKey)' },
  dashboardMailFrom: { name: 'DASHBOARD_MAIL_FROM', holds: 'The sender of dashboard invitations and resets; unset, those answer 503' },
  webhookSecretsKey: { name: 'WEBHOOK_SECRETS_KEY', holds: 'Encrypts webhook endpoints\' signing secrets in the table (bindWebhookSecretsKey)' },
  // ---- Set from CDK context by the stack ----
  rateLimitPerMinute: { name: 'RATE_LIMIT_PER_MINUTE', holds: 'Requests per project per minute (-c rateLimitPerMinute)' },
  sendRatePerSecond: { name: 'SEND_RATE_PER_SECOND', holds: 'The account\'s SES sending rate (-c sendRatePerSecond)' },
  pauseBounceRate: { name: 'PAUSE_BOUNCE_RATE', holds: 'Deliverability guard: bounce rate that pauses a campaign (-c pauseBounceRate)' },
  pauseBounceMinSends: { name: 'PAUSE_BOUNCE_MIN_SENDS', holds: 'Deliverability guard: sends before the bounce rate counts (-c pauseBounceMinSends)' },
  pauseComplaintRate: { name: 'PAUSE_COMPLAINT_RATE', holds: 'Deliverability guard: complaint rate that pauses a campaign (-c pauseComplaintRate)' },
  pauseComplaintMinSends: { name: 'PAUSE_COMPLAINT_MIN_SENDS', holds: 'Deliverability guard: sends before the complaint rate counts (-c pauseComplaintMinSends)' },
  // ---- Optional deploy-time settings every function gets when given (infra/function-settings.ts) ----
  webhookAllowedHosts: { name: 'WEBHOOK_ALLOWED_HOSTS', holds: 'Hosts webhooks may reach despite the SSRF check (comma-separated)' },
  webhookRetrySchedule: { name: 'WEBHOOK_RETRY_SCHEDULE', holds: 'Seconds between webhook delivery retries (comma-separated)' },
  webhookDisableAfterSeconds: { name: 'WEBHOOK_DISABLE_AFTER_SECONDS', holds: 'How long every delivery of a webhook endpoint must fail before it is disabled (seconds)' },
  webhookEndpointConcurrency: { name: 'WEBHOOK_ENDPOINT_CONCURRENCY', holds: 'Deliveries in flight per webhook endpoint' },
  segmentInlineBuildMaxContacts: { name: 'SEGMENT_INLINE_BUILD_MAX_CONTACTS', holds: 'Projects up to this many contacts build tracked segments within the request' },
  segmentOnDemandMaxContacts: { name: 'SEGMENT_ON_DEMAND_MAX_CONTACTS', holds: 'The most contacts an on-demand segment evaluation reads' },
  importRowConcurrency: { name: 'IMPORT_ROW_CONCURRENCY', holds: 'Import rows written at once' },
  priceSesPer1000: { name: 'PRICE_SES_PER_1000', holds: 'The cost model (shared/campaigns/cost.ts): SES, USD per 1,000 emails' },
  priceDynamoWritePerMillion: { name: 'PRICE_DYNAMO_WRITE_PER_MILLION', holds: 'The cost model: DynamoDB, USD per million write request units' },
  priceDynamoReadPerMillion: { name: 'PRICE_DYNAMO_READ_PER_MILLION', holds: 'The cost model: DynamoDB, USD per million read request units' },
  priceSqsPerMillion: { name: 'PRICE_SQS_PER_MILLION', holds: 'The cost model: SQS, USD per million requests' },
  priceLambdaRequestsPerMillion: { name: 'PRICE_LAMBDA_REQUESTS_PER_MILLION', holds: 'The cost model: Lambda, USD per million requests' },
  priceLambdaGbSecond: { name: 'PRICE_LAMBDA_GB_SECOND', holds: 'The cost model: Lambda, USD per GB-second' },
  priceApiRequestsPerMillion: { name: 'PRICE_API_REQUESTS_PER_MILLION', holds: 'The cost model: API Gateway (REST), USD per million requests' },
  localDnsFixtures: { name: 'LOCAL_DNS_FIXTURES', holds: 'A DNS fixtures file for POST /v1/verify without a resolver (offline demos and tests)' },
  // ---- Every function: the runtime and Powertools (read by those libraries, but for the namespace) ----
  nodeOptions: { name: 'NODE_OPTIONS', holds: 'Node.js flags (source maps)' },
  logLevel: { name: 'POWERTOOLS_LOG_LEVEL', holds: 'The Powertools logger\'s level' },
  serviceName: { name: 'POWERTOOLS_SERVICE_NAME', holds: 'The service name in logs, metrics and traces' },
  metricsNamespace: { name: 'POWERTOOLS_METRICS_NAMESPACE', holds: 'The CloudWatch namespace of the EMF metrics' },
  tracerCaptureResponse: { name: 'POWERTOOLS_TRACER_CAPTURE_RESPONSE', holds: 'Whether traces keep responses' },
  tracerCaptureError: { name: 'POWERTOOLS_TRACER_CAPTURE_ERROR', holds: 'Whether traces keep errors' },
} as const;

/** One entry of the registry: only these can be set by the stack or read by the code. */
export type Variable = (typeof variables)[keyof typeof variables];
