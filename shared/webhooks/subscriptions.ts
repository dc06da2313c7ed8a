import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../aws/clients';
import { tableName } from '../db/table';
import type { TransactItem } from '../db/transactions';
import { webhookKeys } from './keys';

export const MAX_ENDPOINTS_PER_PROJECT = 20;

/**
 * The write that keeps the project's subscription index current: an enabled endpoint's kinds
 * are there, a disabled or deleted one's are not. It goes in the same transaction as the change.
 */
export function indexWrite(projectId: string, endpointId: string, events: string[] | null, countChange: -1 | 0 | 1): TransactItem {
  const names: Record<string, string> = { '#endpoint': webhookKeys.indexAttribute(endpointId) };
  const values: Record<string, unknown> = {};
  const clauses: string[] = [];
  if (events) {
    values[':events'] = events;
    clauses.push('SET #endpoint = :events');
  } else {
    clauses.push('REMOVE #endpoint');
  }
  let condition: string | undefined;
  if (countChange !== 0) {
    names['#count'] = 'endpointCount';
    values[':change'] = countChange;
    clauses.push('ADD #count :change');
    if (countChange > 0) {
      values[':max'] = MAX_ENDPOINTS_PER_PROJECT;
      condition = 'attribute_not_exists(#count) OR #count < :max';
    }
  }
  return {
    Update: {
      TableName: tableName,
      Key: webhookKeys.index(projectId),
      UpdateExpression: clauses.join(' '),
      ExpressionAttributeNames: names,
      ...(Object.keys(values).length ? { ExpressionAttributeValues: values } : {}),
      ...(condition ? { ConditionExpression: condition } : {}),
    },
  };
}

/** The enabled endpoints of a project and their kinds: one consistent GetItem of the index. */
export async function loadSubscriptions(projectId: string): Promise<{ endpointId: string; events: string[] }[]> {
  const { Item } = await documentClient.send(new GetCommand({ TableName: tableName, Key: webhookKeys.index(projectId), ConsistentRead: true }));
  return Object.entries(Item ?? {})
    .filter(([name]) => name.startsWith(webhookKeys.indexAttributePrefix))
    .map(([name, events]) => ({ endpointId: name.slice(webhookKeys.indexAttributePrefix.length), events: events as string[] }));
}

