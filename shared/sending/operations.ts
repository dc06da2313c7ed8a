import type { OperationDoc } from '../http/operation-doc';
import { sendResponseSchema } from './responses';
import { sendRequestSchema } from './schemas';

/** The OpenAPI entries of the transactional sending route, keyed by route key ('METHOD /path'). */
export const sendingOperations: Record<string, OperationDoc> = {
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
};
