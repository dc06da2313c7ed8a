import { collapseDuplicates, csvColumns, csvRow, FileProblem, jsonRow } from '../../../../shared/imports/rows';

describe('csvColumns', () => {
  it('finds email and subscribed in any case, drops a data. prefix, ignores blank and export system columns', () => {
    // Act
    const columns = csvColumns(['id', ' Email ', 'SUBSCRIBED', 'data.plan', 'First_Name', '', 'createdAt', 'updatedAt']);

    // Assess
    expect(columns).toEqual({ email: 1, subscribed: 2, data: [null, null, null, 'plan', 'First_Name', null, null, null] });
  });

  it('reads the columns of a Mailchimp-style export: "Email Address", and camelCase keys for headers that are not valid keys', () => {
    // Act
    const columns = csvColumns(['Email Address', 'First Name', 'Last name (optional)', 'data.Home Town', 'plan', '---']);

    // Assess
    expect(columns).toEqual({ email: 0, data: [null, 'firstName', 'lastNameOptional', 'homeTown', 'plan', '---'] });
  });

  it('fails the file when there is no email column', () => {
    expect(() => csvColumns(['name', 'mail'])).toThrow(new FileProblem('NO_EMAIL_COLUMN', 'The header row has no "email" column'));
  });
});

describe('csvRow', () => {
  const columns = csvColumns(['email', 'subscribed', 'plan', 'notes']);

  it.each([
    ['yes', true], ['YES', true], ['true', true], ['1', true], ['no', false], ['False', false], ['0', false], [' no ', false],
  ])('reads subscribed %j as %s', (raw, expected) => {
    expect(csvRow(['a@x.com', raw, '', ''], columns)).toEqual({ ok: true, row: { email: 'a@x.com', subscribed: expected } });
  });

  it('leaves subscribed out when the cell is empty, and empty data cells out of the patch', () => {
    expect(csvRow([' Jane@Example.COM ', '', 'pro', ''], columns)).toEqual({ ok: true, row: { email: 'jane@example.com', data: { plan: 'pro' } } });
  });

  it('keeps commas, quotes and line breaks of quoted values as they are', () => {
    expect(csvRow(['a@x.com', '', 'pro', 'Said "hi",\r\nthen left'], columns)).toEqual({ ok: true, row: { email: 'a@x.com', data: { plan: 'pro', notes: 'Said "hi",\r\nthen left' } } });
  });

  it('reports a row error for a bad email, a bad subscribed, too many fields, a bad key and a value over the limit', () => {
    expect(csvRow(['not-an-email', 'yes', '', ''], columns)).toEqual({ ok: false, error: { email: 'not-an-email', code: 'INVALID_EMAIL', message: 'email must be a valid email address' } });
    expect(csvRow(['', 'yes', '', ''], columns)).toMatchObject({ ok: false, error: { code: 'INVALID_EMAIL' } });
    expect(csvRow(['a@x.com', 'maybe', '', ''], columns)).toEqual({ ok: false, error: { email: 'a@x.com', code: 'INVALID_SUBSCRIBED', message: 'subscribed must be true, false, 1, 0, yes or no' } });
    expect(csvRow(['a@x.com', '', '', '', 'extra'], columns)).toEqual({ ok: false, error: { email: 'a@x.com', code: 'TOO_MANY_FIELDS', message: 'The row has 5 fields; the header has 4' } });
    expect(csvRow(['a@x.com', ''], csvColumns(['email', '???']))).toEqual({ ok: true, row: { email: 'a@x.com' } });
    expect(csvRow(['a@x.com', 'Ada'], csvColumns(['email', '???']))).toMatchObject({ ok: false, error: { email: 'a@x.com', code: 'INVALID_KEY', message: expect.stringContaining('data.???') } });
    expect(csvRow(['a@x.com', '', 'x'.repeat(3000), ''], columns)).toMatchObject({ ok: false, error: { code: 'VALUE_TOO_LARGE', message: expect.stringContaining('data.plan') } });
  });
});

describe('jsonRow', () => {
  it('takes { email, subscribed, data } as POST /contacts does', () => {
    expect(jsonRow({ email: 'A@x.com', subscribed: false, data: { seats: 3, tags: ['a'] } })).toEqual({ ok: true, row: { email: 'a@x.com', subscribed: false, data: { seats: 3, tags: ['a'] } } });
  });

  it.each([
    [null, 'INVALID_ROW'], [['a@x.com'], 'INVALID_ROW'], [{ email: 'a@x.com', subscribed: 'yes' }, 'INVALID_SUBSCRIBED'], [{ email: 'a@x.com', data: [1] }, 'INVALID_DATA'], [{ email: 42 }, 'INVALID_EMAIL'], [{ email: 'a@x.com', data: { __proto__x: 1, 'a b': 1 } }, 'INVALID_KEY'],
  ])('reports %j as %s', (value, code) => {
    expect(jsonRow(value)).toMatchObject({ ok: false, error: { code } });
  });
});

describe('collapseDuplicates', () => {
  it('folds rows of one email into the last of them: later values win, data merges in file order', () => {
    // Prepare
    const rows = [
      { row: 1, value: { email: 'a@x.com', subscribed: true, data: { plan: 'free', city: 'Paris' } } },
      { row: 2, value: { email: 'b@x.com' } },
      { row: 3, value: { email: 'a@x.com', data: { plan: 'pro' } } },
      { row: 4, value: { email: 'a@x.com', subscribed: false } },
    ];

    // Act
    const { changes, folded } = collapseDuplicates(rows);

    // Assess
    expect(changes).toEqual([
      { row: 2, value: { email: 'b@x.com' } },
      { row: 4, value: { email: 'a@x.com', subscribed: false, data: { plan: 'pro', city: 'Paris' } } },
    ]);
    expect(folded).toEqual([1, 3]);
  });
});
