import { describeTarget, mapColumns, parseCsvRows } from '../../../../../functions/dashboard/app/src/features/contacts/csv';
import { dataPatch, toRows } from '../../../../../functions/dashboard/app/src/features/contacts/data-editor';
import { initialScripts } from '../../../../../functions/dashboard/app/scripts/report-size';

describe('the import preview', () => {
  it('reads quoted fields, doubled quotes, CRLF and a byte order mark, up to the rows asked for', () => {
    // Prepare
    const text = '\uFEFFemail,"First Name",note\r\nada@example.com,Ada,"says ""hi"", twice"\r\n\r\nbob@example.com,Bob,"two\nlines"\nthird@example.com,C,x\n';

    // Act
    const rows = parseCsvRows(text, 3);

    // Assess
    expect(rows).toEqual([
      ['email', 'First Name', 'note'],
      ['ada@example.com', 'Ada', 'says "hi", twice'],
      ['bob@example.com', 'Bob', 'two\nlines'],
    ]);
  });

  it('maps columns by the import worker\'s rules: email, subscribed, data keys, ignored export fields', () => {
    // Act
    const mapping = mapColumns(['Email Address', 'subscribed', 'data.plan', 'First Name', 'createdAt', '']);

    // Assess
    expect(mapping).toEqual({
      targets: [{ kind: 'email' }, { kind: 'subscribed' }, { kind: 'data', key: 'plan' }, { kind: 'data', key: 'firstName' }, { kind: 'ignored' }, { kind: 'ignored' }],
      problem: null,
    });
    expect(mapping.targets.map(describeTarget)).toEqual(['Email', 'Subscribed', 'data.plan', 'data.firstName', 'Ignored', 'Ignored']);
  });

  it('says why a file without an email column cannot be imported', () => {
    // Act
    const mapping = mapColumns(['name', 'plan']);

    // Assess
    expect(mapping).toEqual({ targets: [{ kind: 'ignored' }, { kind: 'ignored' }], problem: 'The header row has no "email" column' });
  });
});

describe('the contact data editor', () => {
  const original = { plan: 'pro', seats: 3, tags: ['a'], note: '<script>alert(1)</script>' };

  it('shows every value as text', () => {
    // Assess
    expect(toRows(original)).toEqual([
      { key: 'plan', value: 'pro' },
      { key: 'seats', value: '3' },
      { key: 'tags', value: '["a"]' },
      { key: 'note', value: '<script>alert(1)</script>' },
    ]);
  });

  it('patches changed and new keys, removes dropped keys with null, and leaves untouched values (and their types) alone', () => {
    // Prepare
    const rows = [
      { key: 'plan', value: 'team' },
      { key: 'seats', value: '3' },
      { key: 'tags', value: '["a"]' },
      { key: 'city', value: 'Paris' },
    ];

    // Act
    const patch = dataPatch(original, rows);

    // Assess
    expect(patch).toEqual({ note: null, plan: 'team', city: 'Paris' });
  });
});

describe('the initial JavaScript report', () => {
  it('counts the scripts and module preloads index.html loads, not the lazy chunks', () => {
    // Prepare
    const html = '<script type="module" crossorigin src="./index-AAAAAAAA.js"></script><link rel="modulepreload" crossorigin href="./vendor-BBBBBBBB.js"><link rel="stylesheet" href="./index-CCCCCCCC.css"><link rel="icon" href="./favicon.svg">';

    // Act & Assess
    expect(initialScripts(html)).toEqual(['index-AAAAAAAA.js', 'vendor-BBBBBBBB.js']);
  });
});
