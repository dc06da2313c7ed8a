import type { Stack } from 'aws-cdk-lib';
import { variables } from '../../shared/config/variables';
import { queueConsumer, streamConsumer } from '../constructs/consumers';
import type { Api } from './api';
import type { DashboardMail } from './dashboard';
import type { SharedResources } from './shared-resources';

/**
 * Outbound webhooks (README "Webhooks"): table stream → webhook-events → delivery queue →
 * webhook-delivery. Endpoint signing secrets are kept in the table, encrypted with the generated
 * key (AES-256-GCM), which the API function and the delivery worker both hold. An endpoint whose
 * deliveries all fail for `-c webhookDisableAfterSeconds` (a day) is disabled and its owners mailed.
 */
export function addWebhooks(stack: Stack, resources: SharedResources, api: Api, { dashboardMail }: { dashboardMail: DashboardMail }): void {
  const { table, removalPolicy, webhookSecretsKey } = resources;
  const webhookDeliveryQueue = resources.queue('webhook-deliveries');
  api.function('webhooks').bindQueue(webhookDeliveryQueue, variables.webhookDeliveryQueueUrl).bindWebhookSecretsKey(webhookSecretsKey);
  queueConsumer(stack, 'webhook-deliveries', webhookDeliveryQueue, table, { logRemovalPolicy: removalPolicy })
    .bindQueue(webhookDeliveryQueue, variables.webhookDeliveryQueueUrl)
    .bindWebhookSecretsKey(webhookSecretsKey);
  // It also mails a project's owners when the service disables one of its endpoints.
  streamConsumer(stack, 'webhook-events', table, removalPolicy)
    .bindQueue(webhookDeliveryQueue, variables.webhookDeliveryQueueUrl)
    .bindDashboardMail(dashboardMail)
    .bindPublicApiUrl(api.publicApiUrl);
}
