import * as v from 'valibot';
import { pageQueryEntries } from '../http/pagination';
import { emailSchema } from '../contacts/schemas';

/**
 * Custom event names: 1–100 characters, starting with a letter or digit, then letters, digits,
 * spaces and `_ . : - /`. Names beginning `email.`, `segment.` or `contact.` are the service's own.
 */
const RESERVED_PREFIXES = ['email.', 'segment.', 'contact.'];

export const eventNameSchema = v.pipe(
  v.string('event must be a string'),
  v.trim(),
  v.minLength(1, 'event is required'),
  v.maxLength(100, 'event is at most 100 characters'),
  v.regex(/^[A-Za-z0-9][A-Za-z0-9 _.:/-]*$/, 'event must start with a letter or digit and use only letters, digits, spaces and _ . : - /'),
  v.check((name) => !RESERVED_PREFIXES.some((prefix) => name.toLowerCase().startsWith(prefix)), `event names starting with ${RESERVED_PREFIXES.join(', ')} are reserved for the service`),
);

export const trackRequestSchema = v.object({
  email: emailSchema,
  event: eventNameSchema,
  subscribed: v.optional(v.boolean('subscribed must be a boolean')),
  data: v.optional(v.record(v.string(), v.unknown(), 'data must be an object')),
});

const isoDateTime = (field: string) =>
  v.pipe(
    v.string(),
    v.isoTimestamp(`${field} must be an ISO 8601 date-time such as 2026-01-31T00:00:00Z`),
    v.transform((value) => Date.parse(value)),
  );

export const listEventsQuerySchema = v.object({
  ...pageQueryEntries,
  contactId: v.optional(v.pipe(v.string(), v.regex(/^[0-9A-HJKMNP-TV-Z]{26}$/, 'contactId must be a contact id'))),
  email: v.optional(emailSchema),
  name: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(100))),
  from: v.optional(isoDateTime('from')),
  to: v.optional(isoDateTime('to')),
});

export type ListEventsQuery = v.InferOutput<typeof listEventsQuerySchema>;

/** GET /events/names: `limit` and `cursor`, as every list. */
export const listEventNamesQuerySchema = v.object({ ...pageQueryEntries });
export type ListEventNamesQuery = v.InferOutput<typeof listEventNamesQuerySchema>;
