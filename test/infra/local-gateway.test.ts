import { jest } from '@jest/globals';
import type { Server } from 'node:http';
import { Template } from 'aws-cdk-lib/assertions';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { MailwrightStack } from '../../infra/stack';
import type { CfnTemplate } from '../../infra/local/template/cloud-assembly';
import { apiDefinition, createLocalGateway } from '../../infra/local/emulators/api-gateway';
import { createResolver, type PhysicalResource } from '../../infra/local/template/intrinsics';
import { createAuthorizer } from '../../infra/local/iam/evaluate';
import { collectPolicies } from '../../infra/local/iam/policies';
import { lambdaPermissions } from '../../infra/local/lambda/permissions';
import type { FunctionRunner, InvokeOutcome } from '../../infra/local/lambda/runner';
import type { Route } from '../../shared/http/routes';
import { assertionApp } from '../support/infra-template';

/**
 * The local gateway serves the API the synthesized template declares — its methods, authorizer,
 * CORS preflight and gateway responses — and invokes only functions whose resource policy lets
 * API Gateway invoke them.
 */
const testRoutes: Route[] = [
  { method: 'GET', path: '/page/{token}', group: 'contacts', keys: [], auth: 'none' },
  { method: 'GET', path: '/contacts', group: 'contacts', keys: ['secret'] },
  { method: 'GET', path: '/contacts/imports', group: 'transfers', keys: ['secret'] },
  { method: 'GET', path: '/contacts/{id}', group: 'contacts', keys: ['secret'] },
  { method: 'POST', path: '/v1/track', group: 'public', keys: ['secret', 'public'], cors: true },
];

// A stack of its own: these routes instead of the route table.
const template = Template.fromStack(new MailwrightStack(assertionApp(), 'Mailwright', { routes: testRoutes })).toJSON() as CfnTemplate;

/** Every resource's local name is its logical id; functions' ARNs follow, other attributes are named after themselves. */
function resolverFor(cfn: CfnTemplate) {
  const attributes = (logicalId: string) =>
    new Proxy({} as Record<string, string>, {
      get: (_, attribute) => (attribute === 'Arn' ? `arn:aws:lambda:us-east-1:000000000000:function:${logicalId}` : attribute === 'RootResourceId' ? 'root' : `${logicalId}.${String(attribute)}`),
    });
  const physical = new Map<string, PhysicalResource>(Object.keys(cfn.Resources).map((logicalId) => [logicalId, { ref: logicalId, attributes: attributes(logicalId) }]));
  return createResolver({ physical, secretValue: () => 'secret' });
}

type Invoke = (event: unknown) => Promise<InvokeOutcome>;

function fakeRunner(logicalId: string, invoke: Invoke): FunctionRunner {
  return { definition: { arn: `arn:aws:lambda:us-east-1:000000000000:function:${logicalId}`, name: logicalId }, invoke: jest.fn(invoke) } as unknown as FunctionRunner;
}

const logicalIdOf = (prefix: string) => Object.keys(template.Resources).find((id) => id.startsWith(prefix) && template.Resources[id]!.Type === 'AWS::Lambda::Function')!;

let server: Server;
let base: string;
let handlers: Record<string, FunctionRunner>;
let authorize: jest.Mock<Invoke>;

