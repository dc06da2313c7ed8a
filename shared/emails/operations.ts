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
      'Every email of the project — `/v1/send` (`transactional`), `campaign`, `workflow` and campaign test sends (`test`) — newest first. Filters: `email` (the recipient, case-insensitive), `status`, `source`, `campaignId` (the campaign\'s mail; with `source=test`, its test sends), `from`/`to` (a date such as `2026-11-24` — `to` then means the day\'s end — or an ISO time; an email is dated when it was queued, campaign mail by its campaign\'s start). A filtered page reads at most `limit` + 1 emails, so it can hold fewer than `limit` while `hasMore` is true, and a rare filter over a large project may take several pages. `sourceId` is the campaign or workflow; `templateId` the template of a transactional send. `total` is the project\'s email count; it does not narrow with the filters.',
    query: listEmailsQuerySchema,
    success: { status: 200, description: 'A page of emails', data: pageSchema(emailSummaryResponseSchema) },
  },
  'GET /emails/{id}': {
    operationId: 'getEmail',
    tag: 'Emails',
    summary: 'Get an email with its timeline',
    description:
      'The record (status, source, subject, from, reply-to, headers, the rendered `html` and `text` parts, timestamps) and its `timeline`: `queued` (its creation), then its events in time order — `sent`, `delivered`, `delayed`, `bounced` (`bounceType`, `bounceSubType`, `diagnosticCode`), `complained` (`feedbackType`), `opened`, `clicked` (`link`), `rejected`, `failed`, `suppressed`, `cancelled` — each `{ type, at, eventId, data }`; at most 500 events (`timelineTruncated` says when there are more). An unknown or malformed id is a 404.',
    success: { status: 200, description: 'The email', data: emailResponseSchema },
    errors: [notFoundCase('email')],
  },
};
