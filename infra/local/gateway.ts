import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type {
  APIGatewayAuthorizerResult,
  APIGatewayProxyEvent,
  APIGatewayProxyResult,
  APIGatewayRequestAuthorizerEvent,
  Context,
} from 'aws-lambda';
import { AUTHORIZER_CACHE_TTL_SECONDS, gatewayResponseHeaders, gatewayResponses, gatewayResponseTemplate } from '../gateway-responses';
import { CORS_ALLOW_HEADERS, routes, type Route } from '../../shared/http/routes';
import { lambdaContext } from './lambda-context';

/**
 * A local REST API (v1) gateway: serves every route of shared/http/routes.ts through the real
 * authorizer and handlers with API Gateway's event shapes, emulating what the deployed API does:
 * missing Authorization → 401 without invoking the authorizer; thrown 'Unauthorized' → 401;
 * the returned policy evaluated per method ARN (and cached per Authorization header for
 * AUTHORIZER_CACHE_TTL_SECONDS) → 403 when it does not allow the method; unknown route → the
 * MISSING_AUTHENTICATION_TOKEN response; bodies over 10 MB → 413; handler crash → 502; all in the
 * gateway-response envelopes the stack installs.
 */
export type ProxyHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;
export type AuthorizerHandler = (event: APIGatewayRequestAuthorizerEvent) => Promise<APIGatewayAuthorizerResult>;

export interface GatewayOptions {
  handlerFor: (group: string) => Promise<ProxyHandler>;
  authorizer: AuthorizerHandler;
  health: () => Promise<{ ok: boolean; detail: Record<string, string> }>;
  authorizerCacheTtlSeconds?: number;
}

const API_ID = 'local';
const STAGE = 'api';
const ACCOUNT = '000000000000';
const REGION = process.env.AWS_REGION ?? 'us-east-1';
const API_GATEWAY_BODY_LIMIT = 10 * 1024 * 1024;
const INTEGRATION_TIMEOUT_MS = 29_000;

interface CachedPolicy {
  result: APIGatewayAuthorizerResult;
  expiresAt: number;
}

interface MatchedRoute {
  route: Route;
  pathParameters: Record<string, string>;
}

/**
 * Like API Gateway, a static path segment wins over a {param} at the same position
 * (`/contacts/imports` before `/contacts/{id}`), whatever the order of the route table.
 */
const bySpecificity = (a: Route, b: Route) => {
  const left = a.path.split('/');
  const right = b.path.split('/');
  for (let index = 0; index < Math.min(left.length, right.length); index++) {
    const leftParam = left[index]!.startsWith('{');
    const rightParam = right[index]!.startsWith('{');
    if (leftParam !== rightParam) return leftParam ? 1 : -1;
  }
  return 0;
};

const compiled = [...routes].sort(bySpecificity).map((route) => ({
  route,
  names: [...route.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!),
  pattern: new RegExp(`^${route.path.replace(/\{[^}]+\}/g, '([^/]+)')}/?$`),
}));

