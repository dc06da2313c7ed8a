import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../aws/clients';
import { tableName } from '../db/table';
import { unauthorized } from '../http/errors';
import { accountKeys } from './keys';

export interface SessionCaller {
  userId: string;
  projectId: string;
  role: string;
  sessionId: string;
  /** The access token's expiry, epoch milliseconds. */
  expiresAt: number;
}

/**
 * Every request made with an access token, in the function (API Gateway may serve a cached
 * authorizer result for up to its TTL, longer than the token's own life): the token has not
 * expired, its session still exists, and the user is still a member with the token's role. One
 * BatchGetItem; so sign-out, removal and role changes take effect on the next request.
 */
export async function assertSessionCurrent(caller: SessionCaller, now = Date.now()): Promise<void> {
  if (!(caller.expiresAt > now)) throw unauthorized('The access token has expired; refresh it');
  const sessionKey = accountKeys.session(caller.userId, caller.sessionId);
  const membershipKey = accountKeys.membership(caller.projectId, caller.userId);
  const { Responses } = await documentClient.send(
    new BatchGetCommand({
      RequestItems: {
        [tableName]: { Keys: [sessionKey, membershipKey], ConsistentRead: true, ProjectionExpression: 'PK, SK, #role, idleExpiresAt, absoluteExpiresAt', ExpressionAttributeNames: { '#role': 'role' } },
      },
    }),
  );
  const items = Responses?.[tableName] ?? [];
  const session = items.find((item) => item.PK === sessionKey.PK && item.SK === sessionKey.SK);
  const membership = items.find((item) => item.PK === membershipKey.PK && item.SK === membershipKey.SK);
  if (!session || !((session.idleExpiresAt as number) > now && (session.absoluteExpiresAt as number) > now)) throw unauthorized('The session has ended; sign in again');
  if (!membership || membership.role !== caller.role) throw unauthorized('Your access to this project changed; refresh the session');
}
