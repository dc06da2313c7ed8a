import { gzipSync } from 'node:zlib';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { getEmailActivity } from '../../../../shared/emails/activity';
import { contentOf, putEmailOnce, putEmails, type EmailRecord } from '../../../../shared/emails/emails';
import { emailKeys, emailSortKeyBounds } from '../../../../shared/emails/keys';

const ddb = mockClient(DynamoDBDocumentClient);
const TABLE = 'mailwright-test';
const P = '01JPROJECT0000000000000000';
const E1 = '01KAQ5VZ3N4G8T2M6P0R9S7W1X';
const MAX_TIME = 281474976710655;

const email = (overrides: Partial<EmailRecord> = {}): EmailRecord => ({
  id: E1,
  projectId: P,
  contactId: '01KCONTACT0000000000000000',
  to: { email: 'jane@example.com' },
  from: { email: 'news@acme.test', name: 'Acme News' },
  replyTo: [],
  subject: 'Your November digest',
  html: '<p>Hi Jane</p>',
  text: 'Hi Jane',
  headers: [],
  attachments: [],
  source: { type: 'transactional' },
  marketing: false,
  status: 'QUEUED',
  createdAt: '2026-11-24T09:00:00.000Z',
  updatedAt: '2026-11-24T09:00:00.000Z',
  ...overrides,
});

/** About 20 KB of newsletter HTML: a table row per article, as a template renders it. */
const newsletterHtml = `<html><body><table>${Array.from(
  { length: 140 },
  (_, index) => `<tr><td class="article"><a href="https://acme.test/articles/${index}?utm_source=digest">Article ${index}</a><p>What changed in week ${index % 52}, and why.</p></td></tr>`,
).join('')}</table></body></html>`;

/** The items putEmails writes for these records, by kind (BatchWriteItem mocked). */
async function writtenBy(records: EmailRecord[]) {
  ddb.on(BatchWriteCommand).resolves({});
  ddb.on(UpdateCommand).resolves({});
  await putEmails(records);
  const items = ddb.commandCalls(BatchWriteCommand).flatMap((call) => call.args[0].input.RequestItems![TABLE]!.map((request) => request.PutRequest!.Item!));
  ddb.resetHistory();
  return {
    records: items.filter((item) => item.PK === `PROJECT#${P}` && String(item.SK).startsWith('EMAIL#')),
    contents: items.filter((item) => String(item.SK).startsWith('EMAIL_CONTENT#')),
  };
}

beforeEach(() => {
  ddb.reset();
  ddb.on(GetCommand).resolves({});
  ddb.on(QueryCommand).resolves({ Items: [] });
});

describe('putEmails: the content in an item of its own', () => {
  it('writes the record without its HTML and text, small however large the email, and the content compressed in its content item', async () => {
    // Prepare: an email of 20 KB of HTML
    expect(newsletterHtml.length).toBeGreaterThan(20_000);

    // Act
    const { records, contents } = await writtenBy([email({ html: newsletterHtml, text: 'Your November digest, in text' })]);

    // Assess: the record, updated at every step of the email's life, carries no content and stays under 1 KB (one WRU an update)
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ ...emailKeys.email(P, E1), subject: 'Your November digest', status: 'QUEUED' });
    expect(records[0]).not.toHaveProperty('html');
    expect(records[0]).not.toHaveProperty('text');
    expect(Buffer.byteLength(JSON.stringify(records[0]))).toBeLessThan(1024);
    // The content item: the HTML and text as given, compressed, outside the record range that listing reads
    expect(contents).toHaveLength(1);
    expect(Object.keys(contents[0]!).sort()).toEqual(['PK', 'SK', 'brotli']);
    expect({ PK: contents[0]!.PK, SK: contents[0]!.SK }).toEqual(emailKeys.content(P, E1));
    expect(contentOf(contents[0])).toEqual({ html: newsletterHtml, text: 'Your November digest, in text' });
    expect((contents[0]!.brotli as Uint8Array).byteLength).toBeLessThan(newsletterHtml.length / 5);
    const bounds = emailSortKeyBounds(0, MAX_TIME);
    expect(String(contents[0]!.SK) >= bounds.low && String(contents[0]!.SK) <= bounds.high).toBe(false);
  });

  it('keeps the content item of a 2 KB email under 1 KB (one WRU)', async () => {
    // Prepare: 2 KB of prose-like HTML and its text part
    const sentences = Array.from({ length: 40 }, (_, index) => `<p>Your order ${1000 + index * 7} ships ${['today', 'tomorrow', 'on Monday'][index % 3]}; track it any time from your account page.</p>`);
    const html = sentences.join('').slice(0, 2048);

    // Act
    const { contents } = await writtenBy([email({ html, text: html.replace(/<[^>]+>/g, ' ') })]);

    // Assess: the item as DynamoDB sizes it (names and values)
    const size = Object.entries(contents[0]!).reduce((sum, [name, value]) => sum + name.length + (value instanceof Uint8Array ? value.byteLength : String(value).length), 0);
    expect(size).toBeLessThan(1024);
  });

  it('still reads the content of an item written gzip-compressed, before Brotli', () => {
    // Prepare
    const item = { ...emailKeys.content(P, E1), content: gzipSync(JSON.stringify({ html: '<p>Older</p>', text: 'Older' })) };

    // Act / Assess
    expect(contentOf(item)).toEqual({ html: '<p>Older</p>', text: 'Older' });
    expect(contentOf(undefined)).toBeUndefined();
  });

  it('stores no text for an email without a text part (SES gets one made from the HTML)', async () => {
    // Act
    const { contents } = await writtenBy([email({ text: undefined })]);

    // Assess
    expect(contentOf(contents[0])).toEqual({ html: '<p>Hi Jane</p>' });
  });
});

