import { BatchGetCommand, GetCommand, type BatchGetCommandOutput, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../aws/clients';
import { campaignKeys } from '../campaigns/keys';
import { batchGetAll } from '../db/batch';
import { tableName } from '../db/table';
import { eventKeys } from '../events/keys';
import { toEvent } from '../events/events';
import { decodeCursor, pageOf } from '../http/cursor';
import { notFound } from '../http/errors';
import { contentOf, eventIdsNamedBy, fromItem, type StoredEmail } from './emails';
import { emailKeys, emailSortKeyBounds } from './keys';
import { presentSummary, type EmailDetail, type EmailSummary, type TimelineType } from './responses';
import type { ListEmailsQuery } from './schemas';

const MAX_TIME = 281474976710655; // the largest ULID time
/** The most events an email's timeline shows (one Query page; events are small). */
export const TIMELINE_LIMIT = 500;

/** What a list item needs of a record (not its HTML). */
const SUMMARY_PROJECTION = {
  ProjectionExpression: 'PK, SK, id, #to, contactId, subject, #source, #status, createdAt, updatedAt, sentAt, deliveredAt, sesMessageId, failureReason',
  names: { '#to': 'to', '#source': 'source', '#status': 'status' },
};

export interface EmailPage {
  items: EmailSummary[];
  nextCursor: string | null;
  hasMore: boolean;
  total: number;
}

/**
 * GET /emails, newest first, one Query per page (shared/db/README.md):
 * - with `email`: the recipient's references (`PROJECT#<pid>#EMAILS_TO#<address>`), `source` and
 *   `campaignId` as a FilterExpression on them, then one BatchGetItem of the page's records;
 *   `status` (it changes, so no key holds it) is applied to those records;
 * - without: the project's records (`SK BETWEEN EMAIL#…`), the other filters as a FilterExpression.
 * `from`/`to` are a key condition on the ULID ids either way. `campaignId` narrows the range to
 * the campaign's start: every email id of a campaign carries that time (shared/campaigns/content.ts).
 * A filtered page reads at most `limit + 1` items, so it may hold fewer than `limit` while
 * `hasMore` is true. `total` is the project's email count; it does not narrow with filters.
 */
export async function listEmails(projectId: string, query: ListEmailsQuery): Promise<EmailPage> {
  const [range, total] = await Promise.all([idRange(projectId, query), countEmails(projectId)]);
  if (!range) return { items: [], nextCursor: null, hasMore: false, total };
  const partition = query.email ? emailKeys.recipientPartition(projectId, query.email) : emailKeys.email(projectId, '').PK;
  const filter = filterFor(query, query.email ? 'reference' : 'record');
  const binding = JSON.stringify(['emails', projectId, query.email ?? null, query.status ?? null, query.source ?? null, query.campaignId ?? null, query.from ?? null, query.to ?? null]);
  const startKey = query.cursor ? decodeCursor(query.cursor, binding, { PK: partition }, ['SK']) : undefined;
  const names = { ...filter.names, ...(query.email ? {} : SUMMARY_PROJECTION.names) };
  const input: QueryCommandInput = {
    TableName: tableName,
    KeyConditionExpression: 'PK = :pk AND SK BETWEEN :low AND :high',
    ...(filter.expression ? { FilterExpression: filter.expression } : {}),
    ...(query.email ? {} : { ProjectionExpression: SUMMARY_PROJECTION.ProjectionExpression }),
    ...(Object.keys(names).length ? { ExpressionAttributeNames: names } : {}),
    ExpressionAttributeValues: { ':pk': partition, ':low': range.low, ':high': range.high, ...filter.values },
    ScanIndexForward: false,
    Limit: query.limit + 1,
    ExclusiveStartKey: startKey,
  };
  const result = await documentClient.send(new QueryCommand(input));
  const { page, hasMore, nextCursor } = pageOf(result, query.limit, ['PK', 'SK'], binding);
  const records = query.email ? await readRecords(projectId, page.map((item) => item.emailId as string)) : page.map(fromItem);
  const items = records.filter((record) => !query.status || record.status === query.status).map(presentSummary);
  return { items, nextCursor, hasMore, total };
}

/** The sort-key range of the query's time filters (and campaign); undefined when nothing can match. */
async function idRange(projectId: string, query: ListEmailsQuery): Promise<{ low: string; high: string } | undefined> {
  let from = query.from ?? 0;
  let to = query.to ?? MAX_TIME;
  if (query.campaignId && query.source !== 'test') {
    const { Item } = await documentClient.send(
      new GetCommand({ TableName: tableName, Key: campaignKeys.campaign(projectId, query.campaignId), ProjectionExpression: 'sentAt' }),
    );
    if (typeof Item?.sentAt !== 'string') return undefined;
    const started = Date.parse(Item.sentAt);
    from = Math.max(from, started);
    to = Math.min(to, started);
  }
  if (from > to) return undefined;
  return emailSortKeyBounds(from, to);
}

/** The filters no key condition holds: on references (source, campaign) or on records (also status). */
export function filterFor(query: Pick<ListEmailsQuery, 'status' | 'source' | 'campaignId'>, on: 'reference' | 'record') {
  const conditions: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const sourceType = query.source ?? (query.campaignId ? 'campaign' : undefined);
  if (sourceType) {
    conditions.push(on === 'reference' ? 'sourceType = :sourceType' : '#source.#type = :sourceType');
    values[':sourceType'] = sourceType;
  }
  if (query.campaignId) {
    conditions.push(on === 'reference' ? 'sourceId = :sourceId' : '#source.#id = :sourceId');
    values[':sourceId'] = query.campaignId;
  }
  if (on === 'record' && (sourceType || query.campaignId)) Object.assign(names, { '#source': 'source', ...(sourceType ? { '#type': 'type' } : {}), ...(query.campaignId ? { '#id': 'id' } : {}) });
  if (on === 'record' && query.status) {
    conditions.push('#status = :status');
    names['#status'] = 'status';
    values[':status'] = query.status;
  }
  return { expression: conditions.join(' AND '), names, values };
}

/** The records of a page of references, in the references' order (one BatchGetItem: a page is at most 100). */
async function readRecords(projectId: string, emailIds: string[]): Promise<StoredEmail[]> {
  if (emailIds.length === 0) return [];
  const found = new Map<string, StoredEmail>();
  let keys: Record<string, unknown>[] | undefined = emailIds.map((id) => emailKeys.email(projectId, id));
  for (let attempt = 0; keys?.length; attempt++) {
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 50 * 2 ** attempt));
    if (attempt > 8) throw new Error('DynamoDB kept unprocessed email keys');
    const result: BatchGetCommandOutput = await documentClient.send(
      new BatchGetCommand({ RequestItems: { [tableName]: { Keys: keys, ProjectionExpression: SUMMARY_PROJECTION.ProjectionExpression, ExpressionAttributeNames: SUMMARY_PROJECTION.names } } }),
    );
    for (const item of result.Responses?.[tableName] ?? []) found.set(item.id as string, fromItem(item));
    keys = result.UnprocessedKeys?.[tableName]?.Keys;
  }
  return emailIds.flatMap((id) => (found.has(id) ? [found.get(id)!] : []));
}

