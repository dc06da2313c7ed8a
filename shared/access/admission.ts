import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../aws/clients';
import { integerEnv } from '../config/env';
import { variables } from '../config/variables';
import { tableName } from '../db/table';
import { forbidden, rateLimited, unauthorized } from '../http/errors';
import { projectKeys } from '../projects/keys';

export const rateLimitPerMinute = integerEnv(variables.rateLimitPerMinute, 1000);
const WINDOW_MS = 60_000;

export interface Caller {
  projectId: string;
  keyId: string;
}

/**
 * Admits one API request, in one conditional UpdateItem on the project item (two when a window
 * rolls over). It runs in every function, after the authorizer, so it holds when API Gateway
 * serves a cached authorizer result:
 * - the project must be ACTIVE (403) and the key not revoked (401), with no cache delay;
 * - rate limit: a fixed window of one minute that opens with the first request after the previous
 *   window closed. Request N+1 within a minute of the window's first request gets 429 with
 *   Retry-After = seconds until the window closes. Each project has its own window.
 */
export async function admitRequest(caller: Caller, now = Date.now()): Promise<void> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const counted = await countInOpenWindow(caller, now);
    if (counted) {
      const { requestCount, windowStart } = counted;
      if (requestCount > rateLimitPerMinute) {
        throw rateLimited(Math.max(1, Math.ceil((windowStart + WINDOW_MS - now) / 1000)), rateLimitPerMinute);
      }
      return;
    }
    if (await openWindow(caller, now)) return;
  }
  throw rateLimited(1, rateLimitPerMinute);
}

const accessCondition = '#status = :active AND NOT contains(#revoked, :keyId)';
const names = { '#status': 'status', '#revoked': 'revokedKeyIds', '#count': 'requestCount', '#start': 'windowStart' };

/** Returns the new count, or null when no window is open (the caller then opens one). */
async function countInOpenWindow(caller: Caller, now: number) {
  try {
    const { Attributes } = await documentClient.send(
      new UpdateCommand({
        TableName: tableName,
        Key: projectKeys.project(caller.projectId),
        UpdateExpression: 'SET #count = #count + :one',
        ConditionExpression: `${accessCondition} AND #start > :windowOpenedAfter`,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: { ':one': 1, ':active': 'ACTIVE', ':keyId': caller.keyId, ':windowOpenedAfter': now - WINDOW_MS },
        ReturnValues: 'ALL_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return { requestCount: Attributes!.requestCount as number, windowStart: Attributes!.windowStart as number };
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
    rejectIfNoAccess(error.Item, caller);
    return null;
  }
}

async function openWindow(caller: Caller, now: number): Promise<boolean> {
  try {
    await documentClient.send(
      new UpdateCommand({
        TableName: tableName,
        Key: projectKeys.project(caller.projectId),
        UpdateExpression: 'SET #count = :one, #start = :now',
        ConditionExpression: `${accessCondition} AND (attribute_not_exists(#start) OR #start <= :windowOpenedAfter)`,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: { ':one': 1, ':now': now, ':active': 'ACTIVE', ':keyId': caller.keyId, ':windowOpenedAfter': now - WINDOW_MS },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return true;
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
    rejectIfNoAccess(error.Item, caller);
    return false; // another request opened the window first: count in it
  }
}

/** Items from ConditionalCheckFailed are in DynamoDB's wire format (`{ S: … }`). */
function rejectIfNoAccess(item: Record<string, { S?: string; SS?: string[] }> | undefined, caller: Caller) {
  if (!item) throw unauthorized('The API key belongs to no project');
  if (item.status?.S !== 'ACTIVE') throw forbidden('PROJECT_DISABLED', 'This project is disabled');
  if (item.revokedKeyIds?.SS?.includes(caller.keyId)) throw unauthorized('This API key has been revoked');
}
