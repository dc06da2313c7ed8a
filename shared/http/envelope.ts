import { ApiError, isDependencyUnavailable, serviceUnavailable } from './errors';

export interface ErrorEnvelope {
  success: false;
  /** error.message (with the field errors, if any) at the top level, where Plunk's client library reads it. */
  message: string;
  error: {
    code: string;
    message: string;
    statusCode: number;
    requestId: string;
    errors?: ApiError['errors'];
    suggestion?: string;
  };
  timestamp: string;
}

export function successBody<T>(data: T) {
  return { success: true as const, data };
}

export function errorBody(error: ApiError, requestId: string): ErrorEnvelope {
  return {
    success: false,
    message: error.errors?.length ? `${error.message}: ${error.errors.map((field) => `${field.field}: ${field.message}`).join('; ')}` : error.message,
    error: {
      code: error.code,
      message: error.message,
      statusCode: error.statusCode,
      requestId,
      ...(error.errors ? { errors: error.errors } : {}),
      ...(error.suggestion ? { suggestion: error.suggestion } : {}),
    },
    timestamp: new Date().toISOString(),
  };
}

/**
 * An AWS dependency busy or failing once the SDK's retries are spent is a 503 SERVICE_UNAVAILABLE
 * with Retry-After; anything else that is not an ApiError is an internal failure: say nothing
 * about it but the requestId.
 */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (isDependencyUnavailable(error)) return serviceUnavailable();
  return new ApiError(500, 'INTERNAL_ERROR', 'An unexpected error occurred', {
    suggestion: 'Retry later; if it persists, contact support with the requestId.',
  });
}
