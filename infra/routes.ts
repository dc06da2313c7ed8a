/**
 * THE route table. The CDK stack builds API Gateway from it and the local gateway serves it, so
 * the two cannot drift. Each function group is one Lambda: functions/<group>/handler.ts.
 */
export type KeyKind = 'secret' | 'public';
export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export interface Route {
  method: HttpMethod;
  /** API Gateway resource path, with {param} placeholders. */
  path: string;
  group: FunctionGroup;
  /** Key kinds accepted; secret keys are accepted everywhere. */
  keys: readonly KeyKind[];
  /** Browsers call this route from other origins: answer CORS preflight and add CORS headers. */
  cors?: boolean;
  /** Largest accepted request body, in bytes (default DEFAULT_MAX_BODY_BYTES). */
  maxBodyBytes?: number;
}

/** Request headers browsers may send to CORS routes (preflight answer, deployed and local). */
export const CORS_ALLOW_HEADERS = ['Authorization', 'Content-Type', 'Idempotency-Key'];

export const DEFAULT_MAX_BODY_BYTES = 256 * 1024;

export const functionGroups = ['contacts'] as const;
export type FunctionGroup = (typeof functionGroups)[number];

const secret = ['secret'] as const;

export const routes: readonly Route[] = [
  { method: 'POST', path: '/contacts', group: 'contacts', keys: secret },
  { method: 'GET', path: '/contacts', group: 'contacts', keys: secret },
  { method: 'GET', path: '/contacts/{id}', group: 'contacts', keys: secret },
  { method: 'PATCH', path: '/contacts/{id}', group: 'contacts', keys: secret },
  { method: 'DELETE', path: '/contacts/{id}', group: 'contacts', keys: secret },
];

export const routeKey = (method: string, path: string) => `${method} ${path}`;

export function findRoute(method: string, resourcePath: string): Route | undefined {
  return routes.find((route) => route.method === method && route.path === resourcePath);
}
