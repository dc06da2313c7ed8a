import { decodeCursor, encodeCursor, pageOf } from '../../../../shared/http/cursor';

const key = { PK: 'PROJECT#P1', SK: 'CONTACT#01ABC' };

describe('cursors', () => {
  it('round-trips a key bound to the same query', () => {
    const cursor = encodeCursor(key, 'P1|q')!;

    expect(decodeCursor(cursor, 'P1|q', { PK: 'PROJECT#P1' }, ['SK'])).toEqual(key);
  });

  it('encodes no cursor for the last page', () => {
    expect(encodeCursor(undefined, 'P1|q')).toBeNull();
  });

  it.each([
    ['another query', () => encodeCursor(key, 'P1|other')!],
    ['another partition', () => encodeCursor({ PK: 'PROJECT#P2', SK: 'CONTACT#1' }, 'P1|q')!],
    ['an extra attribute', () => encodeCursor({ ...key, GSI1PK: 'x' }, 'P1|q')!],
    ['a non-string attribute', () => encodeCursor({ PK: 'PROJECT#P1', SK: 5 }, 'P1|q')!],
    ['a trailing character', () => `${encodeCursor(key, 'P1|q')}A`],
    ['garbage', () => 'not a cursor!'],
    ['JSON that is not ours', () => Buffer.from('{"a":1}').toString('base64url')],
    ['an oversized cursor', () => 'A'.repeat(5000)],
  ])('rejects %s with 400 INVALID_CURSOR', (_label, make) => {
    expect(() => decodeCursor(make(), 'P1|q', { PK: 'PROJECT#P1' }, ['SK'])).toThrow(expect.objectContaining({ statusCode: 400, code: 'INVALID_CURSOR' }));
  });
});

describe('pageOf', () => {
  const item = (n: number) => ({ PK: 'PROJECT#P1', SK: `CONTACT#${n}`, email: `${n}@x.test` });

  it('returns limit items and a cursor at the last of them when the Query found one more', () => {
    const { page, hasMore, nextCursor } = pageOf({ Items: [item(1), item(2), item(3)], LastEvaluatedKey: { PK: 'PROJECT#P1', SK: 'CONTACT#3' } }, 2, ['PK', 'SK'], 'q');

    expect(page).toEqual([item(1), item(2)]);
    expect(hasMore).toBe(true);
    expect(decodeCursor(nextCursor!, 'q', { PK: 'PROJECT#P1' }, ['SK'])).toEqual({ PK: 'PROJECT#P1', SK: 'CONTACT#2' });
  });

  it('ends without a cursor on a last page that is exactly full', () => {
    expect(pageOf({ Items: [item(1), item(2)] }, 2, ['PK', 'SK'], 'q')).toEqual({ page: [item(1), item(2)], hasMore: false, nextCursor: null });
  });

  it('continues from DynamoDB\'s key when a filter stopped the Query before the limit', () => {
    const { page, hasMore, nextCursor } = pageOf({ Items: [item(1)], LastEvaluatedKey: { PK: 'PROJECT#P1', SK: 'CONTACT#9' } }, 2, ['PK', 'SK'], 'q');

    expect(page).toEqual([item(1)]);
    expect(hasMore).toBe(true);
    expect(decodeCursor(nextCursor!, 'q', { PK: 'PROJECT#P1' }, ['SK']).SK).toBe('CONTACT#9');
  });
});
