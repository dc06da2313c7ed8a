import * as v from 'valibot';
import { emailSchema } from '../contacts/schemas';
import { ULID_PATTERN } from '../http/ids';
import { pageQueryEntries } from '../http/pagination';
import { emailSourceTypes, emailStatuses } from './emails';

/** A real calendar date (YYYY-MM-DD; 2026-02-30 is not) or an ISO 8601 date-time. */
const isDateOrTime = (value: string) =>
  /^\d{4}-\d{2}-\d{2}$/.test(value) ? !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value) : v.is(v.pipe(v.string(), v.isoTimestamp()), value);

/** A date or date-time as epoch milliseconds: a date as `from` means its first millisecond, as `to` its last. */
const dateOrTime = (field: string, end: 'start' | 'end') =>
  v.pipe(
    v.string(),
    v.description(`A date (YYYY-MM-DD, UTC: ${end === 'start' ? 'from its first' : 'up to its last'} millisecond) or an ISO 8601 date-time.`),
    v.check(isDateOrTime, `${field} must be a real date (2026-01-31) or an ISO 8601 date-time (2026-01-31T09:30:00Z)`),
    v.transform((value) => (value.length === 10 && end === 'end' ? Date.parse(`${value}T00:00:00Z`) + 86_399_999 : Date.parse(value))),
  );

/** GET /emails: the query names GET /events uses, and the email's own filters. */
export const listEmailsQuerySchema = v.object({
  ...pageQueryEntries,
  email: v.optional(emailSchema),
  status: v.optional(v.picklist(emailStatuses, `status must be one of ${emailStatuses.join(', ')}`)),
  source: v.optional(v.picklist(emailSourceTypes, `source must be one of ${emailSourceTypes.join(', ')}`)),
  campaignId: v.optional(v.pipe(v.string(), v.regex(ULID_PATTERN, 'campaignId must be a campaign id'))),
  from: v.optional(dateOrTime('from', 'start')),
  to: v.optional(dateOrTime('to', 'end')),
});

export type ListEmailsQuery = v.InferOutput<typeof listEmailsQuerySchema>;
