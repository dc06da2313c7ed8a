import * as v from 'valibot';

/** A calendar date, YYYY-MM-DD, that exists (2026-02-30 does not). */
export const calendarDateSchema = (field: string) =>
  v.pipe(
    v.string(),
    v.regex(/^\d{4}-\d{2}-\d{2}$/, `${field} must be a date such as 2026-01-31`),
    v.check((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value), `${field} must be a real calendar date`),
  );

/** The most days one GET /analytics covers. */
export const MAX_ANALYTICS_DAYS = 366;

/** GET /analytics: `from` and `to` are UTC days, both included (default: the last 30 days to today). */
export const analyticsQuerySchema = v.object({
  from: v.optional(v.pipe(calendarDateSchema('from'), v.description('The first UTC day (default: 29 days before to).'))),
  to: v.optional(v.pipe(calendarDateSchema('to'), v.description('The last UTC day, included (default: today); at most 366 days after from.'))),
});

export type AnalyticsQuery = v.InferOutput<typeof analyticsQuerySchema>;
