import { concurrentModificationCase, type ErrorCase, notFoundCase, type OperationDoc } from '../http/operation-doc';
import { deletedSchema, pageSchema } from '../http/responses';
import { templateResponseSchema } from './responses';
import { createTemplateSchema, listTemplatesQuerySchema, patchTemplateSchema } from './schemas';

const invalidTemplate: ErrorCase = { status: 422, code: 'VALIDATION_ERROR', when: 'Fields fail validation, or subject/body/text is not a valid template (field code INVALID_TEMPLATE, with the `line` of the field where parsing failed)' };

/** The OpenAPI entries of the template routes, keyed by route key ('METHOD /path'). */
export const templateOperations: Record<string, OperationDoc> = {
  'POST /templates': {
    operationId: 'createTemplate',
    tag: 'Templates',
    summary: 'Create a template',
    description:
      'Subject, body and the optional plain-text part (`text`) accept `{{mustache}}` variables, filled from the data of a send (see Templates). `name` 1–200 characters; `subject` 1–998, no line breaks; `body` up to 200 KB, HTML or Markdown as `format` says (`html`, the default, or `markdown`: GitHub-flavoured, raw HTML in it escaped, `{{variables}}` kept — rendered to HTML exactly as the `type: "markdown"` of `POST /v1/send` is, wherever the template is sent: `/v1/send` with `template`, campaigns with `templateId`, workflow send steps, test sends); `text` up to 100 KB (`null`: the text part is made from the rendered body); `type` `TRANSACTIONAL` or `MARKETING` (campaigns take only MARKETING templates); `from` (`"a@b.com"` or `{ name, email }`) and `replyTo`. A subject, body or text that does not parse is a 422 (field code `INVALID_TEMPLATE`) now, not at send time; the `from` domain is checked when sending.',
    body: createTemplateSchema,
    bodyExample: { name: 'Welcome', subject: 'Welcome, {{firstName}}', body: '<p>Hello {{firstName}}</p>', format: 'html', type: 'TRANSACTIONAL', from: { name: 'Acme', email: 'hello@mail.example.com' } },
    success: { status: 201, description: 'The template', data: templateResponseSchema },
    errors: [invalidTemplate],
  },
  'GET /templates': {
    operationId: 'listTemplates',
    tag: 'Templates',
    summary: 'List templates',
    description: 'Cursor pagination; `type` filters, and `total` follows it.',
    query: listTemplatesQuerySchema,
    success: { status: 200, description: 'A page of templates', data: pageSchema(templateResponseSchema) },
  },
  'GET /templates/{id}': {
    operationId: 'getTemplate',
    tag: 'Templates',
    summary: 'Get a template',
    description:
      'The template as stored: subject, body (in its `format`) and text with their `{{variables}}`, type, from and reply-to.',
    success: { status: 200, description: 'The template', data: templateResponseSchema },
    errors: [notFoundCase('template')],
  },
  'PATCH /templates/{id}': {
    operationId: 'updateTemplate',
    tag: 'Templates',
    summary: 'Update a template',
    description:
      'The given fields replace the stored ones; `text: null`, `from: null` and `replyTo: null` remove them. Emails already queued keep what they were rendered with.',
    body: patchTemplateSchema,
    bodyExample: { subject: 'Welcome aboard, {{firstName}}' },
    success: { status: 200, description: 'The updated template', data: templateResponseSchema },
    errors: [notFoundCase('template'), invalidTemplate, concurrentModificationCase],
  },
  'DELETE /templates/{id}': {
    operationId: 'deleteTemplate',
    tag: 'Templates',
    summary: 'Delete a template',
    description:
      'Emails already queued are not touched (each holds its own rendered subject and body); sends that name the template afterwards get 404.',
    success: { status: 200, description: 'Deleted', data: deletedSchema },
    errors: [notFoundCase('template'), concurrentModificationCase],
  },
};
