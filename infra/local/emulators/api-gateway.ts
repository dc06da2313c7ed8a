import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { APIGatewayAuthorizerResult, APIGatewayProxyEvent, APIGatewayProxyResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { ACCOUNT, REGION, resourcesOfType, referencedLogicalId, type CfnTemplate } from '../template/cloud-assembly';
import type { Resolve } from '../template/intrinsics';
import type { LambdaPermissions } from '../lambda/permissions';
import type { FunctionRunner } from '../lambda/runner';

/**
 * The REST API (v1) as the template declares it, served locally: its resources and methods
 * (AWS_PROXY integrations to their functions, MOCK integrations for CORS preflight), the REQUEST
 * authorizer (identity sources, result cache TTL), the gateway responses and binary media types.
 * As API Gateway: a missing identity source → 401 without invoking the authorizer; a thrown
 * 'Unauthorized' → 401; the returned policy evaluated per method ARN (and cached per identity) →
 * 403 when it does not allow the method; no such route → MISSING_AUTHENTICATION_TOKEN; a body over
 * 10 MB → 413; a function error → 502; past 29 s → 504; each function invoked only where its
 * resource policy lets apigateway.amazonaws.com invoke it.
 */
export interface ApiMethod {
  method: string;
  path: string;
  pattern: RegExp;
  names: string[];
  authorizerId?: string;
  functionLogicalId?: string;
  mock?: { statusCode: number; headers: Record<string, string> };
}

export interface ApiAuthorizer {
  id: string;
  functionLogicalId: string;
  identityHeaders: string[];
  ttlSeconds: number;
}

export interface GatewayResponseDefinition {
  statusCode?: number;
  headers: Record<string, string>;
  template?: string;
}

export interface ApiDefinition {
  restApiId: string;
  stage: string;
  methods: ApiMethod[];
  authorizers: Map<string, ApiAuthorizer>;
  gatewayResponses: Map<string, GatewayResponseDefinition>;
  binaryMediaTypes: string[];
}

const API_GATEWAY_BODY_LIMIT = 10 * 1024 * 1024;
const INTEGRATION_TIMEOUT_MS = 29_000;

const unquote = (value: unknown) => String(value).replace(/^'(.*)'$/s, '$1');

/** The API from the template: one RestApi, its resource tree, methods, authorizers and responses. */
export function apiDefinition(template: CfnTemplate, resolve: Resolve): ApiDefinition {
  const [[apiLogicalId, api] = []] = resourcesOfType(template, 'AWS::ApiGateway::RestApi');
  if (!apiLogicalId || !api) throw new Error('The template has no REST API');
  const resources = new Map(resourcesOfType(template, 'AWS::ApiGateway::Resource'));
  const pathOf = (resourceId: unknown): string => {
    const id = referencedLogicalId(resourceId);
    if (!id || id === apiLogicalId) return '';
    const resource = resources.get(id)!;
    return `${pathOf(resource.Properties!.ParentId)}/${resource.Properties!.PathPart}`;
  };
  const methods = resourcesOfType(template, 'AWS::ApiGateway::Method').map(([, resource]): ApiMethod => {
    const properties = resource.Properties ?? {};
    const path = pathOf(properties.ResourceId) || '/';
    const names = [...path.matchAll(/\{([^}+]+)\+?\}/g)].map((match) => match[1]!);
    const pattern = new RegExp(`^${path.replace(/\{[^}]+\+\}/g, '(.+)').replace(/\{[^}]+\}/g, '([^/]+)')}/?$`);
    const integration = properties.Integration ?? {};
    const method: ApiMethod = { method: properties.HttpMethod, path, pattern, names };
    if (properties.AuthorizationType === 'CUSTOM') method.authorizerId = referencedLogicalId(properties.AuthorizerId);
    if (integration.Type === 'AWS_PROXY') method.functionLogicalId = referencedLogicalId(integration.Uri, 'Arn');
    if (integration.Type === 'MOCK') {
      const response = (integration.IntegrationResponses ?? [])[0] ?? {};
      method.mock = {
        statusCode: Number(response.StatusCode ?? 200),
        headers: Object.fromEntries(Object.entries((response.ResponseParameters ?? {}) as Record<string, string>).map(([name, value]) => [name.replace('method.response.header.', ''), unquote(value)])),
      };
    }
    return method;
  });
  const authorizers = new Map(
    resourcesOfType(template, 'AWS::ApiGateway::Authorizer').map(([id, resource]) => {
      const properties = resource.Properties ?? {};
      const identityHeaders = String(properties.IdentitySource ?? '')
        .split(',')
        .map((source) => source.trim().replace(/^method\.request\.header\./, ''))
        .filter(Boolean);
      return [id, { id, functionLogicalId: referencedLogicalId(properties.AuthorizerUri, 'Arn')!, identityHeaders, ttlSeconds: Number(properties.AuthorizerResultTtlInSeconds ?? 300) }];
    }),
  );
  const gatewayResponses = new Map(
    resourcesOfType(template, 'AWS::ApiGateway::GatewayResponse').map(([, resource]) => {
      const properties = resource.Properties ?? {};
      return [
        String(properties.ResponseType),
        {
          ...(properties.StatusCode ? { statusCode: Number(properties.StatusCode) } : {}),
          headers: Object.fromEntries(Object.entries((properties.ResponseParameters ?? {}) as Record<string, string>).map(([name, value]) => [name.replace('gatewayresponse.header.', ''), unquote(value)])),
          ...(properties.ResponseTemplates?.['application/json'] ? { template: String(properties.ResponseTemplates['application/json']) } : {}),
        },
      ];
    }),
  );
  const [[, stage] = []] = resourcesOfType(template, 'AWS::ApiGateway::Stage');
  return {
    restApiId: String(resolve({ Ref: apiLogicalId })),
    stage: String(stage?.Properties?.StageName ?? 'prod'),
    // API Gateway prefers a static path segment to a {param} at the same position, whatever the order.
    methods: methods.sort(bySpecificity),
    authorizers,
    gatewayResponses,
    binaryMediaTypes: ((api.Properties?.BinaryMediaTypes ?? []) as string[]).map((type) => type.replace('~1', '/')),
  };
}

