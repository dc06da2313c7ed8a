import type { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { FileProblem } from './rows';

/**
 * A file's records, read as a stream, each with the byte offset just after it: the worker's
 * checkpoint, from which a later invocation asks S3 for the rest (a Range GET) instead of reading
 * the file again. Memory holds one batch of records, whatever the file's size.
 */
export interface SourceRecord<T> {
  value: T;
  /** Offset in the file (bytes) just after this record: where the next one starts. */
  end: number;
}

/**
 * CSV through csv-parse: a UTF-8 BOM at the start is dropped, CRLF, LF or CR line ends, quoted fields
 * with commas, quotes ("") and line breaks, stray quotes inside unquoted fields tolerated, blank
 * lines skipped. `start` is the offset the stream begins at (0 or a checkpoint).
 */
export async function* csvRecords(stream: Readable, start: number): AsyncGenerator<SourceRecord<string[]>> {
  const parser = stream.pipe(
    // Line ends may be mixed (files concatenated, edited by hand): each of CRLF, LF and CR ends a record.
    parse({ bom: start === 0, info: true, record_delimiter: ['\r\n', '\n', '\r'], relax_column_count: true, relax_quotes: true, skip_empty_lines: true }),
  );
  stream.once('error', (error) => parser.destroy(error));
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { bytes: number } }>) {
      yield { value: record, end: start + info.bytes };
    }
  } catch (error) {
    if ((error as { code?: string }).code?.startsWith('CSV_')) {
      throw new FileProblem('INVALID_CSV', `The file is not valid CSV: ${(error as Error).message}`);
    }
    throw error;
  } finally {
    parser.destroy();
    stream.destroy();
  }
}

/** JSON Lines: one JSON value per line (LF or CRLF); blank lines skipped. */
export async function* jsonLineRecords(stream: Readable, start: number): AsyncGenerator<SourceRecord<unknown>> {
  let pending: Buffer = Buffer.alloc(0);
  let offset = start;
  const lineOf = (bytes: Buffer, end: number): SourceRecord<unknown> | undefined => {
    const text = bytes.toString('utf8').trim();
    if (text === '') return undefined;
    try {
      return { value: JSON.parse(text), end };
    } catch {
      return { value: new InvalidJsonLine(), end };
    }
  };
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      let newline: number;
      while ((newline = pending.indexOf(0x0a)) !== -1) {
        offset += newline + 1;
        const record = lineOf(pending.subarray(0, newline), offset);
        pending = pending.subarray(newline + 1);
        if (record) yield record;
      }
    }
    const last = lineOf(pending, offset + pending.length);
    if (last) yield last;
  } finally {
    stream.destroy();
  }
}

/** A line that is not JSON: a row error, not a failed file. */
export class InvalidJsonLine {}

export type SniffedFormat = 'csv' | 'jsonl' | 'json';

/**
 * What a file is, from its first bytes: JSON (a document: `[` or `{` whose first line is not a
 * whole object), JSON Lines (a first line that is a whole object), or CSV (text); anything with NUL
 * bytes or that is not UTF-8 is neither, and a file of only blanks is empty.
 */
export function sniffFormat(head: Buffer, complete: boolean): SniffedFormat {
  const text = head.toString('utf8').replace(/^\uFEFF/, '');
  if (text.trim() === '') throw new FileProblem('EMPTY_FILE', 'The file is empty');
  // A cut in the middle of a multi-byte character at the end of the head is not an encoding error.
  const checked = complete ? text : text.slice(0, -4);
  if (head.includes(0) || checked.includes('\uFFFD')) throw new FileProblem('NOT_CSV_OR_JSON', 'The file is neither CSV nor JSON (it is not UTF-8 text)');
  const first = text.trimStart();
  if (first.startsWith('[')) return 'json';
  if (first.startsWith('{')) {
    const firstLine = first.split('\n', 1)[0]!.trim();
    try {
      const value = JSON.parse(firstLine) as unknown;
      return typeof value === 'object' && value !== null && 'email' in value ? 'jsonl' : 'json';
    } catch {
      return 'json';
    }
  }
  return 'csv';
}
