import { DynamoDBDocumentClient, GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { getAnalytics } from '../../../../shared/analytics/analytics';
import { countDaily } from '../../../../shared/analytics/counters';
import { analyticsQuerySchema } from '../../../../shared/analytics/schemas';
import { parseInput } from '../../../../shared/http/validation';

const ddb = mockClient(DynamoDBDocumentClient);
const TABLE = 'mailwright-test';
const P = '01JPROJECT0000000000000000';
const query = (input: Record<string, string>) => parseInput(analyticsQuerySchema, input, 'query');
const zero = { sent: 0, delivered: 0, opened: 0, clicked: 0, bounced: 0, complained: 0 };

beforeEach(() => {
  ddb.reset();
  ddb.on(UpdateCommand).resolves({});
  ddb.on(QueryCommand).resolves({ Items: [] });
  ddb.on(GetCommand, { Key: { PK: `PROJECT#${P}`, SK: 'COUNTER#CONTACTS' } }).resolves({ Item: { total: 120, subscribed: 100 } });
});

describe('countDaily', () => {
  it('adds each outcome to the item of its UTC day, one ADD per day, and ignores what the day does not count', async () => {
    // Act
    await countDaily(P, [
      { metric: 'sent', at: '2026-11-23T23:59:59.999Z' },
      { metric: 'delivered', at: '2026-11-24T00:00:00.000Z' },
      { metric: 'opened', at: '2026-11-24T08:00:00.000Z' },
      { metric: 'delayed', at: '2026-11-24T08:00:00.000Z' },
    ]);

    // Assess
    expect(ddb.commandCalls(UpdateCommand).map((call) => call.args[0].input)).toEqual([
      { TableName: TABLE, Key: { PK: `PROJECT#${P}`, SK: 'ANALYTICS_DAY#2026-11-23' }, UpdateExpression: 'ADD #a0 :a0', ExpressionAttributeNames: { '#a0': 'sent' }, ExpressionAttributeValues: { ':a0': 1 } },
      {
        TableName: TABLE,
        Key: { PK: `PROJECT#${P}`, SK: 'ANALYTICS_DAY#2026-11-24' },
        UpdateExpression: 'ADD #a0 :a0, #a1 :a1',
        ExpressionAttributeNames: { '#a0': 'delivered', '#a1': 'opened' },
        ExpressionAttributeValues: { ':a0': 1, ':a1': 1 },
      },
    ]);
  });

  it('writes nothing when no outcome is a daily one', async () => {
    // Act
    await countDaily(P, [{ metric: 'rejected', at: '2026-11-24T08:00:00.000Z' }]);

    // Assess
    expect(ddb.commandCalls(UpdateCommand)).toHaveLength(0);
  });
});

describe('GET /analytics', () => {
  it('reads the range\'s day items in one Query, fills days without an item with zeros, and adds totals, rates and thresholds', async () => {
    // Prepare
    ddb.on(QueryCommand).resolves({
      Items: [
        { PK: `PROJECT#${P}`, SK: 'ANALYTICS_DAY#2026-11-22', sent: 150, delivered: 140, opened: 30, bounced: 6, complained: 1 },
        { PK: `PROJECT#${P}`, SK: 'ANALYTICS_DAY#2026-11-24', sent: 50, delivered: 50, clicked: 4 },
      ],
    });

    // Act
    const analytics = await getAnalytics(P, query({ from: '2026-11-22', to: '2026-11-24' }));

    // Assess
    expect(ddb.commandCalls(QueryCommand)[0]!.args[0].input).toEqual({
      TableName: TABLE,
      KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': `PROJECT#${P}`, ':from': 'ANALYTICS_DAY#2026-11-22', ':to': 'ANALYTICS_DAY#2026-11-24' },
      ExclusiveStartKey: undefined,
    });
    expect(analytics).toEqual({
      from: '2026-11-22',
      to: '2026-11-24',
      days: [
        { date: '2026-11-22', sent: 150, delivered: 140, opened: 30, clicked: 0, bounced: 6, complained: 1 },
        { date: '2026-11-23', ...zero },
        { date: '2026-11-24', sent: 50, delivered: 50, opened: 0, clicked: 4, bounced: 0, complained: 0 },
      ],
      totals: { sent: 200, delivered: 190, opened: 30, clicked: 4, bounced: 6, complained: 1 },
      bounceRate: 0.03,
      complaintRate: 0.005,
      thresholds: { bounceRate: 0.05, complaintRate: 0.001 },
      contacts: 120,
      subscribers: 100,
    });
  });

  it('defaults to the last 30 days to today (UTC), with zero rates when nothing was sent', async () => {
    // Act
    const analytics = await getAnalytics(P, query({}), new Date('2026-11-24T23:30:00Z'));

    // Assess
    expect([analytics.from, analytics.to, analytics.days.length]).toEqual(['2026-10-26', '2026-11-24', 30]);
    expect([analytics.bounceRate, analytics.complaintRate]).toEqual([0, 0]);
  });

  it('spans a leap day and up to 366 days', async () => {
    // Act
    const analytics = await getAnalytics(P, query({ from: '2028-01-01', to: '2028-12-31' }));

    // Assess
    expect(analytics.days).toHaveLength(366);
    expect(analytics.days[59]!.date).toBe('2028-02-29');
  });

  it.each([
    [{ from: '2026-11-25', to: '2026-11-24' }, 'query.from', 'INVALID_RANGE'],
    [{ from: '2025-01-01', to: '2026-01-02' }, 'query.to', 'INVALID_RANGE'],
  ])('refuses %j with a 422 on %s, reading nothing', async (input, field, code) => {
    // Act
    const attempt = getAnalytics(P, query(input));

    // Assess
    await expect(attempt).rejects.toMatchObject({ statusCode: 422, code: 'VALIDATION_ERROR', errors: [expect.objectContaining({ field, code })] });
    expect(ddb.calls()).toHaveLength(0);
  });

  it.each([[{ from: '2026-02-30' }], [{ to: '24-11-2026' }], [{ from: '2026-11-24T00:00:00Z' }]])('refuses the date %j with a 422', (input) => {
    expect(() => query(input)).toThrow(expect.objectContaining({ statusCode: 422 }));
  });
});
