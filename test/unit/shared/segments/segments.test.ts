import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, BatchWriteCommand, DynamoDBDocumentClient, GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { toItem as contactItem } from '../../../../shared/contacts/contacts';
import { onDemandMaxContacts } from '../../../../shared/segments/evaluate';
import type { FilterGroup } from '../../../../shared/segments/filter';
import { deleteSegment, previewSegment } from '../../../../shared/segments/segments';

const ddb = mockClient(DynamoDBDocumentClient);
const P = 'P1';
const at = '2026-11-25T12:00:00.000Z';
const contact = (index: number, plan: string, subscribed: boolean) => ({
  id: `01JD00000000000000000000${String(index).padStart(2, '0')}`,
  email: `c${index}@example.com`,
  subscribed,
  data: { plan },
  createdAt: at,
  updatedAt: at,
});
const pro: FilterGroup = { operator: 'AND', conditions: [{ field: 'data.plan', operator: 'equals', value: 'pro' }] };

describe('previewSegment', () => {
  beforeEach(() => ddb.reset());

  it('counts the members and the subscribed ones over every page of contacts, and samples the first ten members', async () => {
    // Prepare: 12 pro contacts (the first 3 unsubscribed) and 2 free ones, over two pages.
    const contacts = [...Array.from({ length: 12 }, (_, index) => contact(index, 'pro', index >= 3)), contact(12, 'free', true), contact(13, 'free', true)];
    ddb.on(GetCommand).resolves({ Item: { total: contacts.length } });
    ddb
      .on(QueryCommand)
      .resolvesOnce({ Items: contacts.slice(0, 7).map((item) => contactItem(P, item)), LastEvaluatedKey: { PK: 'x', SK: 'y' } })
      .resolvesOnce({ Items: contacts.slice(7).map((item) => contactItem(P, item)) });
    ddb.on(BatchGetCommand).callsFake((input: { RequestItems: Record<string, { Keys: { SK: string }[] }> }) => {
      const keys = Object.values(input.RequestItems)[0]!.Keys.map((key) => key.SK);
      return { Responses: { 'mailwright-test': contacts.filter((item) => keys.includes(`CONTACT#${item.id}`)).map((item) => contactItem(P, item)) } };
    });

    // Act
    const preview = await previewSegment(P, pro);

    // Assess
    expect(preview.memberCount).toBe(12);
    expect(preview.subscribedCount).toBe(9);
    expect(preview.sample.map((item) => item.id)).toEqual(contacts.slice(0, 10).map((item) => item.id));
    expect(preview.sample[0]).toEqual(contacts[0]);
    expect(ddb.commandCalls(QueryCommand)[0]!.args[0].input.ProjectionExpression).toContain('#subscribed');
  });

  it('answers an empty preview without a batch read when nothing matches', async () => {
    ddb.on(GetCommand).resolves({ Item: { total: 1 } });
    ddb.on(QueryCommand).resolves({ Items: [contactItem(P, contact(1, 'free', true))] });

    const preview = await previewSegment(P, pro);

    expect(preview).toEqual({ memberCount: 0, subscribedCount: 0, sample: [] });
    expect(ddb.commandCalls(BatchGetCommand)).toHaveLength(0);
  });

  it('refuses a project too large to evaluate on demand with 422 SEGMENT_TOO_LARGE before reading contacts', async () => {
    ddb.on(GetCommand).resolves({ Item: { total: onDemandMaxContacts + 1 } });

    await expect(previewSegment(P, pro)).rejects.toMatchObject({ statusCode: 422, code: 'SEGMENT_TOO_LARGE' });
    expect(ddb.commandCalls(QueryCommand)).toHaveLength(0);
  });
});

describe('deleteSegment', () => {
  beforeEach(() => ddb.reset());
  const S = '01JSEGMENT0000000000000000';

  it('removes the segment and its count in one transaction and reads or deletes no member (the stream queues that cleanup)', async () => {
    // Prepare
    ddb.on(TransactWriteCommand).resolves({});

    // Act
    await deleteSegment(P, S);

    // Assess
    const [transaction] = ddb.commandCalls(TransactWriteCommand).map((call) => call.args[0].input.TransactItems!);
    expect(transaction).toEqual([
      { Delete: { TableName: process.env.TABLE_NAME, Key: { PK: `PROJECT#${P}`, SK: `SEGMENT#${S}` }, ConditionExpression: 'attribute_exists(PK)' } },
      expect.objectContaining({ Update: expect.objectContaining({ Key: { PK: `PROJECT#${P}`, SK: 'COUNTER#SEGMENTS' }, ExpressionAttributeValues: { ':delta': -1 } }) }),
    ]);
    expect(ddb.calls()).toHaveLength(1);
    expect(ddb.commandCalls(QueryCommand)).toHaveLength(0);
    expect(ddb.commandCalls(BatchWriteCommand)).toHaveLength(0);
  });

  it('answers 404 for a segment that is not there (deleted already) and for an id that is no segment id', async () => {
    // Prepare
    ddb.on(TransactWriteCommand).rejects(new TransactionCanceledException({ message: 'cancelled', $metadata: {}, CancellationReasons: [{ Code: 'ConditionalCheckFailed' }, { Code: 'None' }] }));

    // Act
    const gone = deleteSegment(P, S);
    const bad = deleteSegment(P, 'not-an-id');

    // Assess
    await expect(gone).rejects.toMatchObject({ statusCode: 404 });
    await expect(bad).rejects.toMatchObject({ statusCode: 404 });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(1);
  });
});
