import { CreateScheduleCommand, DeleteScheduleCommand, SchedulerClient } from '@aws-sdk/client-scheduler';
import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { DeleteCommand, DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand, UpdateCommand, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { chooseWinner, runAbWinner, startWaiting } from '../../../../shared/campaigns/ab-test';
import { campaignEmailId } from '../../../../shared/campaigns/content';
import { contentOf } from '../../../../shared/emails/emails';
import { ApiError } from '../../../../shared/http/errors';
import { C, campaignKey, P, startedCampaignItem, statsKey } from '../../../support/campaign-fixtures';

const ddb = mockClient(DynamoDBDocumentClient);
const sqs = mockClient(SQSClient);
const scheduler = mockClient(SchedulerClient);

const FANOUT_QUEUE_URL = 'http://localhost:9324/000000000000/campaign-fanout-test';
const SEND_QUEUE_URL = 'http://localhost:9324/000000000000/campaign-send-test';
const abTest = { variants: [{ subject: 'Alpha' }, { subject: 'Beta for {{contact.data.name}}' }], samplePercent: 50, metric: 'opens', waitMinutes: 30 };
const content = { subject: 'Own', html: '<p>Hi {{contact.data.name}}</p>', from: { email: 'news@acme.test' }, replyTo: null };
const campaignWith = (overrides: Record<string, unknown>) => startedCampaignItem({ content, abTest, ...overrides });
const restPartition = `PROJECT#${P}#CAMPAIGN#${C}#ABREST`;
const held = (n: number) => ({ PK: restPartition, SK: `CONTACT#K${n}`, recipient: { id: `K${n}`, email: `reader${n}@example.com`, data: { name: `Reader ${n}` } } });

const campaignUpdates = () => ddb.commandCalls(UpdateCommand).map((call) => call.args[0].input).filter((input) => input.Key!.SK === campaignKey.SK);
const conditionFailed = () => Object.assign(new Error('The conditional request failed'), { name: 'ConditionalCheckFailedException' });

beforeEach(() => {
  ddb.reset();
  sqs.reset();
  scheduler.reset();
  sqs.on(SendMessageBatchCommand).resolves({ Failed: [] });
  scheduler.on(CreateScheduleCommand).resolves({ ScheduleArn: 'arn:x' });
  scheduler.on(DeleteScheduleCommand).resolves({});
});

describe('startWaiting (the audience has been read)', () => {
  it('makes the one-time schedule waitMinutes ahead, then moves the phase to WAITING, conditioned on no phase yet', async () => {
    // Prepare
    ddb.on(UpdateCommand).resolves({});
    const now = Date.parse('2026-11-23T09:05:00.000Z');

    // Act
    await startWaiting(P, { id: C, status: 'SENDING', abTest } as never, now);

    // Assess
    const [schedule] = scheduler.commandCalls(CreateScheduleCommand).map((call) => call.args[0].input);
    expect(schedule).toMatchObject({ Name: `campaign-ab-${C}`, ScheduleExpression: 'at(2026-11-23T09:35:00)', Target: { Arn: 'arn:aws:sqs:us-east-1:000000000000:campaign-fanout-test' } });
    expect(JSON.parse(schedule!.Target!.Input!)).toEqual({ kind: 'ab-winner', projectId: P, campaignId: C });
    expect(campaignUpdates()).toEqual([
      expect.objectContaining({
        UpdateExpression: 'SET abTest.phase = :waiting, abTest.waitUntil = :at',
        ConditionExpression: 'attribute_exists(abTest) AND attribute_not_exists(abTest.phase)',
        ExpressionAttributeValues: { ':waiting': 'WAITING', ':at': '2026-11-23T09:35:00.000Z' },
      }),
    ]);
  });

  it('does nothing for a campaign without a test, one already waiting, or one cancelled; a lost race is no error', async () => {
    // Prepare
    ddb.on(UpdateCommand).rejects(conditionFailed());

    // Act
    await startWaiting(P, { id: C, status: 'SENDING', abTest: null } as never);
    await startWaiting(P, { id: C, status: 'SENDING', abTest: { ...abTest, phase: 'WAITING' } } as never);
    await startWaiting(P, { id: C, status: 'CANCELLED', abTest } as never);
    const raced = startWaiting(P, { id: C, status: 'PAUSED', abTest } as never);

    // Assess
    await expect(raced).resolves.toBeUndefined();
    expect(scheduler.commandCalls(CreateScheduleCommand)).toHaveLength(1);
  });
});

/** Sent more than `waitMinutes` ago. */
const LONG_AGO = new Date(Date.now() - 2 * 3600_000).toISOString();

/**
 * The campaign's emails (its sample, while WAITING: one Query of the project's email range) and
 * the held rest's pages (Queries of the rest partition).
 */
function givenSample(emails: Record<string, unknown>[], restPages: Record<string, unknown>[][] = [[]]) {
  let page = 0;
  ddb.on(QueryCommand).callsFake(async (input: { KeyConditionExpression: string }) =>
    input.KeyConditionExpression.includes('BETWEEN') ? { Items: emails } : { Items: restPages[Math.min(page++, restPages.length - 1)] },
  );
}

const winnerRunsQueued = () =>
  sqs
    .commandCalls(SendMessageBatchCommand)
    .filter((call) => call.args[0].input.QueueUrl === FANOUT_QUEUE_URL)
    .map((call) => ({ body: JSON.parse(call.args[0].input.Entries![0]!.MessageBody!), delaySeconds: call.args[0].input.Entries![0]!.DelaySeconds }));

describe('runAbWinner (the schedule fired, or the hand pick queued it)', () => {
  it('picks nothing while the sample is still being sent, and looks again a minute later', async () => {
    // Prepare
    ddb.on(GetCommand, { Key: campaignKey }).resolves({ Item: campaignWith({ abTest: { ...abTest, phase: 'WAITING' } }) });
    givenSample([{ status: 'SENT', sentAt: LONG_AGO }, { status: 'QUEUED', updatedAt: LONG_AGO }]);

    // Act
    await runAbWinner(P, C);

    // Assess
    expect(campaignUpdates()).toHaveLength(0);
    expect(winnerRunsQueued()).toEqual([{ body: { kind: 'ab-winner', projectId: P, campaignId: C }, delaySeconds: 60 }]);
  });

  it('waits waitMinutes from when the last sample email went out: the countdown moves there and the run comes back then', async () => {
    // Prepare: the sample's last email went out 10 minutes ago; the wait is 30 minutes
    const lastSent = new Date(Date.now() - 10 * 60_000);
    ddb.on(GetCommand, { Key: campaignKey }).resolves({ Item: campaignWith({ abTest: { ...abTest, phase: 'WAITING', waitUntil: '2026-11-23T09:35:00.000Z' } }) });
    ddb.on(UpdateCommand).resolves({});
    givenSample([{ status: 'SENT', sentAt: LONG_AGO }, { status: 'DELIVERED', sentAt: lastSent.toISOString() }]);

    // Act
    await runAbWinner(P, C);

    // Assess: no pick; waitUntil = last sent + 30 min; back in at most 15 minutes (SQS's longest delay)
    const [moved] = campaignUpdates();
    expect(moved!.ExpressionAttributeValues).toEqual({ ':at': new Date(lastSent.getTime() + 30 * 60_000).toISOString(), ':waiting': 'WAITING' });
    expect(campaignUpdates()).toHaveLength(1);
    expect(winnerRunsQueued()).toEqual([{ body: { kind: 'ab-winner', projectId: P, campaignId: C }, delaySeconds: 900 }]);
  });


  it('picks the variant with the highest unique open rate once, then queues the held rest with its subject and deletes their markers', async () => {
    // Prepare: B opened more; two recipients held
    let phase: Record<string, unknown> = { ...abTest, phase: 'WAITING' };
    ddb.on(GetCommand, { Key: campaignKey }).callsFake(async () => ({ Item: campaignWith({ abTest: phase }) }));
    ddb.on(GetCommand, { Key: statsKey }).resolves({ Item: { ab0_sent: 5, ab0_opened: 1, ab1_sent: 5, ab1_opened: 3 } });
    ddb.on(UpdateCommand).callsFake(async (input: UpdateCommandInput) => {
      if (input.ExpressionAttributeValues![':variant'] !== undefined) phase = { ...phase, phase: 'WINNER', winner: input.ExpressionAttributeValues![':variant'] };
      return {};
    });
    givenSample([{ status: 'DELIVERED', sentAt: LONG_AGO }, { status: 'SENT', sentAt: LONG_AGO }], [[held(1), held(2)], []]);
    ddb.on(PutCommand).resolves({});
    ddb.on(DeleteCommand).resolves({});

    // Act
    await runAbWinner(P, C);

    // Assess
    const [pick, ...others] = campaignUpdates().filter((input) => input.ExpressionAttributeValues![':variant'] !== undefined);
    expect(others).toHaveLength(0);
    expect(pick!.ExpressionAttributeValues).toMatchObject({ ':variant': 1, ':by': 'schedule' });
    expect(pick!.ConditionExpression).toBe('#status IN (:sending, :paused) AND attribute_exists(abTest) AND (abTest.phase = :waiting OR attribute_not_exists(abTest.phase))');
    const puts = ddb.commandCalls(PutCommand).map((call) => call.args[0].input) as { Item: Record<string, unknown>; ConditionExpression?: string }[];
    const records = puts.filter((put) => put.Item.PK === `PROJECT#${P}` && String(put.Item.SK).startsWith('EMAIL#'));
    expect(records.map((put) => [put.Item.subject, put.Item.abVariant, put.ConditionExpression])).toEqual([
      ['Beta for Reader 1', undefined, 'attribute_not_exists(PK)'],
      ['Beta for Reader 2', undefined, 'attribute_not_exists(PK)'],
    ]);
    expect(records.map((put) => put.Item.id)).toEqual(['K1', 'K2'].map((id) => campaignEmailId(C, id, '2026-11-23T09:00:00.000Z')));
    // Each one's HTML, rendered for its recipient, in its content item beside it (a Put only where there is none)
    expect(records.filter((put) => 'html' in put.Item)).toEqual([]);
    const contents = puts.filter((put) => String(put.Item.SK).startsWith('EMAIL_CONTENT#'));
    expect(contents.map((put) => [put.Item.SK, contentOf(put.Item)!.html, put.ConditionExpression])).toEqual(
      records.map((put, index) => [`EMAIL_CONTENT#${put.Item.id}`, `<p>Hi Reader ${index + 1}</p>`, 'attribute_not_exists(PK)']),
    );
    const queued = sqs.commandCalls(SendMessageBatchCommand).filter((call) => call.args[0].input.QueueUrl === SEND_QUEUE_URL).flatMap((call) => call.args[0].input.Entries!.map((entry) => JSON.parse(entry.MessageBody!)));
    expect(queued).toEqual(records.map((put) => ({ projectId: P, emailId: put.Item.id })));
    expect(ddb.commandCalls(DeleteCommand).map((call) => call.args[0].input.Key)).toEqual([held(1), held(2)].map(({ PK, SK }) => ({ PK, SK })));
  });

  it('sends nothing and picks nothing for a cancelled campaign', async () => {
    // Prepare
    ddb.on(GetCommand, { Key: campaignKey }).resolves({ Item: campaignWith({ status: 'CANCELLED', abTest: { ...abTest, phase: 'WAITING' } }) });

    // Act
    await runAbWinner(P, C);

    // Assess
    expect(campaignUpdates()).toHaveLength(0);
    expect(ddb.commandCalls(QueryCommand)).toHaveLength(0);
    expect(sqs.commandCalls(SendMessageBatchCommand)).toHaveLength(0);
  });

  it('does not pick again once a winner is picked: a second run only sends what is still held', async () => {
    // Prepare
    ddb.on(GetCommand, { Key: campaignKey }).resolves({ Item: campaignWith({ abTest: { ...abTest, phase: 'WINNER', winner: 0 } }) });
    ddb.on(QueryCommand).resolves({ Items: [] });

    // Act
    await runAbWinner(P, C);

    // Assess
    expect(campaignUpdates()).toHaveLength(0);
    expect(ddb.commandCalls(GetCommand).filter((call) => call.args[0].input.Key!.SK === statsKey.SK)).toHaveLength(0);
    expect(sqs.commandCalls(SendMessageBatchCommand)).toHaveLength(0);
  });
});

describe('chooseWinner (POST /campaigns/{id}/ab-winner)', () => {
  it('picks by hand while WAITING, queues the rest on the fan-out queue, then deletes the schedule', async () => {
    // Prepare
    ddb.on(GetCommand, { Key: campaignKey })
      .resolvesOnce({ Item: campaignWith({ abTest: { ...abTest, phase: 'WAITING' } }) })
      .resolves({ Item: campaignWith({ abTest: { ...abTest, phase: 'WINNER', winner: 1, pickedBy: 'hand' } }) });
    ddb.on(UpdateCommand).resolves({});

    // Act
    const campaign = await chooseWinner(P, C, 1);

    // Assess
    expect(campaignUpdates()[0]!.ExpressionAttributeValues).toMatchObject({ ':variant': 1, ':by': 'hand' });
    expect(campaignUpdates()[0]!.ConditionExpression).not.toContain('attribute_not_exists(abTest.phase)');
    const fanout = sqs.commandCalls(SendMessageBatchCommand).filter((call) => call.args[0].input.QueueUrl === FANOUT_QUEUE_URL);
    expect(fanout.flatMap((call) => call.args[0].input.Entries!.map((entry) => JSON.parse(entry.MessageBody!)))).toEqual([{ kind: 'ab-winner', projectId: P, campaignId: C }]);
    expect(scheduler.commandCalls(DeleteScheduleCommand)[0]!.args[0].input.Name).toBe(`campaign-ab-${C}`);
    expect(campaign.abTest).toMatchObject({ phase: 'WINNER', winner: 1, pickedBy: 'hand' });
  });

  it('is 409 AB_TEST_NOT_WAITING once picked (or while the sample is queued), 422 for a variant the test lacks, 409 NO_AB_TEST without a test', async () => {
    // Prepare
    const attempt = async (item: Record<string, unknown>, variant: number) => {
      ddb.on(GetCommand, { Key: campaignKey }).resolves({ Item: item });
      return chooseWinner(P, C, variant).catch((error: ApiError) => [error.statusCode, error.code]);
    };

    // Act
    const picked = await attempt(campaignWith({ abTest: { ...abTest, phase: 'WINNER', winner: 0 } }), 1);
    const sampling = await attempt(campaignWith({}), 1);
    const missing = await attempt(campaignWith({ abTest: { ...abTest, phase: 'WAITING' } }), 3);
    const none = await attempt(campaignWith({ abTest: null }), 0);

    // Assess
    expect([picked, sampling, missing, none]).toEqual([
      [409, 'AB_TEST_NOT_WAITING'],
      [409, 'AB_TEST_NOT_WAITING'],
      [422, 'VALIDATION_ERROR'],
      [409, 'NO_AB_TEST'],
    ]);
    expect(campaignUpdates()).toHaveLength(0);
    expect(sqs.commandCalls(SendMessageBatchCommand)).toHaveLength(0);
  });
});
