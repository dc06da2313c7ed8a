import { randomUUID } from 'node:crypto';
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync } from 'node:zlib';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, UpdateCommand, type TransactWriteCommandInput, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { documentClient } from '../aws/clients';
import { batchWriteAll } from '../db/batch';
import { addToCounters } from '../db/counters';
import { tableName } from '../db/table';
import { updateIfStill, writeOnce } from '../db/transactions';
import { countMetric, metricNames } from '../observability/metrics';
import { emailKeys } from './keys';

/**
 * An email record: one per recipient of a send, campaign or workflow step, so each recipient's
 * outcome is recorded and counted on its own. Status moves QUEUED → SENDING → SENT → DELIVERED | BOUNCED | COMPLAINED, or to
 * FAILED | SUPPRESSED, or (campaign mail whose campaign was cancelled before it left) CANCELLED;
 * it never moves backwards, except that a claim given back returns SENDING → QUEUED (a retried
 * send; the mail of a PAUSED campaign, parked until it resumes).
 */
export const emailStatuses = ['QUEUED', 'SENDING', 'SENT', 'DELIVERED', 'BOUNCED', 'COMPLAINED', 'FAILED', 'SUPPRESSED', 'CANCELLED'] as const;
export type EmailStatus = (typeof emailStatuses)[number];

export const emailSourceTypes = ['transactional', 'campaign', 'workflow', 'test'] as const;
/** `test`: a campaign's test send (POST /campaigns/{id}/test), its id the campaign's. */
export type EmailSourceType = (typeof emailSourceTypes)[number];

export interface EmailAddress {
  email: string;
  name?: string;
}

export interface AttachmentRef {
  /** Object key in the payload bucket. */
  key: string;
  filename: string;
  contentType: string;
  size: number;
}

export interface EmailRecord {
  id: string;
  projectId: string;
  contactId: string;
  to: EmailAddress;
  from: EmailAddress;
  replyTo: string[];
  subject: string;
  html: string;
  /** The plain-text part beside the HTML (multipart/alternative); records queued before it existed have none. */
  text?: string;
  headers: { name: string; value: string }[];
  attachments: AttachmentRef[];
  source: { type: EmailSourceType; id?: string };
  /** Marketing mail goes only to subscribed contacts; transactional mail to any. */
  marketing: boolean;
  status: EmailStatus;
  sesMessageId?: string;
  failureReason?: string;
  createdAt: string;
  updatedAt: string;
  sentAt?: string;
  deliveredAt?: string;
  /** While SENDING: until when the sender that claimed it owns it (a crash frees it after). */
  leaseUntil?: number;
  /** A campaign's A/B sample mail: the index of its subject variant (shared/campaigns/ab-test.ts). */
  abVariant?: number;
  /** The claim that is sending it or last sent it (claimEmail). */
  claimToken?: string;
  /** How the sender ended it, and the id of the contact event that tells it (shared/delivery/outcomes.ts recordSendEnd). */
  sendEnd?: SendEndMark;
  /** The id of the email.delivered event that moved it to DELIVERED (shared/delivery/ses-events.ts). */
  deliveredEventId?: string;
}

/**
 * The events the record names by id: its send end's and its delivery's. They are an email's
 * most frequent events, so they are kept out of the email's index (shared/events/keys.ts) and
 * its timeline reads them by key.
 */
export const eventIdsNamedBy = (email: StoredEmail): string[] => [email.sendEnd?.eventId, email.deliveredEventId].filter((id): id is string => id !== undefined);

/** The statuses a sender ends its claim with. */
export type SendEndStatus = Extract<EmailStatus, 'SENT' | 'FAILED' | 'SUPPRESSED' | 'CANCELLED'>;

export interface SendEndMark {
  status: SendEndStatus;
  eventId: string;
}

/**
 * An email as it is stored and read back: the record without its content (HTML and text), which
 * is an item of its own (emailKeys.content). Records written before the content had its own item
 * still carry it.
 */
export type StoredEmail = Omit<EmailRecord, 'html' | 'text'> & Partial<Pick<EmailRecord, 'html' | 'text'>>;

