import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { DeleteCommand, DynamoDBDocumentClient, GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Context } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { cancelCampaign, sendCampaign } from '../../../../shared/campaigns/campaigns';
import { processFanoutMessage } from '../../../../shared/campaigns/dispatch';
import { C, campaignKey, P, startedCampaignItem, statsKey } from '../../../support/campaign-fixtures';

const ddb = mockClient(DynamoDBDocumentClient);
const sqs = mockClient(SQSClient);

const parkedPartition = `PROJECT#${P}#CAMPAIGN#${C}#PARKED`;
const FANOUT_QUEUE_URL = 'http://localhost:9324/000000000000/campaign-fanout-test';
const SEND_QUEUE_URL = 'http://localhost:9324/000000000000/campaign-send-test';
const unparkMessage = JSON.stringify({ kind: 'unpark', projectId: P, campaignId: C });
const context = { getRemainingTimeInMillis: () => 60_000 } as Context;

const pausedCampaign = startedCampaignItem({
  status: 'PAUSED',
  pausedAt: '2026-11-23T09:30:00.000Z',
  pauseReason: 'Bounce rate 6.00 % over 250 sends passed the 5 % threshold',
  updatedAt: '2026-11-23T09:30:00.000Z',
  version: 8,
  content: { subject: 'Hi', html: '<p>Hi</p>', from: { email: 'news@acme.test' }, replyTo: null },
  dispatch: { cursor: { PK: 'x', SK: 'y' } },
});

beforeEach(() => {
  ddb.reset();
  sqs.reset();
});

