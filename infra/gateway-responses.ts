/**
 * API Gateway's own answers (bad keys, unknown routes, oversized bodies…) in the error envelope.
 * The stack installs them as gateway responses; the local gateway renders the same templates
 * with the same simple $context substitution (API Gateway does not run VTL on these).
 */
export interface GatewayResponseSpec {
  type: string;
  /** Overrides API Gateway's status; absent keeps it (DEFAULT_4XX / DEFAULT_5XX). */
  statusCode?: number;
  code: string;
  /** A JSON string literal, or $context.error.messageString (already quoted by API Gateway). */
  message: string;
  suggestion?: string;
  /** Extra headers on this response. */
  headers?: Record<string, string>;
}

const quoted = (text: string) => JSON.stringify(text);

export const gatewayResponses: readonly GatewayResponseSpec[] = [
  {
    type: 'UNAUTHORIZED',
    statusCode: 401,
    code: 'UNAUTHORIZED',
    message: quoted('A valid API key is required'),
    suggestion: 'Send the header Authorization: Bearer <API key>.',
  },
  {
    type: 'ACCESS_DENIED',
    statusCode: 403,
    code: 'FORBIDDEN',
    message: quoted('This API key may not access this resource, or its project is disabled'),
    suggestion: 'Public keys (pk_) work only on POST /v1/track; use a secret key (sk_) elsewhere.',
  },
  { type: 'MISSING_AUTHENTICATION_TOKEN', statusCode: 404, code: 'NOT_FOUND', message: quoted('Route not found') },
  { type: 'REQUEST_TOO_LARGE', statusCode: 413, code: 'PAYLOAD_TOO_LARGE', message: quoted('The request body is too large') },
  { type: 'THROTTLED', statusCode: 429, code: 'RATE_LIMITED', message: quoted('Too many requests'), suggestion: 'Retry after 1 second.', headers: { 'Retry-After': '1' } },
  // The authorizer fails (rather than refusing) only when the table it reads is busy or failing.
  {
    type: 'AUTHORIZER_FAILURE',
    statusCode: 503,
    code: 'SERVICE_UNAVAILABLE',
    message: quoted('The request could not be authorized just now'),
    suggestion: 'Retry after 1 second.',
    headers: { 'Retry-After': '1' },
  },
  { type: 'AUTHORIZER_CONFIGURATION_ERROR', statusCode: 500, code: 'INTERNAL_ERROR', message: quoted('The request could not be authorized') },
  { type: 'INTEGRATION_TIMEOUT', statusCode: 504, code: 'TIMEOUT', message: quoted('The request took too long') },
  { type: 'DEFAULT_4XX', code: 'BAD_REQUEST', message: '$context.error.messageString' },
  { type: 'DEFAULT_5XX', code: 'INTERNAL_ERROR', message: quoted('An unexpected error occurred') },
];

export function gatewayResponseTemplate(spec: GatewayResponseSpec, statusCode: number | string): string {
  const suggestion = spec.suggestion ? `,"suggestion":${quoted(spec.suggestion)}` : '';
  return (
    `{"success":false,"message":${spec.message},"error":{"code":"${spec.code}","message":${spec.message},"statusCode":${statusCode},` +
    `"requestId":"$context.requestId"${suggestion}},"timestamp":"$context.requestTime"}`
  );
}

/** Headers on every gateway response, so browsers can read /v1/track errors too. */
export const gatewayResponseHeaders = { 'Access-Control-Allow-Origin': '*', 'Content-Type': 'application/json' };

/** How long API Gateway caches an authorizer result per Authorization header. */
export const AUTHORIZER_CACHE_TTL_SECONDS = 300;
