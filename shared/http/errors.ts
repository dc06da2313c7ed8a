/**
 * The one error hierarchy. Every error a client may see is an ApiError; anything else is a bug
 * and becomes a 500 with only the requestId (see toErrorResponse).
 */
export interface FieldError {
  field: string;
  message: string;
  code: string;
  /** Where in the field, for multi-line text such as a template body (1-based). */
  line?: number;
}

export interface ApiErrorOptions {
  errors?: FieldError[];
  suggestion?: string;
  headers?: Record<string, string>;
}

export class ApiError extends Error {
  override name = 'ApiError';
  readonly errors?: FieldError[];
  readonly suggestion?: string;
  readonly headers: Record<string, string>;

  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    options: ApiErrorOptions = {},
  ) {
    super(message);
    this.errors = options.errors;
    this.suggestion = options.suggestion;
    this.headers = options.headers ?? {};
  }
}

export const badRequest = (code: string, message: string, suggestion?: string) =>
  new ApiError(400, code, message, { suggestion });

export const validationFailed = (errors: FieldError[]) =>
  new ApiError(422, 'VALIDATION_ERROR', 'The request did not pass validation', {
    errors,
    suggestion: 'Fix the fields listed in errors and try again.',
  });

export const unauthorized = (message = 'A valid API key is required') =>
  new ApiError(401, 'UNAUTHORIZED', message, {
    suggestion: 'Send the header Authorization: Bearer <API key>.',
  });

export const forbidden = (code: string, message: string) => new ApiError(403, code, message);

export const notFound = (what: string) => new ApiError(404, 'NOT_FOUND', `${what} not found`);

export const conflict = (code: string, message: string) => new ApiError(409, code, message);

export const payloadTooLarge = (limitBytes: number) =>
  new ApiError(413, 'PAYLOAD_TOO_LARGE', `The request body exceeds the limit of ${limitBytes} bytes for this route`);

export const rateLimited = (retryAfterSeconds: number, limitPerMinute: number) =>
  new ApiError(429, 'RATE_LIMITED', `Rate limit of ${limitPerMinute} requests per minute exceeded`, {
    headers: { 'Retry-After': String(retryAfterSeconds) },
    suggestion: `Retry after ${retryAfterSeconds} seconds.`,
  });

/** Seconds a client should wait before retrying a request a dependency could not serve. */
export const SERVICE_UNAVAILABLE_RETRY_AFTER_SECONDS = 1;

export const serviceUnavailable = () =>
  new ApiError(503, 'SERVICE_UNAVAILABLE', 'A service this request depends on is busy or failing; nothing was changed that a retry would repeat', {
    headers: { 'Retry-After': String(SERVICE_UNAVAILABLE_RETRY_AFTER_SECONDS) },
    suggestion: `Retry after ${SERVICE_UNAVAILABLE_RETRY_AFTER_SECONDS} second with the same request (and the same Idempotency-Key on POST /v1/send).`,
  });

/** Error names the AWS SDK treats as throttling (as @smithy/service-error-classification does). */
const THROTTLING_NAMES = new Set([
  'BandwidthLimitExceeded', 'EC2ThrottledException', 'LimitExceededException', 'PriorRequestNotComplete', 'ProvisionedThroughputExceededException',
  'RequestLimitExceeded', 'RequestThrottled', 'RequestThrottledException', 'SlowDown', 'ThrottledException', 'Throttling', 'ThrottlingException',
  'TooManyRequestsException', 'TransactionInProgressException',
]);
const TRANSIENT_NAMES = new Set(['TimeoutError', 'RequestTimeout', 'RequestTimeoutException']);
const NETWORK_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT']);
/** A cancelled DynamoDB transaction for one of these reasons failed for the service's sake, not the request's. */
const TRANSIENT_CANCELLATIONS = new Set(['ThrottlingError', 'ProvisionedThroughputExceeded', 'TransactionConflict', 'InternalServerError']);

/**
 * Whether an error is an AWS dependency that was busy or failing once the SDK's retries were
 * spent: a throttling error or a server fault (`$retryable`, `$fault: 'server'`, a 429/5xx status,
 * the SDK's throttling names), a timeout or a dropped connection, or a transaction cancelled by
 * throttling or a conflict. A client's error ($fault 'client', e.g. a failed condition) is not one.
 */
export function isDependencyUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const candidate = error as { name?: string; code?: string; $retryable?: unknown; $fault?: string; $metadata?: { httpStatusCode?: number }; CancellationReasons?: { Code?: string }[] };
  if (candidate.$retryable) return true;
  if (candidate.name && (THROTTLING_NAMES.has(candidate.name) || TRANSIENT_NAMES.has(candidate.name))) return true;
  if (candidate.code && NETWORK_CODES.has(candidate.code)) return true;
  if (candidate.$metadata) {
    const status = candidate.$metadata.httpStatusCode ?? 0;
    if (candidate.$fault === 'server' || status === 429 || status >= 500) return true;
  }
  if (candidate.name === 'TransactionCanceledException' && candidate.CancellationReasons?.some((reason) => reason.Code && TRANSIENT_CANCELLATIONS.has(reason.Code))) {
    return !candidate.CancellationReasons.some((reason) => reason.Code === 'ConditionalCheckFailed');
  }
  return false;
}
