import { projectPartition } from '../projects/keys';

/**
 * Table keys of the per-day delivery counters (GET /analytics): one item per project per UTC day,
 * built here and nowhere else. Days sort as text, so a date range is a key condition.
 * | item        | PK            | SK                          |
 * |-------------|---------------|-----------------------------|
 * | day counter | PROJECT#<pid> | ANALYTICS_DAY#<YYYY-MM-DD>  |
 */
export const analyticsKeys = {
  day: (projectId: string, date: string) => ({ PK: projectPartition(projectId), SK: `ANALYTICS_DAY#${date}` }),
  dayPrefix: 'ANALYTICS_DAY#',
};

/** The UTC day (YYYY-MM-DD) of an ISO time, epoch milliseconds or Date. */
export const utcDay = (at: string | number | Date) => new Date(at).toISOString().slice(0, 10);
