import type { OperationDoc } from '../http/operation-doc';
import { analyticsResponseSchema } from './responses';
import { analyticsQuerySchema } from './schemas';

/** The OpenAPI entries of the analytics route, keyed by route key ('METHOD /path'). */
export const analyticsOperations: Record<string, OperationDoc> = {
  'GET /analytics': {
    operationId: 'getAnalytics',
    tag: 'Analytics',
    summary: 'Daily delivery figures',
    description:
      'Per UTC day from `from` to `to` (`YYYY-MM-DD`, both included; default the last 30 days to today; at most 366 days, `from` not after `to`, real dates, else 422): sent, delivered, opened and clicked (every open and click), bounced (permanent bounces only: what SES\'s bounce rate counts; transient ones stay in the events and the per-source stats) and complained, read from per-day counters, which the table stream adds each email\'s events to in batches (in AWS within about 10 seconds of the event: the counting consumer\'s batching window). Plus `totals`, `bounceRate` and `complaintRate` of sent (0 without sends), the `thresholds` from which SES reviews an account (`bounceRate` 0.05, `complaintRate` 0.001), and the `contacts` and `subscribers` counts now. Campaign test sends count in `sent`.',
    query: analyticsQuerySchema,
    success: { status: 200, description: 'The daily series', data: analyticsResponseSchema },
  },
};
