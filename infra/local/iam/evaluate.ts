import { getDenialReasons, runSimulation, type Simulation } from '@cloud-copilot/iam-simulate';
import { resourcePolicyFor, type PolicyDocument, type StackPolicies } from './policies';
import type { AuthorizationContext, AuthorizationRequest } from './requests';

/**
 * Decides authorization requests against the template's policies with @cloud-copilot/iam-simulate:
 * AWS's evaluation logic (explicit Deny wins, then an Allow in the identity or, same account, the
 * resource policy, else implicit deny), never a matcher of our own.
 *
 * Every AWS call of every function passes here, so decisions are cached by role, action, resource
 * and context: a simulation costs about a millisecond warm (tens cold), a cached decision a map
 * lookup. The cache is bounded because S3 object keys make the resources unbounded.
 *
 * Global context keys: `aws:SecureTransport` is always `true` (the emulators are reached over
 * loopback, which stands in for TLS, so CDK's enforceSSL Deny statements stay in force and do not
 * match), with the principal's ARN and account.
 */

export type Decision = { allowed: true } | { allowed: false; request: AuthorizationRequest; reason: string };

export type AuthorizerStats = {
  /** Authorization requests decided, from the cache or not. */
  decisions: number;
  /** Of them, answered from the cache. */
  cacheHits: number;
  /** Simulations run (cache misses) and the milliseconds they took in total. */
  simulations: number;
  simulationMs: number;
};

export type InvokeRequest = {
  functionArn: string;
  /** The calling service principal, e.g. `apigateway.amazonaws.com` or `events.amazonaws.com`. */
  principal: string;
  sourceArn?: string;
  sourceAccount?: string;
};

export type Authorizer = {
  /** May the role make every one of these requests? The first denied one is named. */
  authorize(roleArn: string, requests: AuthorizationRequest[]): Promise<Decision>;
  /** May a service invoke the function (its AWS::Lambda::Permission resource policy)? */
  authorizeInvoke(request: InvokeRequest): Promise<Decision>;
  stats(): AuthorizerStats;
};

export type AuthorizerOptions = {
  account: string;
  /** How many decisions the cache keeps (default 10,000). */
  cacheSize?: number;
};

/** The role session ARN AWS names in its messages: `arn:aws:sts::<account>:assumed-role/<role name>/<session>`. */
export function roleSessionArn(roleArn: string, sessionName: string): string {
  const [, , , , account, resource = ''] = roleArn.split(':');
  return `arn:aws:sts::${account}:assumed-role/${resource.split('/').pop()}/${sessionName}`;
}

type Outcome = { allowed: true } | { allowed: false; reason: string };

export function createAuthorizer(policies: StackPolicies, options: AuthorizerOptions): Authorizer {
  const { account } = options;
  const cacheSize = options.cacheSize ?? 10_000;
  const cache = new Map<string, Promise<Outcome>>();
  const stats: AuthorizerStats = { decisions: 0, cacheHits: 0, simulations: 0, simulationMs: 0 };

  /** `implicit` says why nothing allowed the request: which kind of policy could have. */
  async function simulate(simulation: Simulation, implicit: string): Promise<Outcome> {
    const started = performance.now();
    const result = await runSimulation(simulation, {});
    stats.simulations += 1;
    stats.simulationMs += performance.now() - started;
    if (result.resultType === 'error') return { allowed: false, reason: `because the local IAM simulation rejected the request (${result.errors.message})` };
    if (result.overallResult === 'Allowed') return { allowed: true };
    const analysis = result.resultType === 'single' ? result.result.analysis : result.results[0]?.analysis;
    const explicit = analysis ? getDenialReasons(analysis).find((denial) => denial.denialType === 'Explicit') : undefined;
    if (explicit?.policyType === 'resource') return { allowed: false, reason: 'with an explicit deny in a resource-based policy' };
    if (explicit) return { allowed: false, reason: 'with an explicit deny in an identity-based policy' };
    return { allowed: false, reason: implicit };
  }

  /** Decides through the cache; concurrent identical requests share one simulation. */
  function decide(key: string, simulation: () => Simulation, implicit: string): Promise<Outcome> {
    stats.decisions += 1;
    const cached = cache.get(key);
    if (cached) {
      stats.cacheHits += 1;
      // Re-inserted so the map's order is least recently used first.
      cache.delete(key);
      cache.set(key, cached);
      return cached;
    }
    const outcome = simulate(simulation(), implicit);
    cache.set(key, outcome);
    // A simulation that threw is not a decision: the next request tries again.
    outcome.catch(() => cache.delete(key));
    if (cache.size > cacheSize) cache.delete(cache.keys().next().value!);
    return outcome;
  }

  const simulation = (principal: string, request: AuthorizationRequest, identityPolicies: Simulation['identityPolicies'], resourcePolicy: PolicyDocument | undefined): Simulation => ({
    request: { principal, action: request.action, resource: { resource: request.resource, accountId: account }, contextVariables: request.context },
    identityPolicies,
    serviceControlPolicies: [],
    resourceControlPolicies: [],
    ...(resourcePolicy ? { resourcePolicy } : {}),
  });

  async function firstDenied(requests: AuthorizationRequest[], outcome: (request: AuthorizationRequest) => Promise<Outcome>): Promise<Decision> {
    const outcomes = await Promise.all(requests.map(outcome));
    const index = outcomes.findIndex((result) => !result.allowed);
    if (index < 0) return { allowed: true };
    const denied = outcomes[index] as { reason: string };
    return { allowed: false, request: requests[index]!, reason: denied.reason };
  }

  return {
    authorize(roleArn, requests) {
      const identityPolicies = policies.identity.get(roleArn) ?? [];
      // Role sessions are evaluated as the role: no policy of the stack tests the session name.
      const principal = roleSessionArn(roleArn, 'mailwright-local');
      return firstDenied(requests, (request) => {
        const context: AuthorizationContext = { ...request.context, 'aws:SecureTransport': 'true', 'aws:PrincipalArn': roleArn, 'aws:PrincipalAccount': account };
        const full = { ...request, context };
        const implicit = `because no identity-based policy allows the ${request.action} action`;
        return decide(keyOf(roleArn, full), () => simulation(principal, full, identityPolicies, resourcePolicyFor(policies, request.resource)), implicit);
      });
    },
    authorizeInvoke({ functionArn, principal, sourceArn, sourceAccount }) {
      const context: AuthorizationContext = { 'aws:SecureTransport': 'true', ...(sourceArn ? { 'aws:SourceArn': sourceArn } : {}), ...(sourceAccount ? { 'aws:SourceAccount': sourceAccount } : {}) };
      const request: AuthorizationRequest = { action: 'lambda:InvokeFunction', resource: functionArn, context };
      // A service principal has no identity policies: only the function's policy can allow it.
      const implicit = 'because no resource-based policy allows the lambda:InvokeFunction action';
      return firstDenied([request], () => decide(keyOf(principal, request), () => simulation(principal, request, [], policies.functions.get(functionArn)), implicit));
    },
    stats: () => ({ ...stats }),
  };
}

function keyOf(principal: string, { action, resource, context }: AuthorizationRequest): string {
  const entries = Object.entries(context).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify([principal, action, resource, entries]);
}
