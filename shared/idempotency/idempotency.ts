import { createHash } from 'node:crypto';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import { documentClient } from '../aws/clients';
import { tableName } from '../db/table';
import { conflict, validationFailed } from '../http/errors';
import type { HttpResult } from '../http/handler';
import { logger } from '../observability/logger';
import { idempotencyKeys } from './keys';

const WINDOW_SECONDS = 24 * 3600;
/** How long a run holds its key: past the API's 29 s, so a run that died frees it for a retry. */
export const LEASE_SECONDS = 35;

/**
 * One run of a request under its Idempotency-Key. `seed` is the same for every run of the key
 * (the first run's), so a run names what it creates from it and a retry finds what an earlier,
 * failed run left half done; `retry` says an earlier run may have left something.
 */
export interface IdempotentRun {
  seed: string;
  retry: boolean;
}

/**
 * `Idempotency-Key`: the first request with a key runs and its response is kept 24 h; a repeat
 * with the same body gets that response again (and `Idempotent-Replayed: true`) without running;
 * a repeat with another body gets 409. A run that fails (a 503 when AWS is busy, say) gives the
 * key back: a retry runs again with the same seed, so whatever the failed run did is found, not
 * done twice. A run that died without giving it back holds it for LEASE_SECONDS (409 in progress
 * meanwhile). Without a key every request runs with a fresh seed.
 */
export async function withIdempotency(projectId: string, idempotencyKey: string | undefined, body: unknown, run: (attempt: IdempotentRun) => Promise<HttpResult>): Promise<HttpResult> {
  if (idempotencyKey === undefined) return run({ seed: ulid(), retry: false });
  if (idempotencyKey.length < 1 || idempotencyKey.length > 255 || !/^[\x21-\x7e]+$/.test(idempotencyKey)) {
    throw validationFailed([{ field: 'Idempotency-Key', code: 'INVALID_HEADER', message: 'Idempotency-Key must be 1–255 visible ASCII characters' }]);
  }
  const key = idempotencyKeys.record(projectId, idempotencyKey);
  const fingerprint = createHash('sha256').update(JSON.stringify(body ?? null)).digest('hex');
  const nowSeconds = Math.floor(Date.now() / 1000);

  const attempt = (await reserve(key, fingerprint, nowSeconds)) ?? (await retake(key, fingerprint, nowSeconds));
  if (!attempt) return replay(key, fingerprint);

  let result: HttpResult;
  try {
    result = await run(attempt);
  } catch (error) {
    await release(key, attempt.seed);
    throw error;
  }
  try {
    await documentClient.send(
      new UpdateCommand({
        TableName: tableName,
        Key: key,
        UpdateExpression: 'SET #state = :complete, #response = :response REMOVE leaseUntil',
        ConditionExpression: 'seed = :seed',
        ExpressionAttributeNames: { '#state': 'state', '#response': 'response' },
        ExpressionAttributeValues: { ':complete': 'COMPLETE', ':response': { statusCode: result.statusCode ?? 200, data: result.data }, ':seed': attempt.seed },
      }),
    );
  } catch (error) {
    // Done, but not noted: a repeat runs again (after the lease) with the same seed and finds it done.
    logger.warn('Could not keep the response of an idempotent request', { projectId, error: error as Error });
  }
  return result;
}

/** The key's first run: a fresh seed, held for the lease. */
async function reserve(key: Record<string, string>, fingerprint: string, nowSeconds: number): Promise<IdempotentRun | undefined> {
  const seed = ulid();
  try {
    await documentClient.send(
      new PutCommand({
        TableName: tableName,
        Item: { ...key, fingerprint, state: 'IN_PROGRESS', seed, leaseUntil: nowSeconds + LEASE_SECONDS, expiresAt: nowSeconds + WINDOW_SECONDS },
        ConditionExpression: 'attribute_not_exists(PK) OR expiresAt < :now',
        ExpressionAttributeValues: { ':now': nowSeconds },
      }),
    );
    return { seed, retry: false };
  } catch (error) {
    if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
    return undefined;
  }
}

/** A later run of the same request, once an earlier one failed (FAILED) or died (its lease over): the same seed. */
async function retake(key: Record<string, string>, fingerprint: string, nowSeconds: number): Promise<IdempotentRun | undefined> {
  try {
    const { Attributes } = await documentClient.send(
      new UpdateCommand({
        TableName: tableName,
        Key: key,
        UpdateExpression: 'SET #state = :inProgress, leaseUntil = :lease',
        ConditionExpression: 'fingerprint = :fingerprint AND attribute_exists(seed) AND #state <> :complete AND (#state = :failed OR attribute_not_exists(leaseUntil) OR leaseUntil < :now)',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':inProgress': 'IN_PROGRESS', ':lease': nowSeconds + LEASE_SECONDS, ':fingerprint': fingerprint, ':complete': 'COMPLETE', ':failed': 'FAILED', ':now': nowSeconds },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return { seed: String(Attributes!.seed), retry: true };
  } catch (error) {
    if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
    return undefined;
  }
}

/** A failed run gives the key back at once; if even that fails, the lease frees it. */
async function release(key: Record<string, string>, seed: string): Promise<void> {
  try {
    await documentClient.send(
      new UpdateCommand({
        TableName: tableName,
        Key: key,
        UpdateExpression: 'SET #state = :failed',
        ConditionExpression: 'seed = :seed AND #state = :inProgress',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':failed': 'FAILED', ':seed': seed, ':inProgress': 'IN_PROGRESS' },
      }),
    );
  } catch (error) {
    logger.warn('Could not give back an idempotency key after a failed run; its lease frees it', { error: error as Error });
  }
}

async function replay(key: Record<string, string>, fingerprint: string): Promise<HttpResult> {
  const { Item } = await documentClient.send(new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }));
  if (!Item || Item.fingerprint !== fingerprint) {
    throw conflict('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was used with a different request body in the last 24 hours');
  }
  if (Item.state !== 'COMPLETE') {
    throw conflict('IDEMPOTENCY_KEY_IN_PROGRESS', 'A request with this Idempotency-Key is still being processed; retry shortly');
  }
  const response = Item.response as { statusCode: number; data: unknown };
  return { statusCode: response.statusCode, data: response.data, headers: { 'Idempotent-Replayed': 'true' } };
}