/** The queue message for the send queue: the record holds everything else. */
export interface SendMessage {
  projectId: string;
  emailId: string;
  /** The request that queued it (its requestId), on the sender's log lines; older messages have none. */
  correlationId?: string;
  /** A spread campaign's mail: not sent before this time (shared/campaigns/spread.ts). */
  notBefore?: string;
  /** With notBefore: the campaign, whose cancel lets the mail through early to end CANCELLED. */
  campaignId?: string;
}

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/**
 * Writes new email records, each with its content and its recipient reference (shared/db/README.md),
 * in BatchWriteItems sent at once (three items per email: one after another, a campaign's fan-out
 * waited three round trips per 25 recipients), then counts them on the project's email total.
 */
export async function putEmails(records: EmailRecord[]): Promise<void> {
  await batchWriteAll(records.flatMap((record) => [toItem(record), contentItem(record), recipientItem(record)]).map((Item) => ({ PutRequest: { Item } })));
  await countEmails(records);
}

/**
 * Writes the email records that do not exist yet (a retried request whose earlier run wrote some),
 * never overwriting one (it may be sent by now), and every content and recipient reference; counts
 * only the new.
 */
export async function putEmailsOnce(records: EmailRecord[]): Promise<void> {
  const created: EmailRecord[] = [];
  for (let start = 0; start < records.length; start += 8) {
    await Promise.all(
      records.slice(start, start + 8).map(async (record) => {
        if (await writeOnce([{ Put: { TableName: tableName, Item: toItem(record), ConditionExpression: 'attribute_not_exists(PK)' } }])) created.push(record);
        await putCompanions(record);
      }),
    );
  }
  if (created.length) await countEmails(created);
}

/**
 * Writes one email record unless it exists (a retried step or a redone fan-out page), and its
 * content and recipient reference either way (the same items again: a record written by a run that
 * died before them gets them now). Only a new record counts.
 */
export async function putEmailOnce(record: EmailRecord): Promise<void> {
  const created = await writeOnce([{ Put: { TableName: tableName, Item: toItem(record), ConditionExpression: 'attribute_not_exists(PK)' } }]);
  await putCompanions(record);
  if (created) await countEmails([record]);
}

/**
 * The record's content and recipient reference, written whether or not the record was new: a run
 * that died after the record left them unwritten. The content only where there is none, like the
 * record: a retry that renders differently (a template edited since) must not change what an
 * email already written says.
 */
async function putCompanions(record: EmailRecord): Promise<void> {
  await Promise.all([
    documentClient.send(new PutCommand({ TableName: tableName, Item: contentItem(record), ConditionExpression: 'attribute_not_exists(PK)' })).catch((error: unknown) => {
      if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
    }),
    documentClient.send(new PutCommand({ TableName: tableName, Item: recipientItem(record) })),
  ]);
}

/** The project's email total (GET /emails `total`): one coalesced ADD, outside the records' writes. */
async function countEmails(records: EmailRecord[]): Promise<void> {
  const byProject = new Map<string, number>();
  for (const record of records) byProject.set(record.projectId, (byProject.get(record.projectId) ?? 0) + 1);
  await Promise.all([...byProject].map(([projectId, count]) => addToCounters(emailKeys.total(projectId), { total: count })));
  for (const record of records) countMetric(metricNames.emailsQueued, { source: record.source.type });
}

/** The recipient reference: what the list filters on, never updated (status is read from the record). */
function recipientItem(record: EmailRecord) {
  return {
    ...emailKeys.recipient(record.projectId, record.to.email, record.id),
    emailId: record.id,
    sourceType: record.source.type,
    ...(record.source.id ? { sourceId: record.source.id } : {}),
  };
}

export async function getEmail(projectId: string, emailId: string): Promise<StoredEmail | undefined> {
  const { Item } = await documentClient.send(new GetCommand({ TableName: tableName, Key: emailKeys.email(projectId, emailId), ConsistentRead: true }));
  return Item ? fromItem(Item) : undefined;
}

