import { BatchWriteCommand, DynamoDBDocumentClient, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { CLEANUP_PAGE_SIZE, isMemberCleanupJob, parseMemberCleanupJob, removedSegment, runMemberCleanup } from '../../../../shared/segments/cleanup';

const ddb = mockClient(DynamoDBDocumentClient);
const P = 'P1';
const S = '01JSEGMENT0000000000000000';
const PK = `PROJECT#${P}`;
const job = { kind: 'delete-members' as const, projectId: P, segmentId: S };
const later = () => Date.now() + 60_000;
const member = (index: number) => ({ PK, SK: `SEGMENT_MEMBER#${S}#01JC0NTACT00000000000${String(index).padStart(5, '0')}` });

/** A table of `count` members read in pages of the Query's Limit, as DynamoDB pages them; deletes remove them. */
function memberTable(count: number) {
  const items = new Map(Array.from({ length: count }, (_, index) => member(index)).map((key) => [key.SK, key]));
  ddb.on(QueryCommand).callsFake((input: { Limit: number; ExclusiveStartKey?: { SK: string } }) => {
    const sorted = [...items.values()].sort((a, b) => a.SK.localeCompare(b.SK)).filter((key) => !input.ExclusiveStartKey || key.SK > input.ExclusiveStartKey.SK);
    const page = sorted.slice(0, input.Limit);
    return { Items: page, ...(sorted.length > input.Limit ? { LastEvaluatedKey: page[page.length - 1] } : {}) };
  });
  ddb.on(BatchWriteCommand).callsFake((input: { RequestItems: Record<string, { DeleteRequest: { Key: { SK: string } } }[]> }) => {
    for (const request of Object.values(input.RequestItems)[0]!) items.delete(request.DeleteRequest.Key.SK);
    return {};
  });
  return items;
}

describe('runMemberCleanup (a deleted segment\'s members, in the background)', () => {
  beforeEach(() => ddb.reset());

  it('deletes every member of a deleted segment, a page of CLEANUP_PAGE_SIZE at a time, 25 per BatchWriteItem', async () => {
    // Prepare: 230 members, the segment item gone
    ddb.on(GetCommand).resolves({});
    const items = memberTable(230);

    // Act
    const outcome = await runMemberCleanup(job, later());

    // Assess
    expect(outcome).toEqual({ status: 'DONE', deleted: 230 });
    expect(items.size).toBe(0);
    const queries = ddb.commandCalls(QueryCommand).map((call) => call.args[0].input);
    expect(queries).toHaveLength(3);
    for (const input of queries) {
      expect(input).toMatchObject({ KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)', ExpressionAttributeValues: { ':pk': PK, ':prefix': `SEGMENT_MEMBER#${S}#` }, Limit: CLEANUP_PAGE_SIZE });
    }
    const batches = ddb.commandCalls(BatchWriteCommand).map((call) => Object.values(call.args[0].input.RequestItems!)[0]!.length);
    expect(Math.max(...batches)).toBe(25);
    expect(batches.reduce((sum, size) => sum + size, 0)).toBe(230);
    expect(ddb.commandCalls(GetCommand)[0]!.args[0].input).toMatchObject({ Key: { PK, SK: `SEGMENT#${S}` }, ConsistentRead: true });
  });

  it('stops after a page once its time is up with the cursor of the next page, and the continuation (through the queue\'s JSON) deletes the rest', async () => {
    // Prepare
    ddb.on(GetCommand).resolves({});
    const items = memberTable(250);

    // Act: a run already past its deadline does one page, then the job it hands on resumes from its cursor
    const first = await runMemberCleanup(job, Date.now() - 1);
    const afterFirst = items.size;
    const next = first.status === 'CONTINUE' ? parseMemberCleanupJob(JSON.parse(JSON.stringify(first.next))) : undefined;
    const second = next ? await runMemberCleanup(next, later()) : undefined;

    // Assess
    expect(first).toMatchObject({ status: 'CONTINUE', deleted: CLEANUP_PAGE_SIZE, next: { ...job, cursor: member(CLEANUP_PAGE_SIZE - 1) } });
    expect(afterFirst).toBe(250 - CLEANUP_PAGE_SIZE);
    expect(isMemberCleanupJob(next)).toBe(true);
    expect(second).toEqual({ status: 'DONE', deleted: 250 - CLEANUP_PAGE_SIZE });
    expect(items.size).toBe(0);
    expect(ddb.commandCalls(QueryCommand)[1]!.args[0].input.ExclusiveStartKey).toEqual(member(CLEANUP_PAGE_SIZE - 1));
  });

  it('is idempotent: a redelivered job, after its members are gone, deletes nothing more and ends', async () => {
    // Prepare
    ddb.on(GetCommand).resolves({});
    memberTable(40);
    await runMemberCleanup(job, later());
    const writesBefore = ddb.commandCalls(BatchWriteCommand).length;

    // Act
    const again = await runMemberCleanup(job, later());

    // Assess
    expect(again).toEqual({ status: 'DONE', deleted: 0 });
    expect(ddb.commandCalls(BatchWriteCommand)).toHaveLength(writesBefore);
  });

  it('retries the deletes DynamoDB leaves unprocessed', async () => {
    // Prepare
    ddb.on(GetCommand).resolves({});
    ddb.on(QueryCommand).resolves({ Items: [member(1), member(2)] });
    ddb.on(BatchWriteCommand)
      .resolvesOnce({ UnprocessedItems: { 'mailwright-test': [{ DeleteRequest: { Key: member(2) } }] } })
      .resolves({});

    // Act
    const outcome = await runMemberCleanup(job, later());

    // Assess
    expect(outcome).toEqual({ status: 'DONE', deleted: 2 });
    const calls = ddb.commandCalls(BatchWriteCommand).map((call) => Object.values(call.args[0].input.RequestItems!)[0]);
    expect(calls).toEqual([[{ DeleteRequest: { Key: member(1) } }, { DeleteRequest: { Key: member(2) } }], [{ DeleteRequest: { Key: member(2) } }]]);
  });

  it('deletes nothing while the segment still exists (a stray or forged job)', async () => {
    // Prepare
    ddb.on(GetCommand).resolves({ Item: { PK, SK: `SEGMENT#${S}` } });
    memberTable(5);

    // Act
    const outcome = await runMemberCleanup(job, later());

    // Assess
    expect(outcome).toEqual({ status: 'DONE', deleted: 0 });
    expect(ddb.commandCalls(QueryCommand)).toHaveLength(0);
    expect(ddb.commandCalls(BatchWriteCommand)).toHaveLength(0);
  });
});

describe('removedSegment (the membership consumer: a REMOVE of a tracked segment queues the cleanup)', () => {
  it('names the segment of a REMOVE of SEGMENT#<id>, unless it was on demand, and nothing else', () => {
    expect(removedSegment({ eventName: 'REMOVE', keys: { PK, SK: `SEGMENT#${S}` }, oldImage: { trackMembership: true } })).toEqual({ projectId: P, segmentId: S });
    expect(removedSegment({ eventName: 'REMOVE', keys: { PK, SK: `SEGMENT#${S}` } })).toEqual({ projectId: P, segmentId: S });
    expect(removedSegment({ eventName: 'REMOVE', keys: { PK, SK: `SEGMENT#${S}` }, oldImage: { trackMembership: false } })).toBeUndefined();
    expect(removedSegment({ eventName: 'MODIFY', keys: { PK, SK: `SEGMENT#${S}` } })).toBeUndefined();
    expect(removedSegment({ eventName: 'REMOVE', keys: member(1) })).toBeUndefined();
  });
});
