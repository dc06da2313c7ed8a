import { gzipSync } from 'node:zlib';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, BatchWriteCommand, DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import * as v from 'valibot';
import { getEmailActivity, listEmails } from '../../../../shared/emails/activity';
import { contentOf, putEmailOnce, putEmails, type EmailRecord } from '../../../../shared/emails/emails';
import { emailKeys, emailSortKeyBounds } from '../../../../shared/emails/keys';
import { listEmailsQuerySchema } from '../../../../shared/emails/schemas';
import { ApiError } from '../../../../shared/http/errors';
import { parseInput } from '../../../../shared/http/validation';

const ddb = mockClient(DynamoDBDocumentClient);
const TABLE = 'mailwright-test';
const P = '01JPROJECT0000000000000000';
const E1 = '01KAQ5VZ3N4G8T2M6P0R9S7W1X';
const E2 = '01KAQ5VZ3N4G8T2M6P0R9S7W1Y';
const CAMPAIGN = '01KCAMPA1GN000000000000000';
const MAX_TIME = 281474976710655;
const query = (input: Record<string, string>) => parseInput(listEmailsQuerySchema, input, 'query');

const record = (id: string, overrides: Partial<EmailRecord> = {}): Record<string, unknown> => ({
  PK: `PROJECT#${P}`,
  SK: `EMAIL#${id}`,
  id,
  projectId: P,
  contactId: '01KCONTACT0000000000000000',
  to: { email: 'jane@example.com' },
  subject: 'Reset your password',
  source: { type: 'transactional' },
  status: 'DELIVERED',
  createdAt: '2026-11-24T09:00:00.000Z',
  updatedAt: '2026-11-24T09:00:03.000Z',
  sentAt: '2026-11-24T09:00:01.000Z',
  deliveredAt: '2026-11-24T09:00:03.000Z',
  sesMessageId: 'ses-1',
  ...overrides,
});

/** An email's content item as putEmails stores it (gzip-compressed JSON; content.test.ts checks it against putEmails). */
const contentItem = (id: string, content: { html: string; text?: string }) => ({ ...emailKeys.content(P, id), content: gzipSync(JSON.stringify(content)) });

const summaryProjection = 'PK, SK, id, #to, contactId, subject, #source, #status, createdAt, updatedAt, sentAt, deliveredAt, sesMessageId, failureReason';

beforeEach(() => {
  ddb.reset();
  ddb.on(GetCommand).resolves({});
  ddb.on(GetCommand, { Key: emailKeys.total(P) }).resolves({ Item: { total: 42 } });
  ddb.on(QueryCommand).resolves({ Items: [] });
});

