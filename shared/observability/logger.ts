import { Logger } from '@aws-lambda-powertools/logger';
import type { LogAttributes, LogItemExtraInput, LogItemMessage } from '@aws-lambda-powertools/logger/types';
import { currentCorrelationId } from './correlation';

/** Adds the current correlation id (shared/observability/correlation.ts) to every line. */
class CorrelatedLogger extends Logger {
  override debug(input: LogItemMessage, ...extra: LogItemExtraInput): void {
    super.debug(input, ...correlated(extra));
  }
  override info(input: LogItemMessage, ...extra: LogItemExtraInput): void {
    super.info(input, ...correlated(extra));
  }
  override warn(input: LogItemMessage, ...extra: LogItemExtraInput): void {
    super.warn(input, ...correlated(extra));
  }
  override error(input: LogItemMessage, ...extra: LogItemExtraInput): void {
    super.error(input, ...correlated(extra));
  }
}

function correlated(extra: LogItemExtraInput): LogItemExtraInput {
  const correlationId = currentCorrelationId();
  if (!correlationId) return extra;
  // A lone Error or string is logged under `error` / `extra`, as the logger itself would.
  const [first] = extra;
  const attributes = typeof first === 'string' ? [{ extra: first }] : first instanceof Error ? [{ error: first }] : (extra as LogAttributes[]);
  return [...attributes, { correlation_id: correlationId }];
}

/** One structured JSON logger for every function; the level comes from POWERTOOLS_LOG_LEVEL. */
export const logger: Logger = new CorrelatedLogger({ serviceName: 'mailwright' });
