import { perBatchLoader } from '../streams/batch-loader';
import type { StreamChange } from '../streams/handler';
import { queueDeliveries } from './delivery-queue';
import { loadSubscriptions } from './subscriptions';
import { webhookEventsOf } from './events';
import { subscribes } from './kinds';

export type SubscriptionLoader = (projectId: string) => Promise<{ endpointId: string; events: string[] }[]>;

/**
 * The subscriptions of each project, read once per stream batch (after the batch was fetched, so
 * an endpoint created before a change was written is never missed): one consistent GetItem of
 * the project's subscription index, whether it has endpoints or not. That read is all a project
 * without endpoints costs per batch.
 */
export const subscriptionLoader = (): SubscriptionLoader => perBatchLoader(loadSubscriptions);

/** Queues one delivery per (event, subscribed endpoint) for a project's changes, in stream order. */
export async function fanOut(projectId: string, changes: StreamChange[], subscriptionsOf: SubscriptionLoader): Promise<void> {
  const subscriptions = await subscriptionsOf(projectId);
  if (subscriptions.length === 0) return;
  for (const change of changes) {
    for (const event of webhookEventsOf(change)) {
      const endpointIds = subscriptions.filter((subscription) => subscribes(subscription.events, event.type)).map((subscription) => subscription.endpointId);
      if (endpointIds.length > 0) await queueDeliveries(projectId, event, endpointIds);
    }
  }
}
