import * as v from 'valibot';
import { emailSchema } from '../contacts/schemas';
import { textSchema } from '../templates/schemas';

/** The limits of POST /v1/send, documented in the README ("Sending"). */
export const sendLimits = {
  maxRecipients: 50,
  maxAttachments: 10,
  maxAttachmentBytes: 10 * 1024 * 1024,
  maxHeaders: 20,
  maxBodyBytes: 200 * 1024,
  maxDataBytes: 64 * 1024,
} as const;

/** Headers the service writes itself, or that would let a caller forge identity or routing. */
const OWNED_HEADERS = new Set([
  'from', 'to', 'cc', 'bcc', 'subject', 'reply-to', 'sender', 'return-path', 'date', 'message-id', 'mime-version',
  'list-unsubscribe', 'list-unsubscribe-post', 'received', 'dkim-signature', 'feedback-id', 'content-type',
  'content-transfer-encoding', 'content-disposition',
]);
const OWNED_PREFIXES = ['content-', 'dkim-', 'x-ses-', 'arc-'];

const noLineBreaks = (label: string) => v.regex(/^[^\r\n]*$/, `${label} must not contain line breaks`);

const displayName = v.pipe(v.string('name must be a string'), v.trim(), v.maxLength(200, 'name must be at most 200 characters'), noLineBreaks('name'));

export const addressSchema = v.union(
  [emailSchema, v.object({ name: v.optional(displayName), email: emailSchema })],
  'must be an email address or { name, email }',
);

const headerName = v.pipe(
  v.string(),
  v.regex(/^[!-9;-~]{1,126}$/, 'header names are 1–126 printable ASCII characters without ":"'),
  v.check((name) => !OWNED_HEADERS.has(name.toLowerCase()) && !OWNED_PREFIXES.some((prefix) => name.toLowerCase().startsWith(prefix)), 'this header is set by the service and cannot be overridden'),
);

const headersSchema = v.pipe(
  v.record(headerName, v.pipe(v.string('header values must be strings'), v.maxLength(995, 'header values are at most 995 characters'), noLineBreaks('header values'))),
  v.check((headers) => Object.keys(headers).length <= sendLimits.maxHeaders, `at most ${sendLimits.maxHeaders} headers`),
);

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

const attachmentSchema = v.object({
  filename: v.pipe(v.string('filename must be a string'), v.trim(), v.minLength(1, 'filename is required'), v.maxLength(255, 'filename is at most 255 characters'), v.regex(/^[^\r\n\\/"]+$/, 'filename must not contain line breaks, quotes or slashes')),
  content: v.pipe(
    v.string('content must be a base64 string'),
    v.transform((content) => content.replace(/\s+/g, '')),
    v.minLength(1, 'content must not be empty'),
    v.regex(BASE64, 'content must be valid base64'),
  ),
  contentType: v.optional(v.pipe(v.string(), v.regex(/^[\w.+-]+\/[\w.+-]+$/, 'contentType must be a MIME type such as application/pdf')), 'application/octet-stream'),
});

export const sendRequestSchema = v.pipe(
  v.object({
    to: v.union([addressSchema, v.pipe(v.array(addressSchema), v.minLength(1, 'to must not be empty'), v.maxLength(sendLimits.maxRecipients, `at most ${sendLimits.maxRecipients} recipients`))], 'to must be an email address, { name, email }, or an array of them'),
    subject: v.optional(v.pipe(v.string('subject must be a string'), v.minLength(1, 'subject must not be empty'), v.maxLength(998, 'subject is at most 998 characters'), noLineBreaks('subject'))),
    body: v.optional(v.pipe(v.string('body must be a string'), v.minLength(1, 'body must not be empty'), v.check((body) => Buffer.byteLength(body) <= sendLimits.maxBodyBytes, `body is at most ${sendLimits.maxBodyBytes / 1024} KB`))),
    /** The plain-text part (Resend's `text`, Postmark's `TextBody`); without it, it is made from the HTML. */
    text: v.optional(textSchema),
    /** How `body` is written: HTML (default) or Markdown, rendered to HTML with raw HTML escaped. */
    type: v.optional(v.picklist(['html', 'markdown'], 'type must be html or markdown'), 'html'),
    template: v.optional(v.pipe(v.string('template must be a template id'), v.minLength(1))),
    from: v.optional(addressSchema),
    name: v.optional(displayName),
    subscribed: v.optional(v.boolean('subscribed must be a boolean')),
    data: v.optional(v.pipe(v.record(v.string(), v.unknown(), 'data must be an object'), v.check((data) => Buffer.byteLength(JSON.stringify(data)) <= sendLimits.maxDataBytes, `data is at most ${sendLimits.maxDataBytes / 1024} KB as JSON`))),
    headers: v.optional(headersSchema),
    reply: v.optional(emailSchema),
    attachments: v.optional(
      v.pipe(
        v.array(attachmentSchema, 'attachments must be an array'),
        v.maxLength(sendLimits.maxAttachments, `at most ${sendLimits.maxAttachments} attachments`),
        v.check((items) => items.reduce((sum, item) => sum + decodedLength(item.content), 0) <= sendLimits.maxAttachmentBytes, 'attachments are at most 10 MB in total'),
      ),
    ),
  }),
  v.forward(
    v.check((input) => input.template !== undefined || input.subject !== undefined, 'subject is required when no template is given'),
    ['subject'],
  ),
  v.forward(
    v.check((input) => input.template !== undefined || input.body !== undefined, 'body is required when no template is given'),
    ['body'],
  ),
);

export type SendRequest = v.InferOutput<typeof sendRequestSchema>;
export type Address = v.InferOutput<typeof addressSchema>;

export function decodedLength(base64: string): number {
  return Math.floor((base64.length * 3) / 4) - (base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0);
}
