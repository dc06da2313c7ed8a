import * as v from 'valibot';
import { idSchema, isoDateTimeSchema } from '../http/responses';
import { templateFormats, templateTypes } from './schemas';

export const templateResponseSchema = v.pipe(
  v.strictObject({
    id: idSchema,
    name: v.pipe(v.string(), v.examples(['Welcome'])),
    subject: v.pipe(v.string(), v.examples(['Welcome, {{firstName}}'])),
    body: v.pipe(v.string(), v.description('HTML (or Markdown, per format) with {{mustache}} variables'), v.examples(['<p>Hello {{firstName}}</p>'])),
    format: v.pipe(v.picklist(templateFormats), v.description('How body is written: html, or markdown (rendered to HTML when sent)')),
    text: v.pipe(v.nullable(v.string()), v.description('The plain-text part with {{mustache}} variables; null: made from the rendered body'), v.examples(['Hello {{firstName}}'])),
    type: v.picklist(templateTypes),
    from: v.nullable(v.strictObject({ name: v.optional(v.string()), email: v.pipe(v.string(), v.email()) })),
    replyTo: v.nullable(v.pipe(v.string(), v.email())),
    createdAt: isoDateTimeSchema,
    updatedAt: isoDateTimeSchema,
  }),
  v.title('Template'),
);
