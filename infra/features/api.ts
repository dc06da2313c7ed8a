import { CfnOutput, Duration, type Stack, Validations } from 'aws-cdk-lib';
import {
  AccessLogFormat,
  AuthorizationType,
  Cors,
  IdentitySource,
  LambdaIntegration,
  LogGroupLogDestination,
  RequestAuthorizer,
  ResponseType,
  RestApi,
} from 'aws-cdk-lib/aws-apigateway';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { variables } from '../../shared/config/variables';
import { SCALAR_BUNDLE } from '../../shared/contract/reference-page';
import { CORS_ALLOW_HEADERS, functionGroups, type FunctionGroup, type Route } from '../../shared/http/routes';
import { MailwrightFunction } from '../constructs/mailwright-function';
import { AUTHORIZER_CACHE_TTL_SECONDS, gatewayResponseHeaders, gatewayResponses, gatewayResponseTemplate, type GatewayResponseSpec } from '../gateway-responses';
import { pascal } from '../names';
import type { SharedResources } from './shared-resources';

export const API_STAGE_NAME = 'api';

/** The REST API and the function behind each group of its routes, which the features wire further. */
export interface Api {
  restApi: RestApi;
  /** The function of a route group (functions/<group>/handler.ts). */
  function(group: FunctionGroup): MailwrightFunction;
  /** The API's public address: the stage URL, or -c publicApiUrl=https://… (a custom domain). */
  publicApiUrl: string;
}

/** DEFAULT_4XX / DEFAULT_5XX keep API Gateway's status, which no $context variable exposes. */
const representativeStatus = (spec: GatewayResponseSpec) => spec.statusCode ?? (spec.type === 'DEFAULT_5XX' ? 500 : 400);

/**
 * The API: one function per group of the route table (table access, the rate limit), the request
 * authorizer, the REST API with its access logs, methods, CORS preflights and gateway responses.
 */
