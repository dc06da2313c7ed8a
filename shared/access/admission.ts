import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
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
 * Admits one API request. It runs in every function, after the authorizer, so it holds when API
 * Gateway serves a cached authorizer result. Two calls at once: a consistent read of the project
 * item and one conditional UpdateItem of the project's rate window (two when a window rolls
 * over), an item of its own: on the project item, every request rewrote its GSI1 entry too, in
 * the one index partition that lists every project.
 * - the project must be ACTIVE (403) and the key not revoked (401), with no cache delay;
 * - rate limit: a fixed window of one minute that opens with the first request after the previous
 *   window closed. Request N+1 within a minute of the window's first request gets 429 with
 *   Retry-After = seconds until the window closes. Each project has its own window.
 */
export async function admitRequest(caller: Caller, now = Date.now()): Promise<void> {
  const [project, counted] = await Promise.all([readAccess(caller.projectId), countRequest(caller.projectId, now)]);
  rejectIfNoAccess(project, caller);
  if (!counted) throw rateLimited(1, rateLimitPerMinute);
  const { requestCount, windowStart } = counted;
  if (requestCount > rateLimitPerMinute) {
    throw rateLimited(Math.max(1, Math.ceil((windowStart + WINDOW_MS - now) / 1000)), rateLimitPerMinute);
  }
}

async function readAccess(projectId: string): Promise<Record<string, unknown> | undefined> {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: tableName, Key: projectKeys.project(projectId), ConsistentRead: true, ProjectionExpression: '#status, #revoked', ExpressionAttributeNames: { '#status': 'status', '#revoked': 'revokedKeyIds' } }),
  );
  return Item;
}

/** Counts the request in the open window, or opens one; null when other requests kept rolling it over (three tries). */
async function countRequest(projectId: string, now: number): Promise<{ requestCount: number; windowStart: number } | null> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const counted = await countInOpenWindow(projectId, now);
    if (counted) return counted;
    if (await openWindow(projectId, now)) return { requestCount: 1, windowStart: now };
  }
  return null;
}

const names = { '#count': 'requestCount', '#start': 'windowStart' };
/** A window item outlives its minute by a day, then goes: an idle project keeps none. */
const WINDOW_TTL_SECONDS = 24 * 60 * 60;

/** Returns the new count, or null when no window is open (the caller then opens one). */
async function countInOpenWindow(projectId: string, now: number) {
  try {
    const { Attributes } = await documentClient.send(
      new UpdateCommand({
        TableName: tableName,
        Key: projectKeys.admission(projectId),
        UpdateExpression: 'SET #count = #count + :one',
        ConditionExpression: '#start > :windowOpenedAfter',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: { ':one': 1, ':windowOpenedAfter': now - WINDOW_MS },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return { requestCount: Attributes!.requestCount as number, windowStart: Attributes!.windowStart as number };
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
    return null;
  }
}

async function openWindow(projectId: string, now: number): Promise<boolean> {
  try {
    await documentClient.send(
      new UpdateCommand({
        TableName: tableName,
        Key: projectKeys.admission(projectId),
        UpdateExpression: 'SET #count = :one, #start = :now, expiresAt = :expiresAt',
        ConditionExpression: 'attribute_not_exists(#start) OR #start <= :windowOpenedAfter',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: { ':one': 1, ':now': now, ':windowOpenedAfter': now - WINDOW_MS, ':expiresAt': Math.floor(now / 1000) + WINDOW_TTL_SECONDS },
      }),
    );
    return true;
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
    return false; // another request opened the window first: count in it
  }
}

function rejectIfNoAccess(project: Record<string, unknown> | undefined, caller: Caller) {
  if (!project) throw unauthorized('The API key belongs to no project');
  if (project.status !== 'ACTIVE') throw forbidden('PROJECT_DISABLED', 'This project is disabled');
  if (project.revokedKeyIds instanceof Set && project.revokedKeyIds.has(caller.keyId)) throw unauthorized('This API key has been revoked');
}
