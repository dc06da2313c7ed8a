import { parse } from 'csv-parse/sync';
import { csvContactLine, csvHeader } from '../../../../shared/exports/csv';
import { csvColumns, csvRow } from '../../../../shared/imports/rows';

const contact = {
  id: '01KAQ5VZ3N4G8T2M6P0R9S7W1X',
  email: 'ada@example.com',
  subscribed: false,
  data: { plan: 'pro', notes: 'Said "hi",\nthen left', seats: 3, tags: ['a', 'b'], address: { city: 'Paris' }, padded: ' x ' },
  createdAt: '2026-11-23T09:30:00.000Z',
  updatedAt: '2026-11-23T09:31:00.000Z',
};
const keys = ['address', 'missing', 'notes', 'padded', 'plan', 'seats', 'tags'];

describe('export CSV', () => {
  it('has id,email,subscribed,createdAt,updatedAt and one data.<key> column per key; non-strings as JSON; RFC 4180 quoting', () => {
    // Act
    const text = csvHeader(keys) + csvContactLine(contact, keys);

    // Assess
    expect(text.split('\r\n')[0]).toBe('id,email,subscribed,createdAt,updatedAt,data.address,data.missing,data.notes,data.padded,data.plan,data.seats,data.tags');
    expect(text.endsWith('\r\n')).toBe(true);
    expect(parse(text, { columns: true })).toEqual([
      {
        id: contact.id,
        email: 'ada@example.com',
        subscribed: 'false',
        createdAt: contact.createdAt,
        updatedAt: contact.updatedAt,
        'data.address': '{"city":"Paris"}',
        'data.missing': '',
        'data.notes': 'Said "hi",\nthen left',
        'data.padded': ' x ',
        'data.plan': 'pro',
        'data.seats': '3',
        'data.tags': '["a","b"]',
      },
    ]);
  });

  it('imports back: the same email, subscription and string data (system columns ignored)', () => {
    // Prepare
    const [header, ...records] = parse(csvHeader(keys) + csvContactLine(contact, keys)) as string[][];

    // Act
    const row = csvRow(records[0]!, csvColumns(header!));

    // Assess
    expect(row).toEqual({ ok: true, row: { email: 'ada@example.com', subscribed: false, data: { address: '{"city":"Paris"}', notes: 'Said "hi",\nthen left', padded: ' x ', plan: 'pro', seats: '3', tags: '["a","b"]' } } });
  });
});