async function serve(cfn: CfnTemplate) {
  const resolve = resolverFor(cfn);
  authorize = jest.fn<Invoke>(async () => ({
    ok: true,
    result: { principalId: 'p1', policyDocument: { Version: '2012-10-17', Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: ['arn:aws:execute-api:us-east-1:000000000000:ApiF70053CD/api/GET/contacts'] }] }, context: { projectId: 'p1' } },
  }));
  const echo: Invoke = async (event) => ({ ok: true, result: { statusCode: 200, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ resource: (event as APIGatewayProxyEvent).resource, authorizer: (event as APIGatewayProxyEvent).requestContext.authorizer ?? null, pathParameters: (event as APIGatewayProxyEvent).pathParameters }) } });
  handlers = {
    [logicalIdOf('ContactsFunction')]: fakeRunner(logicalIdOf('ContactsFunction'), echo),
    [logicalIdOf('TransfersFunction')]: fakeRunner(logicalIdOf('TransfersFunction'), echo),
    [logicalIdOf('AuthorizerFunction')]: fakeRunner(logicalIdOf('AuthorizerFunction'), authorize),
  };
  server = createLocalGateway({
    api: apiDefinition(cfn, resolve),
    runner: (logicalId) => handlers[logicalId] ?? fakeRunner(logicalId, echo),
    permissions: lambdaPermissions(createAuthorizer(collectPolicies(cfn, resolve), { account: '000000000000' })),
    health: async () => ({ ok: true, detail: {} }),
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

afterEach(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('the local gateway, from the synthesized template', () => {
  it('serves a route without an authorizer without calling it, with its path parameters', async () => {
    // Prepare
    await serve(template);
    // Act
    const response = await fetch(`${base}/page/abc`);
    // Assess
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ resource: '/page/{token}', authorizer: null, pathParameters: { token: 'abc' } });
    expect(authorize).not.toHaveBeenCalled();
  });

  it('answers 401 with the template\'s gateway response when the identity source is missing, without invoking the authorizer', async () => {
    // Prepare
    await serve(template);
    // Act
    const response = await fetch(`${base}/contacts`);
    // Assess
    expect(response.status).toBe(401);
    expect((await response.json() as { error: { code: string } }).error.code).toBe('UNAUTHORIZED');
    expect(authorize).not.toHaveBeenCalled();
  });

  it('caches the authorizer\'s policy per identity and answers 403 for a method the policy leaves out', async () => {
    // Prepare
    await serve(template);
    const headers = { Authorization: 'Bearer sk_test' };
    // Act
    const allowed = await fetch(`${base}/contacts`, { headers });
    const denied = await fetch(`${base}/contacts/imports`, { headers });
    // Assess
    expect(allowed.status).toBe(200);
    expect(((await allowed.json()) as { authorizer: unknown }).authorizer).toMatchObject({ projectId: 'p1', principalId: 'p1' });
    expect(denied.status).toBe(403);
    expect(authorize).toHaveBeenCalledTimes(1);
  });

  it('prefers a static path segment to a parameter, whatever the order of the routes', async () => {
    // Prepare
    await serve(template);
    authorize.mockResolvedValue({ ok: true, result: { principalId: 'p1', policyDocument: { Version: '2012-10-17', Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: ['arn:aws:execute-api:us-east-1:000000000000:ApiF70053CD/*/*'] }] }, context: {} } });
    // Act
    const response = await fetch(`${base}/contacts/imports`, { headers: { Authorization: 'Bearer sk_test' } });
    // Assess
    expect(((await response.json()) as { resource: string }).resource).toBe('/contacts/imports');
    expect(handlers[logicalIdOf('TransfersFunction')]!.invoke).toHaveBeenCalledTimes(1);
  });

  it('answers CORS preflight from the template\'s mock integration and unknown routes with MISSING_AUTHENTICATION_TOKEN', async () => {
    // Prepare
    await serve(template);
    // Act
    const preflight = await fetch(`${base}/v1/track`, { method: 'OPTIONS' });
    const unknown = await fetch(`${base}/nowhere`);
    // Assess
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-methods')).toBe('POST,OPTIONS');
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('x-amzn-errortype')).toBe('MISSING_AUTHENTICATION_TOKEN');
  });

  it('does not invoke a function whose resource policy does not let API Gateway invoke it', async () => {
    // Prepare: the template without the API's invoke permissions
    const withoutPermissions = { ...template, Resources: Object.fromEntries(Object.entries(template.Resources).filter(([, resource]) => !(resource.Type === 'AWS::Lambda::Permission' && resource.Properties?.Principal === 'apigateway.amazonaws.com'))) };
    await serve(withoutPermissions);
    // Act
    const response = await fetch(`${base}/page/abc`);
    // Assess
    expect(response.status).toBe(502);
    expect(handlers[logicalIdOf('ContactsFunction')]!.invoke).not.toHaveBeenCalled();
  });
});
