import { assertVerifiedSender } from '../domains/domains';
import type { EmailAddress, EmailRecord } from '../emails/emails';
import { derivedUlid } from '../events/events';
import { ApiError, validationFailed } from '../http/errors';
import { withUnsubscribeLink } from '../templates/plain-text';
import { assertTemplateParses, renderMessage, templateHtml, templateView } from '../templates/render';
import type { Sender } from '../templates/schemas';
import { getTemplate, type Template } from '../templates/templates';
import { unsubscribeHeaders, unsubscribeUrl } from '../unsubscribe/token';
import type { Recipient } from './audience';

/** What a campaign sends, resolved from its own fields over its template's. */
export interface CampaignContent {
  subject: string;
  /** HTML with mustache variables. */
  html: string;
  /** The plain-text part with mustache variables; absent: made from the rendered HTML (and in content resolved before it existed). */
  text?: string;
  from: EmailAddress;
  replyTo: string | null;
}

export interface ContentFields {
  subject: string | null;
  body: string | null;
  text: string | null;
  templateId: string | null;
  from: Sender | null;
  replyTo: string | null;
}

/**
 * The campaign's content: its subject, body, from and replyTo, each falling back to the
 * template's (a MARKETING template). 422 when a part is missing or does not parse, 403 when the
 * sender's domain is not verified — the same rules as POST /v1/send.
 */
export async function resolveContent(projectId: string, fields: ContentFields): Promise<CampaignContent> {
  const template = fields.templateId ? await marketingTemplate(projectId, fields.templateId) : undefined;
  const subject = fields.subject ?? template?.subject;
  const html = fields.body ?? (template ? templateHtml(template) : undefined);
  // A body of its own replaces the template's text too: the text part is then made from that body.
  const text = fields.text ?? (fields.body ? undefined : template?.text) ?? undefined;
  const from = fields.from ?? template?.from ?? undefined;
  const missing = [
    ...(subject ? [] : [{ field: 'subject', code: 'REQUIRED', message: 'subject is required unless the template has one' }]),
    ...(html ? [] : [{ field: 'body', code: 'REQUIRED', message: 'body is required unless the template has one' }]),
    ...(from ? [] : [{ field: 'from', code: 'REQUIRED', message: 'from is required unless the template has a from address' }]),
  ];
  if (missing.length > 0) throw validationFailed(missing);
  assertTemplateParses({ subject, body: html, text });
  await assertVerifiedSender(projectId, from!.email);
  return { subject: subject!, html: html!, ...(text ? { text } : {}), from: from!.name ? { email: from!.email, name: from!.name } : { email: from!.email }, replyTo: fields.replyTo ?? template?.replyTo ?? null };
}

async function marketingTemplate(projectId: string, templateId: string): Promise<Template> {
  let template: Template;
  try {
    template = await getTemplate(projectId, templateId);
  } catch (error) {
    if (error instanceof ApiError && error.statusCode === 404) throw validationFailed([{ field: 'templateId', code: 'NOT_FOUND', message: 'No template with this id' }]);
    throw error;
  }
  if (template.type !== 'MARKETING') throw validationFailed([{ field: 'templateId', code: 'NOT_MARKETING', message: 'A campaign uses a MARKETING template' }]);
  return template;
}

/** The email id of a campaign's mail to a contact: the same on every redelivery of its fan-out page. */
export const campaignEmailId = (campaignId: string, contactId: string, sentAt: string) => derivedUlid(Date.parse(sentAt), `campaign#${campaignId}#${contactId}`);

/**
 * The email record of one recipient: rendered for the contact ({{contact.email}},
 * {{contact.data.*}}, {{unsubscribeUrl}}), marketing (only subscribed contacts get it), with the
 * one-click unsubscribe headers and the unsubscribe link in its text part; an A/B sample email
 * knows its variant.
 */
export function campaignEmail(projectId: string, campaign: { id: string; sentAt: string }, content: CampaignContent, recipient: Recipient, now: string, abVariant?: number): EmailRecord {
  const url = unsubscribeUrl({ projectId, contactId: recipient.id, campaignId: campaign.id });
  const rendered = renderMessage({ subject: content.subject, html: content.html, text: content.text }, templateView({ unsubscribeUrl: url }, recipient));
  return {
    id: campaignEmailId(campaign.id, recipient.id, campaign.sentAt),
    projectId,
    contactId: recipient.id,
    to: { email: recipient.email },
    from: content.from,
    replyTo: content.replyTo ? [content.replyTo] : [],
    subject: rendered.subject,
    html: rendered.html,
    text: withUnsubscribeLink(rendered.text, url),
    headers: unsubscribeHeaders(url),
    attachments: [],
    source: { type: 'campaign', id: campaign.id },
    marketing: true,
    status: 'QUEUED',
    createdAt: now,
    updatedAt: now,
    ...(abVariant !== undefined ? { abVariant } : {}),
  };
}
