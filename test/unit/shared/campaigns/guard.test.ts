import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { defaultGuardThresholds, guardThresholdsFrom, pauseReasonFor } from '../../../../shared/campaigns/guard';
import { pauseIfUndeliverable } from '../../../../shared/campaigns/pause';
import { notificationId } from '../../../../shared/notifications/notifications';
import { C, campaignKey, P, startedCampaignItem, statsKey } from '../../../support/campaign-fixtures';

const ddb = mockClient(DynamoDBDocumentClient);
const at = new Date('2026-11-23T10:00:00.000Z');
const counters = (sent: number, bounced: number, complained = 0) => ({ sent, bounced, complained });

const sendingCampaign = startedCampaignItem({
  version: 7,
  dispatch: { done: true },
});

describe('pauseReasonFor (the guard rule)', () => {
  it.each([
    ['199 sends with every one bounced', counters(199, 199)],
    ['exactly 5 % of 200 sends bounced', counters(200, 10)],
    ['exactly 5 % of 1000 sends bounced', counters(1000, 50)],
    ['999 sends with 2 complaints', counters(999, 0, 2)],
    ['exactly 0.1 % of 1000 sends complained', counters(1000, 0, 1)],
    ['exactly 0.1 % of 3000 sends complained', counters(3000, 0, 3)],
  ])('does not pause at %s', (_, campaign) => {
    expect(pauseReasonFor(campaign, undefined, defaultGuardThresholds)).toBeUndefined();
  });

  it.each([
    ['11 of 200 sends bounced', counters(200, 11), 'Bounce rate 5.50 % over 200 sends passed the 5 % threshold'],
    ['15 of 250 sends bounced', counters(250, 15), 'Bounce rate 6.00 % over 250 sends passed the 5 % threshold'],
    ['2 of 1000 sends complained', counters(1000, 0, 2), 'Complaint rate 0.20 % over 1000 sends passed the 0.1 % threshold'],
  ])('pauses when %s', (_, campaign, reason) => {
    expect(pauseReasonFor(campaign, undefined, defaultGuardThresholds)).toBe(reason);
  });

  it('counts from the baseline of the last resume: its minimum sends start again', () => {
    // Prepare: 30 bounces of 300 sends (10 %) when it was resumed
    const baseline = counters(300, 30);
    // Act / Assess
    expect(pauseReasonFor(counters(499, 60), baseline, defaultGuardThresholds)).toBeUndefined();
    expect(pauseReasonFor(counters(500, 40), baseline, defaultGuardThresholds)).toBeUndefined();
    expect(pauseReasonFor(counters(500, 41), baseline, defaultGuardThresholds)).toBe('Bounce rate 5.50 % over 200 sends passed the 5 % threshold');
  });
});

describe('guardThresholdsFrom', () => {
  it('takes the defaults when unset and the values given otherwise', () => {
    expect(guardThresholdsFrom(() => undefined, 'env')).toEqual({ bounceRate: 0.05, bounceMinSends: 200, complaintRate: 0.001, complaintMinSends: 1000 });
    const env: Record<string, string> = { PAUSE_BOUNCE_RATE: '0.02', PAUSE_BOUNCE_MIN_SENDS: '50', PAUSE_COMPLAINT_RATE: '0.0005', PAUSE_COMPLAINT_MIN_SENDS: '' };
    expect(guardThresholdsFrom((setting) => env[setting.env], 'env')).toEqual({ bounceRate: 0.02, bounceMinSends: 50, complaintRate: 0.0005, complaintMinSends: 1000 });
  });

  it.each([
    ['PAUSE_BOUNCE_RATE', '5', /Environment variable PAUSE_BOUNCE_RATE must be a fraction above 0 and below 1 \(0.05 = 5 %\), got "5"/],
    ['PAUSE_COMPLAINT_RATE', '0', /PAUSE_COMPLAINT_RATE must be a fraction/],
    ['PAUSE_BOUNCE_MIN_SENDS', '12.5', /Environment variable PAUSE_BOUNCE_MIN_SENDS must be a whole number from 1, got "12.5"/],
    ['PAUSE_COMPLAINT_MIN_SENDS', 'many', /PAUSE_COMPLAINT_MIN_SENDS must be a whole number/],
  ])('refuses %s=%s, naming it', (name, value, message) => {
    expect(() => guardThresholdsFrom((setting) => (setting.env === name ? value : undefined), 'env')).toThrow(message);
  });
});