const bySpecificity = (a: ApiMethod, b: ApiMethod) => {
  const left = a.path.split('/');
  const right = b.path.split('/');
  for (let index = 0; index < Math.min(left.length, right.length); index++) {
    const rank = (segment: string) => (segment.endsWith('+}') ? 2 : segment.startsWith('{') ? 1 : 0);
    const difference = rank(left[index]!) - rank(right[index]!);
    if (difference !== 0) return difference;
  }
  return right.length - left.length;
};

export interface GatewayOptions {
  api: ApiDefinition;
  runner: (functionLogicalId: string) => FunctionRunner;
  permissions: LambdaPermissions;
  health: () => Promise<{ ok: boolean; detail: Record<string, string> }>;
  /** Lambda's Invoke and ListFunctions API, served locally beside the API (see lambda/invoke-api.ts). */
  lambdaApi?: (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<boolean>;
}

interface CachedPolicy {
  result: APIGatewayAuthorizerResult;
  expiresAt: number;
}

interface MatchedRoute {
  route: ApiMethod;
  pathParameters: Record<string, string>;
}

export function createLocalGateway(options: GatewayOptions): Server {
  const { api } = options;
  const cache = new Map<string, CachedPolicy>();
  const executeApiArn = `arn:aws:execute-api:${REGION}:${ACCOUNT}:${api.restApiId}`;

  return createServer((req, res) => {
    serve(req, res).catch((error) => {
      console.error('Local gateway failure', error);
      if (!res.headersSent) sendGatewayResponse(res, 'DEFAULT_5XX', 500, randomUUID());
    });
  });

  async function invoke(functionLogicalId: string, event: unknown, sourceArn: string) {
    const runner = options.runner(functionLogicalId);
    if (!(await options.permissions.mayInvoke(runner.definition.arn, 'apigateway.amazonaws.com', sourceArn))) {
      return { ok: false as const, error: { errorType: 'AccessDeniedException', errorMessage: `API Gateway may not invoke ${runner.definition.name} from ${sourceArn}` } };
    }
    return runner.invoke(event);
  }

  async function serve(req: IncomingMessage, res: ServerResponse) {
    const requestId = randomUUID();
    const url = new URL(req.url ?? '/', 'http://localhost');
    const method = req.method ?? 'GET';

    if (method === 'GET' && url.pathname === '/health') {
      const health = await options.health();
      res.writeHead(health.ok ? 200 : 503, { 'Content-Type': 'application/json' }).end(JSON.stringify({ status: health.ok ? 'ok' : 'starting', ...health.detail }));
      return;
    }
    if (url.pathname.startsWith('/2015-03-31/functions') && (await options.lambdaApi?.(req, res, url))) return;

    const body = await readBody(req, API_GATEWAY_BODY_LIMIT);
    if (body === null) return sendGatewayResponse(res, 'REQUEST_TOO_LARGE', 413, requestId);

    const matched = matchRoute(method, url.pathname);
    if (!matched) return sendGatewayResponse(res, 'MISSING_AUTHENTICATION_TOKEN', 403, requestId);
    const { route } = matched;
    if (route.mock) return res.writeHead(route.mock.statusCode, { ...route.mock.headers, 'x-amzn-RequestId': requestId }).end();

    const methodArn = `${executeApiArn}/${api.stage}/${method}${route.path}`;
    const headers = singleValueHeaders(req);
    let authorized: APIGatewayAuthorizerResult | undefined;
    if (route.authorizerId) {
      const authorizer = api.authorizers.get(route.authorizerId)!;
      const identity = authorizer.identityHeaders.map((name) => headerValue(headers, name.toLowerCase()));
      if (identity.some((value) => value === undefined)) return sendGatewayResponse(res, 'UNAUTHORIZED', 401, requestId);
      const cacheKey = identity.join('\u0000');
      let policy = cache.get(cacheKey);
      if (!policy || policy.expiresAt <= Date.now()) {
        const outcome = await invoke(authorizer.functionLogicalId, authorizerEvent(methodArn, matched, url, headers, requestId, api), `${executeApiArn}/authorizers/${authorizer.id}`);
        if (!outcome.ok) {
          if (outcome.error.errorMessage === 'Unauthorized') return sendGatewayResponse(res, 'UNAUTHORIZED', 401, requestId);
          console.error(`Authorizer failed: ${outcome.error.errorType}: ${outcome.error.errorMessage}`);
          return sendGatewayResponse(res, 'AUTHORIZER_FAILURE', 503, requestId);
        }
        policy = { result: outcome.result as APIGatewayAuthorizerResult, expiresAt: Date.now() + authorizer.ttlSeconds * 1000 };
        if (authorizer.ttlSeconds > 0) cache.set(cacheKey, policy);
      }
      if (!allows(policy.result, methodArn)) return sendGatewayResponse(res, 'ACCESS_DENIED', 403, requestId);
      authorized = policy.result;
    }

    const event = proxyEvent(method, url, matched, headers, req, body, requestId, authorized, api);
    const outcome = await withTimeout(invoke(route.functionLogicalId!, event, methodArn), INTEGRATION_TIMEOUT_MS);
    if (outcome === 'timeout') return sendGatewayResponse(res, 'INTEGRATION_TIMEOUT', 504, requestId);
    if (!outcome.ok) {
      console.error(`${route.method} ${route.path} failed: ${outcome.error.errorType}: ${outcome.error.errorMessage}`);
      return sendGatewayResponse(res, 'DEFAULT_5XX', 502, requestId);
    }
    const result = outcome.result as APIGatewayProxyResult;
    const responseBody = result.isBase64Encoded ? Buffer.from(result.body, 'base64') : Buffer.from(result.body ?? '');
    res.writeHead(result.statusCode, { ...(result.headers as Record<string, string>), 'x-amzn-RequestId': requestId }).end(responseBody);
  }

  function matchRoute(method: string, pathname: string): MatchedRoute | undefined {
    for (const route of api.methods) {
      if (route.method !== method && route.method !== 'ANY') continue;
      const match = route.pattern.exec(pathname);
      if (!match) continue;
      const pathParameters = Object.fromEntries(route.names.map((name, index) => [name, safeDecode(match[index + 1]!)]));
      return { route, pathParameters };
    }
    return undefined;
  }

  /** Rendered like the deployed gateway responses: simple $context substitution; API Gateway's own body where none is set. */
  function sendGatewayResponse(res: ServerResponse, type: string, defaultStatus: number, requestId: string) {
    const spec = api.gatewayResponses.get(type) ?? api.gatewayResponses.get(defaultStatus >= 500 ? 'DEFAULT_5XX' : 'DEFAULT_4XX');
    const status = spec?.statusCode ?? defaultStatus;
    const body = (spec?.template ?? '{"message":$context.error.messageString}')
      .replaceAll('$context.requestId', requestId)
      .replaceAll('$context.requestTime', requestTime(new Date()))
      .replaceAll('$context.error.messageString', JSON.stringify(type === 'MISSING_AUTHENTICATION_TOKEN' ? 'Missing Authentication Token' : 'Bad request'));
    res.writeHead(status, { 'Content-Type': 'application/json', ...spec?.headers, 'x-amzn-RequestId': requestId, 'x-amzn-ErrorType': type }).end(body);
  }
}

const safeDecode = (value: string) => {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
};

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

function requestContext(method: string, url: URL, route: ApiMethod, headers: Record<string, string>, requestId: string, api: ApiDefinition) {
  const now = new Date();
  return {
    accountId: ACCOUNT,
    apiId: api.restApiId,
    domainName: headerValue(headers, 'host') ?? 'localhost',
    domainPrefix: 'localhost',
    extendedRequestId: requestId,
    httpMethod: method,
    path: `/${api.stage}${url.pathname}`,
    protocol: 'HTTP/1.1',
    requestId,
    requestTime: requestTime(now),
    requestTimeEpoch: now.getTime(),
    resourceId: route.path,
    resourcePath: route.path,
    stage: api.stage,
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

function authorizerEvent(methodArn: string, matched: MatchedRoute, url: URL, headers: Record<string, string>, requestId: string, api: ApiDefinition): APIGatewayRequestAuthorizerEvent {
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
    requestContext: requestContext(matched.route.method, url, matched.route, headers, requestId, api) as never,
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
  api: ApiDefinition,
): APIGatewayProxyEvent {
  // Bodies of the API's binary media types reach the function base64-encoded.
  const contentType = (headerValue(headers, 'content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  const binary = body.length > 0 && api.binaryMediaTypes.some((type) => type === '*/*' || type.toLowerCase() === contentType);
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
      ...requestContext(method, url, matched.route, headers, requestId, api),
      ...(authorization ? { authorizer: { ...authorization.context, principalId: authorization.principalId, integrationLatency: 0 } } : {}),
    } as APIGatewayProxyEvent['requestContext'],
    body: body.length ? body.toString(binary ? 'base64' : 'utf8') : null,
    isBase64Encoded: binary,
  };
}


function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T | 'timeout'> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), ms);
    }),
  ]);
}
