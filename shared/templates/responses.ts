import * as v from 'valibot';
import { idSchema, isoDateTimeSchema } from '../http/responses';
import { templateTypes } from './schemas';

export const templateResponseSchema = v.pipe(
  v.strictObject({
    id: idSchema,
    name: v.pipe(v.string(), v.examples(['Welcome'])),
    subject: v.pipe(v.string(), v.examples(['Welcome, {{firstName}}'])),
    body: v.pipe(v.string(), v.description('HTML with {{mustache}} variables'), v.examples(['<p>Hello {{firstName}}</p>'])),
    text: v.pipe(v.nullable(v.string()), v.description('The plain-text part with {{mustache}} variables; null: made from the rendered body'), v.examples(['Hello {{firstName}}'])),
    type: v.picklist(templateTypes),
    from: v.nullable(v.strictObject({ name: v.optional(v.string()), email: v.pipe(v.string(), v.email()) })),
    replyTo: v.nullable(v.pipe(v.string(), v.email())),
    createdAt: isoDateTimeSchema,
    updatedAt: isoDateTimeSchema,
  }),
  v.title('Template'),
);
