import type { Stack } from 'aws-cdk-lib';
import { variables } from '../../shared/config/variables';
import { queueConsumer, streamConsumer } from '../constructs/consumers';
import type { Api } from './api';
import type { SharedResources } from './shared-resources';

/**
 * Outbound webhooks (README "Webhooks"): table stream → webhook-events → delivery queue →
 * webhook-delivery. Endpoint signing secrets are kept in the table, encrypted with the generated
 * key (AES-256-GCM), which the API function and the delivery worker both hold.
 */
export function addWebhooks(stack: Stack, resources: SharedResources, api: Api): void {
  const { table, removalPolicy, webhookSecretsKey } = resources;
  const webhookDeliveryQueue = resources.queue('webhook-deliveries');
  api.function('webhooks').bindQueue(webhookDeliveryQueue, variables.webhookDeliveryQueueUrl).bindWebhookSecretsKey(webhookSecretsKey);
  queueConsumer(stack, 'webhook-deliveries', webhookDeliveryQueue, table, { logRemovalPolicy: removalPolicy })
    .bindQueue(webhookDeliveryQueue, variables.webhookDeliveryQueueUrl)
    .bindWebhookSecretsKey(webhookSecretsKey);
  streamConsumer(stack, 'webhook-events', table, removalPolicy).bindQueue(webhookDeliveryQueue, variables.webhookDeliveryQueueUrl);
}
