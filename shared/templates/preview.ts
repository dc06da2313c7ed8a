import { createHash, randomBytes } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../aws/clients';
import { requiredEnv } from '../config/env';
import { variables } from '../config/variables';
import { findContactIdByEmail, getContact } from '../contacts/contacts';
import { tableName } from '../db/table';
import { ApiError, validationFailed } from '../http/errors';
import { templateKeys } from './keys';
import { withUnsubscribeLink } from './plain-text';
import { renderMessage, templateErrors, templateHtml, templateView } from './render';
import type { RenderTemplateInput, TemplateFormat, TemplateType } from './schemas';
import { getTemplate } from './templates';

/**
 * POST /templates/render and the preview documents it links: a template (saved or a draft)
 * rendered exactly as sending renders it — the same renderer and escaping (render.ts), the same
 * Markdown (templateHtml), the generated text part, the unsubscribe link of MARKETING mail — and
 * kept for a short while behind an unguessable URL that serves the HTML as its own document.
 */
const config = {
  publicApiUrl: requiredEnv(variables.publicApiUrl).replace(/\/+$/, ''),
};

/** How long a preview URL serves its document (the bound: 15 minutes). */
export const PREVIEW_LIFETIME_SECONDS = 15 * 60;
/** 192 random bits, base64url: 32 characters. */
const TOKEN_BYTES = 24;
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{32}$/;
/** A DynamoDB item is at most 400 KB; the gzipped HTML stays well below it. */
const MAX_STORED_BYTES = 350 * 1024;

export interface RenderedTemplate {
  subject: string;
  html: string;
  text: string;
  previewUrl: string;
  previewExpiresAt: string;
}

interface Source {
  subject: string;
  body: string;
  text: string | null;
  format: TemplateFormat;
  type: TemplateType;
}

/**
 * Renders for `data` and the contact named by `contactId` or `email` (an address that is no
 * contact renders with no contact data, as POST /v1/send's new contact would; neither: `{{email}}`
 * and `{{contact.*}}` render empty). MARKETING mail gets `{{unsubscribeUrl}}` and the text part's
 * unsubscribe line as sending adds them, but pointing at a stand-in link (`/unsubscribe/preview`)
 * that unsubscribes nobody: a preview never acts. 422 INVALID_TEMPLATE names each field that does
 * not parse with its line.
 */
export async function renderTemplate(projectId: string, input: RenderTemplateInput, options: { lifetimeSeconds?: number; now?: Date } = {}): Promise<RenderedTemplate> {
  const source = await sourceOf(projectId, input);
  const errors = templateErrors(source, source.format);
  if (errors.length > 0) {
    throw new ApiError(422, 'INVALID_TEMPLATE', 'The template does not parse', { errors, suggestion: 'Fix the fields listed in errors at their line and try again.' });
  }
  const contact = await contactOf(projectId, input);
  const marketing = source.type === 'MARKETING';
  const unsubscribe = marketing ? `${config.publicApiUrl}/unsubscribe/preview` : undefined;
  const rendered = renderMessage(
    { subject: source.subject, html: templateHtml(source), text: source.text },
    templateView({ ...(input.data ?? {}), ...(unsubscribe ? { unsubscribeUrl: unsubscribe } : {}) }, contact),
  );
  const text = unsubscribe ? withUnsubscribeLink(rendered.text, unsubscribe) : rendered.text;
  const { token, expiresAt } = await storePreview(projectId, rendered.html, options.lifetimeSeconds ?? PREVIEW_LIFETIME_SECONDS, options.now ?? new Date());
  return { subject: rendered.subject, html: rendered.html, text, previewUrl: `${config.publicApiUrl}/templates/previews/${token}`, previewExpiresAt: expiresAt.toISOString() };
}

