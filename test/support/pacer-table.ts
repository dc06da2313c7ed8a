import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand, type DynamoDBDocumentClient, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import type { AwsStub } from 'aws-sdk-client-mock';
import type { ServiceInputTypes, ServiceOutputTypes } from '@aws-sdk/client-dynamodb';

type DocumentClientMock = AwsStub<ServiceInputTypes, ServiceOutputTypes, DynamoDBDocumentClient['config']>;

/**
 * The pacer's DynamoDB item behind a mocked document client: the two writes of
 * shared/sending/pacer.ts evaluated as DynamoDB evaluates them (a condition on an absent
 * attribute is false; a failed condition hands back the old item), one at a time, in arrival
 * order. `delay` (optional) is each way of the round trip, through the caller's sleep — a
 * virtual clock's, in the pacer bench.
 */
export interface PacerTable {
  /** The stored tat, undefined until the first write. */
  tat(): number | undefined;
  /** Successful writes. */
  writes: number;
  /** Failed conditions, by the condition that failed. */
  failed: Record<string, number>;
}

export function mockPacerTable(
  ddb: DocumentClientMock,
  options: { now?: () => number; delay?: () => Promise<void>; initialTat?: number } = {},
): PacerTable {
  let tat = options.initialTat;
  const table: PacerTable = { tat: () => tat, writes: 0, failed: {} };
  ddb.on(UpdateCommand).callsFake(async (input: UpdateCommandInput) => {
    await options.delay?.();
    const values = input.ExpressionAttributeValues as Record<string, number>;
    const fail = () => {
      table.failed[input.ConditionExpression!] = (table.failed[input.ConditionExpression!] ?? 0) + 1;
      throw new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {}, ...(tat === undefined ? {} : { Item: { tat: { N: String(tat) } } }) });
    };
    if (input.UpdateExpression === 'SET tat = tat + :run') {
      const holds = tat !== undefined && tat >= values[':now']! && (input.ConditionExpression === 'tat >= :now' || tat <= values[':latest']!);
      if (!holds) fail();
      tat = tat! + values[':run']!;
    } else if (input.UpdateExpression === 'SET tat = :next') {
      if (tat !== undefined && !(tat < values[':now']!)) fail();
      tat = values[':next']!;
    } else {
      throw new Error(`mockPacerTable: unexpected update ${input.UpdateExpression}`);
    }
    table.writes++;
    const result = input.ReturnValues === 'UPDATED_NEW' ? { Attributes: { tat } } : {};
    await options.delay?.();
    return result;
  });
  return table;
}
