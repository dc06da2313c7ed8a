import { formatValue } from '../../lib/format';

export interface DataRow {
  key: string;
  value: string;
}

export const toRows = (data: Record<string, unknown>): DataRow[] => Object.entries(data).map(([key, value]) => ({ key, value: formatValue(value) }));

/**
 * The PATCH `data` that turns `original` into the edited rows: changed or new keys with their
 * text, removed keys as null (the API's "remove this key"). A non-string value whose text was
 * left as shown is not sent, so it keeps its type. Keys and values are checked by the API (422
 * names the field), the one place the rules live.
 */
export function dataPatch(original: Record<string, unknown>, rows: readonly DataRow[]): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  const kept = new Set(rows.map((row) => row.key));
  for (const key of Object.keys(original)) if (!kept.has(key)) patch[key] = null;
  for (const row of rows) {
    if (row.key in original && formatValue(original[row.key]) === row.value) continue;
    patch[row.key] = row.value;
  }
  return patch;
}
