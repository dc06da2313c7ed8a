/**
 * The CSV header as the import worker uses it: which column is the email, which `subscribed`,
 * which data keys. Free of dependencies, so the dashboard's import preview maps columns by
 * these same rules.
 */
export interface CsvColumns {
  email: number;
  subscribed?: number;
  /** Data key per column index (null: email, subscribed or a blank header). */
  data: (string | null)[];
}

export class FileProblem extends Error {
  override name = 'FileProblem';

  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Columns of an export (contact fields, not data): ignored, so that an export imports back. */
const SYSTEM_COLUMNS = new Set(['id', 'createdat', 'updatedat']);

/** Header spellings of the email column that other tools export (Mailchimp: "Email Address"). */
const EMAIL_HEADERS = new Set(['email', 'emailaddress']);

/** A header folded for matching: lower case, letters and digits only ("E-mail Address" → "emailaddress"). */
const folded = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');

/**
 * A column's data key. Headers that are valid keys stay as they are; others, as other tools
 * export them ("First Name", "Last name (optional)"), become camelCase keys of their letters and
 * digits ("firstName", "lastNameOptional"), so a file from Mailchimp or a spreadsheet imports
 * without renaming its columns. A header with no letter or digit keeps its text and so fails its
 * rows' data check, which names it.
 */
export function dataKeyOf(header: string): string {
  const name = header.toLowerCase().startsWith('data.') ? header.slice('data.'.length) : header;
  if (/^[A-Za-z0-9_-]+$/.test(name)) return name;
  const words = name.split(/[^A-Za-z0-9]+/).filter(Boolean);
  if (words.length === 0) return name;
  return words.map((word, index) => (index === 0 ? word.toLowerCase() : word[0]!.toUpperCase() + word.slice(1).toLowerCase())).join('');
}

/**
 * The header row: the email column (`email` or `Email Address`, any case and punctuation) is
 * required, `subscribed` optional, every other named column a data key (see dataKeyOf); a
 * `data.` prefix is dropped. `id`, `createdAt` and `updatedAt` (an export's contact fields) are
 * ignored.
 */
export function csvColumns(header: string[]): CsvColumns {
  const names = header.map((name) => name.trim());
  const keys = names.map(folded);
  const email = keys.findIndex((key) => EMAIL_HEADERS.has(key));
  if (email === -1) throw new FileProblem('NO_EMAIL_COLUMN', 'The header row has no "email" column');
  const subscribed = keys.indexOf('subscribed');
  const data = names.map((name, index) => {
    if (index === email || index === subscribed || name === '' || SYSTEM_COLUMNS.has(name.toLowerCase())) return null;
    return dataKeyOf(name);
  });
  return { email, ...(subscribed === -1 ? {} : { subscribed }), data };
}

