import { createHash } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../aws/clients';
import { tableName } from '../db/table';
import { conflict, validationFailed } from '../http/errors';
import type { HttpResult } from '../http/handler';
import { idempotencyKeys } from './keys';

const WINDOW_SECONDS = 24 * 3600;

/**
 * `Idempotency-Key`: the first request with a key runs and its response is kept 24 h; a repeat
 * with the same body gets that response again (and `Idempotent-Replayed: true`) without running;
 * a repeat with another body gets 409. A request that fails frees the key, so it can be retried.
 */
export async function withIdempotency(projectId: string, idempotencyKey: string | undefined, body: unknown, run: () => Promise<HttpResult>): Promise<HttpResult> {
  if (idempotencyKey === undefined) return run();
  if (idempotencyKey.length < 1 || idempotencyKey.length > 255 || !/^[\x21-\x7e]+$/.test(idempotencyKey)) {
    throw validationFailed([{ field: 'Idempotency-Key', code: 'INVALID_HEADER', message: 'Idempotency-Key must be 1–255 visible ASCII characters' }]);
  }
  const key = idempotencyKeys.record(projectId, idempotencyKey);
  const fingerprint = createHash('sha256').update(JSON.stringify(body ?? null)).digest('hex');
  const nowSeconds = Math.floor(Date.now() / 1000);

  try {
    await documentClient.send(
      new PutCommand({
        TableName: tableName,
        Item: { ...key, fingerprint, state: 'IN_PROGRESS', expiresAt: nowSeconds + WINDOW_SECONDS },
        ConditionExpression: 'attribute_not_exists(PK) OR expiresAt < :now',
        ExpressionAttributeValues: { ':now': nowSeconds },
      }),
    );
  } catch (error) {
    if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
    return replay(key, fingerprint);
  }

  let result: HttpResult;
  try {
    result = await run();
  } catch (error) {
    await documentClient.send(new DeleteCommand({ TableName: tableName, Key: key }));
    throw error;
  }
  await documentClient.send(
    new UpdateCommand({
      TableName: tableName,
      Key: key,
      UpdateExpression: 'SET #state = :complete, #response = :response',
      ExpressionAttributeNames: { '#state': 'state', '#response': 'response' },
      ExpressionAttributeValues: { ':complete': 'COMPLETE', ':response': { statusCode: result.statusCode ?? 200, data: result.data } },
    }),
  );
  return result;
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
