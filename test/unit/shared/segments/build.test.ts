import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { BatchGetCommand, DynamoDBDocumentClient, GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { SQSEvent } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { decodeTime, ulid } from 'ulid';
import { handler } from '../../../../functions/segment-builder/handler';
import { runBuild, type BuildJob } from '../../../../shared/segments/build';

const ddb = mockClient(DynamoDBDocumentClient);
const sqs = mockClient(SQSClient);

const P = 'P1';
const SEGMENT = '01JSEGMENT000000000000000A';
const UPDATED = '2026-11-01T00:00:00.000Z';
const pro = { operator: 'AND', conditions: [{ field: 'data.plan', operator: 'equals', value: 'pro' }] };
/** A creation build: the segment's first filters. */
const job: BuildJob = { projectId: P, segmentId: SEGMENT, filtersVersion: 1, recordEvents: false };
/** The segment's creation, after the contacts' last change (UPDATED): they were in it from its creation. */
const CREATED = '2026-11-02T00:00:00.000Z';

const segmentItem = (filtersVersion = 1) => ({ PK: `PROJECT#${P}`, SK: `SEGMENT#${SEGMENT}`, segmentId: SEGMENT, name: 'Pro', filters: pro, trackMembership: true, filtersVersion, createdAt: CREATED });
const contact = (id: string, plan: string) => ({ contactId: id, email: `${id.toLowerCase()}@example.com`, subscribed: true, data: { plan }, updatedAt: UPDATED });
const cancelled = (...codes: string[]) => new TransactionCanceledException({ message: 'cancelled', $metadata: {}, CancellationReasons: codes.map((Code) => ({ Code })) });

/** The table as the build reads it: one page of contacts (newest first), the members among them. */
function table({ contacts, members, nextKey, reread = contacts }: { contacts: Record<string, unknown>[]; members: string[]; nextKey?: Record<string, unknown>; reread?: Record<string, unknown>[] }) {
  ddb.on(GetCommand).resolves({});
  ddb.on(GetCommand, { Key: { PK: `PROJECT#${P}`, SK: `SEGMENT#${SEGMENT}` } }).resolves({ Item: segmentItem() });
  ddb.on(QueryCommand).callsFake((input) => {
    if (String(input.ExpressionAttributeValues?.[':prefix']) === 'CONTACT#') return { Items: contacts, LastEvaluatedKey: nextKey };
    if (String(input.KeyConditionExpression).includes('BETWEEN')) return { Items: members.map((contactId) => ({ contactId })) };
    if (input.ExpressionAttributeValues?.[':prefix'] === 'SEGMENT#') return { Items: [segmentItem()] };
    return { Items: [] };
  });
  // The re-read after writing (by default nobody changed the page meanwhile).
  ddb.on(BatchGetCommand).resolves({ Responses: { [process.env.TABLE_NAME!]: reread.map((item) => ({ contactId: item.contactId, updatedAt: item.updatedAt })) } });
  ddb.on(TransactWriteCommand).resolves({});
  ddb.on(UpdateCommand).resolves({});
}

const transactions = () => ddb.commandCalls(TransactWriteCommand).map((call) => call.args[0].input.TransactItems!);

describe('runBuild', () => {
  beforeEach(() => {
    ddb.reset();
    sqs.reset();
  });

  it('writes the page difference with the counter in one transaction, then marks the segment READY', async () => {
    // Prepare: C3 and C2 are pro (C2 already a member); C1 is a member but free now.
    table({ contacts: [contact('C3', 'pro'), contact('C2', 'PRO'), contact('C1', 'free')], members: ['C2', 'C1'] });

    // Act
    const outcome = await runBuild(job, Date.now() + 60_000);

    // Assess
    expect(outcome).toEqual({ status: 'READY' });
    const memberQuery = ddb.commandCalls(QueryCommand).map((call) => call.args[0].input).find((input) => String(input.KeyConditionExpression).includes('BETWEEN'))!;
    expect(memberQuery).toMatchObject({
      KeyConditionExpression: 'PK = :pk AND SK BETWEEN :low AND :high',
      ExpressionAttributeValues: { ':pk': `PROJECT#${P}`, ':low': `SEGMENT_MEMBER#${SEGMENT}#C1`, ':high': `SEGMENT_MEMBER#${SEGMENT}#C3` },
      ConsistentRead: true,
    });
    const [items] = transactions();
    expect(items).toHaveLength(3);
    expect(items![0]!.Update).toMatchObject({
      Key: { PK: `PROJECT#${P}`, SK: `SEGMENT#${SEGMENT}` },
      UpdateExpression: 'ADD memberCount :delta',
      ConditionExpression: 'filtersVersion = :version',
      ExpressionAttributeValues: { ':delta': 0, ':version': 1 },
    });
    // Each write carries the view it was decided from: the contact's updatedAt and latest filter event (none here).
    expect(items![1]!.Put).toMatchObject({
      Item: { PK: `PROJECT#${P}`, SK: `SEGMENT_MEMBER#${SEGMENT}#C3`, contactId: 'C3', filtersVersion: 1, seenUpdatedAt: UPDATED, seenEventAt: 0 },
      ConditionExpression: 'attribute_not_exists(PK)',
    });
    expect(items![2]!.Delete).toEqual({
      TableName: process.env.TABLE_NAME,
      Key: { PK: `PROJECT#${P}`, SK: `SEGMENT_MEMBER#${SEGMENT}#C1` },
      ConditionExpression: 'attribute_exists(PK) AND (attribute_not_exists(filtersVersion) OR filtersVersion <> :version OR (seenUpdatedAt <= :seenUpdatedAt AND seenEventAt <= :seenEventAt))',
      ExpressionAttributeValues: { ':version': 1, ':seenUpdatedAt': UPDATED, ':seenEventAt': 0 },
    });
    expect(ddb.commandCalls(UpdateCommand).map((call) => call.args[0].input)).toEqual([
      expect.objectContaining({
        Key: { PK: `PROJECT#${P}`, SK: `SEGMENT#${SEGMENT}` },
        UpdateExpression: 'SET membershipStatus = :ready',
        ConditionExpression: 'filtersVersion = :version',
        ExpressionAttributeValues: { ':ready': 'READY', ':version': 1 },
      }),
    ]);
  });

  it('leaves out a membership the stream consumer wrote first, and counts only what it wrote', async () => {
    // Prepare: C2 and C1 enter; the consumer put C2's membership between the read and the write.
    table({ contacts: [contact('C2', 'pro'), contact('C1', 'pro')], members: [] });
    ddb.on(TransactWriteCommand).rejectsOnce(cancelled('None', 'ConditionalCheckFailed', 'None')).resolves({});

    // Act
    const outcome = await runBuild(job, Date.now() + 60_000);

    // Assess
    expect(outcome).toEqual({ status: 'READY' });
    const [, retry] = transactions();
    expect(retry).toHaveLength(2);
    expect(retry![0]!.Update!.ExpressionAttributeValues).toMatchObject({ ':delta': 1 });
    expect(retry![1]!.Put!.Item).toMatchObject({ contactId: 'C1' });
  });

  it('re-evaluates from the table a contact that changed between the page read and the write', async () => {
    // Prepare: C1 was updated after the build read it (the stream consumer may have seen the new state first).
    table({ contacts: [contact('C2', 'pro'), contact('C1', 'pro')], members: [], reread: [contact('C2', 'pro'), { ...contact('C1', 'free'), updatedAt: '2026-11-01T00:00:05.000Z' }] });

    // Act
    await runBuild(job, Date.now() + 60_000);

    // Assess: C1 (only) is read again, consistently, the stream consumer's way.
    const contactReads = ddb.commandCalls(GetCommand).map((call) => call.args[0].input).filter((input) => String(input.Key?.SK).startsWith('CONTACT#'));
    expect(contactReads).toEqual([expect.objectContaining({ Key: { PK: `PROJECT#${P}`, SK: 'CONTACT#C1' }, ConsistentRead: true })]);
  });

  it('a refresh lets members whose event aged out of withinDays exit, with segment.exited', async () => {
    // Prepare: "purchase within 30 days"; C2 purchased yesterday, C1 (a member) 40 days ago.
    const now = Date.now();
    const recent = { operator: 'AND', conditions: [{ field: 'event', operator: 'triggered', value: 'purchase', withinDays: 30 }] };
    table({ contacts: [contact('C2', 'free'), contact('C1', 'free')], members: ['C2', 'C1'] });
    ddb.on(GetCommand, { Key: { PK: `PROJECT#${P}`, SK: `SEGMENT#${SEGMENT}` } }).resolves({ Item: { ...segmentItem(), filters: recent } });
    const purchases = [
      { contactId: 'C1', eventId: ulid(now - 40 * 86_400_000) },
      { contactId: 'C2', eventId: ulid(now - 86_400_000) },
    ];
    ddb.on(QueryCommand, { IndexName: 'GSI2' }).callsFake((input) => ({ Items: purchases.filter((event) => event.eventId >= String(input.ExpressionAttributeValues[':low'])) }));

    // Act
    await runBuild({ ...job, recordEvents: true }, now + 60_000);

    // Assess: the name partition is read from 30 days back; only C1 leaves.
    const low = String(ddb.commandCalls(QueryCommand).find((call) => call.args[0].input.IndexName === 'GSI2')!.args[0].input.ExpressionAttributeValues![':low']);
    expect(decodeTime(low.slice(0, 10) + '0'.repeat(16))).toBeGreaterThanOrEqual(now - 30 * 86_400_000);
    const [items] = transactions();
    expect(items).toHaveLength(3);
    expect(items![0]!.Update!.ExpressionAttributeValues).toMatchObject({ ':delta': -1 });
    expect(items![1]!.Delete!.Key).toEqual({ PK: `PROJECT#${P}`, SK: `SEGMENT_MEMBER#${SEGMENT}#C1` });
    expect(items![2]!.Put!.Item).toMatchObject({ name: 'segment.exited', contactId: 'C1', data: { segmentId: SEGMENT } });
  });

  it('stops without marking READY when the filters changed under it (the newer build owns the segment)', async () => {
    table({ contacts: [contact('C1', 'pro')], members: [] });
    ddb.on(TransactWriteCommand).rejects(cancelled('ConditionalCheckFailed', 'None'));

    const outcome = await runBuild(job, Date.now() + 60_000);

    expect(outcome).toEqual({ status: 'SUPERSEDED' });
    expect(ddb.commandCalls(UpdateCommand)).toHaveLength(0);
  });

  it('does nothing for a job whose segment has newer filters', async () => {
    ddb.on(GetCommand).resolves({ Item: segmentItem(3) });

    const outcome = await runBuild(job, Date.now() + 60_000);

    expect(outcome).toEqual({ status: 'SUPERSEDED' });
    expect(ddb.commandCalls(QueryCommand)).toHaveLength(0);
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('returns the job that continues from the next page once its deadline passed', async () => {
    const nextKey = { PK: `PROJECT#${P}`, SK: 'CONTACT#C1' };
    table({ contacts: [contact('C1', 'pro')], members: [], nextKey });

    const outcome = await runBuild(job, Date.now() - 1);

    expect(outcome).toEqual({ status: 'CONTINUE', next: { ...job, startKey: nextKey } });
    expect(ddb.commandCalls(QueryCommand).filter((call) => call.args[0].input.ExpressionAttributeValues?.[':prefix'] === 'CONTACT#')).toHaveLength(1);
    expect(ddb.commandCalls(UpdateCommand)).toHaveLength(0);
  });

  it('records segment.entered / segment.exited in the same transaction when asked, 49 changes per transaction', async () => {
    const contacts = Array.from({ length: 60 }, (_, index) => contact(`C${String(99 - index).padStart(2, '0')}`, 'pro'));
    table({ contacts, members: [] });

    await runBuild({ ...job, recordEvents: true }, Date.now() + 60_000);

    const [first, second] = transactions();
    expect(first).toHaveLength(1 + 49 * 2);
    expect(second).toHaveLength(1 + 11 * 2);
    expect(first![0]!.Update!.ExpressionAttributeValues).toMatchObject({ ':delta': 49 });
    expect(first!.slice(50).every((item) => item.Put?.Item?.name === 'segment.entered' && (item.Put.Item.data as { segmentId: string }).segmentId === SEGMENT)).toBe(true);
  });
});

describe('segment-builder handler', () => {
  beforeEach(() => {
    ddb.reset();
    sqs.reset();
  });

  const event = (body: unknown): SQSEvent => ({
    Records: [{ messageId: 'm1', receiptHandle: 'r1', body: JSON.stringify(body), attributes: { ApproximateReceiveCount: '1' } as never, messageAttributes: {}, md5OfBody: '', eventSource: 'aws:sqs', eventSourceARN: 'arn:aws:sqs:us-east-1:123456789012:segment-builds', awsRegion: 'us-east-1' }],
  });

  it('queues the continuation when its time runs out', async () => {
    const nextKey = { PK: `PROJECT#${P}`, SK: 'CONTACT#C1' };
    table({ contacts: [contact('C1', 'pro')], members: [], nextKey });
    sqs.on(SendMessageCommand).resolves({});

    const response = await handler(event(job), { getRemainingTimeInMillis: () => 5_000 } as never);

    expect(response).toEqual({ batchItemFailures: [] });
    expect(sqs.commandCalls(SendMessageCommand).map((call) => JSON.parse(call.args[0].input.MessageBody!))).toEqual([{ ...job, startKey: nextKey }]);
  });

  it('reports a job that is not one as a failure (it reaches the DLQ), without touching the table', async () => {
    const response = await handler(event({ projectId: P, segmentId: SEGMENT }), { getRemainingTimeInMillis: () => 30_000 } as never);

    expect(response).toEqual({ batchItemFailures: [{ itemIdentifier: 'm1' }] });
    expect(ddb.calls()).toHaveLength(0);
  });
});
