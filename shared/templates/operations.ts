import { concurrentModificationCase, type ErrorCase, notFoundCase, type OperationDoc } from '../http/operation-doc';
import { deletedSchema, pageSchema } from '../http/responses';
import { previewQuerySchema } from './dark-mode';
import { renderedTemplateSchema, templateResponseSchema } from './responses';
import { createTemplateSchema, listTemplatesQuerySchema, patchTemplateSchema, renderTemplateSchema } from './schemas';

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
  'POST /templates/render': {
    operationId: 'renderTemplate',
    tag: 'Templates',
    summary: 'Render a template or a draft',
    description:
      'Renders a saved template (`templateId`) or a draft (`subject`, `body`, optional `text`, `format` and `type`) exactly as `POST /v1/send` or a campaign would send it: the same renderer and escaping (`{{var}}` HTML-escaped in the body, nothing escaped in subject and text), Markdown rendered as sending renders it, the plain-text part given or made from the HTML, and for MARKETING the `{{unsubscribeUrl}}` and the unsubscribe line of the text part — in a preview a stand-in link (`/unsubscribe/preview`) that unsubscribes nobody. `data` fills the variables; `contactId` or `email` renders as that contact (`{{contact.id}}`, `{{contact.email}}`, `{{contact.data.*}}`, `{{email}}`; an address that is no contact renders with no contact data, as a send to it would; neither: they render empty). Nothing is sent or saved but the preview.\n\n' +
      '`previewUrl` serves the rendered HTML without credentials, as its own document, until `previewExpiresAt` (15 minutes): its token is 192 random bits (only its hash is stored), and the document comes with `Content-Security-Policy: ' +
      "sandbox; default-src 'none'; style-src 'unsafe-inline' *; img-src * data:; font-src * data:; base-uri 'none'; form-action 'none'; frame-ancestors 'self'" +
      '` (no script runs; inline styles and remote images show as in a mail client; only this origin, the dashboard, may frame it), `X-Content-Type-Options: nosniff`, `Cache-Control: no-store` and `Referrer-Policy: no-referrer`. A subject, body or text that does not parse is a 422 `INVALID_TEMPLATE` whose `errors` give each such field with its `message` and `line`.',
    body: renderTemplateSchema,
    bodyExample: { subject: 'Welcome, {{firstName}}', body: '# Hello {{firstName}}\n\nYour plan: **{{contact.data.plan}}**', format: 'markdown', data: { firstName: 'Jane' }, email: 'jane@example.com' },
    success: { status: 200, description: 'The rendered subject, HTML and text, and the preview URL', data: renderedTemplateSchema },
    errors: [
      notFoundCase('template'),
      { status: 422, code: 'INVALID_TEMPLATE', when: 'The subject, body or text does not parse: `errors[]` has `{ field, code, message, line }` for each' },
      { status: 422, code: 'VALIDATION_ERROR', when: 'Fields fail validation; `contactId` names no contact (field code NOT_FOUND)' },
    ],
  },
  'GET /templates/previews/{token}': {
    operationId: 'getTemplatePreview',
    tag: 'Templates',
    summary: 'A rendered preview (no key)',
    description:
      'The HTML that `POST /templates/render` rendered, as its own document, for 15 minutes after rendering: no credentials, the random token is the only secret of the link. Served sandboxed without script (see `POST /templates/render` for its headers). An unknown or expired token is a 404 HTML page. `scheme=dark` serves the email as mail clients in dark mode that honour its own dark styles show it (Apple Mail, iOS Mail, Outlook for Mac): its `prefers-color-scheme: dark` rules on, its light ones off, and a dark colour scheme unless it declares itself light only (a frame cannot be told to prefer dark, so the document is changed instead).',
    query: previewQuerySchema,
    success: { status: 200, description: 'The rendered HTML', mediaType: 'text/html', schema: { type: 'string' } },
    rawResponses: [{ status: 404, description: 'Unknown or expired preview (an HTML page)', mediaType: 'text/html' }],
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
