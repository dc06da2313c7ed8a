import { DeleteCommand, GetCommand, QueryCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../aws/clients';
import { tableName } from '../db/table';
import { decodeCursor, encodeCursor } from '../http/cursor';
import { projectPartition } from '../projects/keys';
import { normalizeAddress, suppressionKeys } from './keys';

/**
 * A project's suppression list: addresses nothing is sent to any more (hard bounce, complaint,
 * or added by hand). Nothing reaches a suppressed address, whatever the kind of mail: transactional
 * mail too, unlike an unsubscribed contact's.
 */
export type SuppressionReason = 'BOUNCE' | 'COMPLAINT' | 'MANUAL';

export interface Suppression {
  email: string;
  reason: SuppressionReason;
  createdAt: string;
}

export interface SuppressionPage {
  items: Suppression[];
  nextCursor: string | null;
  hasMore: boolean;
}

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** One strongly consistent GetItem. */
export async function isSuppressed(projectId: string, email: string): Promise<boolean> {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: tableName, Key: suppressionKeys.suppressed(projectId, email), ConsistentRead: true, ProjectionExpression: 'PK' }),
  );
  return Item !== undefined;
}

/**
 * The write that suppresses an address, to join the transaction of what caused it (a bounce or
 * complaint event). Idempotent: suppressing twice keeps the first `createdAt` and never fails the
 * transaction.
 */
export function suppressionPutItem(projectId: string, email: string, reason: SuppressionReason, at = new Date()): TransactItem {
  return {
    Update: {
      TableName: tableName,
      Key: suppressionKeys.suppressed(projectId, email),
      UpdateExpression: 'SET email = :email, reason = :reason, createdAt = if_not_exists(createdAt, :now)',
      ExpressionAttributeValues: { ':email': normalizeAddress(email), ':reason': reason, ':now': at.toISOString() },
    },
  };
}

/** A page of the project's suppressed addresses in address order; the cursor is opaque. */
export async function listSuppressed(projectId: string, options: { limit?: number; cursor?: string } = {}): Promise<SuppressionPage> {
  const binding = `suppressed:${projectId}`;
  const partition = projectPartition(projectId);
  const { Items = [], LastEvaluatedKey } = await documentClient.send(
    new QueryCommand({
      TableName: tableName,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': partition, ':prefix': suppressionKeys.prefix },
      Limit: options.limit ?? 50,
      ...(options.cursor ? { ExclusiveStartKey: decodeCursor(options.cursor, binding, { PK: partition }, ['SK']) } : {}),
    }),
  );
  return {
    items: Items.map((item) => ({ email: item.email as string, reason: item.reason as SuppressionReason, createdAt: item.createdAt as string })),
    nextCursor: encodeCursor(LastEvaluatedKey, binding),
    hasMore: LastEvaluatedKey !== undefined,
  };
}

/** Removes the address from the list; false when it was not on it (not an error here). */
export async function removeSuppressed(projectId: string, email: string): Promise<boolean> {
  const { Attributes } = await documentClient.send(
    new DeleteCommand({ TableName: tableName, Key: suppressionKeys.suppressed(projectId, email), ReturnValues: 'ALL_OLD' }),
  );
  return Attributes !== undefined;
}