describe('GET /emails: filters → key conditions', () => {
  it('lists the project\'s records newest first, the whole id range, without their HTML', async () => {
    // Prepare
    ddb.on(QueryCommand).resolves({ Items: [record(E2), record(E1)] });

    // Act
    const page = await listEmails(P, query({}));

    // Assess
    const bounds = emailSortKeyBounds(0, MAX_TIME);
    expect(ddb.commandCalls(QueryCommand)[0]!.args[0].input).toEqual({
      TableName: TABLE,
      KeyConditionExpression: 'PK = :pk AND SK BETWEEN :low AND :high',
      ProjectionExpression: summaryProjection,
      ExpressionAttributeNames: { '#to': 'to', '#source': 'source', '#status': 'status' },
      ExpressionAttributeValues: { ':pk': `PROJECT#${P}`, ':low': bounds.low, ':high': bounds.high },
      ScanIndexForward: false,
      Limit: 21,
      ExclusiveStartKey: undefined,
    });
    expect(page).toEqual({
      items: [expect.objectContaining({ id: E2 }), expect.objectContaining({ id: E1 })],
      nextCursor: null,
      hasMore: false,
      total: 42,
    });
    expect(page.items[0]).toEqual({
      id: E2,
      to: 'jane@example.com',
      contactId: '01KCONTACT0000000000000000',
      subject: 'Reset your password',
      source: 'transactional',
      sourceId: null,
      templateId: null,
      status: 'DELIVERED',
      failureReason: null,
      sesMessageId: 'ses-1',
      createdAt: '2026-11-24T09:00:00.000Z',
      sentAt: '2026-11-24T09:00:01.000Z',
      deliveredAt: '2026-11-24T09:00:03.000Z',
      updatedAt: '2026-11-24T09:00:03.000Z',
    });
  });

  it('turns from/to dates into a key condition on the ULID ids: a date as to means its last millisecond', async () => {
    // Act
    await listEmails(P, query({ from: '2026-11-01', to: '2026-11-24' }));
    await listEmails(P, query({ from: '2026-11-24T09:30:00Z' }));

    // Assess
    const [dates, time] = ddb.commandCalls(QueryCommand).map((call) => call.args[0].input.ExpressionAttributeValues!);
    const days = emailSortKeyBounds(Date.parse('2026-11-01T00:00:00.000Z'), Date.parse('2026-11-24T23:59:59.999Z'));
    expect(dates).toEqual({ ':pk': `PROJECT#${P}`, ':low': days.low, ':high': days.high });
    expect(time![':low']).toBe(emailSortKeyBounds(Date.parse('2026-11-24T09:30:00Z'), 0).low);
  });

  it('filters status and source with a FilterExpression on the bounded page (no key holds a changing status)', async () => {
    // Act
    await listEmails(P, query({ status: 'BOUNCED', source: 'workflow', limit: '50' }));

    // Assess
    expect(ddb.commandCalls(QueryCommand)[0]!.args[0].input).toMatchObject({
      FilterExpression: '#source.#type = :sourceType AND #status = :status',
      ExpressionAttributeNames: { '#to': 'to', '#source': 'source', '#type': 'type', '#status': 'status' },
      ExpressionAttributeValues: expect.objectContaining({ ':sourceType': 'workflow', ':status': 'BOUNCED' }),
      Limit: 51,
    });
  });

  it('narrows a campaign\'s mail to the millisecond of its start, which every one of its email ids carries', async () => {
    // Prepare
    ddb.on(GetCommand, { Key: { PK: `PROJECT#${P}`, SK: `CAMPAIGN#${CAMPAIGN}` } }).resolves({ Item: { sentAt: '2026-11-20T08:00:00.000Z' } });

    // Act
    await listEmails(P, query({ campaignId: CAMPAIGN }));

    // Assess
    const started = emailSortKeyBounds(Date.parse('2026-11-20T08:00:00.000Z'), Date.parse('2026-11-20T08:00:00.000Z'));
    expect(ddb.commandCalls(GetCommand).map((call) => call.args[0].input)).toContainEqual({ TableName: TABLE, Key: { PK: `PROJECT#${P}`, SK: `CAMPAIGN#${CAMPAIGN}` }, ProjectionExpression: 'sentAt' });
    expect(ddb.commandCalls(QueryCommand)[0]!.args[0].input).toMatchObject({
      FilterExpression: '#source.#type = :sourceType AND #source.#id = :sourceId',
      ExpressionAttributeNames: expect.objectContaining({ '#source': 'source', '#type': 'type', '#id': 'id' }),
      ExpressionAttributeValues: { ':pk': `PROJECT#${P}`, ':low': started.low, ':high': started.high, ':sourceType': 'campaign', ':sourceId': CAMPAIGN },
    });
  });

  it('answers an empty page without a Query for a campaign that never sent, or a range that misses its start', async () => {
    // Prepare
    ddb.on(GetCommand, { Key: { PK: `PROJECT#${P}`, SK: `CAMPAIGN#${CAMPAIGN}` } }).resolvesOnce({}).resolves({ Item: { sentAt: '2026-11-20T08:00:00.000Z' } });

    // Act
    const unknown = await listEmails(P, query({ campaignId: CAMPAIGN }));
    const missed = await listEmails(P, query({ campaignId: CAMPAIGN, from: '2026-11-21' }));

    // Assess
    expect(unknown).toEqual({ items: [], nextCursor: null, hasMore: false, total: 42 });
    expect(missed).toEqual(unknown);
    expect(ddb.commandCalls(QueryCommand)).toHaveLength(0);
  });

  it('finds a campaign\'s test sends by their source, not by the campaign\'s start', async () => {
    // Act
    await listEmails(P, query({ campaignId: CAMPAIGN, source: 'test' }));

    // Assess
    expect(ddb.commandCalls(GetCommand).map((call) => call.args[0].input.Key)).toEqual([emailKeys.total(P)]);
    expect(ddb.commandCalls(QueryCommand)[0]!.args[0].input.ExpressionAttributeValues).toMatchObject({ ':sourceType': 'test', ':sourceId': CAMPAIGN });
  });

  it('serves a recipient from its references (source and campaign filtered there), reads the page\'s records in one BatchGetItem and applies status to them', async () => {
    // Prepare
    const partition = `PROJECT#${P}#EMAILS_TO#jane@example.com`;
    ddb.on(QueryCommand).resolves({ Items: [E2, E1].map((id) => ({ PK: partition, SK: `EMAIL#${id}`, emailId: id, sourceType: 'transactional' })) });
    ddb.on(BatchGetCommand).resolves({ Responses: { [TABLE]: [record(E1, { status: 'BOUNCED' }), record(E2)] } });

    // Act
    const page = await listEmails(P, query({ email: 'Jane@Example.com', source: 'transactional', status: 'DELIVERED' }));

    // Assess
    const bounds = emailSortKeyBounds(0, MAX_TIME);
    expect(ddb.commandCalls(QueryCommand)[0]!.args[0].input).toEqual({
      TableName: TABLE,
      KeyConditionExpression: 'PK = :pk AND SK BETWEEN :low AND :high',
      FilterExpression: 'sourceType = :sourceType',
      ExpressionAttributeValues: { ':pk': partition, ':low': bounds.low, ':high': bounds.high, ':sourceType': 'transactional' },
      ScanIndexForward: false,
      Limit: 21,
      ExclusiveStartKey: undefined,
    });
    expect(ddb.commandCalls(BatchGetCommand)[0]!.args[0].input).toEqual({
      RequestItems: { [TABLE]: { Keys: [emailKeys.email(P, E2), emailKeys.email(P, E1)], ProjectionExpression: summaryProjection, ExpressionAttributeNames: { '#to': 'to', '#source': 'source', '#status': 'status' } } },
    });
    expect(page.items.map((item) => [item.id, item.status])).toEqual([[E2, 'DELIVERED']]);
  });

  it('pages with a cursor bound to the query: the next page starts after it, another query\'s use is a 400', async () => {
    // Prepare: three records for a limit of two
    ddb.on(QueryCommand).resolves({ Items: [record('01KAQ5VZ3N4G8T2M6P0R9S7W13'), record(E2), record(E1)] });

    // Act
    const first = await listEmails(P, query({ limit: '2' }));
    await listEmails(P, query({ limit: '2', cursor: first.nextCursor! }));

    // Assess
    expect(first.hasMore).toBe(true);
    expect(ddb.commandCalls(QueryCommand)[1]!.args[0].input.ExclusiveStartKey).toEqual({ PK: `PROJECT#${P}`, SK: `EMAIL#${E2}` });
    await expect(listEmails(P, query({ limit: '2', status: 'SENT', cursor: first.nextCursor! }))).rejects.toMatchObject({ statusCode: 400, code: 'INVALID_CURSOR' });
  });
});

