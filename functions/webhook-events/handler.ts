import { createStreamHandler, type StreamHandler } from '../../shared/streams/handler';
import { projectOfChange } from '../../shared/webhooks/events';
import { fanOut, subscriptionLoader } from '../../shared/webhooks/fanout';

/**
 * The table stream's consumer that feeds outbound webhooks: the changes of events, contacts and
 * notifications are grouped by project (one subscription read per project per batch) and each
 * matching (event, endpoint) pair becomes a queued delivery. Nothing is POSTed here.
 */
export const handler: StreamHandler = (event, context) => {
  const subscriptionsOf = subscriptionLoader();
  return createStreamHandler({
    name: 'webhook-events',
    keyOf: projectOfChange,
    process: (changes) => fanOut(projectOfChange(changes[0]!)!, changes, subscriptionsOf),
  })(event, context);
};