async function countEmails(projectId: string): Promise<number> {
  const { Item } = await documentClient.send(new GetCommand({ TableName: tableName, Key: emailKeys.total(projectId) }));
  return (Item?.total as number | undefined) ?? 0;
}

/** Contact event names → timeline entries. */
const TIMELINE_TYPES: Record<string, TimelineType> = {
  'email.sent': 'sent',
  'email.delivered': 'delivered',
  'email.delayed': 'delayed',
  'email.bounced': 'bounced',
  'email.complained': 'complained',
  'email.opened': 'opened',
  'email.clicked': 'clicked',
  'email.rejected': 'rejected',
  'email.failed': 'failed',
  'email.suppressed': 'suppressed',
  'email.cancelled': 'cancelled',
};

/**
 * GET /emails/{id}: the record and its content (two GetItems) and its timeline — `queued` at its creation, then its
 * events in time order: those of the email's event partition (GSI3, one Query, at most 500) and the ones the record
 * names by id (its send end and its delivery, kept out of that index: one BatchGetItem).
 * An unknown id is 404 (the handler's pathId turns a malformed one into the same 404).
 */
export async function getEmailActivity(projectId: string, emailId: string): Promise<EmailDetail> {
  const [record, content, events] = await Promise.all([
    documentClient.send(new GetCommand({ TableName: tableName, Key: emailKeys.email(projectId, emailId) })),
    // Consistent: a record found with its content not yet readable would show an empty body.
    documentClient.send(new GetCommand({ TableName: tableName, Key: emailKeys.content(projectId, emailId), ConsistentRead: true })),
    documentClient.send(
      new QueryCommand({
        TableName: tableName,
        IndexName: 'GSI3',
        KeyConditionExpression: 'GSI3PK = :pk',
        ExpressionAttributeValues: { ':pk': eventKeys.byEmailPartition(projectId, emailId) },
        Limit: TIMELINE_LIMIT,
      }),
    ),
  ]);
  if (!record.Item) throw notFound('Email');
  // Records written before the content had its own item carry it.
  const email = { ...fromItem(record.Item), ...contentOf(content.Item) };
  const indexed = (events.Items ?? []).map(toEvent);
  // Events written before the record named them are in the index too; one its sender still owes is not found yet.
  const unindexed = eventIdsNamedBy(email).filter((id) => !indexed.some((event) => event.id === id));
  const named = unindexed.length ? await batchGetAll(unindexed.map((id) => eventKeys.event(projectId, id)), { consistentRead: true }) : [];
  const timeline: EmailDetail['timeline'] = [{ type: 'queued', at: email.createdAt, eventId: null, data: {} }];
  for (const event of [...indexed, ...named.map(toEvent)]) {
    const type = TIMELINE_TYPES[event.name];
    if (!type) continue;
    const { source: _source, subject: _subject, ...data } = event.data;
    timeline.push({ type, at: event.createdAt, eventId: event.id, data });
  }
  // A test send records its SENT on the record only (no sender, no email.sent event).
  if (email.sentAt && !timeline.some((entry) => entry.type === 'sent')) timeline.push({ type: 'sent', at: email.sentAt, eventId: null, data: {} });
  timeline.sort((a, b) => a.at.localeCompare(b.at));
  return {
    ...presentSummary(email),
    from: email.from,
    replyTo: email.replyTo,
    headers: email.headers,
    html: email.html ?? '',
    text: email.text ?? null,
    timeline,
    timelineTruncated: events.LastEvaluatedKey !== undefined,
  };
}