describe('GET /emails query validation', () => {
  it.each([
    [{ status: 'LOST' }, 'query.status'],
    [{ source: 'newsletter' }, 'query.source'],
    [{ campaignId: 'X'.repeat(27) }, 'query.campaignId'],
    [{ from: '2026-02-30' }, 'query.from'],
    [{ to: 'yesterday' }, 'query.to'],
    [{ email: 'not-an-address' }, 'query.email'],
    [{ limit: '101' }, 'query.limit'],
  ])('%j is a 422 on %s', (input, field) => {
    const error = (() => {
      try {
        query(input);
      } catch (caught) {
        return caught as ApiError;
      }
      throw new Error('accepted');
    })();
    expect(error.statusCode).toBe(422);
    expect(error.errors?.map((fieldError) => fieldError.field)).toEqual([field]);
  });

  it('lower-cases the recipient', () => {
    expect(v.parse(listEmailsQuerySchema, { email: 'Jane@Example.COM' }).email).toBe('jane@example.com');
  });
});

describe('GET /emails/{id}', () => {
  const eventItem = (id: string, name: string, createdAt: string, data: Record<string, unknown> = {}) => ({ eventId: id, name, contactId: 'C', emailId: E1, createdAt, data: { ...data, source: { type: 'transactional' } } });

  it('answers the record with its content and its timeline: queued, then its events from the email\'s GSI3 partition, in time order', async () => {
    // Prepare: the record, and its content in an item of its own
    ddb.on(GetCommand, { Key: emailKeys.email(P, E1) }).resolves({
      Item: { ...record(E1, { status: 'BOUNCED', failureReason: 'Permanent' }), from: { email: 'hello@acme.test' }, replyTo: [], headers: [] },
    });
    ddb.on(GetCommand, { Key: emailKeys.content(P, E1) }).resolves({ Item: contentItem(E1, { html: '<p>Hi</p>' }) });
    ddb.on(QueryCommand).resolves({
      Items: [
        eventItem('01KAQ5VZ3N4G8T2M6P0R9S7W20', 'email.sent', '2026-11-24T09:00:01.000Z', { sesMessageId: 'ses-1', subject: 'Reset your password' }),
        eventItem('01KAQ5VZ3N4G8T2M6P0R9S7W21', 'email.bounced', '2026-11-24T09:00:03.000Z', { bounceType: 'Permanent', bounceSubType: 'General', diagnosticCode: 'smtp; 550 5.1.1 user unknown' }),
        eventItem('01KAQ5VZ3N4G8T2M6P0R9S7W22', 'email.clicked', '2026-11-24T09:05:00.000Z', { link: 'https://acme.test/reset' }),
      ],
    });

    // Act
    const email = await getEmailActivity(P, E1);

    // Assess
    expect(ddb.commandCalls(QueryCommand)[0]!.args[0].input).toEqual({
      TableName: TABLE,
      IndexName: 'GSI3',
      KeyConditionExpression: 'GSI3PK = :pk',
      ExpressionAttributeValues: { ':pk': `PROJECT#${P}#EMAIL_EVENTS#${E1}` },
      Limit: 500,
    });
    expect(email).toMatchObject({ id: E1, status: 'BOUNCED', failureReason: 'Permanent', html: '<p>Hi</p>', text: null, from: { email: 'hello@acme.test' }, timelineTruncated: false });
    expect(email.timeline).toEqual([
      { type: 'queued', at: '2026-11-24T09:00:00.000Z', eventId: null, data: {} },
      { type: 'sent', at: '2026-11-24T09:00:01.000Z', eventId: '01KAQ5VZ3N4G8T2M6P0R9S7W20', data: { sesMessageId: 'ses-1' } },
      { type: 'bounced', at: '2026-11-24T09:00:03.000Z', eventId: '01KAQ5VZ3N4G8T2M6P0R9S7W21', data: { bounceType: 'Permanent', bounceSubType: 'General', diagnosticCode: 'smtp; 550 5.1.1 user unknown' } },
      { type: 'clicked', at: '2026-11-24T09:05:00.000Z', eventId: '01KAQ5VZ3N4G8T2M6P0R9S7W22', data: { link: 'https://acme.test/reset' } },
    ]);
  });

  it('reads the events the record names (its send end, its delivery) by key, beside the indexed ones, each once', async () => {
    // Prepare: the send end is indexed too (written before records named their events); the delivery only by key
    const SENT = '01KAQ5VZ3N4G8T2M6P0R9S7W20';
    const DELIVERED = '01KAQ5VZ3N4G8T2M6P0R9S7W21';
    ddb.on(GetCommand, { Key: emailKeys.email(P, E1) }).resolves({
      Item: { ...record(E1), sendEnd: { status: 'SENT', eventId: SENT }, deliveredEventId: DELIVERED, from: { email: 'hello@acme.test' }, replyTo: [], headers: [] },
    });
    ddb.on(GetCommand, { Key: emailKeys.content(P, E1) }).resolves({ Item: contentItem(E1, { html: '<p>Hi</p>' }) });
    ddb.on(QueryCommand).resolves({
      Items: [eventItem(SENT, 'email.sent', '2026-11-24T09:00:01.000Z'), eventItem('01KAQ5VZ3N4G8T2M6P0R9S7W22', 'email.opened', '2026-11-24T09:05:00.000Z')],
    });
    ddb.on(BatchGetCommand).resolves({ Responses: { [TABLE]: [eventItem(DELIVERED, 'email.delivered', '2026-11-24T09:00:03.000Z', { smtpResponse: '250 ok' })] } });

    // Act
    const email = await getEmailActivity(P, E1);

    // Assess
    const [read] = ddb.commandCalls(BatchGetCommand).map((call) => call.args[0].input.RequestItems![TABLE]!);
    expect(read).toMatchObject({ Keys: [{ PK: `PROJECT#${P}`, SK: `EVENT#${DELIVERED}` }], ConsistentRead: true });
    expect(email.timeline.map((entry) => [entry.type, entry.eventId])).toEqual([
      ['queued', null],
      ['sent', SENT],
      ['delivered', DELIVERED],
      ['opened', '01KAQ5VZ3N4G8T2M6P0R9S7W22'],
    ]);
  });

  it('shows a test send\'s sent from its record (test sends record no email.sent event)', async () => {
    // Prepare
    ddb.on(GetCommand, { Key: emailKeys.email(P, E1) }).resolves({
      Item: { ...record(E1, { status: 'SENT', source: { type: 'test', id: CAMPAIGN }, deliveredAt: undefined }), from: { email: 'hello@acme.test' }, replyTo: [], headers: [] },
    });
    ddb.on(GetCommand, { Key: emailKeys.content(P, E1) }).resolves({ Item: contentItem(E1, { html: '' }) });

    // Act
    const email = await getEmailActivity(P, E1);

    // Assess
    expect(email).toMatchObject({ source: 'test', sourceId: CAMPAIGN, templateId: null });
    expect(email.timeline.map((entry) => entry.type)).toEqual(['queued', 'sent']);
  });

  it('answers 404 for an unknown id (malformed ids never get here: pathId, test/unit/shared/http/ids.test.ts)', async () => {
    // Prepare
    ddb.on(GetCommand, { Key: emailKeys.email(P, '01KAQ5VZ3N4G8T2M6P0R9S7W1Z') }).resolves({});

    // Act
    const attempt = getEmailActivity(P, '01KAQ5VZ3N4G8T2M6P0R9S7W1Z');

    // Assess
    await expect(attempt).rejects.toMatchObject({ statusCode: 404, code: 'NOT_FOUND', message: 'Email not found' });
  });
});