export function createLocalGateway(options: GatewayOptions): Server {
  const cache = new Map<string, CachedPolicy>();
  const ttlMs = (options.authorizerCacheTtlSeconds ?? AUTHORIZER_CACHE_TTL_SECONDS) * 1000;

  return createServer((req, res) => {
    serve(req, res).catch((error) => {
      console.error('Local gateway failure', error);
      if (!res.headersSent) sendGatewayResponse(res, 'DEFAULT_5XX', 500, randomUUID());
    });
  });

  async function serve(req: IncomingMessage, res: ServerResponse) {
    const requestId = randomUUID();
    const url = new URL(req.url ?? '/', 'http://localhost');
    const method = req.method ?? 'GET';

    if (method === 'GET' && url.pathname === '/health') {
      const health = await options.health();
      res.writeHead(health.ok ? 200 : 503, { 'Content-Type': 'application/json' }).end(JSON.stringify({ status: health.ok ? 'ok' : 'starting', ...health.detail }));
      return;
    }

    const body = await readBody(req, API_GATEWAY_BODY_LIMIT);
    if (body === null) return sendGatewayResponse(res, 'REQUEST_TOO_LARGE', 413, requestId);

    if (method === 'OPTIONS') return preflight(res, url.pathname, requestId);

    const matched = matchRoute(method, url.pathname);
    if (!matched) return sendGatewayResponse(res, 'MISSING_AUTHENTICATION_TOKEN', 403, requestId);

    const methodArn = `arn:aws:execute-api:${REGION}:${ACCOUNT}:${API_ID}/${STAGE}/${method}${matched.route.path}`;
    const headers = singleValueHeaders(req);
    // Routes with auth 'none' are AuthorizationType NONE in the stack: no authorizer, no key.
    let authorized: APIGatewayAuthorizerResult | undefined;
    if (matched.route.auth !== 'none') {
      const authorization = headerValue(headers, 'authorization');
      if (!authorization) return sendGatewayResponse(res, 'UNAUTHORIZED', 401, requestId);

      let policy = cache.get(authorization);
      if (!policy || policy.expiresAt <= Date.now()) {
        try {
          const result = await options.authorizer(authorizerEvent(methodArn, matched, url, headers, requestId));
          policy = { result, expiresAt: Date.now() + ttlMs };
          if (ttlMs > 0) cache.set(authorization, policy);
        } catch (error) {
          if (error instanceof Error && error.message === 'Unauthorized') return sendGatewayResponse(res, 'UNAUTHORIZED', 401, requestId);
          console.error('Authorizer failed', error);
          return sendGatewayResponse(res, 'AUTHORIZER_FAILURE', 500, requestId);
        }
      }
      if (!allows(policy.result, methodArn)) return sendGatewayResponse(res, 'ACCESS_DENIED', 403, requestId);
      authorized = policy.result;
    }

    const event = proxyEvent(method, url, matched, headers, req, body, requestId, authorized);
    const handler = await options.handlerFor(matched.route.group);
    let result: APIGatewayProxyResult;
    try {
      // Lambda returns the result as JSON: undefined values (e.g. headers removed) disappear.
      result = JSON.parse(JSON.stringify(await withTimeout(handler(event, lambdaContext(matched.route.group, INTEGRATION_TIMEOUT_MS)), INTEGRATION_TIMEOUT_MS)));
    } catch (error) {
      if (error instanceof IntegrationTimeout) return sendGatewayResponse(res, 'INTEGRATION_TIMEOUT', 504, requestId);
      console.error(`Function ${matched.route.group} failed`, error);
      return sendGatewayResponse(res, 'DEFAULT_5XX', 502, requestId);
    }
    const responseBody = result.isBase64Encoded ? Buffer.from(result.body, 'base64') : Buffer.from(result.body ?? '');
    res.writeHead(result.statusCode, { ...(result.headers as Record<string, string>), 'x-amzn-RequestId': requestId }).end(responseBody);
  }
}

function matchRoute(method: string, pathname: string): MatchedRoute | undefined {
  for (const { route, names, pattern } of compiled) {
    if (route.method !== method) continue;
    const match = pattern.exec(pathname);
    if (!match) continue;
    const pathParameters = Object.fromEntries(names.map((name, index) => [name, decodeURIComponent(match[index + 1]!)]));
    return { route, pathParameters };
  }
  return undefined;
}

/** CORS preflight as the stack's addCorsPreflight mock integration answers it. */
function preflight(res: ServerResponse, pathname: string, requestId: string) {
  const corsRoutes = compiled.filter(({ route, pattern }) => route.cors && pattern.test(pathname));
  if (corsRoutes.length === 0) return sendGatewayResponse(res, 'MISSING_AUTHENTICATION_TOKEN', 403, requestId);
  res
    .writeHead(204, {
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Allow-Headers': CORS_ALLOW_HEADERS.join(','),
      'Access-Control-Allow-Methods': [...corsRoutes.map(({ route }) => route.method), 'OPTIONS'].join(','),
      'Access-Control-Max-Age': '600',
    })
    .end();
}

/** Rendered exactly like the deployed gateway responses: simple $context substitution. */
function sendGatewayResponse(res: ServerResponse, type: string, defaultStatus: number, requestId: string) {
  const spec = gatewayResponses.find((candidate) => candidate.type === type) ?? gatewayResponses.find((candidate) => candidate.type === (defaultStatus >= 500 ? 'DEFAULT_5XX' : 'DEFAULT_4XX'))!;
  const status = spec.statusCode ?? defaultStatus;
  const body = gatewayResponseTemplate(spec, status)
    .replaceAll('$context.requestId', requestId)
    .replaceAll('$context.requestTime', requestTime(new Date()))
    .replaceAll('$context.error.messageString', JSON.stringify('Bad request'));
  res.writeHead(status, { ...gatewayResponseHeaders, ...spec.headers, 'x-amzn-RequestId': requestId, 'x-amzn-ErrorType': type }).end(body);
}

