import middy, { type MiddlewareObj } from '@middy/core';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import httpSecurityHeaders from '@middy/http-security-headers';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { DEFAULT_MAX_BODY_BYTES, findRoute, routeKey, sessionAccess, type CallerKind, type KeyKind, type Route } from './routes';
// The one HTTP handler factory admits every request (project status, revoked key, rate limit) and
// re-checks every dashboard session, so that no function can forget to: the two imports from a
// domain that the README's map explains.
// eslint-disable-next-line import/no-restricted-paths
import { assertSessionCurrent } from '../accounts/session-check';
// eslint-disable-next-line import/no-restricted-paths
import { admitRequest } from '../access/admission';
import { withCorrelationId } from '../observability/correlation';
import { logger } from '../observability/logger';
import { countMetric, flushMetrics, metricNames } from '../observability/metrics';
import { inSubsegment } from '../observability/tracer';
import { errorBody, successBody, toApiError } from './envelope';
import { ApiError, badRequest, forbidden, notFound, payloadTooLarge, unauthorized } from './errors';

/** Who made an authorized request: an API key, or a dashboard user through an access token. */
export type Caller =
  | { kind: 'key'; keyId: string; keyKind: KeyKind }
  | { kind: 'session'; userId: string; role: 'OWNER' | 'MEMBER'; sessionId: string }
  | { kind: 'none' };

export interface HttpRequest {
  /** The key's project; '' on routes without the authorizer (Route.auth 'none'). */
  projectId: string;
  keyKind: CallerKind;
  caller: Caller;
  /** The client's address as API Gateway saw it (sign-in throttling). */
  sourceIp: string;
  /** What precedes the route path in the URL the client used: '/api' on the stage URL, '' on a custom domain (mapped to the root) or locally. */
  basePath: string;
  requestId: string;
  pathParameters: Record<string, string | undefined>;
  query: Record<string, string | undefined>;
  headers: Record<string, string | undefined>;
  body: unknown;
  /** The body as sent, only on routes that accept its media type raw (Route.rawBodyTypes). */
  rawBody?: Buffer;
}

type Event = APIGatewayProxyEvent & { route?: Route; rawBody?: Buffer };

export interface HttpResult {
  statusCode?: number;
  /** Sent as JSON in the success envelope. */
  data?: unknown;
  /**
   * Sent as it is instead of the envelope (an HTML page, a document), with the Content-Type the
   * handler sets in `headers`; a page may set its own Content-Security-Policy and Permissions-Policy there too.
   */
  body?: string;
  headers?: Record<string, string>;
}

export type RouteHandler = (request: HttpRequest) => Promise<HttpResult>;

/**
 * The one HTTP handler factory. Every API function is `createHttpHandler({ 'METHOD /path': fn })`
 * and so logs, authorizes, limits, parses and fails the same way:
 * normalize headers → match route → admit (project status, revocation, rate limit) → size limit →
 * JSON body → route handler → success envelope; any error → error envelope with the requestId.
 */
export function createHttpHandler(handlers: Partial<Record<string, RouteHandler>>) {
  const handler = middy<Event, APIGatewayProxyResult, Error, Context>()
    .use(httpHeaderNormalizer())
    .use(ownSecurityPolicy())
    .use(httpSecurityHeaders())
    .use(errorEnvelope())
    .use(routeAndAdmit())
    .use(jsonBody())
    .handler(async (event) => {
      const route = event.route!;
      const handle = handlers[routeKey(route.method, route.path)];
      if (!handle) throw notFound('Route');
      const auth = event.requestContext.authorizer ?? {};
      const result = await handle({
        projectId: (auth.projectId as string | undefined) ?? '',
        keyKind: auth.keyKind as CallerKind,
        caller: callerOf(route, auth),
        sourceIp: event.requestContext.identity?.sourceIp ?? '',
        basePath: basePathOf(event),
        requestId: event.requestContext.requestId,
        pathParameters: event.pathParameters ?? {},
        query: event.queryStringParameters ?? {},
        headers: event.headers ?? {},
        body: event.body,
        rawBody: event.rawBody,
      });
      const own = Object.fromEntries(OWN_POLICY_HEADERS.filter((name) => result.headers?.[name]).map((name) => [name, result.headers![name]!]));
      if (Object.keys(own).length) ownPolicies.set(event, own);
      return {
        statusCode: result.statusCode ?? 200,
        headers: { 'Content-Type': 'application/json', ...corsHeaders(route), ...result.headers },
        body: result.body ?? JSON.stringify(successBody(result.data)),
      };
    });
  return observed(handler);
}

/**
 * Around every request: its requestId is the correlation id (on every log line, in the send queue
 * messages it queues and so on the sender's lines, and as an X-Ray annotation), and it counts in
 * the ApiRequests and ApiErrors (5xx) metrics of its route.
 */
function observed(handler: (event: Event, context: Context) => Promise<APIGatewayProxyResult>) {
  return async (event: Event, context: Context): Promise<APIGatewayProxyResult> => {
    const requestId = event.requestContext?.requestId ?? context?.awsRequestId;
    return withCorrelationId(requestId, () =>
      inSubsegment('http', { correlationId: requestId }, async () => {
        let statusCode = 500;
        try {
          const response = await handler(event, context);
          statusCode = response.statusCode;
          return response;
        } finally {
          const route = event.route ? routeKey(event.route.method, event.route.path) : 'unmatched';
          countMetric(metricNames.apiRequests, { route });
          if (statusCode >= 500) countMetric(metricNames.apiErrors, { route });
          flushMetrics();
        }
      }),
    );
  };
}

