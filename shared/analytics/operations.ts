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
      'Per UTC day from from to to (both included, at most 366 days; default the last 30 days): sent, delivered, opened, clicked (every open and click), bounced (permanent bounces) and complained, read from per-day counters kept on write. Plus totals, bounce and complaint rates of sent against SES\'s review thresholds, and the contact and subscriber counts.',
    query: analyticsQuerySchema,
    success: { status: 200, description: 'The daily series', data: analyticsResponseSchema },
  },
};
