import * as v from 'valibot';
import { idSchema, isoDateTimeSchema } from '../http/responses';
import { emailSourceTypes, emailStatuses, type EmailRecord } from './emails';

const nullableTime = v.nullable(isoDateTimeSchema);

const summaryEntries = {
  id: idSchema,
  to: v.pipe(v.string(), v.description('The recipient address'), v.examples(['ada@example.com'])),
  contactId: v.pipe(v.string(), v.description('The recipient contact (`sample` for a test send to an address that is no contact)')),
  subject: v.string(),
  source: v.picklist(emailSourceTypes),
  sourceId: v.pipe(v.nullable(v.string()), v.description('The campaign (campaign and test mail) or workflow (workflow mail) it belongs to')),
  templateId: v.pipe(v.nullable(v.string()), v.description('The template a transactional send used')),
  status: v.picklist(emailStatuses),
  failureReason: v.pipe(v.nullable(v.string()), v.description('Why it bounced, was refused, failed, suppressed or cancelled')),
  sesMessageId: v.nullable(v.string()),
  createdAt: v.pipe(isoDateTimeSchema, v.description('When it was queued')),
  sentAt: nullableTime,
  deliveredAt: nullableTime,
  updatedAt: isoDateTimeSchema,
};

export const emailSummaryResponseSchema = v.pipe(v.strictObject(summaryEntries), v.title('EmailSummary'));

export const timelineTypes = ['queued', 'sent', 'delivered', 'delayed', 'bounced', 'complained', 'opened', 'clicked', 'rejected', 'failed', 'suppressed', 'cancelled'] as const;
export type TimelineType = (typeof timelineTypes)[number];

export const timelineEntrySchema = v.pipe(
  v.strictObject({
    type: v.picklist(timelineTypes),
    at: isoDateTimeSchema,
    eventId: v.pipe(v.nullable(idSchema), v.description('The contact event it comes from (null for `queued`)')),
    data: v.pipe(v.record(v.string(), v.unknown()), v.description('What happened: bounceType, bounceSubType, diagnosticCode (bounced); link (clicked); feedbackType (complained); reason (failed, rejected, suppressed)')),
  }),
  v.title('EmailTimelineEntry'),
);

export const emailResponseSchema = v.pipe(
  v.strictObject({
    ...summaryEntries,
    from: v.strictObject({ email: v.string(), name: v.optional(v.string()) }),
    replyTo: v.array(v.string()),
    headers: v.array(v.strictObject({ name: v.string(), value: v.string() })),
    html: v.pipe(v.string(), v.description('The rendered HTML as sent (show it in a sandboxed frame)')),
    text: v.pipe(v.nullable(v.string()), v.description('The plain-text part as sent (null for mail queued before text parts existed)')),
    timeline: v.pipe(v.array(timelineEntrySchema), v.description('queued, then the email\'s events in time order')),
    timelineTruncated: v.pipe(v.boolean(), v.description('More events than the timeline holds (the first 500)')),
  }),
  v.title('Email'),
);

export type EmailSummary = v.InferOutput<typeof emailSummaryResponseSchema>;
export type EmailDetail = v.InferOutput<typeof emailResponseSchema>;

type ListedRecord = Pick<EmailRecord, 'id' | 'to' | 'contactId' | 'subject' | 'source' | 'status' | 'createdAt' | 'updatedAt' | 'sentAt' | 'deliveredAt' | 'sesMessageId' | 'failureReason'>;

export function presentSummary(record: ListedRecord): EmailSummary {
  const transactional = record.source.type === 'transactional';
  return {
    id: record.id,
    to: record.to.email,
    contactId: record.contactId,
    subject: record.subject,
    source: record.source.type,
    sourceId: transactional ? null : (record.source.id ?? null),
    templateId: transactional ? (record.source.id ?? null) : null,
    status: record.status,
    failureReason: record.failureReason ?? null,
    sesMessageId: record.sesMessageId || null,
    createdAt: record.createdAt,
    sentAt: record.sentAt ?? null,
    deliveredAt: record.deliveredAt ?? null,
    updatedAt: record.updatedAt,
  };
}
