import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { countEvents, newEvent } from '../../../../shared/events/events';
import { listEventNames } from '../../../../shared/events/list-events';
import { ApiError } from '../../../../shared/http/errors';
import { FakeTable } from '../../../support/fake-table';

const ddb = mockClient(DynamoDBDocumentClient);
const CONTACT = '01JD0000000000000000000000';

describe('listEventNames (GET /events/names)', () => {
  beforeEach(() => {
    ddb.reset();
    new FakeTable(ddb);
  });

  it('pages the names in name order, each with its count, and counts every name once in total', async () => {
    // Prepare: five names, "signup" three times
    const names = ['signup', 'viewed', 'signup', 'paid', 'churned', 'signup', 'invited'];
    for (const name of names) await countEvents('P1', [newEvent({ name, contactId: CONTACT, data: {} })]);

    // Act
    const first = await listEventNames('P1', { limit: 2 });
    const second = await listEventNames('P1', { limit: 2, cursor: first.nextCursor! });
    const third = await listEventNames('P1', { limit: 2, cursor: second.nextCursor! });

    // Assess
    expect([first, second, third].map((page) => page.items.map((item) => item.name))).toEqual([['churned', 'invited'], ['paid', 'signup'], ['viewed']]);
    expect(second.items[1]!.count).toBe(3);
    expect([first.hasMore, second.hasMore, third.hasMore]).toEqual([true, true, false]);
    expect(third.nextCursor).toBeNull();
    expect(first.total).toBe(5);
  });

  it('refuses a cursor made for another project', async () => {
    // Prepare
    for (const name of ['a', 'b']) await countEvents('P1', [newEvent({ name, contactId: CONTACT, data: {} })]);
    const { nextCursor } = await listEventNames('P1', { limit: 1 });

    // Act / Assess
    await expect(listEventNames('P2', { limit: 1, cursor: nextCursor! })).rejects.toThrow(ApiError);
  });
});