/** $context.requestTime is in Common Log Format: 22/Nov/2026:17:00:00 +0000. */
function requestTime(date: Date): string {
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(date.getUTCDate())}/${months[date.getUTCMonth()]}/${date.getUTCFullYear()}:${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())} +0000`;
}

function allows(result: APIGatewayAuthorizerResult, methodArn: string): boolean {
  const statements = result.policyDocument.Statement as { Effect: string; Resource?: string | string[] }[];
  const matches = (statement: { Resource?: string | string[] }) =>
    [statement.Resource ?? []].flat().some((resource) => arnPattern(resource).test(methodArn));
  if (statements.some((statement) => statement.Effect === 'Deny' && matches(statement))) return false;
  return statements.some((statement) => statement.Effect === 'Allow' && matches(statement));
}

const arnPattern = (resource: string) => new RegExp(`^${resource.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);

function readBody(req: IncomingMessage, limit: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(tooLarge ? null : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function singleValueHeaders(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers[req.rawHeaders[i]!] = req.rawHeaders[i + 1]!;
  return headers;
}

function headerValue(headers: Record<string, string>, name: string): string | undefined {
  const found = Object.keys(headers).find((key) => key.toLowerCase() === name);
  const value = found ? headers[found]?.trim() : undefined;
  return value ? value : undefined;
}

function queryParameters(url: URL) {
  const single: Record<string, string> = {};
  const multi: Record<string, string[]> = {};
  for (const [key, value] of url.searchParams) {
    single[key] = value;
    (multi[key] ??= []).push(value);
  }
  return Object.keys(single).length ? { single, multi } : { single: null, multi: null };
}

function requestContext(method: string, url: URL, route: Route, headers: Record<string, string>, requestId: string) {
  const now = new Date();
  return {
    accountId: ACCOUNT,
    apiId: API_ID,
    domainName: headerValue(headers, 'host') ?? 'localhost',
    domainPrefix: 'localhost',
    extendedRequestId: requestId,
    httpMethod: method,
    path: `/${STAGE}${url.pathname}`,
    protocol: 'HTTP/1.1',
    requestId,
    requestTime: requestTime(now),
    requestTimeEpoch: now.getTime(),
    resourceId: route.path,
    resourcePath: route.path,
    stage: STAGE,
    identity: {
      sourceIp: '127.0.0.1',
      userAgent: headerValue(headers, 'user-agent') ?? null,
      accessKey: null,
      accountId: null,
      apiKey: null,
      apiKeyId: null,
      caller: null,
      clientCert: null,
      cognitoAuthenticationProvider: null,
      cognitoAuthenticationType: null,
      cognitoIdentityId: null,
      cognitoIdentityPoolId: null,
      principalOrgId: null,
      user: null,
      userArn: null,
    },
  };
}

function authorizerEvent(methodArn: string, matched: MatchedRoute, url: URL, headers: Record<string, string>, requestId: string): APIGatewayRequestAuthorizerEvent {
  const query = queryParameters(url);
  return {
    type: 'REQUEST',
    methodArn,
    resource: matched.route.path,
    path: url.pathname,
    httpMethod: matched.route.method,
    headers,
    multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([key, value]) => [key, [value]])),
    pathParameters: matched.pathParameters,
    queryStringParameters: query.single,
    multiValueQueryStringParameters: query.multi,
    stageVariables: null,
    requestContext: requestContext(matched.route.method, url, matched.route, headers, requestId) as never,
  };
}

function proxyEvent(
  method: string,
  url: URL,
  matched: MatchedRoute,
  headers: Record<string, string>,
  req: IncomingMessage,
  body: Buffer,
  requestId: string,
  authorization: APIGatewayAuthorizerResult | undefined,
): APIGatewayProxyEvent {
  const query = queryParameters(url);
  const multiValueHeaders: Record<string, string[]> = {};
  for (let i = 0; i < req.rawHeaders.length; i += 2) (multiValueHeaders[req.rawHeaders[i]!] ??= []).push(req.rawHeaders[i + 1]!);
  return {
    resource: matched.route.path,
    path: url.pathname,
    httpMethod: method,
    headers,
    multiValueHeaders,
    queryStringParameters: query.single,
    multiValueQueryStringParameters: query.multi,
    pathParameters: Object.keys(matched.pathParameters).length ? matched.pathParameters : null,
    stageVariables: null,
    requestContext: {
      ...requestContext(method, url, matched.route, headers, requestId),
      ...(authorization ? { authorizer: { ...authorization.context, principalId: authorization.principalId, integrationLatency: 0 } } : {}),
    } as APIGatewayProxyEvent['requestContext'],
    body: body.length ? body.toString('utf8') : null,
    isBase64Encoded: false,
  };
}


class IntegrationTimeout extends Error {}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new IntegrationTimeout()), ms);
    }),
  ]);
}
