import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { BatchWriteCommand, DeleteCommand, DynamoDBDocumentClient, GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { momentKey } from '../../../../shared/campaigns/local-time';
import { releaseZone, routeToZones } from '../../../../shared/campaigns/zones';
import { C, campaignKey, localTimeDelivery, P } from '../../../support/campaign-fixtures';

const ddb = mockClient(DynamoDBDocumentClient);
const sqs = mockClient(SQSClient);

const SEND_QUEUE_URL = 'http://localhost:9324/000000000000/campaign-send-test';
const FANOUT_QUEUE_URL = 'http://localhost:9324/000000000000/campaign-fanout-test';
const at = (iso: string) => momentKey(Date.parse(iso));
const UTC = at('2026-12-01T09:00:00Z');
const MINUS12 = at('2026-12-01T21:00:00Z');

const delivery = localTimeDelivery;
const emails = [
  { id: 'E1', recipient: { id: 'c1', email: 'a@example.com', data: { timezone: 'Pacific/Kiritimati' } } },
  { id: 'E2', recipient: { id: 'c2', email: 'b@example.com', data: { timezone: 'Etc/GMT+12' } } },
  { id: 'E3', recipient: { id: 'c3', email: 'c@example.com', data: { timezone: 'Mars/Olympus_Mons' } } },
  { id: 'E4', recipient: { id: 'c4', email: 'd@example.com', data: {} } },
];
const heldItems = () => ddb.commandCalls(BatchWriteCommand).flatMap((call) => Object.values(call.args[0].input.RequestItems!).flat().map((request) => request.PutRequest!.Item!));
const queuedIds = () => sqs.commandCalls(SendMessageBatchCommand).flatMap((call) => call.args[0].input.Entries!.map((entry) => JSON.parse(entry.MessageBody!).emailId as string));

beforeEach(() => {
  ddb.reset();
  sqs.reset();
  sqs.on(SendMessageBatchCommand).resolves({ Failed: [] });
  ddb.on(BatchWriteCommand).resolves({});
});

describe('routeToZones', () => {
  it('queues the mail of released moments, holds the rest in its moment\'s partition and counts each zone', async () => {
    // Prepare
    ddb.on(GetCommand).resolves({ Item: { delivery: { released: delivery.released } } });

    // Act
    const routed = await routeToZones(P, C, delivery, emails);

    // Assess
    expect(routed).toEqual({ queue: ['E1'], zones: { 'Pacific/Kiritimati': 1, 'Etc/GMT+12': 1, UTC: 2 } });
    expect(heldItems().map((item) => [item.PK, item.SK, item.emailId])).toEqual([
      [`PROJECT#${P}#CAMPAIGN#${C}#ZONE#${MINUS12}`, 'EMAIL#E2', 'E2'],
      [`PROJECT#${P}#CAMPAIGN#${C}#ZONE#${UTC}`, 'EMAIL#E3', 'E3'],
      [`PROJECT#${P}#CAMPAIGN#${C}#ZONE#${UTC}`, 'EMAIL#E4', 'E4'],
    ]);
    expect(heldItems().every((item) => typeof item.expiresAt === 'number')).toBe(true);
  });

  it('also queues held mail whose moment was released while it was being held (the release may have read the partition before)', async () => {
    // Prepare
    ddb.on(GetCommand).resolves({ Item: { delivery: { released: { ...delivery.released, [UTC]: '2026-12-01T09:00:00.500Z' } } } });

    // Act
    const routed = await routeToZones(P, C, delivery, emails);

    // Assess
    expect(routed.queue).toEqual(['E1', 'E3', 'E4']);
    expect(heldItems()).toHaveLength(3);
    expect(ddb.commandCalls(GetCommand)[0]!.args[0].input.ConsistentRead).toBe(true);
  });
});

describe('releaseZone', () => {
  const message = { kind: 'zone', projectId: P, campaignId: C, planId: 'PLAN1', moment: UTC } as const;
  const held = (ids: string[]) => ids.map((id) => ({ PK: `PROJECT#${P}#CAMPAIGN#${C}#ZONE#${UTC}`, SK: `EMAIL#${id}`, emailId: id }));

  it('marks the moment released (the first time only) before reading its partition, queues its mail and deletes what it queued', async () => {
    // Prepare
    ddb.on(UpdateCommand).resolves({});
    ddb.on(QueryCommand).resolvesOnce({ Items: held(['E3', 'E4']) }).resolves({ Items: [] });
    ddb.on(DeleteCommand).resolves({});

    // Act
    await releaseZone(message);

    // Assess
    const update = ddb.commandCalls(UpdateCommand)[0]!.args[0].input;
    expect(update.Key).toEqual(campaignKey);
    expect(update.UpdateExpression).toBe('SET #delivery.#released.#moment = if_not_exists(#delivery.#released.#moment, :now)');
    expect(update.ExpressionAttributeNames!['#moment']).toBe(UTC);
    expect(update.ExpressionAttributeValues![':planId']).toBe('PLAN1');
    expect(sqs.commandCalls(SendMessageBatchCommand)[0]!.args[0].input.QueueUrl).toBe(SEND_QUEUE_URL);
    expect(queuedIds()).toEqual(['E3', 'E4']);
    expect(ddb.commandCalls(DeleteCommand).map((call) => call.args[0].input.Key!.SK)).toEqual(['EMAIL#E3', 'EMAIL#E4']);
    expect(ddb.commandCalls(QueryCommand)[0]!.args[0].input.ConsistentRead).toBe(true);
  });

  it('queues a cancelled campaign\'s held mail unmarked, for the sender to end CANCELLED', async () => {
    // Prepare
    ddb.on(UpdateCommand).rejects(Object.assign(new Error('condition'), { name: 'ConditionalCheckFailedException' }));
    ddb.on(GetCommand).resolves({ Item: { status: 'CANCELLED', delivery: { planId: 'PLAN1' } } });
    ddb.on(QueryCommand).resolvesOnce({ Items: held(['E3']) }).resolves({ Items: [] });
    ddb.on(DeleteCommand).resolves({});

    // Act
    await releaseZone(message);

    // Assess
    expect(queuedIds()).toEqual(['E3']);
  });

  it('does nothing for a message of an older plan (rescheduled, or back to DRAFT)', async () => {
    // Prepare
    ddb.on(UpdateCommand).rejects(Object.assign(new Error('condition'), { name: 'ConditionalCheckFailedException' }));
    ddb.on(GetCommand).resolves({ Item: { status: 'SCHEDULED', delivery: { planId: 'PLAN2' } } });

    // Act
    await releaseZone(message);

    // Assess
    expect(ddb.commandCalls(QueryCommand)).toHaveLength(0);
    expect(queuedIds()).toEqual([]);
  });

  it('queues its own continuation when time runs short', async () => {
    // Prepare
    ddb.on(UpdateCommand).resolves({});

    // Act
    await releaseZone(message, { getRemainingTimeInMillis: () => 5_000 } as never);

    // Assess
    expect(sqs.commandCalls(SendMessageBatchCommand).map((call) => [call.args[0].input.QueueUrl, JSON.parse(call.args[0].input.Entries![0]!.MessageBody!)])).toEqual([[FANOUT_QUEUE_URL, message]]);
  });
});
