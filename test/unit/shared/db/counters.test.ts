import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { addToCounters } from '../../../../shared/db/counters';

const ddb = mockClient(DynamoDBDocumentClient);
const key = { PK: 'PROJECT#P1', SK: 'EVENT_NAME#viewed' };

describe('addToCounters', () => {
  beforeEach(() => ddb.reset());

  it('merges increments that arrive while a write is in flight into the next write', async () => {
    // Prepare
    ddb.on(UpdateCommand).resolves({});

    // Act: five increments at once — the first goes alone, the other four share the next write
    await Promise.all([1, 2, 3, 4, 5].map((n) => addToCounters(key, { count: 1 }, { lastSeenAt: `2026-01-0${n}T00:00:00.000Z` })));

    // Assess
    const inputs = ddb.commandCalls(UpdateCommand).map((call) => call.args[0].input);
    expect(inputs).toHaveLength(2);
    expect(inputs[1]).toEqual({
      TableName: 'mailwright-test',
      Key: key,
      UpdateExpression: 'SET #s0 = :s0 ADD #a0 :a0',
      ExpressionAttributeNames: { '#s0': 'lastSeenAt', '#a0': 'count' },
      ExpressionAttributeValues: { ':s0': '2026-01-05T00:00:00.000Z', ':a0': 4 },
    });
  });

  it('keeps items apart and rejects every caller of a failed write', async () => {
    ddb.on(UpdateCommand, { Key: key }).rejects(new Error('throttled'));
    ddb.on(UpdateCommand, { Key: { PK: 'PROJECT#P1', SK: 'COUNTER#EVENTS' } }).resolves({});

    const results = await Promise.allSettled([addToCounters(key, { count: 1 }), addToCounters({ PK: 'PROJECT#P1', SK: 'COUNTER#EVENTS' }, { count: 2 })]);

    expect(results.map((result) => result.status)).toEqual(['rejected', 'fulfilled']);
  });

  it('counts an item on its kind\'s total when the write made it, and only then', async () => {
    // Prepare: the first write makes the name's counter, the second finds it
    const total = { PK: 'PROJECT#P1', SK: 'COUNTER#EVENT_NAMES' };
    ddb.on(UpdateCommand, { Key: key }).resolvesOnce({}).resolves({ Attributes: { count: 1 } });
    ddb.on(UpdateCommand, { Key: total }).resolves({});

    // Act
    await addToCounters(key, { count: 1 }, {}, { countNewOn: total });
    await addToCounters(key, { count: 1 }, {}, { countNewOn: total });

    // Assess
    const totals = ddb.commandCalls(UpdateCommand, { Key: total }).map((call) => call.args[0].input.ExpressionAttributeValues);
    expect(totals).toEqual([{ ':a0': 1 }]);
    expect(ddb.commandCalls(UpdateCommand, { Key: key })[0]!.args[0].input.ReturnValues).toBe('UPDATED_OLD');
  });
});