describe('putEmails: each record with its content and its recipient reference', () => {
  it('sends the batches of one call at once, not one after another, and counts after all of them', async () => {
    // Prepare: every BatchWriteItem waits until the test lets it go
    const release: (() => void)[] = [];
    ddb.on(BatchWriteCommand).callsFake(() => new Promise((resolve) => release.push(() => resolve({}))));
    ddb.on(UpdateCommand).resolves({});
    const records = Array.from({ length: 13 }, (_, index) => {
      const { PK: _pk, SK: _sk, ...stored } = record(`01KAQ5VZ3N4G8T2M6P0R9S7X${String(index).padStart(2, '0')}`, { html: '<p>Hi</p>' });
      return stored as unknown as EmailRecord;
    });

    // Act
    const writing = putEmails(records);
    await new Promise((resolve) => setImmediate(resolve));

    // Assess: both batches (39 items) are in flight together, and nothing is counted yet
    expect(ddb.commandCalls(BatchWriteCommand)).toHaveLength(2);
    expect(ddb.commandCalls(UpdateCommand)).toHaveLength(0);
    release.forEach((go) => go());
    await writing;
    expect(ddb.commandCalls(UpdateCommand)).toHaveLength(1);
  });

  it('writes records, contents and references 25 items per BatchWriteItem, then one ADD to the project\'s email total', async () => {
    // Prepare
    ddb.on(BatchWriteCommand).resolves({});
    ddb.on(UpdateCommand).resolves({});
    const records = Array.from({ length: 13 }, (_, index) => ({
      ...(record(`01KAQ5VZ3N4G8T2M6P0R9S7W${String(index).padStart(2, '0')}`, { to: { email: `R${index}@Example.com` }, source: { type: 'campaign', id: CAMPAIGN }, html: `<p>Hi R${index}</p>`, text: `Hi R${index}` }) as unknown as EmailRecord),
    }));
    records.forEach((item) => {
      delete (item as unknown as Record<string, unknown>).PK;
      delete (item as unknown as Record<string, unknown>).SK;
    });

    // Act
    await putEmails(records);

    // Assess
    const batches = ddb.commandCalls(BatchWriteCommand).map((call) => call.args[0].input.RequestItems![TABLE]!.map((request) => request.PutRequest!.Item!));
    expect(batches.map((batch) => batch.length)).toEqual([25, 14]); // 3 items per email
    const [stored, content, reference] = batches[0]!;
    expect(stored).toMatchObject({ PK: `PROJECT#${P}`, SK: `EMAIL#${records[0]!.id}`, subject: 'Reset your password' });
    expect(stored).not.toHaveProperty('html');
    expect(stored).not.toHaveProperty('text');
    expect({ PK: content!.PK, SK: content!.SK }).toEqual(emailKeys.content(P, records[0]!.id));
    expect(contentOf(content)).toEqual({ html: '<p>Hi R0</p>', text: 'Hi R0' });
    expect(reference).toEqual({ PK: `PROJECT#${P}#EMAILS_TO#r0@example.com`, SK: `EMAIL#${records[0]!.id}`, emailId: records[0]!.id, sourceType: 'campaign', sourceId: CAMPAIGN });
    expect(batches.flat().filter((item) => String(item.SK).startsWith('EMAIL_CONTENT#')).map((item) => contentOf(item)!.html)).toEqual(records.map((email) => email.html));
    expect(ddb.commandCalls(UpdateCommand).map((call) => call.args[0].input)).toEqual([
      { TableName: TABLE, Key: { PK: `PROJECT#${P}`, SK: 'COUNTER#EMAILS' }, UpdateExpression: 'ADD #a0 :a0', ExpressionAttributeNames: { '#a0': 'total' }, ExpressionAttributeValues: { ':a0': 13 } },
    ]);
  });

  it('putEmailOnce: a record already there is left as it is and not counted again, its content and reference written again', async () => {
    // Prepare: the record exists (a retried workflow step) but not its content (the run that wrote it died before)
    ddb.on(PutCommand).resolves({});
    ddb.on(PutCommand, { Item: emailKeys.email(P, E1), ConditionExpression: 'attribute_not_exists(PK)' }).rejects(new ConditionalCheckFailedException({ message: 'exists', $metadata: {} }));
    ddb.on(UpdateCommand).resolves({});
    const { PK: _pk, SK: _sk, ...stored } = record(E1, { source: { type: 'workflow', id: 'W1' }, html: '<p>Welcome</p>' });

    // Act
    await putEmailOnce(stored as unknown as EmailRecord);

    // Assess: the record's conditional Put first, without its content
    const [recordPut, ...companions] = ddb.commandCalls(PutCommand).map((call) => call.args[0].input);
    expect(recordPut).toEqual({ TableName: TABLE, Item: expect.objectContaining({ PK: `PROJECT#${P}`, SK: `EMAIL#${E1}` }), ConditionExpression: 'attribute_not_exists(PK)' });
    expect(recordPut!.Item).not.toHaveProperty('html');
    // Then its content where there is none, and its reference unconditionally (the same item again), each a Put of its own
    expect(ddb.commandCalls(BatchWriteCommand)).toHaveLength(0);
    expect(companions).toHaveLength(2);
    expect(companions).toEqual(
      expect.arrayContaining([
        { TableName: TABLE, Item: { ...emailKeys.content(P, E1), brotli: expect.anything() }, ConditionExpression: 'attribute_not_exists(PK)' },
        { TableName: TABLE, Item: { PK: `PROJECT#${P}#EMAILS_TO#jane@example.com`, SK: `EMAIL#${E1}`, emailId: E1, sourceType: 'workflow', sourceId: 'W1' } },
      ]),
    );
    expect(contentOf(companions.find((put) => put.Item!.SK === `EMAIL_CONTENT#${E1}`)!.Item)).toEqual({ html: '<p>Welcome</p>' });
    expect(ddb.commandCalls(UpdateCommand)).toHaveLength(0);
  });
});
