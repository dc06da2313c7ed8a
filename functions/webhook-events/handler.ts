import { createStreamHandler, type StreamHandler } from '../../shared/streams/handler';
import { disabledEndpointNotice, projectOfChange } from '../../shared/webhooks/events';
import { emailOwnersOfDisabledEndpoint } from '../../shared/webhooks/disabled-notice';
import { fanOut, subscriptionLoader } from '../../shared/webhooks/fanout';

/**
 * The table stream's consumer that feeds outbound webhooks: the changes of events, contacts and
 * notifications are grouped by project (one subscription read per project per batch) and each
 * matching (event, endpoint) pair becomes a queued delivery. Nothing is POSTed here. An endpoint
 * the service disabled is also mailed to the project's owners.
 */
export const handler: StreamHandler = createStreamHandler({
  name: 'webhook-events',
  perBatch: subscriptionLoader,
  keyOf: projectOfChange,
  process: async (changes, subscriptionsOf) => {
    const projectId = projectOfChange(changes[0]!)!;
    await fanOut(projectId, changes, subscriptionsOf);
    for (const notice of changes.map(disabledEndpointNotice)) if (notice) await emailOwnersOfDisabledEndpoint(projectId, notice);
  },
});
