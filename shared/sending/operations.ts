import type { OperationDoc } from '../http/operation-doc';
import { sendResponseSchema } from './responses';
import { sendRequestSchema } from './schemas';

/** The OpenAPI entries of the transactional sending route, keyed by route key ('METHOD /path'). */
export const sendingOperations: Record<string, OperationDoc> = {
  'POST /v1/send': {
    operationId: 'sendEmail',
    tag: 'Sending',
    summary: 'Send transactional email',
    description: [
      'Queues one email per recipient and answers at once with their ids: `emails: [{ contact: { id, email }, email: <email id> }]`.',
      '- **to**: an address, `{ name, email }`, or an array of up to 50; duplicates (case-insensitive) collapse. Each recipient\'s contact is created (with `subscribed`, default false) or updated (its flag changes only when `subscribed` is given); `data` never changes the contact.',
      '- **Content**: `subject` and `body`, or a `template` (its subject, body, text, from and reply-to are used unless the request gives them; a request `body` without a `text` drops the template\'s text). `type: "markdown"` renders the body as Markdown (GitHub-flavoured; raw HTML in it is escaped, `{{variables}}` kept). `text` is the plain-text part (up to 100 KB, the same variables, nothing escaped); without it the text is the template\'s, or made from the rendered HTML. `data` fills the variables (up to 64 KB).',
      '- **from**: an address or `{ name, email }`, required unless the template has one; its domain must be, or be a subdomain of, a VERIFIED domain of the project (else 403 `FROM_DOMAIN_NOT_VERIFIED`). `reply` sets Reply-To.',
      '- **headers**: up to 20, names of printable ASCII, values up to 995 characters, no CR/LF. Headers the service owns are refused with 422: From, To, Cc, Bcc, Subject, Reply-To, Sender, Return-Path, Date, Message-ID, MIME-Version, Received, List-Unsubscribe(-Post), Feedback-ID, and any Content-*, DKIM-*, ARC-*, X-SES-*.',
      '- **attachments**: up to 10 of `{ filename, content (base64), contentType? }`, 10 MB decoded in all; bad base64 is a 422.',
      '- **Size**: bodies up to 6,000,000 bytes (Lambda\'s request cap), else 413; base64 makes attachments 4/3 larger, so about 4.4 MB of attachments fit. Bodies over 10 MB are refused by the gateway with its own enveloped error.',
      '- **Idempotency-Key** (1–255 visible ASCII): the same key with the same body within 24 h answers the first response again (`Idempotent-Replayed: true`) and sends nothing; with another body it is a 409 `IDEMPOTENCY_KEY_REUSED`; while the first is still running, 409 `IDEMPOTENCY_KEY_IN_PROGRESS`. A request that fails frees its key.',
      '',
      'Sending is paced to the SES rate; suppressed addresses end `SUPPRESSED` without reaching SES. Follow each email with `GET /emails/{id}` or the `email.*` events.',
    ].join('\n'),
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
