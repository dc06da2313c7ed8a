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

export const renderedTemplateSchema = v.pipe(
  v.strictObject({
    subject: v.pipe(v.string(), v.examples(['Welcome, Jane'])),
    html: v.pipe(v.string(), v.description('The HTML part as it would be sent'), v.examples(['<p>Hello Jane</p>'])),
    text: v.pipe(v.string(), v.description('The plain-text part as it would be sent (given, or made from the HTML)'), v.examples(['Hello Jane'])),
    previewUrl: v.pipe(v.string(), v.description('Serves `html` as its own document, without credentials, until previewExpiresAt (at most 15 minutes)'), v.examples(['https://api.example.com/templates/previews/4VxJ1rY0b7cQk1W3oQe8u9m2XnZ5sT6a'])),
    previewExpiresAt: isoDateTimeSchema,
  }),
  v.title('RenderedTemplate'),
);
