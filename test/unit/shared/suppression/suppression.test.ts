import { DeleteCommand, DynamoDBDocumentClient, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { isSuppressed, listSuppressed, removeSuppressed, suppressionPutItem } from '../../../../shared/suppression/suppression';

const ddb = mockClient(DynamoDBDocumentClient);

describe('suppression list', () => {
  beforeEach(() => ddb.reset());

  it('checks an address with one consistent GetItem on its normalised key', async () => {
    // Prepare
    ddb.on(GetCommand).resolves({ Item: { PK: 'PROJECT#P1' } });

    // Act
    const suppressed = await isSuppressed('P1', ' Jane@Example.COM ');

    // Assess
    expect(suppressed).toBe(true);
    expect(ddb.commandCalls(GetCommand)[0]!.args[0].input).toEqual({
      TableName: 'mailwright-test',
      Key: { PK: 'PROJECT#P1', SK: 'SUPPRESSED#jane@example.com' },
      ConsistentRead: true,
      ProjectionExpression: 'PK',
    });
  });

  it('builds an idempotent transaction item that keeps the first createdAt', () => {
    expect(suppressionPutItem('P1', 'Jane@example.com', 'BOUNCE', new Date('2026-02-01T00:00:00.000Z'))).toEqual({
      Update: {
        TableName: 'mailwright-test',
        Key: { PK: 'PROJECT#P1', SK: 'SUPPRESSED#jane@example.com' },
        UpdateExpression: 'SET email = :email, reason = :reason, createdAt = if_not_exists(createdAt, :now)',
        ExpressionAttributeValues: { ':email': 'jane@example.com', ':reason': 'BOUNCE', ':now': '2026-02-01T00:00:00.000Z' },
      },
    });
  });

  it('lists a page with an opaque cursor bound to the project', async () => {
    // Prepare
    const lastKey = { PK: 'PROJECT#P1', SK: 'SUPPRESSED#a@x.test' };
    ddb
      .on(QueryCommand)
      .resolvesOnce({ Items: [{ ...lastKey, email: 'a@x.test', reason: 'COMPLAINT', createdAt: '2026-01-01T00:00:00.000Z' }], LastEvaluatedKey: lastKey })
      .resolves({ Items: [] });

    // Act
    const first = await listSuppressed('P1', { limit: 1 });
    const second = await listSuppressed('P1', { limit: 1, cursor: first.nextCursor! });

    // Assess
    expect(first).toEqual({ items: [{ email: 'a@x.test', reason: 'COMPLAINT', createdAt: '2026-01-01T00:00:00.000Z' }], nextCursor: expect.any(String), hasMore: true });
    expect(second).toEqual({ items: [], nextCursor: null, hasMore: false });
    expect(ddb.commandCalls(QueryCommand)[1]!.args[0].input).toEqual({
      TableName: 'mailwright-test',
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': 'PROJECT#P1', ':prefix': 'SUPPRESSED#' },
      Limit: 1,
      ExclusiveStartKey: lastKey,
    });
    await expect(listSuppressed('P2', { cursor: first.nextCursor! })).rejects.toMatchObject({ statusCode: 400 });
  });

  it('removes an address and says whether it was there', async () => {
    // Prepare
    ddb.on(DeleteCommand).resolvesOnce({ Attributes: { PK: 'PROJECT#P1' } }).resolves({});

    // Act + Assess
    expect(await removeSuppressed('P1', 'a@x.test')).toBe(true);
    expect(await removeSuppressed('P1', 'a@x.test')).toBe(false);
    expect(ddb.commandCalls(DeleteCommand)[0]!.args[0].input).toEqual({
      TableName: 'mailwright-test',
      Key: { PK: 'PROJECT#P1', SK: 'SUPPRESSED#a@x.test' },
      ReturnValues: 'ALL_OLD',
    });
  });
});
