import { notFoundCase, type OperationDoc } from '../http/operation-doc';
import { pageSchema } from '../http/responses';
import { emailResponseSchema, emailSummaryResponseSchema } from './responses';
import { listEmailsQuerySchema } from './schemas';

/** The OpenAPI entries of the activity log routes, keyed by route key ('METHOD /path'). */
export const emailOperations: Record<string, OperationDoc> = {
  'GET /emails': {
    operationId: 'listEmails',
    tag: 'Emails',
    summary: 'List emails (the activity log)',
    description:
      'Every email of the project (transactional, campaign, workflow and campaign test sends), newest first. Filters: recipient (email), status, source, campaignId (with source=test: the campaign\'s test sends), from/to (dates or ISO times; campaign mail is dated by its campaign\'s start). A filtered page reads at most limit + 1 emails, so it can hold fewer than limit while hasMore is true. total is the project\'s email count.',
    query: listEmailsQuerySchema,
    success: { status: 200, description: 'A page of emails', data: pageSchema(emailSummaryResponseSchema) },
  },
  'GET /emails/{id}': {
    operationId: 'getEmail',
    tag: 'Emails',
    summary: 'Get an email with its timeline',
    description: 'The record (status, source, subject, timestamps, rendered HTML, headers) and its timeline: queued, then sent, delivered / bounced (with the bounce type and reason) / complained, opens and clicks (with the link), in time order.',
    success: { status: 200, description: 'The email', data: emailResponseSchema },
    errors: [notFoundCase('email')],
  },
};
