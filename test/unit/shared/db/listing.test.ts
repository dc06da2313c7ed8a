import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { pageWithTotal, putCounted, type CountedListing } from '../../../../shared/db/listing';
import { ApiError } from '../../../../shared/http/errors';
import { FakeTable } from '../../../support/fake-table';

const ddb = mockClient(DynamoDBDocumentClient);
const listing: CountedListing = { partition: 'PROJECT#P1', prefix: 'THING#', counter: { PK: 'PROJECT#P1', SK: 'COUNTER#THINGS' } };
const binding = JSON.stringify(['things', 'P1']);

describe('pageWithTotal', () => {
  let table: FakeTable;
  beforeEach(async () => {
    ddb.reset();
    table = new FakeTable(ddb);
    for (const id of ['b', 'd', 'a', 'c', 'e']) await putCounted(listing, { PK: listing.partition, SK: `THING#${id}`, id });
    table.put({ PK: listing.partition, SK: 'THINGS_OTHER#z', id: 'z' }); // another prefix: never listed
  });

  const pages = async (order?: 'newest-first' | 'ascending') => {
    const first = await pageWithTotal(listing, { limit: 2 }, binding, order);
    const second = await pageWithTotal(listing, { limit: 2, cursor: first.nextCursor! }, binding, order);
    const third = await pageWithTotal(listing, { limit: 2, cursor: second.nextCursor! }, binding, order);
    return [first, second, third];
  };

  it('pages newest first (descending sort key) by default, with the counter as total', async () => {
    // Act
    const result = await pages();

    // Assess
    expect(result.map((page) => page.items.map((item) => item.id))).toEqual([['e', 'd'], ['c', 'b'], ['a']]);
    expect(result.map((page) => page.hasMore)).toEqual([true, true, false]);
    expect(result[2]!.nextCursor).toBeNull();
    expect(result.map((page) => page.total)).toEqual([5, 5, 5]);
  });

  it('pages in sort-key order when ascending', async () => {
    // Act
    const result = await pages('ascending');

    // Assess
    expect(result.map((page) => page.items.map((item) => item.id))).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
  });

  it('counts 0 when the counter item is missing', async () => {
    // Act
    const page = await pageWithTotal({ ...listing, counter: { PK: 'PROJECT#P1', SK: 'COUNTER#NONE' } }, { limit: 10 }, binding);

    // Assess
    expect(page.total).toBe(0);
    expect(page.items).toHaveLength(5);
  });

  it('refuses a cursor bound to another list', async () => {
    // Prepare
    const { nextCursor } = await pageWithTotal(listing, { limit: 1 }, binding);

    // Act / Assess
    await expect(pageWithTotal(listing, { limit: 1, cursor: nextCursor! }, JSON.stringify(['things', 'P2']))).rejects.toThrow(ApiError);
  });
});
