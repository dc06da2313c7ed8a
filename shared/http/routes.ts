/**
 * THE route table. The CDK stack builds API Gateway from it and the local gateway serves it, so
 * the two cannot drift. Each function group is one Lambda: functions/<group>/handler.ts.
 */
export type KeyKind = 'secret' | 'public';
/** Who called: an API key of a kind, or a dashboard session's access token (/docs "Dashboard session"). */
export type CallerKind = KeyKind | 'session';
/** What a dashboard session may do on a route: any member, owners only, or nothing. */
export type SessionAccess = 'member' | 'owner' | 'none';
export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export interface Route {
  method: HttpMethod;
  /** API Gateway resource path, with {param} placeholders. */
  path: string;
  group: FunctionGroup;
  /** Key kinds accepted; secret keys are accepted everywhere but on session-only routes (/me). */
  keys: readonly KeyKind[];
  /**
   * Dashboard access tokens (mwa_): default 'member' on every route with the authorizer outside
   * /v1/* (the dashboard calls the same API as any client), 'none' on /v1/*. 'owner' keeps a
   * route to project owners: the authorizer's policy leaves it out of a MEMBER's token.
   */
  sessions?: SessionAccess;
  /** Browsers call this route from other origins: answer CORS preflight and add CORS headers. */
  cors?: boolean;
  /**
   * 'none': a public route without the authorizer and without a project from a key (API Gateway
   * AuthorizationType NONE; `keys` is empty): unsubscribe links, the API document. Its handler
   * finds whatever it needs in the request itself.
   */
  auth?: 'none';
  /** Largest accepted request body, in bytes (default DEFAULT_MAX_BODY_BYTES). */
  maxBodyBytes?: number;
  /**
   * Media types (e.g. `text/csv`) whose bodies reach the route handler as they came, in
   * `rawBody`, instead of being parsed as JSON; any other Content-Type is parsed as JSON.
   */
  rawBodyTypes?: readonly string[];
}

/** Request headers browsers may send to CORS routes (preflight answer, deployed and local). */
export const CORS_ALLOW_HEADERS = ['Authorization', 'Content-Type', 'Idempotency-Key'];

/** What a dashboard session may do on the route (Route.sessions and its defaults). */
export function sessionAccess(route: Route): SessionAccess {
  if (route.auth === 'none' || route.path.startsWith('/v1/')) return 'none';
  return route.sessions ?? 'member';
}

export const DEFAULT_MAX_BODY_BYTES = 256 * 1024;

export const functionGroups = ['contacts', 'templates', 'public', 'events', 'segments', 'workflows', 'domains', 'transfers', 'webhooks', 'docs', 'campaigns', 'unsubscribe', 'dashboard', 'keys', 'members', 'emails', 'analytics'] as const;
export type FunctionGroup = (typeof functionGroups)[number];

const secret = ['secret'] as const;
const owner = 'owner' as const;
/** Session-only routes (the signed-in user's own account): no API key has a user. */
const sessionOnly = [] as const;

/**
 * Lambda caps a synchronous request at 6 MB (6,291,456 bytes) including the event envelope, so a
 * larger body never reaches the function; /v1/send accepts bodies up to this, which leaves
 * about 4.4 MB of attachments after base64.
 */
export const SEND_MAX_BODY_BYTES = 6_000_000;

