import { csvColumns, FileProblem } from '../../../../../../shared/imports/columns';

/**
 * Enough CSV (RFC 4180: quoted fields, doubled quotes, CRLF or LF) to preview the first rows of
 * a file before it is uploaded; the import itself parses the whole file on the server.
 */
export function parseCsvRows(text: string, maxRows: number): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  const source = text.replace(/^\uFEFF/, '');
  for (let index = 0; index < source.length && rows.length < maxRows; index++) {
    const char = source[index]!;
    if (quoted) {
      if (char === '"' && source[index + 1] === '"') {
        field += '"';
        index++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(field);
      field = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && source[index + 1] === '\n') index++;
      row.push(field);
      if (row.some((value) => value !== '')) rows.push(row);
      row = [];
      field = '';
    } else field += char;
  }
  if (rows.length < maxRows && (field !== '' || row.length)) {
    row.push(field);
    if (row.some((value) => value !== '')) rows.push(row);
  }
  return rows;
}

export type ColumnTarget = { kind: 'email' } | { kind: 'subscribed' } | { kind: 'data'; key: string } | { kind: 'ignored' };

/**
 * Where each header column goes, by the import worker's own rules (shared/imports/columns.ts
 * csvColumns): the email column, `subscribed`, data keys (a `data.` prefix dropped, other
 * tools' headers camel-cased), and ignored columns. `problem` when the file cannot be imported.
 */
export function mapColumns(header: string[]): { targets: ColumnTarget[]; problem: string | null } {
  try {
    const columns = csvColumns(header);
    const targets = header.map((_, index): ColumnTarget => {
      if (index === columns.email) return { kind: 'email' };
      if (index === columns.subscribed) return { kind: 'subscribed' };
      const key = columns.data[index];
      return key ? { kind: 'data', key } : { kind: 'ignored' };
    });
    return { targets, problem: null };
  } catch (error) {
    if (error instanceof FileProblem) return { targets: header.map(() => ({ kind: 'ignored' })), problem: error.message };
    throw error;
  }
}

export const describeTarget = (target: ColumnTarget) => (target.kind === 'email' ? 'Email' : target.kind === 'subscribed' ? 'Subscribed' : target.kind === 'data' ? `data.${target.key}` : 'Ignored');
