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
