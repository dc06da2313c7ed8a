import * as v from 'valibot';
import { emailSchema } from '../contacts/schemas';
import { pageQueryEntries } from '../http/pagination';
import { emailSourceTypes, emailStatuses } from './emails';

const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;

/**
 * A date (YYYY-MM-DD, UTC) or an ISO 8601 date-time, as epoch milliseconds. A date as `from`
 * means its first millisecond; as `to`, its last.
 */
const dateOrTime = (field: string, end: 'start' | 'end') =>
  v.pipe(
    v.string(),
    v.check((value) => /^\d{4}-\d{2}-\d{2}($|T)/.test(value) && !Number.isNaN(Date.parse(value)), `${field} must be a date (2026-01-31) or an ISO 8601 date-time (2026-01-31T09:30:00Z)`),
    v.check((value) => value.length === 10 || v.is(v.pipe(v.string(), v.isoTimestamp()), value), `${field} must be a date (2026-01-31) or an ISO 8601 date-time (2026-01-31T09:30:00Z)`),
    v.check((value) => value.length !== 10 || new Date(`${value}T00:00:00Z`).toISOString().startsWith(value), `${field} must be a real calendar date`),
    v.transform((value) => (value.length === 10 && end === 'end' ? Date.parse(`${value}T00:00:00Z`) + 86_399_999 : Date.parse(value))),
  );

export const emailIdSchema = v.object({ id: v.pipe(v.string(), v.regex(ULID, 'id must be an email id')) });

/** GET /emails: the query names GET /events uses, and the email's own filters. */
export const listEmailsQuerySchema = v.object({
  ...pageQueryEntries,
  email: v.optional(emailSchema),
  status: v.optional(v.picklist(emailStatuses, `status must be one of ${emailStatuses.join(', ')}`)),
  source: v.optional(v.picklist(emailSourceTypes, `source must be one of ${emailSourceTypes.join(', ')}`)),
  campaignId: v.optional(v.pipe(v.string(), v.regex(ULID, 'campaignId must be a campaign id'))),
  from: v.optional(dateOrTime('from', 'start')),
  to: v.optional(dateOrTime('to', 'end')),
});

export type ListEmailsQuery = v.InferOutput<typeof listEmailsQuerySchema>;
