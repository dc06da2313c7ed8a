import { Readable } from 'node:stream';
import { csvRecords, jsonLineRecords, sniffFormat } from '../../../../shared/imports/source';
import { FileProblem } from '../../../../shared/imports/rows';

/** The file as S3 would stream it from `start`: in small chunks that cut records and characters. */
const streamOf = (file: Buffer, start = 0) => Readable.from(Array.from({ length: Math.ceil((file.length - start) / 7) }, (_, index) => file.subarray(start + index * 7, start + index * 7 + 7)));

async function all<T>(records: AsyncGenerator<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const record of records) out.push(record);
  return out;
}

describe('csvRecords', () => {
  const file = Buffer.from('\uFEFFemail,notes\r\n"a@x.com","Smith, J"\r\nb@x.com,"multi\r\nline ""quoted"""\r\n\r\nc@x.com,é\r\nd@x.com,O"Brien\nlast@x.com,no newline at end');

  it('reads a BOM, CRLF and LF, quoted commas, quotes and line breaks, stray quotes, blank lines', async () => {
    // Act
    const records = await all(csvRecords(streamOf(file), 0));

    // Assess
    expect(records.map((record) => record.value)).toEqual([
      ['email', 'notes'],
      ['a@x.com', 'Smith, J'],
      ['b@x.com', 'multi\r\nline "quoted"'],
      ['c@x.com', 'é'],
      ['d@x.com', 'O"Brien'],
      ['last@x.com', 'no newline at end'],
    ]);
    expect(records[records.length - 1]!.end).toBe(file.length);
  });

  it('gives each record the byte offset after it, from which the rest reads the same (a resumed stream)', async () => {
    // Prepare
    const records = await all(csvRecords(streamOf(file), 0));
    const checkpoint = records[2]!.end;

    // Act
    const resumed = await all(csvRecords(streamOf(file, checkpoint), checkpoint));

    // Assess
    expect(resumed).toEqual(records.slice(3));
  });

  it('fails the file on an unclosed quote', async () => {
    await expect(all(csvRecords(streamOf(Buffer.from('email\n"a@x.com\n')), 0))).rejects.toMatchObject({ name: 'FileProblem', code: 'INVALID_CSV' });
  });
});

describe('jsonLineRecords', () => {
  it('reads one value per line (LF or CRLF), skips blank lines, marks a line that is not JSON, and resumes at an offset', async () => {
    // Prepare
    const file = Buffer.from('{"email":"a@x.com"}\r\n\n{"email":"é@x.com"}\nnot json\n{"email":"z@x.com"}');

    // Act
    const records = await all(jsonLineRecords(streamOf(file), 0));
    const resumed = await all(jsonLineRecords(streamOf(file, records[1]!.end), records[1]!.end));

    // Assess
    expect(records.map((record) => record.value)).toEqual([{ email: 'a@x.com' }, { email: 'é@x.com' }, expect.any(Object), { email: 'z@x.com' }]);
    expect(records[2]!.value?.constructor.name).toBe('InvalidJsonLine');
    expect(records.map((record) => record.end)).toEqual([21, 43, 52, file.length]);
    expect(resumed).toEqual(records.slice(2));
  });
});

describe('sniffFormat', () => {
  it.each([
    ['\uFEFFemail,name\r\na@x.com,A', 'csv'],
    ['{"email":"a@x.com"}\n{"email":"b@x.com"}', 'jsonl'],
    ['[{"email":"a@x.com"}]', 'json'],
    ['{\n  "contacts": []\n}', 'json'],
  ])('tells %j is %s', (text, format) => {
    expect(sniffFormat(Buffer.from(text), true)).toBe(format);
  });

  it('refuses empty files and binary or non-UTF-8 ones', () => {
    expect(() => sniffFormat(Buffer.from(' \r\n '), true)).toThrow(new FileProblem('EMPTY_FILE', 'The file is empty'));
    expect(() => sniffFormat(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0]), true)).toThrow(FileProblem);
    expect(() => sniffFormat(Buffer.from([0x65, 0x6d, 0xff, 0xfe, 0x41]), true)).toThrow(/neither CSV nor JSON/);
  });

  it('does not take a multi-byte character cut at the end of a head for bad UTF-8', () => {
    const head = Buffer.from('email\né').subarray(0, 7);
    expect(sniffFormat(head, false)).toBe('csv');
  });
});
