import * as v from 'valibot';
import { assertValidContactData, emailSchema, type ContactDataPatch } from '../contacts/schemas';
import { ApiError } from '../http/errors';
import type { CsvColumns } from './columns';

export { csvColumns, dataKeyOf, FileProblem, type CsvColumns } from './columns';

/**
 * From a file's records to contact changes, by the rules of POST /contacts: the email is trimmed,
 * lower-cased and must be valid; data keys and values pass assertValidContactData. A row that
 * does not is a row error, never a failed job.
 */
export interface ImportRow {
  email: string;
  subscribed?: boolean;
  data?: ContactDataPatch;
}

export interface RowError {
  row: number;
  email?: string;
  code: string;
  message: string;
}

export type ParsedRow = { ok: true; row: ImportRow } | { ok: false; error: Omit<RowError, 'row'> };

const SUBSCRIBED_VALUES: Record<string, boolean> = { true: true, false: false, '1': true, '0': false, yes: true, no: false };

/** One CSV record. Empty cells leave the data key as it is; values stay strings. */
export function csvRow(record: string[], columns: CsvColumns): ParsedRow {
  if (record.length > columns.data.length) {
    return { ok: false, error: { email: record[columns.email]?.trim(), code: 'TOO_MANY_FIELDS', message: `The row has ${record.length} fields; the header has ${columns.data.length}` } };
  }
  const data: ContactDataPatch = {};
  columns.data.forEach((key, index) => {
    const value = record[index];
    if (key !== null && value !== undefined && value !== '') data[key] = value;
  });
  let subscribed: boolean | undefined;
  const rawSubscribed = columns.subscribed === undefined ? '' : (record[columns.subscribed] ?? '').trim().toLowerCase();
  if (rawSubscribed !== '') {
    subscribed = SUBSCRIBED_VALUES[rawSubscribed];
    if (subscribed === undefined) {
      return { ok: false, error: { email: record[columns.email]?.trim(), code: 'INVALID_SUBSCRIBED', message: 'subscribed must be true, false, 1, 0, yes or no' } };
    }
  }
  return contactRow(record[columns.email] ?? '', subscribed, data);
}

/** One JSON Lines record: `{ email, subscribed?, data? }` as POST /contacts takes it. */
export function jsonRow(value: unknown): ParsedRow {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, error: { code: 'INVALID_ROW', message: 'Each contact must be a JSON object' } };
  const { email, subscribed, data } = value as Record<string, unknown>;
  if (subscribed !== undefined && typeof subscribed !== 'boolean') {
    return { ok: false, error: { email: typeof email === 'string' ? email : undefined, code: 'INVALID_SUBSCRIBED', message: 'subscribed must be a boolean' } };
  }
  if (data !== undefined && (typeof data !== 'object' || data === null || Array.isArray(data))) {
    return { ok: false, error: { email: typeof email === 'string' ? email : undefined, code: 'INVALID_DATA', message: 'data must be an object' } };
  }
  return contactRow(email, subscribed as boolean | undefined, data as ContactDataPatch | undefined);
}

function contactRow(rawEmail: unknown, subscribed: boolean | undefined, data: ContactDataPatch | undefined): ParsedRow {
  const shownEmail = typeof rawEmail === 'string' ? rawEmail.trim().slice(0, 254) : undefined;
  const parsed = v.safeParse(emailSchema, rawEmail);
  if (!parsed.success) return { ok: false, error: { ...(shownEmail ? { email: shownEmail } : {}), code: 'INVALID_EMAIL', message: parsed.issues[0].message } };
  try {
    assertValidContactData(data);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const first = error.errors?.[0];
    return { ok: false, error: { email: parsed.output, code: first?.code ?? error.code, message: first ? `${first.field}: ${first.message}` : error.message } };
  }
  return { ok: true, row: { email: parsed.output, ...(subscribed === undefined ? {} : { subscribed }), ...(data && Object.keys(data).length ? { data } : {}) } };
}

/**
 * Rows of one batch with the same email become one change, applied as the last of them (so the
 * last row wins); data patches merge in file order. Returns the changes in the order of their
 * last rows, and the rows folded into a later one (counted as duplicates).
 */
export function collapseDuplicates<T extends { row: number; value: ImportRow }>(rows: T[]): { changes: T[]; folded: number[] } {
  const byEmail = new Map<string, T>();
  const folded: number[] = [];
  for (const entry of rows) {
    const earlier = byEmail.get(entry.value.email);
    if (earlier) {
      folded.push(earlier.row);
      byEmail.delete(entry.value.email);
      const data = earlier.value.data || entry.value.data ? { ...earlier.value.data, ...entry.value.data } : undefined;
      const subscribed = entry.value.subscribed ?? earlier.value.subscribed;
      byEmail.set(entry.value.email, {
        ...entry,
        value: { email: entry.value.email, ...(subscribed === undefined ? {} : { subscribed }), ...(data ? { data } : {}) },
      });
    } else {
      byEmail.set(entry.value.email, entry);
    }
  }
  return { changes: [...byEmail.values()], folded };
}
