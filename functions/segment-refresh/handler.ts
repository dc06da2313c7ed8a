import { createEventBridgeHandler } from '../../shared/eventbridge/handler';
import { logger } from '../../shared/observability/logger';
import { refreshTimedSegments } from '../../shared/segments/refresh';

/** Invoked once a day by an EventBridge schedule: queues the refresh of time-dependent tracked segments. */
export const handler = createEventBridgeHandler({
  name: 'segment-refresh',
  process: async () => {
    const queued = await refreshTimedSegments();
    logger.info('Queued the refresh of time-dependent tracked segments', { queued });
  },
});
