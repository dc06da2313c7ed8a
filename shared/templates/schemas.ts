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

export type CreateTemplateInput = v.InferOutput<typeof createTemplateSchema>;
export type TemplateChanges = v.InferOutput<typeof patchTemplateSchema>;
export type ListTemplatesQuery = v.InferOutput<typeof listTemplatesQuerySchema>;
