const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export const formatDateTime = (iso: string | null | undefined) => (iso ? dateTime.format(new Date(iso)) : '—');

export const formatPercent = (fraction: number) => `${(fraction * 100).toFixed(fraction < 0.01 ? 2 : 1)} %`;

/** Any JSON value as one line of text (React escapes it when rendered). */
export const formatValue = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/** YYYY-MM-DD of a Date in UTC (the analytics days are UTC days). */
export const isoDay = (date: Date) => date.toISOString().slice(0, 10);

/** A date input's YYYY-MM-DD as the ISO date-time the list filters take (start or end of that UTC day). */
export const dayToIso = (day: string, end = false) => (day ? `${day}T${end ? '23:59:59.999' : '00:00:00.000'}Z` : undefined);