/**
 * The content item: HTML and text, written once, Brotli-compressed at quality 7 in text mode: a
 * 2 KB email's HTML and text take about 780 bytes (gzip 970), so the item stays under 1 KB, one
 * WRU; 20 KB take 6.0 KB (gzip 7.0), in under a millisecond, about gzip's time. Quality 5 is
 * worse than gzip from 20 KB on (its smaller window); the default, 11, took 5 ms per 2 KB and
 * 70 ms per 20 KB, on every send and every campaign recipient.
 */
const CONTENT_BROTLI = { params: { [constants.BROTLI_PARAM_QUALITY]: 7, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT } };

function contentItem(record: EmailRecord) {
  const content: Pick<EmailRecord, 'html' | 'text'> = { html: record.html, ...(record.text === undefined ? {} : { text: record.text }) };
  return { ...emailKeys.content(record.projectId, record.id), brotli: brotliCompressSync(JSON.stringify(content), CONTENT_BROTLI) };
}

/** The content of a content item (undefined: none); items written before Brotli hold it gzip-compressed as `content`. */
export function contentOf(item: Record<string, unknown> | undefined): Pick<EmailRecord, 'html' | 'text'> | undefined {
  const brotli = item?.brotli as Uint8Array | undefined;
  const gzip = item?.content as Uint8Array | undefined;
  const json = brotli ? brotliDecompressSync(brotli) : gzip ? gunzipSync(gzip) : undefined;
  return json ? (JSON.parse(json.toString('utf8')) as Pick<EmailRecord, 'html' | 'text'>) : undefined;
}

/**
 * The email with its content: a record written before the content had its own item carries it
 * already; otherwise one consistent GetItem of the content item. A record without content is an
 * error (its content is written before its message is queued).
 */
export async function withContent(email: StoredEmail): Promise<EmailRecord> {
  if (email.html !== undefined) return email as EmailRecord;
  const { Item } = await documentClient.send(new GetCommand({ TableName: tableName, Key: emailKeys.content(email.projectId, email.id), ConsistentRead: true }));
  const content = contentOf(Item);
  if (!content) throw new Error(`Email ${email.id} has no content item`);
  return { ...email, ...content };
}

/**
 * What a claim found: the email taken; held (`until`: when the message should look again — the end
 * of another sender's live lease, or, for a claim that ran out unfinished (`unsettled`), the end of
 * its grace); or nothing left to send.
 */
export type Claim = { status: 'claimed'; email: StoredEmail } | { status: 'held'; until: number; unsettled: boolean } | { status: 'done'; email?: StoredEmail };

/** How long a claim owns the email, and how long after a claim ran out it stays untouchable. */
export interface ClaimTerms {
  leaseMs: number;
  /**
   * A claim that ran out unfinished may have reached SES (its sender stopped after the call and
   * before recording SENT): it is retaken only `graceMs` after its lease ended, by when SES's
   * Send, Delivery or Bounce event has moved the email on if SES accepted it.
   */
  graceMs: number;
}

/**
 * Takes the email for sending: QUEUED → SENDING with a lease, or a SENDING whose lease ran out
 * (its sender died) more than the grace ago. The claim carries a token of this call, so when the
 * SDK retries a claim that went through but whose answer was lost, the retry finds its own claim
 * and takes it instead of reading it as someone else's. A live claim of another sender (a second
 * message for the same email) is `held` until that lease ends, in case that sender dies before
 * finishing; a claim that ran out within the grace is `held` until the grace ends. Sent, failed,
 * suppressed or gone: `done` (with the record, which the refused claim hands back), the message is
 * finished.
 */