describe('putEmailOnce: the content written once, like the record', () => {
  it('leaves the content of an email already there as it is (a retry rendered since), still writes its reference, and counts nothing', async () => {
    // Prepare: the record and its content exist (written by an earlier run): both conditional Puts are refused
    const exists = () => new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} });
    ddb.on(PutCommand).resolves({});
    ddb.on(PutCommand, { Item: emailKeys.email(P, E1), ConditionExpression: 'attribute_not_exists(PK)' }).rejects(exists());
    ddb.on(PutCommand, { Item: emailKeys.content(P, E1), ConditionExpression: 'attribute_not_exists(PK)' }).rejects(exists());
    ddb.on(UpdateCommand).resolves({});

    // Act: the retry renders differently (the template edited since); the refusals are answers, not errors
    await expect(putEmailOnce(email({ html: '<p>Hi Jane, edited since</p>', text: 'Hi Jane, edited since' }))).resolves.toBeUndefined();

    // Assess: the record's Put, then the content's, conditional (never an overwrite of what the email says)
    const puts = ddb.commandCalls(PutCommand).map((call) => call.args[0].input);
    const recordPut = puts.findIndex((put) => put.Item!.PK === `PROJECT#${P}` && put.Item!.SK === `EMAIL#${E1}`);
    const contentPut = puts.findIndex((put) => put.Item!.SK === `EMAIL_CONTENT#${E1}`);
    expect(recordPut).toBe(0);
    expect(contentPut).toBeGreaterThan(recordPut);
    expect(puts[contentPut]).toEqual({ TableName: TABLE, Item: { ...emailKeys.content(P, E1), brotli: expect.anything() }, ConditionExpression: 'attribute_not_exists(PK)' });
    // The recipient reference still written (the run that wrote the record may have died before it), unconditionally
    expect(puts.filter((put) => put.Item!.PK !== `PROJECT#${P}`)).toEqual([
      { TableName: TABLE, Item: { PK: `PROJECT#${P}#EMAILS_TO#jane@example.com`, SK: `EMAIL#${E1}`, emailId: E1, sourceType: 'transactional' } },
    ]);
    expect(puts).toHaveLength(3);
    expect(ddb.commandCalls(BatchWriteCommand)).toHaveLength(0);
    // Nothing counted: the email is not new
    expect(ddb.commandCalls(UpdateCommand)).toHaveLength(0);
  });
});

describe('GET /emails/{id}: the content from its content item', () => {
  it('answers the HTML and text of the content item putEmails wrote, read consistently beside the record', async () => {
    // Prepare: the items as putEmails stored them
    const { records, contents } = await writtenBy([email()]);
    ddb.on(GetCommand, { Key: emailKeys.email(P, E1) }).resolves({ Item: records[0] });
    ddb.on(GetCommand, { Key: emailKeys.content(P, E1) }).resolves({ Item: contents[0] });

    // Act
    const answer = await getEmailActivity(P, E1);

    // Assess
    expect(answer).toMatchObject({ id: E1, subject: 'Your November digest', html: '<p>Hi Jane</p>', text: 'Hi Jane', status: 'QUEUED' });
    expect(ddb.commandCalls(GetCommand).map((call) => call.args[0].input)).toContainEqual({ TableName: TABLE, Key: emailKeys.content(P, E1), ConsistentRead: true });
  });

  it('still answers the HTML of a record written before the content had its own item (no content item)', async () => {
    // Prepare: an old record, its HTML inline and no text part; no content item
    const { text: _text, ...old } = email({ html: '<p>From before</p>' });
    ddb.on(GetCommand, { Key: emailKeys.email(P, E1) }).resolves({ Item: { ...emailKeys.email(P, E1), ...old } });

    // Act
    const answer = await getEmailActivity(P, E1);

    // Assess: the content item was looked for, and the record's own HTML answered
    expect(ddb.commandCalls(GetCommand).map((call) => call.args[0].input)).toContainEqual({ TableName: TABLE, Key: emailKeys.content(P, E1), ConsistentRead: true });
    expect(answer).toMatchObject({ id: E1, html: '<p>From before</p>', text: null });
  });
});
