import * as v from 'valibot';
import { listContactsQuerySchema, patchContactSchema, upsertContactSchema } from '../../contacts/schemas';
import { contactResponseSchema, upsertedContactResponseSchema } from '../../contacts/responses';
import { createDomainSchema } from '../../domains/schemas';
import { domainResponseSchema } from '../../domains/responses';
import { listEventsQuerySchema, trackRequestSchema } from '../../events/schemas';
import { eventNameResponseSchema, eventResponseSchema, trackResponseSchema } from '../../events/responses';
import { createExportSchema, listExportsQuerySchema } from '../../exports/schemas';
import { exportResponseSchema } from '../../exports/responses';
import { createImportSchema, importOptionsQuerySchema, listImportsQuerySchema } from '../../imports/schemas';
import { createdImportResponseSchema, importResponseSchema } from '../../imports/responses';
import { createSegmentSchema, listQuerySchema, patchSegmentSchema } from '../../segments/schemas';
import { segmentResponseSchema } from '../../segments/responses';
import { sendRequestSchema } from '../../sending/schemas';
import { sendResponseSchema } from '../../sending/responses';
import { createTemplateSchema, listTemplatesQuerySchema, patchTemplateSchema } from '../../templates/schemas';
import { templateResponseSchema } from '../../templates/responses';
import { verifyRequestSchema } from '../../verification/schemas';
import { verificationResponseSchema } from '../../verification/responses';
import { createCampaignSchema, listCampaignsQuerySchema, patchCampaignSchema, sendCampaignSchema, testSendSchema } from '../../campaigns/schemas';
import { campaignResponseSchema, campaignStatsResponseSchema, campaignTestResponseSchema } from '../../campaigns/responses';
import { createWebhookSchema, listDeliveriesQuerySchema, patchWebhookSchema } from '../../webhooks/schemas';
import { webhookDeliveryPageSchema, webhookDeliveryResponseSchema, webhookResponseSchema, webhookWithSecretResponseSchema } from '../../webhooks/responses';
import { createWorkflowSchema, listExecutionsQuerySchema, listWorkflowsQuerySchema, patchWorkflowSchema } from '../../workflows/schemas';
import { createdWorkflowResponseSchema, executionResponseSchema, workflowResponseSchema, workflowWithStatsResponseSchema } from '../../workflows/responses';
import { listEmailsQuerySchema } from '../../emails/schemas';
import { emailResponseSchema, emailSummaryResponseSchema } from '../../emails/responses';
import { analyticsQuerySchema } from '../../analytics/schemas';
import { analyticsResponseSchema } from '../../analytics/responses';
import { deletedSchema, pageSchema } from '../responses';
import { accountOperations } from '../../accounts/operations';

/** An error a route answers beyond those the generator adds from the route's shape. */
export interface ErrorCase {
  status: number;
  code: string;
  when: string;
}

export interface OperationDoc {
  operationId: string;
  tag: string;
  summary: string;
  description?: string;
  /** JSON request body (valibot, converted by its input type). */
  body?: v.GenericSchema;
  bodyExample?: unknown;
  /** Query parameters (a valibot object of strings). */
  query?: v.GenericSchema;
  /** Request headers the route reads. */
  headers?: { name: string; description: string; schema: Record<string, unknown> }[];
  /** Enveloped JSON success `{ success: true, data }`, or a raw body (no envelope). */
  success:
    | { status: number; description: string; data: v.GenericSchema; example?: unknown; /** Another success status with the same body. */ alsoStatus?: { status: number; description: string } }
    | { status: number; description: string; mediaType: string; schema: Record<string, unknown> };
  errors?: readonly ErrorCase[];
  /** Other answers that are not the JSON envelope (an HTML page for an invalid link…). */
  rawResponses?: readonly { status: number; description: string; mediaType: string }[];
}

const notFound = (what: string): ErrorCase => ({ status: 404, code: 'NOT_FOUND', when: `No ${what} with this id in the project` });
const concurrent: ErrorCase = { status: 409, code: 'CONCURRENT_MODIFICATION', when: 'The resource changed concurrently; retry' };
const invalidState: ErrorCase = { status: 409, code: 'INVALID_CAMPAIGN_STATE', when: 'The campaign\'s status does not allow this' };
const invalidTemplate: ErrorCase = { status: 422, code: 'VALIDATION_ERROR', when: 'Fields fail validation, or subject/body is not a valid template (field code INVALID_TEMPLATE)' };

