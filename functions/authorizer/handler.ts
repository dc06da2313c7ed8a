import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { routes } from '../../shared/http/routes';
import { logger } from '../../shared/observability/logger';
import { parseAuthorizationHeader } from '../../shared/projects/api-keys';
import { findApiKey } from '../../shared/projects/projects';

/**
 * REST API REQUEST authorizer. Throwing 'Unauthorized' makes API Gateway answer 401 through the
 * UNAUTHORIZED gateway response; a Deny (disabled project) or a policy without the requested
 * method ARN (a public key off /v1/track) answers 403 through ACCESS_DENIED. The policy covers
 * every route the key may call, because API Gateway caches it per Authorization header.
 */
export async function handler(event: APIGatewayRequestAuthorizerEvent): Promise<APIGatewayAuthorizerResult> {
  const presented = parseAuthorizationHeader(event.headers?.Authorization ?? event.headers?.authorization);
  if (!presented) throw new Error('Unauthorized');
  const record = await findApiKey(presented.key);
  if (!record) throw new Error('Unauthorized');

  const apiArn = event.methodArn.split('/').slice(0, 2).join('/');
  const allowed =
    record.kind === 'secret'
      ? [`${apiArn}/*/*`]
      : routes.filter((route) => route.keys.includes('public')).map((route) => `${apiArn}/${route.method}${route.path.replace(/\{[^}]+\}/g, '*')}`);
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