export async function claimEmail(projectId: string, emailId: string, terms: ClaimTerms, now = Date.now(), token: string = randomUUID()): Promise<Claim> {
  try {
    const { Attributes } = await documentClient.send(
      new UpdateCommand({
        TableName: tableName,
        Key: emailKeys.email(projectId, emailId),
        UpdateExpression: 'SET #status = :sending, leaseUntil = :leaseUntil, claimToken = :token, claimedAt = :now, updatedAt = :now',
        ConditionExpression: 'attribute_exists(PK) AND (#status = :queued OR (#status = :sending AND (leaseUntil < :settledBefore OR claimToken = :token)))',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':sending': 'SENDING',
          ':queued': 'QUEUED',
          ':leaseUntil': now + terms.leaseMs,
          ':token': token,
          ':now': new Date(now).toISOString(),
          ':settledBefore': now - terms.graceMs,
        },
        ReturnValues: 'ALL_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return { status: 'claimed', email: fromItem(Attributes!) };
  } catch (error) {
    if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
    const found = refusedItem(error);
    if (!found) return { status: 'done' };
    // The record as the condition saw it (never QUEUED, which it takes): SENDING under a live lease or within the grace, or done.
    if (found.status === 'SENDING') {
      const leaseUntil = found.leaseUntil ?? now;
      return leaseUntil > now ? { status: 'held', until: leaseUntil, unsettled: false } : { status: 'held', until: leaseUntil + terms.graceMs, unsettled: true };
    }
    return { status: 'done', email: found };
  }
}

/** The record a refused conditional write hands back (ReturnValuesOnConditionCheckFailure ALL_OLD), in DynamoDB's wire format. */
function refusedItem(error: unknown): StoredEmail | undefined {
  const item = (error as { Item?: Record<string, AttributeValue> }).Item;
  return item ? fromItem(unmarshall(item)) : undefined;
}

/**
 * Ends this claim with `status` and `fields`, marking the record with the end and the id of the
 * event that tells it (the event is written after, on its own: recordSendEnd in
 * shared/delivery/outcomes.ts). One conditional UpdateItem (SENDING → status). Returns the record
 * as ended — also when an earlier try of this very end went through and its answer was lost —
 * or undefined when the email was no longer this claim's to end (another sender or an SES event
 * finished it).
 */
export async function finishClaim(email: StoredEmail, status: SendEndStatus, fields: Record<string, unknown>, eventId: string): Promise<StoredEmail | undefined> {
  const sendEnd: SendEndMark = { status, eventId };
  const { Update } = finishClaimItem(email.projectId, email.id, status, { ...fields, sendEnd });
  try {
    const { Attributes } = await documentClient.send(new UpdateCommand({ ...(Update as UpdateCommandInput), ReturnValues: 'ALL_NEW', ReturnValuesOnConditionCheckFailure: 'ALL_OLD' }));
    return fromItem(Attributes!);
  } catch (error) {
    if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
    const found = refusedItem(error);
    return found && email.claimToken !== undefined && found.claimToken === email.claimToken && found.sendEnd?.status === status ? found : undefined;
  }
}

/** The update that ends a claim (SENDING → status); extra items join the same transaction. */
export function finishClaimItem(projectId: string, emailId: string, status: EmailStatus, fields: Record<string, unknown>): TransactItem {
  const now = new Date().toISOString();
  const names: Record<string, string> = { '#status': 'status' };
  const values: Record<string, unknown> = { ':status': status, ':sending': 'SENDING', ':now': now };
  const sets = ['#status = :status', 'updatedAt = :now'];
  Object.entries(fields).forEach(([name, value], index) => {
    names[`#f${index}`] = name;
    values[`:f${index}`] = value;
    sets.push(`#f${index} = :f${index}`);
  });
  return {
    Update: {
      TableName: tableName,
      Key: emailKeys.email(projectId, emailId),
      UpdateExpression: `SET ${sets.join(', ')} REMOVE leaseUntil`,
      ConditionExpression: '#status = :sending',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}

/** The update that gives a claimed email back to the queue (SENDING → QUEUED); extra items may join its transaction. */
export function releaseClaimItem(projectId: string, emailId: string): TransactItem {
  return {
    Update: {
      TableName: tableName,
      Key: emailKeys.email(projectId, emailId),
      UpdateExpression: 'SET #status = :queued, updatedAt = :now REMOVE leaseUntil',
      ConditionExpression: '#status = :sending',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':queued': 'QUEUED', ':sending': 'SENDING', ':now': new Date().toISOString() },
    },
  };
}

/** Gives a claimed email back to the queue (SES throttled or failed transiently). */
export async function releaseEmail(projectId: string, emailId: string): Promise<void> {
  await updateIfStill(releaseClaimItem(projectId, emailId).Update as UpdateCommandInput);
}

/** The record item: everything but the content, which contentItem holds. */
function toItem(record: EmailRecord) {
  const { html: _html, text: _text, ...rest } = record;
  return { ...emailKeys.email(record.projectId, record.id), ...rest };
}

export function fromItem(item: Record<string, unknown>): StoredEmail {
  const { PK: _pk, SK: _sk, ...record } = item;
  return record as unknown as StoredEmail;
}

/** The statuses each status may follow: status only moves forward (a late DELIVERY never overwrites BOUNCED). */
const FORWARD_FROM: Partial<Record<EmailStatus, EmailStatus[]>> = {
  SENT: ['QUEUED', 'SENDING'],
  DELIVERED: ['SENDING', 'SENT'],
  BOUNCED: ['SENDING', 'SENT', 'DELIVERED'],
  COMPLAINED: ['SENDING', 'SENT', 'DELIVERED'],
  FAILED: ['QUEUED', 'SENDING', 'SENT'],
};

/** Whether an email at `from` may move to `to`. */
export const movesForward = (from: EmailStatus, to: EmailStatus): boolean => (FORWARD_FROM[to] ?? []).includes(from);

/** The statuses in which the sender still holds an email: it may yet record SENT (and email.sent) itself. */
export const SENDER_HELD_STATUSES: readonly EmailStatus[] = ['QUEUED', 'SENDING'];

export interface StatusMoveOptions {
  /** Set with the move. */
  fields?: Record<string, unknown>;
  /** Set with the move where the record has none yet. */
  fieldsIfMissing?: Record<string, unknown>;
  /** Move only from these of the statuses `status` may follow (default: any of them). */
  from?: readonly EmailStatus[];
}

/** The conditional update that moves the email to `status` if that is forward from where it is (and one of `from`). */
export function advanceStatusUpdate(projectId: string, emailId: string, status: EmailStatus, { fields = {}, fieldsIfMissing = {}, from }: StatusMoveOptions = {}) {
  const previous = (FORWARD_FROM[status] ?? []).filter((candidate) => !from || from.includes(candidate));
  if (previous.length === 0) throw new Error(`An email never moves to ${status}${from ? ` from ${from.join(' or ')}` : ''}`);
  const names: Record<string, string> = { '#status': 'status' };
  const values: Record<string, unknown> = { ':status': status, ':now': new Date().toISOString() };
  previous.forEach((candidate, index) => (values[`:from${index}`] = candidate));
  const sets = ['#status = :status', 'updatedAt = :now'];
  Object.entries(fields).forEach(([name, value], index) => {
    names[`#f${index}`] = name;
    values[`:f${index}`] = value;
    sets.push(`#f${index} = :f${index}`);
  });
  Object.entries(fieldsIfMissing).forEach(([name, value], index) => {
    names[`#m${index}`] = name;
    values[`:m${index}`] = value;
    sets.push(`#m${index} = if_not_exists(#m${index}, :m${index})`);
  });
  return {
    TableName: tableName,
    Key: emailKeys.email(projectId, emailId),
    UpdateExpression: `SET ${sets.join(', ')} REMOVE leaseUntil`,
    ConditionExpression: `#status IN (${previous.map((_, index) => `:from${index}`).join(', ')})`,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
}

/** Whether the email moved, and the record as it was before the move or, when it did not move, as it is (undefined: no such email). */
export type StatusMove = { moved: true; email: StoredEmail } | { moved: false; email: StoredEmail | undefined };

/**
 * Moves the email to `status` if that is forward from where it is (see advanceStatusUpdate). Either
 * way the record comes back (the failed condition returns it), so a caller needs no read; replaying
 * the same outcome, or a late one, changes nothing.
 */
export async function advanceStatus(projectId: string, emailId: string, status: EmailStatus, options: StatusMoveOptions = {}): Promise<StatusMove> {
  try {
    const { Attributes } = await documentClient.send(new UpdateCommand({ ...advanceStatusUpdate(projectId, emailId, status, options), ReturnValues: 'ALL_OLD', ReturnValuesOnConditionCheckFailure: 'ALL_OLD' }));
    return Attributes ? { moved: true, email: fromItem(Attributes) } : { moved: false, email: undefined };
  } catch (error) {
    if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
    return { moved: false, email: refusedItem(error) };
  }
}