const contactExample = { email: 'ada@example.com', subscribed: true, data: { firstName: 'Ada', plan: 'pro' } };

/**
 * THE per-route documentation, keyed by route key ('METHOD /path'). Every route of
 * shared/http/routes.ts has an entry, and every entry a route (test/unit/openapi checks both).
 */
export const operations: Record<string, OperationDoc> = {
  'POST /contacts': {
    operationId: 'upsertContact',
    tag: 'Contacts',
    summary: 'Create or update a contact',
    description: 'Upsert by email: creates the contact (201) or updates the one with this email (200). Top-level data keys merge into the stored data; a null value removes the key.',
    body: upsertContactSchema,
    bodyExample: contactExample,
    success: { status: 201, description: 'Created', data: upsertedContactResponseSchema, alsoStatus: { status: 200, description: 'Updated: a contact with this email existed' } },
    errors: [concurrent],
  },
  'GET /contacts': {
    operationId: 'listContacts',
    tag: 'Contacts',
    summary: 'List contacts',
    description: 'Cursor pagination: pass nextCursor as cursor until hasMore is false. search matches the beginning of the email.',
    query: listContactsQuerySchema,
    success: { status: 200, description: 'A page of contacts', data: pageSchema(contactResponseSchema) },
  },
  'GET /contacts/{id}': {
    operationId: 'getContact',
    tag: 'Contacts',
    summary: 'Get a contact',
    success: { status: 200, description: 'The contact', data: contactResponseSchema },
    errors: [notFound('contact')],
  },
  'PATCH /contacts/{id}': {
    operationId: 'updateContact',
    tag: 'Contacts',
    summary: 'Update a contact',
    description: 'Changes email, subscribed and/or data (merged; null removes a key).',
    body: patchContactSchema,
    bodyExample: { subscribed: false, data: { plan: null } },
    success: { status: 200, description: 'The updated contact', data: contactResponseSchema },
    errors: [notFound('contact'), { status: 409, code: 'EMAIL_TAKEN', when: 'Another contact has this email' }, concurrent],
  },
  'DELETE /contacts/{id}': {
    operationId: 'deleteContact',
    tag: 'Contacts',
    summary: 'Delete a contact',
    success: { status: 200, description: 'Deleted', data: deletedSchema },
    errors: [notFound('contact'), concurrent],
  },

  'POST /contacts/imports': {
    operationId: 'importContacts',
    tag: 'Imports and exports',
    summary: 'Import contacts (queued)',
    description:
      'Either a JSON body { contacts: [{ email, subscribed?, data? }] }, or a CSV body sent with Content-Type: text/csv (header row; email required, subscribed optional as true/false/1/0/yes/no, every other column a data key, a data. prefix dropped; options as query parameters), or { upload: true } for a presigned S3 PUT URL (files up to 100 MB, 15 minutes), then POST /contacts/imports/{id}/start. Rows go through the rules of POST /contacts; poll GET /contacts/imports/{id}.',
    body: createImportSchema,
    bodyExample: { contacts: [contactExample], updateExisting: true },
    query: importOptionsQuerySchema,
    success: { status: 202, description: 'The job, queued (or FAILED at once when the body cannot be imported)', data: createdImportResponseSchema },
  },
  'GET /contacts/imports': {
    operationId: 'listContactImports',
    tag: 'Imports and exports',
    summary: 'List imports',
    query: listImportsQuerySchema,
    success: { status: 200, description: 'A page of import jobs, newest first', data: pageSchema(importResponseSchema) },
  },
  'GET /contacts/imports/{id}': {
    operationId: 'getContactImport',
    tag: 'Imports and exports',
    summary: 'Get an import',
    success: { status: 200, description: 'The job and its progress', data: importResponseSchema },
    errors: [notFound('import')],
  },
  'POST /contacts/imports/{id}/start': {
    operationId: 'startContactImport',
    tag: 'Imports and exports',
    summary: 'Start an uploaded import',
    description: 'Checks the uploaded file (there, at most 100 MB, CSV, JSON Lines or a JSON document up to 6 MB) and queues the job. Calling it again is harmless.',
    success: { status: 202, description: 'The job, queued (or FAILED when the file cannot be imported)', data: importResponseSchema },
    errors: [notFound('import'), { status: 409, code: 'UPLOAD_MISSING', when: 'No file was uploaded yet' }, { status: 409, code: 'NOT_AN_UPLOAD', when: 'The import was created with its file' }],
  },
  'POST /contacts/exports': {
    operationId: 'exportContacts',
    tag: 'Imports and exports',
    summary: 'Export contacts as CSV (queued)',
    description: 'All contacts, only subscribed (or unsubscribed) ones, or a segment\'s members. Columns: id,email,subscribed,createdAt,updatedAt and data.<key> per data key (non-string values as JSON).',
    body: createExportSchema,
    bodyExample: { subscribed: true },
    success: { status: 202, description: 'The job, queued', data: exportResponseSchema },
    errors: [notFound('segment')],
  },
  'GET /contacts/exports': {
    operationId: 'listContactExports',
    tag: 'Imports and exports',
    summary: 'List exports',
    query: listExportsQuerySchema,
    success: { status: 200, description: 'A page of export jobs, newest first', data: pageSchema(exportResponseSchema) },
  },
  'GET /contacts/exports/{id}': {
    operationId: 'getContactExport',
    tag: 'Imports and exports',
    summary: 'Get an export',
    description: 'When COMPLETED, downloadUrl is a presigned GET of the CSV valid for one hour (a new one at every call).',
    success: { status: 200, description: 'The job', data: exportResponseSchema },
    errors: [notFound('export')],
  },

  'POST /templates': {
    operationId: 'createTemplate',
    tag: 'Templates',
    summary: 'Create a template',
    description: 'Subject, body and the optional plain-text part (text) accept {{mustache}} variables, filled from the data of a send.',
    body: createTemplateSchema,
    bodyExample: { name: 'Welcome', subject: 'Welcome, {{firstName}}', body: '<p>Hello {{firstName}}</p>', type: 'TRANSACTIONAL', from: { name: 'Acme', email: 'hello@mail.example.com' } },
    success: { status: 201, description: 'The template', data: templateResponseSchema },
    errors: [invalidTemplate],
  },
  'GET /templates': {
    operationId: 'listTemplates',
    tag: 'Templates',
    summary: 'List templates',
    query: listTemplatesQuerySchema,
    success: { status: 200, description: 'A page of templates', data: pageSchema(templateResponseSchema) },
  },
  'GET /templates/{id}': {
    operationId: 'getTemplate',
    tag: 'Templates',
    summary: 'Get a template',
    success: { status: 200, description: 'The template', data: templateResponseSchema },
    errors: [notFound('template')],
  },
  'PATCH /templates/{id}': {
    operationId: 'updateTemplate',
    tag: 'Templates',
    summary: 'Update a template',
    description: 'The given fields replace the stored ones; from: null and replyTo: null remove them.',
    body: patchTemplateSchema,
    bodyExample: { subject: 'Welcome aboard, {{firstName}}' },
    success: { status: 200, description: 'The updated template', data: templateResponseSchema },
    errors: [notFound('template'), invalidTemplate, concurrent],
  },
  'DELETE /templates/{id}': {
    operationId: 'deleteTemplate',
    tag: 'Templates',
    summary: 'Delete a template',
    success: { status: 200, description: 'Deleted', data: deletedSchema },
    errors: [notFound('template'), concurrent],
  },

  'POST /v1/send': {
    operationId: 'sendEmail',
    tag: 'Sending',
    summary: 'Send transactional email',
    description:
      'Queues one email per recipient (duplicates collapse), creating or updating each recipient contact. Give subject and body, or a template (its subject, body, text, from and reply-to; the request overrides them; a body without a text drops the template text). Every email has an HTML and a plain-text part: text, or made from the rendered HTML. type "markdown" renders the body as Markdown (raw HTML in it is escaped). The from domain must be verified. Sending is paced to the SES rate.',
    body: sendRequestSchema,
    bodyExample: { to: 'ada@example.com', subject: 'Your receipt', body: '<p>Thanks, {{firstName}}!</p>', from: 'billing@mail.example.com', data: { firstName: 'Ada' } },
    headers: [{ name: 'Idempotency-Key', description: 'Repeats with the same key and body within 24 h answer the first response without sending again (Idempotent-Replayed: true)', schema: { type: 'string', minLength: 1, maxLength: 255 } }],
    success: { status: 200, description: 'Queued', data: sendResponseSchema },
    errors: [
      { status: 403, code: 'FROM_DOMAIN_NOT_VERIFIED', when: 'The from domain is not a verified domain of the project' },
      { status: 404, code: 'NOT_FOUND', when: 'No template with this id' },
      { status: 409, code: 'IDEMPOTENCY_KEY_REUSED', when: 'The Idempotency-Key was used with another body in the last 24 h' },
      { status: 409, code: 'IDEMPOTENCY_KEY_IN_PROGRESS', when: 'A request with this Idempotency-Key is still running' },
    ],
  },
  'POST /v1/verify': {
    operationId: 'verifyEmail',
    tag: 'Sending',
    summary: 'Verify an email address',
    description: 'Syntax, disposable domain, likely typo (with a suggestion in reasons), role account, +tag, domain and MX records. An undeliverable address is a 200 with valid false.',
    body: verifyRequestSchema,
    bodyExample: { email: 'ada@gmial.com' },
    success: { status: 200, description: 'The verdict', data: verificationResponseSchema },
  },
  'POST /v1/track': {
    operationId: 'trackEvent',
    tag: 'Events',
    summary: 'Track an event',
    description:
      'Creates or updates the contact and records a custom event. Accepts public keys (pk_) and CORS. A data value may be written { value, persistent }: persistent values are also stored on the contact, others only on the event; plain values are stored on both.',
    body: trackRequestSchema,
    bodyExample: { email: 'ada@example.com', event: 'signed-up', data: { plan: 'pro', source: { value: 'ad-campaign', persistent: false } } },
    success: { status: 200, description: 'Recorded', data: trackResponseSchema },
  },

  'POST /domains': {
    operationId: 'createDomain',
    tag: 'Domains',
    summary: 'Add a sending domain',
    description: 'Registers the domain with SES; publish the returned DNS records to verify it.',
    body: createDomainSchema,
    bodyExample: { domain: 'mail.example.com' },
    success: { status: 201, description: 'The domain, PENDING', data: domainResponseSchema },
    errors: [
      { status: 409, code: 'DOMAIN_EXISTS', when: 'The domain is already a domain of this project' },
      { status: 409, code: 'DOMAIN_TAKEN', when: 'The domain belongs to another project' },
    ],
  },
  'GET /domains': {
    operationId: 'listDomains',
    tag: 'Domains',
    summary: 'List domains',
    success: { status: 200, description: 'All domains of the project (one page)', data: pageSchema(domainResponseSchema) },
  },
  'GET /domains/{id}': {
    operationId: 'getDomain',
    tag: 'Domains',
    summary: 'Get a domain',
    description: 'A pending domain\'s status is refreshed from SES.',
    success: { status: 200, description: 'The domain', data: domainResponseSchema },
    errors: [notFound('domain')],
  },
  'DELETE /domains/{id}': {
    operationId: 'deleteDomain',
    tag: 'Domains',
    summary: 'Remove a domain',
    success: { status: 200, description: 'Deleted', data: deletedSchema },
    errors: [notFound('domain')],
  },

  'GET /events': {
    operationId: 'listEvents',
    tag: 'Events',
    summary: 'List events',
    description: 'Newest first; filter by contact (contactId or email), event name and time range.',
    query: listEventsQuerySchema,
    success: { status: 200, description: 'A page of events', data: pageSchema(eventResponseSchema) },
  },
  'GET /events/names': {
    operationId: 'listEventNames',
    tag: 'Events',
    summary: 'List event names',
    success: { status: 200, description: 'Every event name with its count (one page)', data: pageSchema(eventNameResponseSchema) },
  },

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
    errors: [notFound('email')],
  },
  'GET /analytics': {
    operationId: 'getAnalytics',
    tag: 'Analytics',
    summary: 'Daily delivery figures',
    description:
      'Per UTC day from from to to (both included, at most 366 days; default the last 30 days): sent, delivered, opened, clicked (every open and click), bounced (permanent bounces) and complained, read from per-day counters kept on write. Plus totals, bounce and complaint rates of sent against SES\'s review thresholds, and the contact and subscriber counts.',
    query: analyticsQuerySchema,
    success: { status: 200, description: 'The daily series', data: analyticsResponseSchema },
  },

  'POST /segments': {
    operationId: 'createSegment',
    tag: 'Segments',
    summary: 'Create a segment',
    description: 'trackMembership keeps membership current (segment.entered / segment.exited events); otherwise the segment is evaluated on demand.',
    body: createSegmentSchema,
    bodyExample: { name: 'Pro customers', filters: { operator: 'AND', conditions: [{ field: 'data.plan', operator: 'equals', value: 'pro' }] }, trackMembership: true },
    success: { status: 201, description: 'The segment with its member count', data: segmentResponseSchema },
    errors: [{ status: 422, code: 'SEGMENT_TOO_LARGE', when: 'The audience is too large to evaluate on demand; use trackMembership' }],
  },
  'GET /segments': {
    operationId: 'listSegments',
    tag: 'Segments',
    summary: 'List segments',
    query: listQuerySchema,
    success: { status: 200, description: 'A page of segments', data: pageSchema(segmentResponseSchema) },
  },
  'GET /segments/{id}': {
    operationId: 'getSegment',
    tag: 'Segments',
    summary: 'Get a segment',
    success: { status: 200, description: 'The segment with its member count', data: segmentResponseSchema },
    errors: [notFound('segment'), { status: 422, code: 'SEGMENT_TOO_LARGE', when: 'The audience is too large to evaluate on demand' }],
  },
  'PATCH /segments/{id}': {
    operationId: 'updateSegment',
    tag: 'Segments',
    summary: 'Update a segment',
    body: patchSegmentSchema,
    bodyExample: { name: 'Pro and team customers' },
    success: { status: 200, description: 'The updated segment', data: segmentResponseSchema },
    errors: [notFound('segment'), concurrent, { status: 422, code: 'SEGMENT_TOO_LARGE', when: 'The audience is too large to evaluate on demand' }],
  },
  'DELETE /segments/{id}': {
    operationId: 'deleteSegment',
    tag: 'Segments',
    summary: 'Delete a segment',
    success: { status: 200, description: 'Deleted', data: deletedSchema },
    errors: [notFound('segment')],
  },
  'GET /segments/{id}/contacts': {
    operationId: 'listSegmentContacts',
    tag: 'Segments',
    summary: 'List segment members',
    query: listQuerySchema,
    success: { status: 200, description: 'A page of member contacts', data: pageSchema(contactResponseSchema) },
    errors: [notFound('segment'), { status: 422, code: 'SEGMENT_TOO_LARGE', when: 'The audience is too large to evaluate on demand' }],
  },

  'POST /workflows': {
    operationId: 'createWorkflow',
    tag: 'Workflows',
    summary: 'Create a workflow',
    description: 'When a contact does X (an event, entering or leaving a tracked segment, being created), run the steps from the first one. The answer carries webhookSecret, shown only here.',
    body: createWorkflowSchema,
    bodyExample: {
      name: 'Onboarding',
      trigger: { type: 'EVENT', event: 'signed_up' },
      steps: [
        { id: 'welcome', type: 'SEND_EMAIL', templateId: '01KAQ5VZ3N4G8T2M6P0R9S7W1X', next: 'wait' },
        { id: 'wait', type: 'DELAY', amount: 3, unit: 'days', next: 'plan' },
        { id: 'plan', type: 'CONDITION', filters: { operator: 'AND', conditions: [{ field: 'data.plan', operator: 'equals', value: 'pro' }] }, then: 'tips' },
        { id: 'tips', type: 'SEND_EMAIL', templateId: '01KAQ5VZ3N4G8T2M6P0R9S7W1Y' },
      ],
    },
    success: { status: 201, description: 'The workflow, its stats and its webhook signing secret', data: createdWorkflowResponseSchema },
  },
  'GET /workflows': {
    operationId: 'listWorkflows',
    tag: 'Workflows',
    summary: 'List workflows',
    query: listWorkflowsQuerySchema,
    success: { status: 200, description: 'A page of workflows, newest first', data: pageSchema(workflowResponseSchema) },
  },
  'GET /workflows/{id}': {
    operationId: 'getWorkflow',
    tag: 'Workflows',
    summary: 'Get a workflow with its stats',
    success: { status: 200, description: 'The workflow and its stats', data: workflowWithStatsResponseSchema },
    errors: [notFound('workflow')],
  },
  'PATCH /workflows/{id}': {
    operationId: 'updateWorkflow',
    tag: 'Workflows',
    summary: 'Update a workflow',
    description: 'A change of trigger, steps or allowReentry is a new version; running executions keep theirs. enabled: false stops new entries.',
    body: patchWorkflowSchema,
    bodyExample: { enabled: false },
    success: { status: 200, description: 'The updated workflow', data: workflowWithStatsResponseSchema },
    errors: [notFound('workflow'), concurrent],
  },
  'DELETE /workflows/{id}': {
    operationId: 'deleteWorkflow',
    tag: 'Workflows',
    summary: 'Delete a workflow',
    description: 'Its running and waiting executions are cancelled.',
    success: { status: 200, description: 'Deleted', data: deletedSchema },
    errors: [notFound('workflow')],
  },
  'GET /workflows/{id}/executions': {
    operationId: 'listWorkflowExecutions',
    tag: 'Workflows',
    summary: 'List executions',
    query: listExecutionsQuerySchema,
    success: { status: 200, description: 'A page of executions, newest first, each with its steps', data: pageSchema(executionResponseSchema) },
    errors: [notFound('workflow')],
  },

  'POST /webhooks': {
    operationId: 'createWebhook',
    tag: 'Webhooks',
    summary: 'Create a webhook endpoint',
    description: 'Events are POSTed to the https URL, signed with Standard Webhooks headers (webhook-id, webhook-timestamp, webhook-signature) and retried on failure. The URL must resolve to a public address. The secret is shown only here and on rotation.',
    body: createWebhookSchema,
    bodyExample: { url: 'https://example.com/hooks/mailwright', events: ['email.delivered', 'email.bounced', 'contact.unsubscribed'], description: 'CRM sync' },
    success: { status: 201, description: 'The endpoint with its signing secret', data: webhookWithSecretResponseSchema },
    errors: [{ status: 409, code: 'WEBHOOK_LIMIT_REACHED', when: 'The project has its maximum number of endpoints' }, { status: 422, code: 'VALIDATION_ERROR', when: 'Fields fail validation, or the URL is not https or resolves to a private address (field url)' }],
  },
  'GET /webhooks': {
    operationId: 'listWebhooks',
    tag: 'Webhooks',
    summary: 'List webhook endpoints',
    success: { status: 200, description: 'All endpoints of the project (one page)', data: pageSchema(webhookResponseSchema) },
  },
  'GET /webhooks/{id}': {
    operationId: 'getWebhook',
    tag: 'Webhooks',
    summary: 'Get a webhook endpoint',
    success: { status: 200, description: 'The endpoint', data: webhookResponseSchema },
    errors: [notFound('webhook')],
  },
  'PATCH /webhooks/{id}': {
    operationId: 'updateWebhook',
    tag: 'Webhooks',
    summary: 'Update a webhook endpoint',
    description: 'enabled: true re-enables an endpoint the service disabled after failing for 5 days.',
    body: patchWebhookSchema,
    bodyExample: { enabled: true },
    success: { status: 200, description: 'The updated endpoint', data: webhookResponseSchema },
    errors: [notFound('webhook'), concurrent],
  },
  'DELETE /webhooks/{id}': {
    operationId: 'deleteWebhook',
    tag: 'Webhooks',
    summary: 'Delete a webhook endpoint',
    success: { status: 200, description: 'Deleted', data: deletedSchema },
    errors: [notFound('webhook')],
  },
  'POST /webhooks/{id}/rotate-secret': {
    operationId: 'rotateWebhookSecret',
    tag: 'Webhooks',
    summary: 'Rotate the signing secret',
    description: 'For 24 hours deliveries are signed with both the old and the new secret.',
    success: { status: 200, description: 'The endpoint with its new secret', data: webhookWithSecretResponseSchema },
    errors: [notFound('webhook'), concurrent],
  },
  'POST /webhooks/{id}/test': {
    operationId: 'testWebhook',
    tag: 'Webhooks',
    summary: 'Send a test event',
    description: 'Queues a webhook.test event to this endpoint only, whatever it subscribed to.',
    success: { status: 202, description: 'The queued delivery', data: webhookDeliveryResponseSchema },
    errors: [notFound('webhook')],
  },
  'GET /webhooks/{id}/deliveries': {
    operationId: 'listWebhookDeliveries',
    tag: 'Webhooks',
    summary: 'List deliveries',
    description: 'Newest first, with each delivery\'s attempts and last outcome.',
    query: listDeliveriesQuerySchema,
    success: { status: 200, description: 'A page of deliveries', data: webhookDeliveryPageSchema },
    errors: [notFound('webhook')],
  },

  'POST /campaigns': {
    operationId: 'createCampaign',
    tag: 'Campaigns',
    summary: 'Create a campaign',
    description: 'A DRAFT: subject and body, or a MARKETING templateId; segmentId narrows the audience (default every subscribed contact).',
    body: createCampaignSchema,
    bodyExample: { name: 'November newsletter', subject: 'What is new, {{contact.data.firstName}}', body: '<p>News…</p>', from: { name: 'Acme', email: 'news@mail.example.com' } },
    success: { status: 201, description: 'The campaign, DRAFT', data: campaignResponseSchema },
    errors: [{ status: 422, code: 'VALIDATION_ERROR', when: 'Fields fail validation, the template is missing or not MARKETING, or from is missing' }],
  },
  'GET /campaigns': {
    operationId: 'listCampaigns',
    tag: 'Campaigns',
    summary: 'List campaigns',
    query: listCampaignsQuerySchema,
    success: { status: 200, description: 'A page of campaigns', data: pageSchema(campaignResponseSchema) },
  },
  'GET /campaigns/{id}': {
    operationId: 'getCampaign',
    tag: 'Campaigns',
    summary: 'Get a campaign',
    success: { status: 200, description: 'The campaign', data: campaignResponseSchema },
    errors: [notFound('campaign')],
  },
  'PATCH /campaigns/{id}': {
    operationId: 'updateCampaign',
    tag: 'Campaigns',
    summary: 'Update a campaign',
    description: 'DRAFT or SCHEDULED campaigns only; null removes an optional field.',
    body: patchCampaignSchema,
    bodyExample: { subject: 'Our November news' },
    success: { status: 200, description: 'The updated campaign', data: campaignResponseSchema },
    errors: [notFound('campaign'), invalidState, concurrent],
  },
  'DELETE /campaigns/{id}': {
    operationId: 'deleteCampaign',
    tag: 'Campaigns',
    summary: 'Delete a campaign',
    description: 'DRAFT campaigns only.',
    success: { status: 200, description: 'Deleted', data: deletedSchema },
    errors: [notFound('campaign'), invalidState, concurrent],
  },
  'POST /campaigns/{id}/send': {
    operationId: 'sendCampaign',
    tag: 'Campaigns',
    summary: 'Send, schedule or resume a campaign',
    description:
      'No body or scheduledFor null sends now (SENDING); a future scheduledFor (at most a year ahead) schedules it (SCHEDULED). On a PAUSED campaign (paused by the deliverability guard) no body resumes it: SENDING again, its held-back emails sent once each.',
    body: sendCampaignSchema,
    bodyExample: { scheduledFor: '2026-12-01T09:00:00Z' },
    success: { status: 200, description: 'The campaign, SENDING or SCHEDULED', data: campaignResponseSchema },
    errors: [notFound('campaign'), invalidState, concurrent, { status: 422, code: 'EMPTY_AUDIENCE', when: 'The audience has no subscribed contacts' }],
  },
  'POST /campaigns/{id}/cancel': {
    operationId: 'cancelCampaign',
    tag: 'Campaigns',
    summary: 'Cancel a scheduled or sending campaign',
    description: 'A SCHEDULED campaign goes back to DRAFT; a SENDING or PAUSED one is CANCELLED and its unsent emails are not sent.',
    success: { status: 200, description: 'The campaign', data: campaignResponseSchema },
    errors: [notFound('campaign'), invalidState, concurrent],
  },
  'POST /campaigns/{id}/test': {
    operationId: 'testCampaign',
    tag: 'Campaigns',
    summary: 'Send a test email',
    description: 'Renders the campaign for each address (its contact\'s data, or sample data) and sends it now.',
    body: testSendSchema,
    bodyExample: { email: 'me@example.com' },
    success: { status: 200, description: 'The test emails sent', data: campaignTestResponseSchema },
    errors: [notFound('campaign'), { status: 422, code: 'TEST_SEND_FAILED', when: 'SES rejected the test email' }, { status: 503, code: 'TEST_SEND_FAILED', when: 'SES could not take the test email now' }],
  },
  'GET /campaigns/{id}/stats': {
    operationId: 'getCampaignStats',
    tag: 'Campaigns',
    summary: 'Campaign analytics',
    success: { status: 200, description: 'Counts and rates', data: campaignStatsResponseSchema },
    errors: [notFound('campaign')],
  },

  'GET /unsubscribe/{token}': {
    operationId: 'openUnsubscribeLink',
    tag: 'Unsubscribe',
    summary: 'Unsubscribe link (browser)',
    description: 'The link in marketing email: unsubscribes the contact and answers a page with a re-subscribe button. The signed token is the credential.',
    success: { status: 200, description: 'The unsubscribed page', mediaType: 'text/html', schema: { type: 'string' } },
    rawResponses: [{ status: 400, description: 'The link is not valid', mediaType: 'text/html' }],
  },
  'POST /unsubscribe/{token}': {
    operationId: 'oneClickUnsubscribe',
    tag: 'Unsubscribe',
    summary: 'One-click unsubscribe (RFC 8058)',
    description: 'What mail clients POST for List-Unsubscribe-Post; the body is ignored.',
    success: { status: 200, description: 'Unsubscribed', mediaType: 'text/plain', schema: { type: 'string' } },
    rawResponses: [{ status: 400, description: 'The link is not valid', mediaType: 'text/plain' }],
  },
  'POST /unsubscribe/{token}/resubscribe': {
    operationId: 'resubscribe',
    tag: 'Unsubscribe',
    summary: 'Re-subscribe (browser)',
    success: { status: 200, description: 'The re-subscribed page', mediaType: 'text/html', schema: { type: 'string' } },
    rawResponses: [{ status: 400, description: 'The link is not valid', mediaType: 'text/html' }],
  },

  'GET /openapi.json': {
    operationId: 'getOpenApiDocument',
    tag: 'API contract',
    summary: 'This OpenAPI document',
    description: 'Generated from the code (route table, valibot schemas); no key needed. npm run client turns it into a typed TypeScript client.',
    success: { status: 200, description: 'The OpenAPI 3.1 document', mediaType: 'application/json', schema: { type: 'object', required: ['openapi', 'paths'] } },
  },
  'GET /docs': {
    operationId: 'getReferencePage',
    tag: 'API contract',
    summary: 'The API reference page',
    description: 'Renders this document with Scalar, served by the API itself (no CDN); "try it" sends requests to this API.',
    success: { status: 200, description: 'An HTML page', mediaType: 'text/html', schema: { type: 'string' } },
  },
  'GET /docs/scalar.js': {
    operationId: 'getReferenceScript',
    tag: 'API contract',
    summary: 'The reference page renderer',
    description: "Scalar's standalone bundle (@scalar/api-reference), loaded by GET /docs.",
    success: { status: 200, description: 'JavaScript', mediaType: 'text/javascript', schema: { type: 'string' } },
  },

  ...accountOperations,
  'GET /dashboard': {
    operationId: 'getDashboard',
    tag: 'Dashboard',
    summary: 'The web dashboard',
    description: 'The dashboard app (index.html, never cached); it signs in through the session routes and then calls this API like any client.',
    success: { status: 200, description: 'An HTML page', mediaType: 'text/html', schema: { type: 'string' } },
  },
  'GET /dashboard/{proxy+}': {
    operationId: 'getDashboardFile',
    tag: 'Dashboard',
    summary: 'A dashboard file or page',
    description: 'A built file of the app (hashed names, cached as immutable), or index.html for any page path without a file extension (client-side routing).',
    success: { status: 200, description: 'The file, or the app page', mediaType: 'text/html', schema: { type: 'string' } },
    errors: [{ status: 404, code: 'NOT_FOUND', when: 'A path with a file extension names no file of the app' }],
  },
};
