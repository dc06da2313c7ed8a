import { decodeCursor, encodeCursor } from '../../../shared/http/cursor';

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
