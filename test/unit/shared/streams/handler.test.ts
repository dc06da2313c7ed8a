import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { createStreamHandler, type StreamChange } from '../../../../shared/streams/handler';
import { contactToReevaluate } from '../../../../shared/segments/membership';

const record = (sequence: string, keys: Record<string, string>, newImage?: Record<string, unknown>): DynamoDBRecord => ({
  eventID: `id-${sequence}`,
  eventName: newImage ? 'MODIFY' : 'REMOVE',
  eventSource: 'aws:dynamodb',
  dynamodb: {
    SequenceNumber: sequence,
    Keys: marshall(keys) as never,
    ...(newImage ? { NewImage: marshall(newImage) as never } : {}),
    OldImage: marshall({ ...keys, old: true }) as never,
  },
});

describe('createStreamHandler', () => {
  it('groups changes by key in stream order and unmarshalls images', async () => {
    const seen: StreamChange[][] = [];
    const handler = createStreamHandler({ name: 'test', process: async (changes) => void seen.push(changes) });

    const response = await handler({
      Records: [record('1', { PK: 'P', SK: 'A' }, { n: 1, data: {} }), record('2', { PK: 'P', SK: 'B' }, { n: 2 }), record('3', { PK: 'P', SK: 'A' })],
    });

    expect(response).toEqual({ batchItemFailures: [] });
    const a = seen.find((changes) => changes[0]!.keys.SK === 'A')!;
    expect(a.map((change) => change.sequenceNumber)).toEqual(['1', '3']);
    expect(a[0]!.newImage).toEqual({ n: 1, data: {} });
    expect(a[1]!).toMatchObject({ eventName: 'REMOVE', newImage: undefined, oldImage: { PK: 'P', SK: 'A', old: true } });
  });

  it('makes the per-batch value once for each batch and hands it to every key of that batch', async () => {
    // Prepare
    let made = 0;
    const seen: [string, number][] = [];
    const handler = createStreamHandler({
      name: 'test',
      perBatch: () => ++made,
      process: async (changes, batch) => void seen.push([String(changes[0]!.keys.SK), batch]),
    });

    // Act
    await handler({ Records: [record('1', { PK: 'P', SK: 'A' }, {}), record('2', { PK: 'P', SK: 'B' }, {})] });
    await handler({ Records: [record('3', { PK: 'P', SK: 'C' }, {})] });

    // Assess
    expect(made).toBe(2);
    expect(seen.sort()).toEqual([
      ['A', 1],
      ['B', 1],
      ['C', 2],
    ]);
  });

  it('reports the earliest failed record (Lambda retries from it) and keeps processing other keys', async () => {
    const processed: string[] = [];
    const handler = createStreamHandler({
      name: 'test',
      process: async (changes) => {
        const sk = String(changes[0]!.keys.SK);
        if (sk === 'C' || sk === 'B') throw new Error(`boom ${sk}`);
        processed.push(sk);
      },
    });

    const response = await handler({
      Records: [record('1', { PK: 'P', SK: 'A' }, {}), record('2', { PK: 'P', SK: 'B' }, {}), record('3', { PK: 'P', SK: 'C' }, {}), record('4', { PK: 'P', SK: 'D' }, {})],
    });

    expect(response.batchItemFailures).toEqual([{ itemIdentifier: '2' }]);
    expect(processed.sort()).toEqual(['A', 'D']);
  });

  it('treats an undecodable record as a failure and skips keys it is told to skip', async () => {
    const handler = createStreamHandler({ name: 'test', keyOf: (change) => (change.keys.SK === 'skip' ? undefined : 'k'), process: async () => undefined });
    const broken: DynamoDBRecord = { eventID: 'x', eventName: 'INSERT', dynamodb: { SequenceNumber: '9' } };

    const response = await handler({ Records: [record('8', { PK: 'P', SK: 'skip' }, {}), broken] });

    expect(response.batchItemFailures).toEqual([{ itemIdentifier: '9' }]);
  });

  it('fails only the record a key cannot be told for, and still processes the others', async () => {
    // Prepare
    const processed: string[] = [];
    const handler = createStreamHandler({
      name: 'test',
      keyOf: (change) => {
        if (change.keys.SK === 'bad') throw new Error('Invalid ULID');
        return String(change.keys.SK);
      },
      process: async (changes) => void processed.push(String(changes[0]!.keys.SK)),
    });

    // Act
    const response = await handler({ Records: [record('1', { PK: 'P', SK: 'A' }, {}), record('2', { PK: 'P', SK: 'bad' }, {}), record('3', { PK: 'P', SK: 'C' }, {})] });

    // Assess
    expect(response.batchItemFailures).toEqual([{ itemIdentifier: '2' }]);
    expect(processed.sort()).toEqual(['A', 'C']);
  });
});

describe('contactToReevaluate (the consumer routing)', () => {
  it('routes contact changes and events to the contact, never segment.* events or other items', () => {
    expect(contactToReevaluate({ keys: { PK: 'PROJECT#p1', SK: 'CONTACT#C1' } })).toEqual({ projectId: 'p1', contactId: 'C1' });
    expect(contactToReevaluate({ keys: { PK: 'PROJECT#p1', SK: 'EVENT#E1' }, newImage: { name: 'purchase', contactId: 'C2' } })).toEqual({ projectId: 'p1', contactId: 'C2' });
    expect(contactToReevaluate({ keys: { PK: 'PROJECT#p1', SK: 'EVENT#E2' }, newImage: { name: 'segment.entered', contactId: 'C2' } })).toBeUndefined();
    expect(contactToReevaluate({ keys: { PK: 'PROJECT#p1', SK: 'CONTACT_EMAIL#a@b.c' } })).toBeUndefined();
    expect(contactToReevaluate({ keys: { PK: 'PROJECT#p1', SK: 'SEGMENT#S1' } })).toBeUndefined();
    expect(contactToReevaluate({ keys: { PK: 'PROJECT#p1#CAMPAIGN#X#ABREST', SK: 'CONTACT#C1' } })).toBeUndefined();
  });
});