/** Policy headers a page may set for itself instead of the security headers' defaults (a template preview is framed by the dashboard: X-Frame-Options, COEP). */
const OWN_POLICY_HEADERS = ['Content-Security-Policy', 'Permissions-Policy', 'X-Frame-Options', 'Cross-Origin-Embedder-Policy'];

/** The policy headers a handler set on its response, by event. */
const ownPolicies = new WeakMap<object, Record<string, string>>();

/**
 * On HTML responses the security headers forbid everything (default-src 'none', form-action
 * 'none', no clipboard); a page that needs a form, a style or the clipboard sets its own
 * Content-Security-Policy or Permissions-Policy, which this restores (its after step runs after theirs).
 */
function ownSecurityPolicy(): MiddlewareObj<Event, APIGatewayProxyResult> {
  return {
    after: async (request) => {
      const own = ownPolicies.get(request.event);
      if (own && request.response?.headers) Object.assign(request.response.headers, own);
    },
  };
}

function callerOf(route: Route, auth: Record<string, unknown>): Caller {
  if (route.auth === 'none') return { kind: 'none' };
  if (auth.keyKind === 'session') return { kind: 'session', userId: String(auth.userId), role: auth.role as 'OWNER' | 'MEMBER', sessionId: String(auth.sessionId) };
  return { kind: 'key', keyId: String(auth.keyId), keyKind: auth.keyKind as KeyKind };
}

/**
 * On API Gateway's own domain (…execute-api…) URLs start with the stage ('/api'); on a custom
 * domain mapped to the API's root, and on the local gateway, they start with the route path.
 */
function basePathOf(event: APIGatewayProxyEvent): string {
  const { domainName, stage } = event.requestContext;
  return domainName?.includes('.execute-api.') && stage ? `/${stage}` : '';
}

function corsHeaders(route: Route | undefined): Record<string, string> {
  return route?.cors ? { 'Access-Control-Allow-Origin': '*' } : {};
}

function routeAndAdmit(): MiddlewareObj<Event, APIGatewayProxyResult> {
  return {
    before: async (request) => {
      const event = request.event;
      const route = findRoute(event.httpMethod, event.resource);
      if (!route) throw notFound('Route');
      event.route = route;
      // Routes without the authorizer have no key, so no project to admit.
      if (route.auth !== 'none') {
        const auth = event.requestContext.authorizer;
        if (!auth?.projectId || !auth.keyId) throw unauthorized();
        if (auth.keyKind === 'session') {
          // The authorizer's policy already refuses these; checked again for a policy cached under another role.
          const access = sessionAccess(route);
          if (access === 'none') throw forbidden('FORBIDDEN', 'A dashboard session may not call this route; use an API key');
          if (access === 'owner' && auth.role !== 'OWNER') throw forbidden('FORBIDDEN', 'Only project owners may do this');
          await assertSessionCurrent({ userId: String(auth.userId), projectId: auth.projectId, role: String(auth.role), sessionId: String(auth.sessionId), expiresAt: Number(auth.expiresAt) });
        } else if (!route.keys.includes(auth.keyKind as KeyKind)) {
          throw forbidden('FORBIDDEN', route.keys.length === 0 ? 'This route is for dashboard sessions only' : 'This API key may not be used on this route; use a secret key');
        }
        await admitRequest({ projectId: auth.projectId, keyId: auth.keyId });
      }
      const limit = route.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
      if (event.body && bodyBytes(event) > limit) throw payloadTooLarge(limit);
    },
  };
}

function bodyBytes(event: APIGatewayProxyEvent): number {
  const body = event.body ?? '';
  return event.isBase64Encoded ? Buffer.from(body, 'base64').length : Buffer.byteLength(body);
}

/**
 * Parses a non-empty body as JSON whatever its Content-Type (curl -d sends form encoding), except
 * media types the route takes raw (Route.rawBodyTypes): those are handed over as bytes.
 */
function jsonBody(): MiddlewareObj<Event, APIGatewayProxyResult> {
  // disableContentTypeCheck exists at runtime but is missing from the package's type definitions.
  const parser = httpJsonBodyParser({ disableContentTypeCheck: true } as Parameters<typeof httpJsonBodyParser>[0]);
  return {
    before: async (request) => {
      const event = request.event;
      if (event.body === null || event.body === '') {
        event.body = undefined as unknown as string;
        return;
      }
      const mediaType = (event.headers?.['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      if (event.route?.rawBodyTypes?.some((type) => type === '*/*' || type === mediaType)) {
        event.rawBody = Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8');
        event.body = undefined as unknown as string;
        return;
      }
      try {
        await parser.before!(request as never);
      } catch {
        throw badRequest('INVALID_JSON', 'The request body is not valid JSON', 'Send a JSON object with Content-Type: application/json.');
      }
    },
  };
}

function errorEnvelope(): MiddlewareObj<Event, APIGatewayProxyResult> {
  return {
    onError: async (request) => {
      const apiError = toApiError(request.error);
      const requestId = request.event.requestContext?.requestId ?? request.context.awsRequestId;
      if (apiError.statusCode >= 500) {
        logger.error('Request failed', { requestId, error: request.error as Error });
      } else if (!(request.error instanceof ApiError)) {
        logger.warn('Unexpected client error', { requestId, error: request.error as Error });
      }
      request.response = {
        statusCode: apiError.statusCode,
        headers: { 'Content-Type': 'application/json', ...corsHeaders(request.event.route), ...apiError.headers },
        body: JSON.stringify(errorBody(apiError, requestId)),
      };
    },
  };
}