/** The HTML of a preview that has not expired, or undefined (unknown, malformed or expired: TTL deletion is lazy). */
export async function readPreview(token: string, now = new Date()): Promise<string | undefined> {
  if (!TOKEN_PATTERN.test(token)) return undefined;
  const { Item } = await documentClient.send(new GetCommand({ TableName: tableName, Key: templateKeys.preview(hashToken(token)) }));
  if (!Item || typeof Item.expiresAt !== 'number' || Item.expiresAt * 1000 <= now.getTime()) return undefined;
  return gunzipSync(Item.html as Uint8Array).toString('utf8');
}

async function sourceOf(projectId: string, input: RenderTemplateInput): Promise<Source> {
  if (input.templateId !== undefined) {
    const template = await getTemplate(projectId, input.templateId);
    return { subject: template.subject, body: template.body, text: template.text, format: template.format, type: template.type };
  }
  return { subject: input.subject!, body: input.body!, text: input.text ?? null, format: input.format ?? 'html', type: input.type ?? 'TRANSACTIONAL' };
}

async function contactOf(projectId: string, input: RenderTemplateInput): Promise<{ id: string; email: string; data: Record<string, unknown> }> {
  if (input.contactId !== undefined) {
    const contact = await getContact(projectId, input.contactId).catch((error: unknown) => {
      if (error instanceof ApiError && error.statusCode === 404) throw validationFailed([{ field: 'contactId', code: 'NOT_FOUND', message: 'No contact with this id' }]);
      throw error;
    });
    return { id: contact.id, email: contact.email, data: contact.data };
  }
  if (input.email !== undefined) {
    const contactId = await findContactIdByEmail(projectId, input.email);
    const contact = contactId ? await getContact(projectId, contactId).catch(() => undefined) : undefined;
    return contact ? { id: contact.id, email: contact.email, data: contact.data } : { id: '', email: input.email, data: {} };
  }
  return { id: '', email: '', data: {} };
}

/** Only the token's hash is stored; the HTML gzipped (a 200 KB body fits an item). */
async function storePreview(projectId: string, html: string, lifetimeSeconds: number, now: Date): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(TOKEN_BYTES).toString('base64url');
  const compressed = gzipSync(Buffer.from(html, 'utf8'));
  if (compressed.length > MAX_STORED_BYTES) throw validationFailed([{ field: 'body', code: 'TOO_LARGE', message: 'The rendered HTML is too large to preview' }]);
  const expiresAt = new Date(Math.floor(now.getTime() / 1000) * 1000 + Math.min(lifetimeSeconds, PREVIEW_LIFETIME_SECONDS) * 1000);
  await documentClient.send(
    new PutCommand({
      TableName: tableName,
      Item: { ...templateKeys.preview(hashToken(token)), projectId, html: compressed, expiresAt: expiresAt.getTime() / 1000 },
    }),
  );
  return { token, expiresAt };
}

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * The preview document's headers: a sandbox with no script (the HTML runs nothing and, with an
 * opaque origin, reaches nothing of the API's or the dashboard's), inline styles, remote images and
 * fonts as a mail client shows them, framed only by this origin (the dashboard), never cached,
 * never sent as a referrer. COEP credentialless lets remote images load inside the dashboard
 * (which requires CORP of its frames' subresources otherwise).
 */
export const PREVIEW_POLICY = "sandbox; default-src 'none'; style-src 'unsafe-inline' *; img-src * data:; font-src * data:; base-uri 'none'; form-action 'none'; frame-ancestors 'self'";

const previewHeaders = {
  'Content-Type': 'text/html; charset=utf-8',
  'Content-Security-Policy': PREVIEW_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'SAMEORIGIN',
  'Cross-Origin-Embedder-Policy': 'credentialless',
  'Cache-Control': 'no-store',
  'Referrer-Policy': 'no-referrer',
};

export const previewPage = (html: string) => ({ statusCode: 200, headers: previewHeaders, body: html });

/** An unknown or expired preview: a plain 404 page, never a 500. */
export const previewNotFoundPage = () => ({
  statusCode: 404,
  headers: previewHeaders,
  body: '<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>Preview expired</title></head><body><p>This preview has expired or does not exist. Render the template again for a new one.</p></body></html>\n',
});