describe('POST /campaigns/{id}/send on a PAUSED campaign (resume)', () => {
  it('goes SENDING first, with the counters of this moment as the guard baseline, then queues the unpark message', async () => {
    // Prepare
    ddb.on(GetCommand, { Key: campaignKey }).resolves({ Item: pausedCampaign });
    ddb.on(GetCommand, { Key: statsKey }).resolves({ Item: { sent: 250, bounced: 15, complained: 0 } });
    ddb.on(TransactWriteCommand).resolves({});
    sqs.on(SendMessageBatchCommand).resolves({ Failed: [] });

    // Act
    const resumed = await sendCampaign(P, C, undefined);

    // Assess
    expect(resumed).toMatchObject({ id: C, status: 'SENDING', pausedAt: null, pauseReason: null, totalRecipients: 500, sentAt: '2026-11-23T09:00:00.000Z' });
    const [items] = ddb.commandCalls(TransactWriteCommand).map((call) => call.args[0].input.TransactItems!);
    expect(items).toEqual([
      {
        Update: {
          TableName: 'mailwright-test',
          Key: campaignKey,
          UpdateExpression: 'SET #version = #version + :one, #f2 = :f2, #f3 = :f3, #f4 = :f4 REMOVE #f0, #f1',
          ConditionExpression: '#f3 = :from AND #version = :version',
          ExpressionAttributeNames: { '#version': 'version', '#f0': 'pausedAt', '#f1': 'pauseReason', '#f2': 'guardBaseline', '#f3': 'status', '#f4': 'updatedAt' },
          ExpressionAttributeValues: { ':from': 'PAUSED', ':version': 8, ':one': 1, ':f2': { sent: 250, bounced: 15, complained: 0 }, ':f3': 'SENDING', ':f4': expect.any(String) },
        },
      },
      {
        Update: {
          TableName: 'mailwright-test',
          Key: { PK: `PROJECT#${P}`, SK: 'COUNTER#CAMPAIGNS' },
          UpdateExpression: 'ADD #c0 :c0, #c1 :c1',
          ExpressionAttributeNames: { '#c0': 'PAUSED', '#c1': 'SENDING' },
          ExpressionAttributeValues: { ':c0': -1, ':c1': 1 },
        },
      },
    ]);
    expect(sqs.commandCalls(SendMessageBatchCommand).map((call) => call.args[0].input)).toEqual([{ QueueUrl: FANOUT_QUEUE_URL, Entries: [{ Id: '0', MessageBody: unparkMessage }] }]);
    // A resume neither resolves the content again nor reads the audience.
    expect(ddb.commandCalls(QueryCommand)).toHaveLength(0);
  });

  it('goes back to PAUSED when the unpark message cannot be queued, so the client may retry', async () => {
    // Prepare
    ddb.on(GetCommand, { Key: campaignKey }).resolves({ Item: pausedCampaign });
    ddb.on(GetCommand, { Key: statsKey }).resolves({ Item: { sent: 250, bounced: 15, complained: 0 } });
    ddb.on(TransactWriteCommand).resolves({});
    sqs.on(SendMessageBatchCommand).rejects(new Error('SQS is down'));

    // Act / Assess
    await expect(sendCampaign(P, C, undefined)).rejects.toThrow('SQS is down');
    const revert = ddb.commandCalls(TransactWriteCommand)[1]!.args[0].input.TransactItems![0]!.Update!;
    expect(revert.ConditionExpression).toMatch(/= :from AND #version = :version$/);
    expect(revert.ExpressionAttributeValues).toMatchObject({ ':from': 'SENDING', ':version': 9 });
    expect(Object.values(revert.ExpressionAttributeValues!)).toEqual(expect.arrayContaining(['PAUSED', pausedCampaign.pausedAt, pausedCampaign.pauseReason]));
  });

  it('refuses to schedule a PAUSED campaign with 409 naming PAUSED, changing nothing', async () => {
    // Prepare
    ddb.on(GetCommand, { Key: campaignKey }).resolves({ Item: pausedCampaign });

    // Act / Assess
    await expect(sendCampaign(P, C, new Date(Date.now() + 3_600_000).toISOString())).rejects.toMatchObject({ statusCode: 409, code: 'INVALID_CAMPAIGN_STATE', message: expect.stringContaining('PAUSED') });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('cancels a PAUSED campaign and queues its parked mail once more, for the sender to end it CANCELLED', async () => {
    // Prepare
    ddb.on(GetCommand, { Key: campaignKey }).resolves({ Item: pausedCampaign });
    ddb.on(TransactWriteCommand).resolves({});
    sqs.on(SendMessageBatchCommand).resolves({ Failed: [] });

    // Act
    const cancelled = await cancelCampaign(P, C);

    // Assess
    expect(cancelled.status).toBe('CANCELLED');
    const [items] = ddb.commandCalls(TransactWriteCommand).map((call) => call.args[0].input.TransactItems!);
    expect(items![0]!.Update!.ExpressionAttributeValues).toMatchObject({ ':from': 'PAUSED', ':version': 8 });
    expect(items![2]!.Put!.Item).toMatchObject({ type: 'campaign.cancelled' });
    expect(sqs.commandCalls(SendMessageBatchCommand).map((call) => call.args[0].input)).toEqual([{ QueueUrl: FANOUT_QUEUE_URL, Entries: [{ Id: '0', MessageBody: unparkMessage }] }]);
  });
});

describe('the unpark message (campaign-dispatch)', () => {
  const parked = [
    { PK: parkedPartition, SK: 'EMAIL#E1', emailId: 'E1', parkedAt: '2026-11-23T09:30:01.000Z' },
    { PK: parkedPartition, SK: 'EMAIL#E2', emailId: 'E2', parkedAt: '2026-11-23T09:30:02.000Z' },
  ];

  it('queues the parked mail again, deletes each marker after its message is queued (if not parked again), then continues the fan-out', async () => {
    // Prepare: resumed, the fan-out not finished; the order of queueing and deleting is recorded
    const order: string[] = [];
    ddb.on(GetCommand).resolves({});
    ddb.on(GetCommand, { Key: campaignKey }).resolves({ Item: { ...pausedCampaign, status: 'SENDING', version: 9 } });
    ddb.on(QueryCommand).resolves({ Items: parked });
    ddb.on(DeleteCommand).callsFake(async (input) => {
      order.push(`delete ${input.Key.SK}`);
      return {};
    });
    // The fan-out's claim: another dispatcher holds it here, so this test ends at the claim.
    ddb.on(UpdateCommand).rejects(new ConditionalCheckFailedException({ message: 'owned', $metadata: {} }));
    sqs.on(SendMessageBatchCommand).callsFake(async (input) => {
      order.push(`queue ${input.QueueUrl}`);
      return { Failed: [] };
    });

    // Act
    await processFanoutMessage({ kind: 'unpark', projectId: P, campaignId: C }, undefined, context);

    // Assess
    expect(ddb.commandCalls(QueryCommand)[0]!.args[0].input).toEqual({
      TableName: 'mailwright-test',
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': parkedPartition },
      ConsistentRead: true,
      Limit: 250,
      ExclusiveStartKey: undefined,
    });
    expect(sqs.commandCalls(SendMessageBatchCommand)[0]!.args[0].input).toEqual({
      QueueUrl: SEND_QUEUE_URL,
      Entries: [
        { Id: '0', MessageBody: JSON.stringify({ projectId: P, emailId: 'E1' }) },
        { Id: '1', MessageBody: JSON.stringify({ projectId: P, emailId: 'E2' }) },
      ],
    });
    expect(ddb.commandCalls(DeleteCommand).map((call) => call.args[0].input)).toEqual(
      parked.map((item) => ({
        TableName: 'mailwright-test',
        Key: { PK: parkedPartition, SK: item.SK },
        ConditionExpression: 'parkedAt = :parkedAt',
        ExpressionAttributeValues: { ':parkedAt': item.parkedAt },
      })),
    );
    expect(order).toEqual([`queue ${SEND_QUEUE_URL}`, 'delete EMAIL#E1', 'delete EMAIL#E2']);
    // Then the fan-out is claimed again, from its cursor.
    const claim = ddb.commandCalls(UpdateCommand)[0]!.args[0].input;
    expect(claim.ConditionExpression).toContain('#status = :sending AND attribute_not_exists(#dispatch.#done)');
  });

  it('completes a campaign whose emails were all settled while it was PAUSED and whose fan-out had finished', async () => {
    // Prepare
    ddb.on(GetCommand, { Key: campaignKey }).resolves({ Item: { ...pausedCampaign, status: 'SENDING', version: 9, dispatch: { done: true } } });
    ddb.on(GetCommand, { Key: statsKey }).resolves({ Item: { recipients: 500, settled: 500 } });
    ddb.on(QueryCommand).resolves({ Items: [] });
    ddb.on(UpdateCommand).rejects(new ConditionalCheckFailedException({ message: 'done', $metadata: {} }));
    ddb.on(TransactWriteCommand).resolves({});

    // Act
    await processFanoutMessage({ kind: 'unpark', projectId: P, campaignId: C }, undefined, context);

    // Assess
    expect(sqs.commandCalls(SendMessageBatchCommand)).toHaveLength(0);
    const [items] = ddb.commandCalls(TransactWriteCommand).map((call) => call.args[0].input.TransactItems!);
    expect(items![0]!.Update!.ExpressionAttributeValues).toMatchObject({ ':from': 'SENDING', ':version': 9, ':f1': 'SENT' });
    expect(items![2]!.Put!.Item).toMatchObject({ type: 'campaign.sent' });
  });

  it('leaves the mail parked when the campaign was paused again before the message ran', async () => {
    // Prepare
    ddb.on(GetCommand, { Key: campaignKey }).resolves({ Item: { ...pausedCampaign, version: 10 } });

    // Act
    await processFanoutMessage({ kind: 'unpark', projectId: P, campaignId: C }, undefined, context);

    // Assess
    expect(ddb.commandCalls(QueryCommand)).toHaveLength(0);
    expect(ddb.commandCalls(DeleteCommand)).toHaveLength(0);
    expect(sqs.commandCalls(SendMessageBatchCommand)).toHaveLength(0);
  });
});
