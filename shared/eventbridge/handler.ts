import type { Context, EventBridgeEvent } from 'aws-lambda';
import { logger } from '../observability/logger';
import { flushMetrics } from '../observability/metrics';
import { inSubsegment } from '../observability/tracer';

/**
 * The one EventBridge handler factory. EventBridge invokes asynchronously, one event at a time:
 * a thrown error makes Lambda retry and then the rule's DLQ take the event, so `process` must be
 * idempotent; events it cannot use are logged and dropped by returning normally.
 */
export function createEventBridgeHandler<TDetail>(options: { name: string; process: (event: EventBridgeEvent<string, TDetail>) => Promise<void> }) {
  return async (event: EventBridgeEvent<string, TDetail>, context: Context): Promise<void> => {
    logger.appendKeys({ function: options.name, eventId: event.id, detailType: event['detail-type'], awsRequestId: context.awsRequestId });
    try {
      await inSubsegment(options.name, {}, () => options.process(event));
    } catch (error) {
      logger.error('Event processing failed; EventBridge will retry', { error: error as Error });
      throw error;
    } finally {
      logger.resetKeys();
      flushMetrics();
    }
  };
}
