import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { countCampaignActivity, readCampaignHourly, readCampaignLinks } from '../../../../shared/campaigns/engagement';
import { campaignEmailId } from '../../../../shared/campaigns/content';
import type { EmailRecord } from '../../../../shared/emails/emails';

const ddb = mockClient(DynamoDBDocumentClient);
const P = 'P1';
const C = '01HZY3K8Q2V9J6M4T7W5X0C1AB';
const SENT_AT = '2026-11-25T10:20:00.000Z';
const email = { id: campaignEmailId(C, 'CONTACT1', SENT_AT), projectId: P, contactId: 'CONTACT1', source: { type: 'campaign', id: C } } as EmailRecord;
const click = (link: string) => ({ id: 'E1', name: 'email.clicked', contactId: 'CONTACT1', emailId: email.id, data: { link }, createdAt: '2026-11-25T12:05:00.000Z' });
const conditionFailed = () => Object.assign(new Error('failed'), { name: 'ConditionalCheckFailedException' });

describe('countCampaignActivity', () => {
  beforeEach(() => ddb.reset());

  it('counts opens and clicks in the hour since the send started, on that day\'s item, and nothing outside 14 days', async () => {
    // Prepare
    ddb.on(UpdateCommand).resolves({});

    // Act
    await countCampaignActivity({
      email,
      events: [],
      daily: [
        { metric: 'opened', at: '2026-11-25T12:59:59.000Z' },
        { metric: 'delivered', at: '2026-11-25T10:20:01.000Z' },
        { metric: 'opened', at: '2026-11-27T11:00:00.000Z' },
        { metric: 'opened', at: '2026-12-20T10:00:00.000Z' },
        { metric: 'sent', at: SENT_AT },
      ],
    });

    // Assess: hour 49 (two days and an hour after the send's hour) is on day 2's item
    const updates = ddb.commandCalls(UpdateCommand).map((call) => call.args[0].input);
    expect(updates.map((update) => [update.Key!.SK, Object.values(update.ExpressionAttributeNames!).sort()])).toEqual([
      [`CAMPAIGN_HOURLY#${C}#00`, ['delivered_0', 'opened_2']],
      [`CAMPAIGN_HOURLY#${C}#02`, ['opened_49']],
    ]);
  });

  it('adds a click to an existing link item, with a unique click on the contact\'s first', async () => {
    // Prepare
    ddb.on(PutCommand).resolves({});
    ddb.on(UpdateCommand).resolves({});

    // Act
    await countCampaignActivity({ email, events: [click('https://example.com/a')], daily: [] });

    // Assess
    const update = ddb.commandCalls(UpdateCommand).map((call) => call.args[0].input).find((input) => input.Key!.SK.startsWith('CAMPAIGN_LINK#'))!;
    expect(update).toMatchObject({ UpdateExpression: 'ADD clicks :one, uniqueClicks :unique', ExpressionAttributeValues: { ':one': 1, ':unique': 1 } });
    expect(ddb.commandCalls(PutCommand)[0]!.args[0].input.Item!.SK).toMatch(new RegExp(`^CAMPAIGN_ENGAGED#${C}#link#[0-9a-f]{32}#CONTACT1$`));
  });

  it('creates a new link item with the link count in one transaction, and drops links past the bound', async () => {
    // Prepare: the contact clicked before (not unique); the link is new; then the bound is reached
    ddb.on(PutCommand).rejects(conditionFailed());
    ddb.on(UpdateCommand).rejects(conditionFailed());
    ddb.on(TransactWriteCommand).resolvesOnce({}).rejectsOnce(new TransactionCanceledException({ message: 'cancelled', $metadata: {}, CancellationReasons: [{ Code: 'ConditionalCheckFailed' }, { Code: 'None' }] }));

    // Act
    await countCampaignActivity({ email, events: [click('https://example.com/new')], daily: [] });
    await countCampaignActivity({ email, events: [click('https://example.com/one-too-many')], daily: [] });

    // Assess
    const [created] = ddb.commandCalls(TransactWriteCommand).map((call) => call.args[0].input.TransactItems!);
    expect(created![0]!.Update).toMatchObject({ Key: { SK: `CAMPAIGN_LINKS#${C}` }, ConditionExpression: 'attribute_not_exists(linkCount) OR linkCount < :max', ExpressionAttributeValues: { ':max': 100 } });
    expect(created![1]!.Put!.Item).toMatchObject({ url: 'https://example.com/new', clicks: 1, uniqueClicks: 0 });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(2);
  });
});

describe('reading links and hours', () => {
  beforeEach(() => ddb.reset());

  it('lists links most clicked first', async () => {
    ddb.on(QueryCommand).resolves({ Items: [{ url: 'https://a', clicks: 2, uniqueClicks: 1 }, { url: 'https://b', clicks: 5, uniqueClicks: 4 }] });

    expect(await readCampaignLinks(P, C)).toEqual([{ url: 'https://b', clicks: 5, uniqueClicks: 4 }, { url: 'https://a', clicks: 2, uniqueClicks: 1 }]);
  });

  it('gives every UTC hour from the send to now with zeros, summing the days\' items and the single item of before, and nothing before sending', async () => {
    // Prepare: the single item campaigns counted in before, and a day's item
    ddb.on(QueryCommand).resolves({ Items: [{ SK: `CAMPAIGN_HOURLY#${C}`, delivered_0: 3, opened_2: 1 }, { SK: `CAMPAIGN_HOURLY#${C}#00`, delivered_0: 2 }] });

    // Act
    const hours = await readCampaignHourly(P, C, SENT_AT, Date.parse('2026-11-25T12:30:00.000Z'));

    // Assess
    expect(ddb.commandCalls(QueryCommand)[0]!.args[0].input).toMatchObject({ KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)', ExpressionAttributeValues: { ':pk': `PROJECT#${P}`, ':prefix': `CAMPAIGN_HOURLY#${C}` } });
    expect(hours).toEqual([
      { hour: '2026-11-25T10:00:00.000Z', delivered: 5, opened: 0, clicked: 0 },
      { hour: '2026-11-25T11:00:00.000Z', delivered: 0, opened: 0, clicked: 0 },
      { hour: '2026-11-25T12:00:00.000Z', delivered: 0, opened: 1, clicked: 0 },
    ]);
    expect(await readCampaignHourly(P, C, null)).toEqual([]);
  });
});
