import type { Contact } from '../contacts/contacts';

/**
 * The export's CSV: `id,email,subscribed,createdAt,updatedAt` and one column per data key (sorted,
 * named `data.<key>` so that the file imports back as it is). Strings are written as they are,
 * other values (numbers, booleans, arrays, objects) as JSON; fields are quoted when they hold a
 * comma, quote, line break or leading/trailing space. Lines end with CRLF (RFC 4180).
 */
export const FIXED_COLUMNS = ['id', 'email', 'subscribed', 'createdAt', 'updatedAt'] as const;

export function csvHeader(dataKeys: string[]): string {
  return csvLine([...FIXED_COLUMNS, ...dataKeys.map((key) => `data.${key}`)]);
}

export function csvContactLine(contact: Contact, dataKeys: string[]): string {
  const data = dataKeys.map((key) => {
    const value = contact.data[key];
    if (value === undefined || value === null) return '';
    return typeof value === 'string' ? value : JSON.stringify(value);
  });
  return csvLine([contact.id, contact.email, String(contact.subscribed), contact.createdAt, contact.updatedAt, ...data]);
}

function csvLine(fields: string[]): string {
  return `${fields.map(quote).join(',')}\r\n`;
}

const quote = (field: string) => (/[",\r\n]|^\s|\s$/.test(field) ? `"${field.replaceAll('"', '""')}"` : field);