describe('pauseIfUndeliverable', () => {
  beforeEach(() => {
    ddb.reset();
  });

  it('pauses a SENDING campaign past the bounce threshold: PAUSED with its reason, the counters and campaign.paused in one transaction', async () => {
    // Prepare
    ddb.on(GetCommand, { Key: campaignKey }).resolves({ Item: sendingCampaign });
    ddb.on(GetCommand, { Key: statsKey }).resolves({ Item: { ...statsKey, sent: 250, bounced: 15, complained: 0, delivered: 200 } });
    ddb.on(TransactWriteCommand).resolves({});
    const reason = 'Bounce rate 6.00 % over 250 sends passed the 5 % threshold';

    // Act
    const paused = await pauseIfUndeliverable(P, C, at);

    // Assess
    expect(paused).toBe(true);
    expect(ddb.commandCalls(GetCommand).map((call) => call.args[0].input)).toEqual([
      { TableName: 'mailwright-test', Key: campaignKey, ConsistentRead: true },
      { TableName: 'mailwright-test', Key: statsKey, ConsistentRead: true, ProjectionExpression: 'sent, bounced, complained' },
    ]);
    const [items] = ddb.commandCalls(TransactWriteCommand).map((call) => call.args[0].input.TransactItems!);
    expect(items).toEqual([
      {
        Update: {
          TableName: 'mailwright-test',
          Key: campaignKey,
          UpdateExpression: 'SET #version = #version + :one, #f0 = :f0, #f1 = :f1, #f2 = :f2, #f3 = :f3',
          ConditionExpression: '#f2 = :from AND #version = :version',
          ExpressionAttributeNames: { '#version': 'version', '#f0': 'pausedAt', '#f1': 'pauseReason', '#f2': 'status', '#f3': 'updatedAt' },
          ExpressionAttributeValues: { ':from': 'SENDING', ':version': 7, ':one': 1, ':f0': at.toISOString(), ':f1': reason, ':f2': 'PAUSED', ':f3': at.toISOString() },
        },
      },
      {
        Update: {
          TableName: 'mailwright-test',
          Key: { PK: `PROJECT#${P}`, SK: 'COUNTER#CAMPAIGNS' },
          UpdateExpression: 'ADD #c0 :c0, #c1 :c1',
          ExpressionAttributeNames: { '#c0': 'SENDING', '#c1': 'PAUSED' },
          ExpressionAttributeValues: { ':c0': -1, ':c1': 1 },
        },
      },
      {
        Put: {
          TableName: 'mailwright-test',
          Item: expect.objectContaining({
            PK: `PROJECT#${P}`,
            SK: `NOTIFICATION#${notificationId('campaign.paused', `${C}#7`)}`,
            type: 'campaign.paused',
            data: expect.objectContaining({ id: C, status: 'PAUSED', pausedAt: at.toISOString(), pauseReason: reason, updatedAt: at.toISOString() }),
          }),
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
    ]);
    expect(JSON.stringify(items![2]!.Put!.Item!.data)).not.toMatch(/dispatch|version|content/);
  });

  it('leaves a campaign below the thresholds alone', async () => {
    // Prepare: exactly 5 %
    ddb.on(GetCommand, { Key: campaignKey }).resolves({ Item: sendingCampaign });
    ddb.on(GetCommand, { Key: statsKey }).resolves({ Item: { sent: 400, bounced: 20, complained: 0 } });

    // Act
    const paused = await pauseIfUndeliverable(P, C, at);

    // Assess
    expect(paused).toBe(false);
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('does not read the counters of a campaign that is not SENDING (already PAUSED, SENT, CANCELLED)', async () => {
    // Prepare
    ddb.on(GetCommand, { Key: campaignKey }).resolves({ Item: { ...sendingCampaign, status: 'PAUSED' } });

    // Act
    const paused = await pauseIfUndeliverable(P, C, at);

    // Assess
    expect(paused).toBe(false);
    expect(ddb.commandCalls(GetCommand)).toHaveLength(1);
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('lets a concurrent check or change win: a failed condition pauses nothing more', async () => {
    // Prepare
    ddb.on(GetCommand, { Key: campaignKey }).resolves({ Item: sendingCampaign });
    ddb.on(GetCommand, { Key: statsKey }).resolves({ Item: { sent: 250, bounced: 15, complained: 0 } });
    ddb.on(TransactWriteCommand).rejects(
      new TransactionCanceledException({ message: 'cancelled', $metadata: {}, CancellationReasons: [{ Code: 'ConditionalCheckFailed' }, { Code: 'None' }, { Code: 'None' }] }),
    );

    // Act
    const paused = await pauseIfUndeliverable(P, C, at);

    // Assess
    expect(paused).toBe(false);
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(1);
  });
});
