import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient, GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { refreshTimedSegments } from '../../../../shared/segments/refresh';
import { patchSegment } from '../../../../shared/segments/segments';

const ddb = mockClient(DynamoDBDocumentClient);
const sqs = mockClient(SQSClient);

const P = '01JPROJECT0000000000000000';
const SEGMENT = '01JSEGMENT000000000000000A';
const recent = { operator: 'AND', conditions: [{ field: 'event', operator: 'triggered', value: 'purchase', withinDays: 30 }] } as const;
const ever = { operator: 'AND', conditions: [{ field: 'event', operator: 'triggered', value: 'purchase' }] } as const;

describe('refreshTimedSegments', () => {
  beforeEach(() => {
    ddb.reset();
    sqs.reset();
  });

  it('queues a rebuild with events for every READY segment listed as ageing with time, across projects', async () => {
    // Prepare
    ddb.on(QueryCommand).resolves({
      Items: [
        { GSI1SK: `${P}#${SEGMENT}`, filtersVersion: 3, membershipStatus: 'READY' },
        { GSI1SK: `01JOTHERPROJECT00000000000#01JSEGMENT000000000000000B`, filtersVersion: 1 },
        { GSI1SK: `${P}#01JSEGMENT000000000000000C`, filtersVersion: 2, membershipStatus: 'BUILDING' },
      ],
    });
    sqs.on(SendMessageCommand).resolves({});

    // Act
    const queued = await refreshTimedSegments();

    // Assess
    expect(queued).toBe(2);
    expect(ddb.commandCalls(QueryCommand)[0]!.args[0].input).toMatchObject({ IndexName: 'GSI1', KeyConditionExpression: 'GSI1PK = :timed', ExpressionAttributeValues: { ':timed': 'TIMED_SEGMENTS' } });
    expect(sqs.commandCalls(SendMessageCommand).map((call) => JSON.parse(call.args[0].input.MessageBody!))).toEqual([
      { projectId: P, segmentId: SEGMENT, filtersVersion: 3, recordEvents: true },
      { projectId: '01JOTHERPROJECT00000000000', segmentId: '01JSEGMENT000000000000000B', filtersVersion: 1, recordEvents: true },
    ]);
  });
});

describe('patchSegment lists a tracked segment for the daily refresh only while its filters age with time', () => {
  const stored = (filtersVersion: number, filters: unknown) => ({
    PK: `PROJECT#${P}`,
    SK: `SEGMENT#${SEGMENT}`,
    segmentId: SEGMENT,
    name: 'Buyers',
    filters,
    trackMembership: true,
    filtersVersion,
    memberCount: 0,
    membershipStatus: 'READY',
    createdAt: '2026-11-01T00:00:00.000Z',
    updatedAt: '2026-11-01T00:00:00.000Z',
  });

  beforeEach(() => {
    ddb.reset();
    sqs.reset();
    ddb.on(QueryCommand).resolves({ Items: [] });
    ddb.on(UpdateCommand).resolves({});
    ddb.on(GetCommand).resolves({});
  });

  const segmentUpdate = () => ddb.commandCalls(UpdateCommand).map((call) => call.args[0].input).find((input) => String(input.UpdateExpression).includes('#filters'))!;

  it('sets the listing when the new filters have withinDays', async () => {
    ddb.on(GetCommand, { Key: { PK: `PROJECT#${P}`, SK: `SEGMENT#${SEGMENT}` } }).resolvesOnce({ Item: stored(1, ever) }).resolves({ Item: stored(2, recent) });

    await patchSegment(P, SEGMENT, { filters: recent as never });

    const update = segmentUpdate();
    expect(update.UpdateExpression).toContain('GSI1PK = :timedPk, GSI1SK = :timedSk');
    expect(update.ExpressionAttributeValues).toMatchObject({ ':timedPk': 'TIMED_SEGMENTS', ':timedSk': `${P}#${SEGMENT}`, ':building': 'BUILDING', ':version': 1, ':next': 2 });
  });

  it('removes it when they no longer do', async () => {
    ddb.on(GetCommand, { Key: { PK: `PROJECT#${P}`, SK: `SEGMENT#${SEGMENT}` } }).resolvesOnce({ Item: stored(1, recent) }).resolves({ Item: stored(2, ever) });

    await patchSegment(P, SEGMENT, { filters: ever as never });

    const update = segmentUpdate();
    expect(update.UpdateExpression).toMatch(/ REMOVE GSI1PK, GSI1SK$/);
    expect(update.ExpressionAttributeValues).not.toHaveProperty(':timedPk');
  });
});
