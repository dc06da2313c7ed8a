import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { parseAccessTokenHeader, verifyAccessToken, type AccessClaims } from '../../shared/accounts/access-tokens';
import { assertSessionCurrent } from '../../shared/accounts/session-check';
import { routes, sessionAccess } from '../../shared/http/routes';
import { logger } from '../../shared/observability/logger';
import { parseAuthorizationHeader } from '../../shared/projects/api-keys';
import { findApiKey, touchApiKey } from '../../shared/projects/projects';

/**
 * REST API REQUEST authorizer. Throwing 'Unauthorized' makes API Gateway answer 401 through the
 * UNAUTHORIZED gateway response; a Deny (disabled project) or a policy without the requested
 * method ARN (a public key off /v1/track, a session on /v1/*, a MEMBER on an owners' route)
 * answers 403 through ACCESS_DENIED. The policy covers every route the caller may call, because
 * API Gateway caches it per Authorization header.
 */
export async function handler(event: APIGatewayRequestAuthorizerEvent): Promise<APIGatewayAuthorizerResult> {
  const header = event.headers?.Authorization ?? event.headers?.authorization;
  const apiArn = event.methodArn.split('/').slice(0, 2).join('/');
  const accessToken = parseAccessTokenHeader(header);
  if (accessToken) return authorizeSession(accessToken, apiArn);

  const presented = parseAuthorizationHeader(header);
  if (!presented) throw new Error('Unauthorized');
  const record = await findApiKey(presented.key);
  if (!record) throw new Error('Unauthorized');
  // Awaited, but a failed usage note must not refuse a valid key.
  await touchApiKey(record.projectId, record.keyId).catch((error: Error) => logger.warn('Could not record the key\'s use', { projectId: record.projectId, keyId: record.keyId, error }));

  const allowed =
    record.kind === 'secret'
      ? [`${apiArn}/*/*`]
      : routes.filter((route) => route.keys.includes('public')).map((route) => methodArn(apiArn, route));
  const effect = record.projectStatus === 'ACTIVE' && allowed.length > 0 ? 'Allow' : 'Deny';
  if (effect === 'Deny') logger.info('Denied a key of a disabled project', { projectId: record.projectId });

  return {
    principalId: record.projectId,
    policyDocument: {
      Version: '2012-10-17',
      Statement: [{ Action: 'execute-api:Invoke', Effect: effect, Resource: effect === 'Allow' ? allowed : [`${apiArn}/*/*`] }],
    },
    context: { projectId: record.projectId, keyId: record.keyId, keyKind: record.kind },
  };
}

const methodArn = (apiArn: string, route: { method: string; path: string }) => `${apiArn}/${route.method}${route.path.replace(/\{[^}]+\}/g, '*')}`;

/**
 * A dashboard access token: genuine, unexpired, its session and membership still there. The
 * policy allows everything but the routes the role may not call (explicit Deny wins), which keeps
 * it small: /v1/* for every session, the owners' routes for a MEMBER.
 */
async function authorizeSession(token: string, apiArn: string): Promise<APIGatewayAuthorizerResult> {
  const claims = verifyAccessToken(token);
  if (!claims) throw new Error('Unauthorized');
  try {
    await assertSessionCurrent(claims);
  } catch {
    throw new Error('Unauthorized');
  }
  return sessionPolicy(claims, apiArn);
}

export function sessionPolicy(claims: AccessClaims, apiArn: string): APIGatewayAuthorizerResult {
  const denied = routes
    .filter((route) => route.auth !== 'none')
    .filter((route) => {
      const access = sessionAccess(route);
      return access === 'none' || (access === 'owner' && claims.role !== 'OWNER');
    })
    .map((route) => methodArn(apiArn, route));
  return {
    principalId: claims.userId,
    policyDocument: {
      Version: '2012-10-17',
      Statement: [
        { Action: 'execute-api:Invoke', Effect: 'Allow' as const, Resource: [`${apiArn}/*/*`] },
        ...(denied.length ? [{ Action: 'execute-api:Invoke', Effect: 'Deny' as const, Resource: denied }] : []),
      ],
    },
    context: {
      projectId: claims.projectId,
      keyId: claims.sessionId,
      keyKind: 'session',
      userId: claims.userId,
      role: claims.role,
      sessionId: claims.sessionId,
      expiresAt: claims.expiresAt,
    },
  };
}
