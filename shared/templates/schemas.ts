import * as v from 'valibot';
import { pageQueryEntries } from '../http/pagination';
import { emailSchema } from '../contacts/schemas';

/** The limits on templates, documented in the README ("Templates"). */
export const templateLimits = {
  maxNameLength: 200,
  maxSubjectLength: 998,
  maxBodyBytes: 200 * 1024,
  maxTextBytes: 100 * 1024,
  maxFromNameLength: 200,
} as const;

export const templateTypes = ['TRANSACTIONAL', 'MARKETING'] as const;
export type TemplateType = (typeof templateTypes)[number];

/** How a template's body is written: HTML, or Markdown rendered to HTML as POST /v1/send's `type: "markdown"` is. */
export const templateFormats = ['html', 'markdown'] as const;
export type TemplateFormat = (typeof templateFormats)[number];

/** A sender: its display name is optional. */
export interface Sender {
  name?: string;
  email: string;
}

const NO_LINE_BREAKS = /^[^\r\n]*$/;

const nameSchema = v.pipe(
  v.string('name must be a string'),
  v.trim(),
  v.nonEmpty('name must not be empty'),
  v.maxLength(templateLimits.maxNameLength, `name must be at most ${templateLimits.maxNameLength} characters`),
);

/** A subject becomes a mail header: no line breaks (header injection), at most one header line. */
export const subjectSchema = v.pipe(
  v.string('subject must be a string'),
  v.nonEmpty('subject must not be empty'),
  v.maxLength(templateLimits.maxSubjectLength, `subject must be at most ${templateLimits.maxSubjectLength} characters`),
  v.regex(NO_LINE_BREAKS, 'subject must not contain line breaks'),
);

export const bodySchema = v.pipe(
  v.string('body must be a string'),
  v.nonEmpty('body must not be empty'),
  v.check((body) => Buffer.byteLength(body) <= templateLimits.maxBodyBytes, `body must be at most ${templateLimits.maxBodyBytes} bytes`),
);

/** The plain-text part, with the same variables as the body; without it, it is made from the HTML. */
export const textSchema = v.pipe(
  v.string('text must be a string'),
  v.nonEmpty('text must not be empty'),
  v.check((text) => Buffer.byteLength(text) <= templateLimits.maxTextBytes, `text must be at most ${templateLimits.maxTextBytes} bytes`),
  v.description('The plain-text part of the mail (multipart/alternative beside the HTML), with the same {{mustache}} variables, nothing escaped. Without it the text part is made from the rendered HTML: links as "text [url]", images dropped.'),
);

const typeSchema = v.picklist(templateTypes, 'type must be TRANSACTIONAL or MARKETING');

export const formatSchema = v.pipe(
  v.picklist(templateFormats, 'format must be html or markdown'),
  v.description('How `body` is written: `html` (default) or `markdown` (GitHub-flavoured; raw HTML in it is escaped, `{{variables}}` kept), rendered to HTML wherever the template is sent.'),
);

const senderNameSchema = v.pipe(
  v.string('from.name must be a string'),
  v.trim(),
  v.maxLength(templateLimits.maxFromNameLength, `from.name must be at most ${templateLimits.maxFromNameLength} characters`),
  v.regex(NO_LINE_BREAKS, 'from.name must not contain line breaks'),
);

/** `from` is an email or { name?, email }; either way the output is a Sender (an empty name is dropped). */
export const senderSchema = v.pipe(
  v.union([emailSchema, v.object({ name: v.optional(senderNameSchema), email: emailSchema })], 'from must be an email address or an object { name, email }'),
  v.transform((from): Sender => {
    if (typeof from === 'string') return { email: from };
    return from.name ? { name: from.name, email: from.email } : { email: from.email };
  }),
);

export const createTemplateSchema = v.object({
  name: nameSchema,
  subject: subjectSchema,
  body: bodySchema,
  format: v.optional(formatSchema, 'html'),
  text: v.optional(textSchema),
  type: typeSchema,
  from: v.optional(senderSchema),
  replyTo: v.optional(emailSchema),
});

/** PATCH: every field optional, at least one given; `text`, `from` and `replyTo` null remove them. */
export const patchTemplateSchema = v.pipe(
  v.object({
    name: v.optional(nameSchema),
    subject: v.optional(subjectSchema),
    body: v.optional(bodySchema),
    format: v.optional(formatSchema),
    text: v.optional(v.nullable(textSchema)),
    type: v.optional(typeSchema),
    from: v.optional(v.nullable(senderSchema)),
    replyTo: v.optional(v.nullable(emailSchema)),
  }),
  v.check((changes) => Object.values(changes).some((value) => value !== undefined), 'give at least one of name, subject, body, format, text, type, from, replyTo'),
);

export const listTemplatesQuerySchema = v.object({
  ...pageQueryEntries,
  type: v.optional(typeSchema),
});

/** The largest `data` of a render, as for POST /v1/send. */
const MAX_RENDER_DATA_BYTES = 64 * 1024;

/**
 * POST /templates/render: a saved template (`templateId`) or a draft (`subject`, `body`, and
 * optionally `text`, `format`, `type`), with optional `data` and optionally the contact to render
 * as (`contactId` or `email`).
 */
export const renderTemplateSchema = v.pipe(
  v.object({
    templateId: v.optional(v.pipe(v.string('templateId must be a template id'), v.minLength(1, 'templateId must not be empty'))),
    subject: v.optional(subjectSchema),
    body: v.optional(bodySchema),
    text: v.optional(v.nullable(textSchema)),
    format: v.optional(formatSchema),
    type: v.optional(v.pipe(typeSchema, v.description('A draft\'s type (default TRANSACTIONAL): MARKETING adds the unsubscribe link as sending does'))),
    data: v.optional(
      v.pipe(
        v.record(v.string(), v.unknown(), 'data must be an object'),
        v.check((data) => Buffer.byteLength(JSON.stringify(data)) <= MAX_RENDER_DATA_BYTES, `data is at most ${MAX_RENDER_DATA_BYTES / 1024} KB as JSON`),
        v.description('The variables of the send, as `data` of POST /v1/send'),
      ),
    ),
    contactId: v.optional(v.pipe(v.string('contactId must be a contact id'), v.minLength(1, 'contactId must not be empty'), v.description('Render as this contact: {{contact.*}} and {{email}}'))),
    email: v.optional(v.pipe(emailSchema, v.description('Render as the contact of this address (its data when it is one, none otherwise, as POST /v1/send would)'))),
  }),
  v.forward(
    v.check((input) => input.templateId === undefined || [input.subject, input.body, input.text, input.format, input.type].every((field) => field === undefined), 'give templateId or a draft (subject, body, text, format, type), not both'),
    ['templateId'],
  ),
  v.forward(v.check((input) => input.templateId !== undefined || input.subject !== undefined, 'subject is required unless templateId is given'), ['subject']),
  v.forward(v.check((input) => input.templateId !== undefined || input.body !== undefined, 'body is required unless templateId is given'), ['body']),
  v.forward(v.check((input) => input.contactId === undefined || input.email === undefined, 'give contactId or email, not both'), ['email']),
);

export type RenderTemplateInput = v.InferOutput<typeof renderTemplateSchema>;
export type CreateTemplateInput = v.InferOutput<typeof createTemplateSchema>;
export type TemplateChanges = v.InferOutput<typeof patchTemplateSchema>;
export type ListTemplatesQuery = v.InferOutput<typeof listTemplatesQuerySchema>;
