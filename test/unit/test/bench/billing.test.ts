import { itemSize, transactionalWriteUnits } from '../../../bench/billing';

/**
 * The bench bills a transaction's items by DynamoDB's size rules, because DynamoDB Local reports a
 * transaction as one item. The figures below are what DynamoDB Local reported (2026-11-26) for the
 * same items written in a one-item transaction: 6 units for a 2.5 KB item, 18 with two indexes.
 */
const keys = { PK: 'p', SK: '1' };
const body = 'x'.repeat(2500);

describe('itemSize', () => {
  it('counts attribute names and string bytes, as DynamoDB does', () => {
    // Act
    const size = itemSize({ ...keys, body });

    // Assess: PK + p, SK + 1, body + 2,500 bytes
    expect(size).toBe(2 + 1 + 2 + 1 + 4 + 2500);
  });

  it('counts UTF-8 bytes, numbers by their digits, and nested maps and lists with their overhead', () => {
    // Act
    const size = itemSize({ name: 'é', count: 12345, data: { a: 'b' }, tags: ['x', 'yz'], on: true });

    // Assess: 'é' is two bytes; 12345: 3 + 1; the map 3 + (1 + 1 + 1); the list 3 + (1 + 1) + (1 + 2); a boolean 1
    expect(size).toBe(4 + 2 + 5 + 4 + 4 + 6 + 4 + 8 + 2 + 1);
  });
});

describe('transactionalWriteUnits', () => {
  it('bills 2 units per KB for the table alone when the item is in no index', () => {
    // Act & Assess
    expect(transactionalWriteUnits(undefined, { ...keys, body })).toBe(6);
  });

  it('bills 2 units per KB for each index entry too', () => {
    // Prepare
    const indexed = { ...keys, body, GSI1PK: 'a', GSI1SK: '1', GSI2PK: 'b', GSI2SK: '1' };

    // Act & Assess
    expect(transactionalWriteUnits(undefined, indexed)).toBe(18);
  });

  it('bills an update on the larger of the item before and after, and an index it leaves', () => {
    // Prepare
    const before = { ...keys, body, GSI3PK: 'c', GSI3SK: '1' };
    const after = { ...keys, status: 'SENT' };

    // Act & Assess
    expect(transactionalWriteUnits(before, after)).toBe(12);
  });

  it('bills a condition check on the table only', () => {
    // Act & Assess
    expect(transactionalWriteUnits({ ...keys, body, GSI1PK: 'a', GSI1SK: '1' }, undefined, { checkOnly: true })).toBe(6);
  });
});