export function addApi(stack: Stack, resources: SharedResources, { routes, rateLimitPerMinute }: { routes: readonly Route[]; rateLimitPerMinute: number }): Api {
  const { table, removalPolicy } = resources;
  const functions = new Map<FunctionGroup, MailwrightFunction>();
  const readOnlyGroups = new Set<FunctionGroup>(['emails', 'analytics']);
  for (const group of functionGroups) {
    const fn = new MailwrightFunction(stack, `${pascal(group)}Function`, {
      group,
      // On-demand segment evaluation reads whole audiences: up to API Gateway's 29 s, more memory (README "Segments").
      ...(group === 'segments' ? { timeout: Duration.seconds(29), memorySize: 1024 } : {}),
      // scrypt (N=2^17, 128 MiB) runs at the speed of the CPU share, which grows with memory (README "Dashboard accounts").
      ...(group === 'dashboard' || group === 'members' ? { memorySize: 1024 } : {}),
      // The reference page's renderer is served from a file, not bundled code (README "API contract").
      ...(group === 'docs' ? { bundledFiles: [SCALAR_BUNDLE] } : {}),
      // The dashboard's built app (npm run build:dashboard), served from files beside the code (README "Dashboard").
      ...(group === 'dashboard' ? { bundledFolders: ['dist'] } : {}),
      logRemovalPolicy: removalPolicy,
      environment: { [variables.rateLimitPerMinute.name]: String(rateLimitPerMinute) },
    });
    // The activity log and analytics only read: their one write is the request's admission.
    if (readOnlyGroups.has(group)) fn.bindTable(table, 'read').bindAdmission(table);
    else fn.bindTable(table);
    Validations.of(fn).acknowledge({ id: 'Serverless-LambdaDLQ', reason: 'Invoked synchronously by API Gateway: the caller receives the error, no event is left to keep' });
    functions.set(group, fn);
  }

  // The authorizer looks the key up (GetItem) and records its use (lastUsedAt, UpdateItem at
  // most once a minute per key), and checks access tokens with their session and membership.
  const authorizerFunction = new MailwrightFunction(stack, 'AuthorizerFunction', { group: 'authorizer', logRemovalPolicy: removalPolicy });
  authorizerFunction.bindTable(table, 'read').bindTableUpdates(table).bindAccessTokenKey(resources.accessTokenKey);
  Validations.of(authorizerFunction).acknowledge({ id: 'Serverless-LambdaDLQ', reason: 'Invoked synchronously by API Gateway as the authorizer: a failure is answered with a 500, no event is left to keep' });

  const apiAccessLogs = new LogGroup(stack, 'ApiAccessLogs', { retention: RetentionDays.ONE_MONTH, removalPolicy });
  const api = new RestApi(stack, 'Api', {
    restApiName: 'Mailwright',
    description: 'Mailwright email API',
    // No execution logging, so no account-wide CloudWatch role (an AWS::ApiGateway::Account singleton);
    // access logs (one JSON line per request) and X-Ray traces need none.
    cloudWatchRole: false,
    deployOptions: {
      stageName: API_STAGE_NAME,
      tracingEnabled: true,
      accessLogDestination: new LogGroupLogDestination(apiAccessLogs),
      accessLogFormat: AccessLogFormat.custom(JSON.stringify(apiAccessLogFields)),
      throttlingBurstLimit: 200,
      throttlingRateLimit: 100,
    },
  });
  Validations.of(api).acknowledge(
    { id: 'AwsSolutions-COG4', reason: 'No Cognito users: API keys are checked by the Lambda request authorizer' },
    { id: 'AwsSolutions-APIG2', reason: 'Requests are validated in the functions, so invalid input gets the API error envelope with field-level errors (422)' },
    { id: 'AwsSolutions-APIG3', reason: 'WAF is left to the operator (paid per web ACL and request); stage throttling and per-project rate limits apply' },
    { id: 'AwsSolutions-APIG6', reason: 'Execution logging needs the account-wide API Gateway CloudWatch role; access logs and X-Ray traces cover each request' },
  );

  const authorizer = new RequestAuthorizer(stack, 'ApiKeyAuthorizer', {
    handler: authorizerFunction,
    identitySources: [IdentitySource.header('Authorization')],
    resultsCacheTtl: Duration.seconds(AUTHORIZER_CACHE_TTL_SECONDS),
  });

  // One integration per function, with one API-scoped invoke permission instead of two per
  // method (per-method permissions would outgrow Lambda's 20 KB resource policy).
  const integrations = new Map([...functions].map(([group, fn]) => [group, new LambdaIntegration(fn, { proxy: true, scopePermissionToMethod: false })]));

  const corsMethodsByPath = new Map<string, Set<string>>();
  for (const route of routes) {
    const method = api.root.resourceForPath(route.path).addMethod(
      route.method,
      integrations.get(route.group)!,
      // Public routes (unsubscribe links, the API document) take no key: no authorizer.
      route.auth === 'none' ? { authorizationType: AuthorizationType.NONE } : { authorizer, authorizationType: AuthorizationType.CUSTOM },
    );
    if (route.auth === 'none') {
      Validations.of(method).acknowledge({
        id: 'AwsSolutions-APIG4',
        reason: 'Public by design: one-click unsubscribe links (RFC 8058, authorized by their signed token), the API document, and the dashboard app, which no API key holder calls',
      });
    }
    if (route.cors) {
      const methods = corsMethodsByPath.get(route.path) ?? new Set<string>();
      corsMethodsByPath.set(route.path, methods.add(route.method));
    }
  }
  // One preflight per path (API Gateway allows one OPTIONS method per resource); it is a mock
  // integration with AuthorizationType NONE, since browsers send no Authorization on preflight.
  for (const [path, methods] of corsMethodsByPath) {
    api.root.resourceForPath(path).addCorsPreflight({
      allowOrigins: Cors.ALL_ORIGINS,
      allowHeaders: CORS_ALLOW_HEADERS,
      allowMethods: [...methods, 'OPTIONS'],
      maxAge: Duration.minutes(10), // as infra/local/emulators/api-gateway.ts answers preflight
    });
  }

  const quotedHeaders = (headers: Record<string, string>) => Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, `'${value}'`]));
  for (const spec of gatewayResponses) {
    const responseHeaders = quotedHeaders({ ...gatewayResponseHeaders, ...spec.headers });
    api.addGatewayResponse(`${pascal(spec.type.toLowerCase())}Response`, {
      type: ResponseType.of(spec.type),
      ...(spec.statusCode !== undefined ? { statusCode: String(spec.statusCode) } : {}),
      responseHeaders,
      templates: { 'application/json': gatewayResponseTemplate(spec, representativeStatus(spec)) },
    });
  }

  api.node.tryRemoveChild('Endpoint'); // RestApi's own URL output, which ApiUrl replaces
  new CfnOutput(stack, 'ApiUrl', { value: api.url });

  // Links in mail point at the API (or, with -c publicApiUrl=https://…, at its custom domain).
  // api.url refers to the stage, which depends on every method and so on these functions: a cycle.
  const stageUrl = `https://${api.restApiId}.execute-api.${stack.region}.${stack.urlSuffix}/${API_STAGE_NAME}`;
  return {
    restApi: api,
    function: (group) => functions.get(group)!,
    publicApiUrl: (stack.node.tryGetContext('publicApiUrl') as string | undefined) ?? stageUrl,
  };
}

/** One JSON access-log line per request: the requestId is the correlation id the functions log. */
const apiAccessLogFields = {
  requestId: '$context.requestId',
  extendedRequestId: '$context.extendedRequestId',
  ip: '$context.identity.sourceIp',
  requestTime: '$context.requestTime',
  method: '$context.httpMethod',
  resourcePath: '$context.resourcePath',
  status: '$context.status',
  responseLength: '$context.responseLength',
  responseLatency: '$context.responseLatency',
  integrationLatency: '$context.integrationLatency',
  projectId: '$context.authorizer.projectId',
  errorType: '$context.error.responseType',
  xrayTraceId: '$context.xrayTraceId',
};