export const routes: readonly Route[] = [
  { method: 'POST', path: '/contacts', group: 'contacts', keys: secret },
  { method: 'GET', path: '/contacts', group: 'contacts', keys: secret },
  { method: 'GET', path: '/contacts/{id}', group: 'contacts', keys: secret },
  { method: 'PATCH', path: '/contacts/{id}', group: 'contacts', keys: secret },
  { method: 'DELETE', path: '/contacts/{id}', group: 'contacts', keys: secret },

  // Bulk imports and exports (/docs "Imports and exports"); static paths win over /contacts/{id}.
  { method: 'POST', path: '/contacts/imports', group: 'transfers', keys: secret, maxBodyBytes: SEND_MAX_BODY_BYTES, rawBodyTypes: ['text/csv'] },
  { method: 'GET', path: '/contacts/imports', group: 'transfers', keys: secret },
  { method: 'GET', path: '/contacts/imports/{id}', group: 'transfers', keys: secret },
  { method: 'POST', path: '/contacts/imports/{id}/start', group: 'transfers', keys: secret },
  { method: 'POST', path: '/contacts/exports', group: 'transfers', keys: secret },
  { method: 'GET', path: '/contacts/exports', group: 'transfers', keys: secret },
  { method: 'GET', path: '/contacts/exports/{id}', group: 'transfers', keys: secret },

  { method: 'POST', path: '/templates', group: 'templates', keys: secret },
  { method: 'GET', path: '/templates', group: 'templates', keys: secret },
  { method: 'GET', path: '/templates/{id}', group: 'templates', keys: secret },
  { method: 'PATCH', path: '/templates/{id}', group: 'templates', keys: secret },
  { method: 'DELETE', path: '/templates/{id}', group: 'templates', keys: secret },
  { method: 'POST', path: '/templates/render', group: 'templates', keys: secret },
  // A rendered preview (/docs "Templates"): no key, the random token in the path is the credential.
  { method: 'GET', path: '/templates/previews/{token}', group: 'templates', keys: [], auth: 'none' },

  { method: 'POST', path: '/v1/send', group: 'public', keys: secret, maxBodyBytes: SEND_MAX_BODY_BYTES },
  { method: 'POST', path: '/v1/verify', group: 'public', keys: secret },
  { method: 'POST', path: '/v1/track', group: 'public', keys: ['secret', 'public'], cors: true },

  { method: 'POST', path: '/domains', group: 'domains', keys: secret, sessions: owner },
  { method: 'GET', path: '/domains', group: 'domains', keys: secret },
  { method: 'GET', path: '/domains/{id}', group: 'domains', keys: secret },
  { method: 'DELETE', path: '/domains/{id}', group: 'domains', keys: secret, sessions: owner },

  { method: 'GET', path: '/events', group: 'events', keys: secret },
  { method: 'GET', path: '/events/names', group: 'events', keys: secret },

  // The activity log and the overview's figures (/docs "Emails"); read-only functions.
  { method: 'GET', path: '/emails', group: 'emails', keys: secret },
  { method: 'GET', path: '/emails/{id}', group: 'emails', keys: secret },
  { method: 'GET', path: '/analytics', group: 'analytics', keys: secret },

  { method: 'POST', path: '/segments', group: 'segments', keys: secret },
  { method: 'GET', path: '/segments', group: 'segments', keys: secret },
  { method: 'POST', path: '/segments/preview', group: 'segments', keys: secret },
  { method: 'GET', path: '/segments/{id}', group: 'segments', keys: secret },
  { method: 'PATCH', path: '/segments/{id}', group: 'segments', keys: secret },
  { method: 'DELETE', path: '/segments/{id}', group: 'segments', keys: secret },
  { method: 'GET', path: '/segments/{id}/contacts', group: 'segments', keys: secret },

  // The API contract without a key (/docs "API contract"): the OpenAPI document and its reference page.
  { method: 'GET', path: '/openapi.json', group: 'docs', keys: [], auth: 'none', cors: true },
  { method: 'GET', path: '/docs', group: 'docs', keys: [], auth: 'none' },
  { method: 'GET', path: '/docs/scalar.js', group: 'docs', keys: [], auth: 'none' },

  // The web dashboard's files (functions/dashboard/README.md): the app signs in and then calls the routes above.
  { method: 'GET', path: '/dashboard', group: 'dashboard', keys: [], auth: 'none' },
  { method: 'GET', path: '/dashboard/{proxy+}', group: 'dashboard', keys: [], auth: 'none' },

  // Outbound webhooks (/docs "Webhooks").
  { method: 'POST', path: '/webhooks', group: 'webhooks', keys: secret, sessions: owner },
  { method: 'GET', path: '/webhooks', group: 'webhooks', keys: secret, sessions: owner },
  { method: 'GET', path: '/webhooks/{id}', group: 'webhooks', keys: secret, sessions: owner },
  { method: 'PATCH', path: '/webhooks/{id}', group: 'webhooks', keys: secret, sessions: owner },
  { method: 'DELETE', path: '/webhooks/{id}', group: 'webhooks', keys: secret, sessions: owner },
  { method: 'POST', path: '/webhooks/{id}/rotate-secret', group: 'webhooks', keys: secret, sessions: owner },
  { method: 'POST', path: '/webhooks/{id}/test', group: 'webhooks', keys: secret, sessions: owner },
  { method: 'GET', path: '/webhooks/{id}/deliveries', group: 'webhooks', keys: secret, sessions: owner },
  { method: 'POST', path: '/webhooks/{id}/deliveries/{deliveryId}/replay', group: 'webhooks', keys: secret, sessions: owner },

  { method: 'POST', path: '/workflows', group: 'workflows', keys: secret },
  { method: 'GET', path: '/workflows', group: 'workflows', keys: secret },
  { method: 'GET', path: '/workflows/{id}', group: 'workflows', keys: secret },
  { method: 'PATCH', path: '/workflows/{id}', group: 'workflows', keys: secret },
  { method: 'DELETE', path: '/workflows/{id}', group: 'workflows', keys: secret },
  { method: 'GET', path: '/workflows/{id}/stats', group: 'workflows', keys: secret },
  { method: 'GET', path: '/workflows/{id}/executions', group: 'workflows', keys: secret },
  { method: 'GET', path: '/workflows/{id}/executions/{executionId}', group: 'workflows', keys: secret },
  { method: 'POST', path: '/workflows/{id}/executions/{executionId}/cancel', group: 'workflows', keys: secret },

  { method: 'POST', path: '/campaigns', group: 'campaigns', keys: secret },
  { method: 'GET', path: '/campaigns', group: 'campaigns', keys: secret },
  { method: 'GET', path: '/campaigns/{id}', group: 'campaigns', keys: secret },
  { method: 'PATCH', path: '/campaigns/{id}', group: 'campaigns', keys: secret },
  { method: 'DELETE', path: '/campaigns/{id}', group: 'campaigns', keys: secret },
  { method: 'POST', path: '/campaigns/{id}/send', group: 'campaigns', keys: secret },
  { method: 'POST', path: '/campaigns/{id}/cancel', group: 'campaigns', keys: secret },
  { method: 'POST', path: '/campaigns/{id}/test', group: 'campaigns', keys: secret },
  { method: 'GET', path: '/campaigns/{id}/audience', group: 'campaigns', keys: secret },
  { method: 'GET', path: '/campaigns/{id}/stats', group: 'campaigns', keys: secret },
  { method: 'POST', path: '/campaigns/{id}/ab-winner', group: 'campaigns', keys: secret },

  // One-click unsubscribe links in marketing mail (/docs "Unsubscribe"): no key, the signed token is the credential.
  { method: 'GET', path: '/unsubscribe/{token}', group: 'unsubscribe', keys: [], auth: 'none' },
  { method: 'POST', path: '/unsubscribe/{token}', group: 'unsubscribe', keys: [], auth: 'none', rawBodyTypes: ['*/*'] },
  { method: 'POST', path: '/unsubscribe/{token}/resubscribe', group: 'unsubscribe', keys: [], auth: 'none', rawBodyTypes: ['*/*'] },

  // Dashboard sessions (/docs "Dashboard session"): no authorizer; the function checks the
  // refresh cookie, that the request is same-origin and carries X-Mailwright-Request: 1.
  { method: 'POST', path: '/dashboard/session', group: 'dashboard', keys: [], auth: 'none' },
  { method: 'DELETE', path: '/dashboard/session', group: 'dashboard', keys: [], auth: 'none' },
  { method: 'POST', path: '/dashboard/session/refresh', group: 'dashboard', keys: [], auth: 'none' },
  { method: 'POST', path: '/dashboard/session/password-reset', group: 'dashboard', keys: [], auth: 'none' },
  { method: 'POST', path: '/dashboard/session/password-reset/confirm', group: 'dashboard', keys: [], auth: 'none' },
  { method: 'POST', path: '/dashboard/session/invitations/accept', group: 'dashboard', keys: [], auth: 'none' },

  // The signed-in user's account, the project, its members and audit trail.
  { method: 'GET', path: '/me', group: 'members', keys: sessionOnly },
  { method: 'PATCH', path: '/me/password', group: 'members', keys: sessionOnly },
  { method: 'GET', path: '/me/sessions', group: 'members', keys: sessionOnly },
  { method: 'DELETE', path: '/me/sessions', group: 'members', keys: sessionOnly },
  { method: 'DELETE', path: '/me/sessions/{id}', group: 'members', keys: sessionOnly },
  { method: 'GET', path: '/project', group: 'members', keys: secret },
  { method: 'PATCH', path: '/project', group: 'members', keys: secret, sessions: owner },
  { method: 'GET', path: '/members', group: 'members', keys: secret },
  { method: 'PATCH', path: '/members/{userId}', group: 'members', keys: secret, sessions: owner },
  { method: 'DELETE', path: '/members/{userId}', group: 'members', keys: secret, sessions: owner },
  { method: 'GET', path: '/members/invitations', group: 'members', keys: secret, sessions: owner },
  { method: 'POST', path: '/members/invitations', group: 'members', keys: secret, sessions: owner },
  { method: 'DELETE', path: '/members/invitations/{id}', group: 'members', keys: secret, sessions: owner },
  { method: 'GET', path: '/audit', group: 'members', keys: secret, sessions: owner },

  // API keys (/docs "API keys"), the same code as the admin CLI's key commands.
  { method: 'GET', path: '/keys', group: 'keys', keys: secret, sessions: owner },
  { method: 'POST', path: '/keys', group: 'keys', keys: secret, sessions: owner },
  { method: 'POST', path: '/keys/{id}/rotate', group: 'keys', keys: secret, sessions: owner },
  { method: 'DELETE', path: '/keys/{id}', group: 'keys', keys: secret, sessions: owner },
];

export const routeKey = (method: string, path: string) => `${method} ${path}`;

export function findRoute(method: string, resourcePath: string): Route | undefined {
  return routes.find((route) => route.method === method && route.path === resourcePath);
}
