import { jest } from '@jest/globals';
import { BatchWriteCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { batchWriteAll, type WriteRequest } from '../../../../shared/db/batch';

const ddb = mockClient(DynamoDBDocumentClient);
const puts = (count: number): WriteRequest[] => Array.from({ length: count }, (_, index) => ({ PutRequest: { Item: { PK: 'P', SK: `S#${index}` } } }));
const sentKeys = () => ddb.commandCalls(BatchWriteCommand).flatMap((call) => (call.args[0].input.RequestItems!['mailwright-test'] as WriteRequest[]).map((request) => ('PutRequest' in request ? request.PutRequest.Item.SK : request.DeleteRequest.Key.SK)));

describe('batchWriteAll', () => {
  beforeEach(() => ddb.reset());

  it('writes every request, at most 25 to a call', async () => {
    // Prepare
    ddb.on(BatchWriteCommand).resolves({});

    // Act
    await batchWriteAll(puts(60));

    // Assess
    const sizes = ddb.commandCalls(BatchWriteCommand).map((call) => call.args[0].input.RequestItems!['mailwright-test']!.length);
    expect(sizes.sort((a, b) => b - a)).toEqual([25, 25, 10]);
    expect(new Set(sentKeys()).size).toBe(60);
  });

  it('sends again what DynamoDB left unprocessed, until nothing is left', async () => {
    // Prepare: the first call leaves two writes unprocessed
    const requests = puts(5);
    ddb.on(BatchWriteCommand).resolvesOnce({ UnprocessedItems: { 'mailwright-test': requests.slice(3) as never } }).resolves({});

    // Act
    await batchWriteAll(requests);

    // Assess
    expect(sentKeys()).toEqual(['S#0', 'S#1', 'S#2', 'S#3', 'S#4', 'S#3', 'S#4']);
  });

  it('fails when DynamoDB keeps leaving writes unprocessed', async () => {
    // Prepare
    const requests = puts(1);
    ddb.on(BatchWriteCommand).resolves({ UnprocessedItems: { 'mailwright-test': requests as never } });
    jest.useFakeTimers();

    try {
      // Act: the backoffs between the attempts run out at once
      const outcome = batchWriteAll(requests).catch((error: unknown) => error);
      await jest.runAllTimersAsync();

      // Assess
      expect(String(await outcome)).toMatch(/unprocessed/);
      expect(ddb.commandCalls(BatchWriteCommand).length).toBeGreaterThan(5);
    } finally {
      jest.useRealTimers();
    }
  });

  it('makes no call for no requests', async () => {
    await batchWriteAll([]);

    expect(ddb.commandCalls(BatchWriteCommand)).toHaveLength(0);
  });
});
