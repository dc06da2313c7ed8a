import { ulid } from 'ulid';
import { upsertContact } from '../contacts/contacts';
import { assertVerifiedSender } from '../domains/domains';
import { putEmails, type AttachmentRef, type EmailAddress, type EmailRecord } from '../emails/emails';
import { validationFailed } from '../http/errors';
import { attachmentKey, putPayload } from '../payloads/payloads';
import { markdownToHtml } from '../templates/markdown';
import { assertTemplateParses, renderMessage, templateHtml, templateView } from '../templates/render';
import { getTemplate, type Template } from '../templates/templates';
import { enqueueEmails } from './send-queue';
import type { Address, SendRequest } from './schemas';

export interface SentEmail {
  contact: { id: string; email: string };
  email: string;
}

export interface SendResult {
  emails: SentEmail[];
  timestamp: string;
}

const UPSERT_CONCURRENCY = 8;

/**
 * POST /v1/send: resolves the template, checks the sender domain, upserts one contact per
 * recipient, renders per recipient, stores one email record each, and queues one message each.
 * The request's subject, body, from and reply override the template's.
 */
export async function sendTransactional(projectId: string, request: SendRequest): Promise<SendResult> {
  const template = request.template ? await getTemplate(projectId, request.template) : undefined;
  const subject = request.subject ?? template!.subject;
  const body = request.body !== undefined && request.type === 'markdown' ? markdownToHtml(request.body) : request.body;
  // The template's body in its own format (Markdown becomes HTML); the request's `type` is for its own body.
  const html = body ?? templateHtml(template!);
  // A body given without a text replaces the template's text too: the text part is then made from it.
  const text = request.text ?? (body === undefined ? template?.text : undefined);
  assertTemplateParses({ subject: request.subject, body, text: request.text });
  const from = resolveFrom(request, template);
  await assertVerifiedSender(projectId, from.email);

  const recipients = uniqueRecipients(request.to);
  const contacts = await mapWithLimit(recipients, UPSERT_CONCURRENCY, (recipient) =>
    upsertContact(projectId, recipient.email, { subscribed: request.subscribed }, false).then((result) => result.contact),
  );
  const sendId = ulid();
  const attachments = await storeAttachments(projectId, sendId, request.attachments ?? []);
  const now = new Date().toISOString();
  const replyTo = request.reply ?? template?.replyTo ?? undefined;

  const records: EmailRecord[] = recipients.map((recipient, index) => {
    const contact = contacts[index]!;
    const rendered = renderMessage({ subject, html, text }, templateView(request.data ?? {}, contact));
    return {
      id: ulid(),
      projectId,
      contactId: contact.id,
      to: recipient,
      from,
      replyTo: replyTo ? [replyTo] : [],
      subject: rendered.subject,
      html: rendered.html,
      text: rendered.text,
      headers: Object.entries(request.headers ?? {}).map(([name, value]) => ({ name, value })),
      attachments,
      source: { type: 'transactional', ...(template ? { id: template.id } : {}) },
      marketing: template?.type === 'MARKETING',
      status: 'QUEUED',
      createdAt: now,
      updatedAt: now,
    };
  });
  await putEmails(records);
  await enqueueEmails(records.map((record) => ({ projectId, emailId: record.id })));

  return {
    emails: records.map((record, index) => ({ contact: { id: contacts[index]!.id, email: contacts[index]!.email }, email: record.id })),
    timestamp: now,
  };
}

function resolveFrom(request: SendRequest, template: Template | undefined): EmailAddress {
  const given = request.from === undefined ? undefined : toAddress(request.from);
  const base = given ?? template?.from ?? undefined;
  if (!base) {
    throw validationFailed([{ field: 'from', code: 'REQUIRED', message: 'from is required unless the template has a from address' }]);
  }
  const name = request.name ?? base.name;
  return name ? { email: base.email, name } : { email: base.email };
}

const toAddress = (address: Address): EmailAddress => (typeof address === 'string' ? { email: address } : address.name ? { email: address.email, name: address.name } : { email: address.email });

/** Duplicates (by email, after lower-casing) collapse to the first occurrence. */
function uniqueRecipients(to: SendRequest['to']): EmailAddress[] {
  const seen = new Map<string, EmailAddress>();
  for (const address of [to].flat().map(toAddress)) if (!seen.has(address.email)) seen.set(address.email, address);
  return [...seen.values()];
}

async function storeAttachments(projectId: string, sendId: string, attachments: NonNullable<SendRequest['attachments']>): Promise<AttachmentRef[]> {
  return Promise.all(
    attachments.map(async (attachment, index) => {
      const content = Buffer.from(attachment.content, 'base64');
      const key = attachmentKey(projectId, sendId, index);
      await putPayload(key, content, attachment.contentType);
      return { key, filename: attachment.filename, contentType: attachment.contentType, size: content.length };
    }),
  );
}

async function mapWithLimit<T, R>(items: T[], limit: number, map: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await map(items[index]!);
    }
  });
  await Promise.all(workers);
  return results;
}

