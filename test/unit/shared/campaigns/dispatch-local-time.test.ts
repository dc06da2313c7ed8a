import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { BatchGetCommand, BatchWriteCommand, DynamoDBDocumentClient, GetCommand, QueryCommand, UpdateCommand, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Context } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { processFanoutMessage } from '../../../../shared/campaigns/dispatch';
import { toItem as contactItem } from '../../../../shared/contacts/contacts';
import { C, campaignKey, localTimeDelivery, P, startedCampaignItem, statsKey } from '../../../support/campaign-fixtures';

const ddb = mockClient(DynamoDBDocumentClient);
const sqs = mockClient(SQSClient);

const SEND_QUEUE_URL = 'http://localhost:9324/000000000000/campaign-send-test';
const withTime = (ms: number) => ({ getRemainingTimeInMillis: () => ms }) as Context;

const delivery = localTimeDelivery;
const campaign = startedCampaignItem({ totalRecipients: 0, content: { subject: 'Morning', html: '<p>Morning</p>', from: { email: 'news@acme.test' }, replyTo: null }, dispatch: {}, delivery });
const contactId = (n: number) => `01HZY3K8Q2V9J6M4T7W5X0C0${String(n).padStart(2, '0')}`;
const contact = (n: number, timezone?: string) =>
  contactItem(P, { id: contactId(n), email: `reader${n}@example.com`, subscribed: true, data: timezone ? { timezone } : {}, createdAt: '2026-11-23T08:00:00.000Z', updatedAt: '2026-11-23T08:00:00.000Z' });

beforeEach(() => {
  ddb.reset();
  sqs.reset();
});

describe('the fan-out of a local-time send', () => {
  it('queues only the mail of zones whose moment has come, holds the rest per moment, and counts each zone in the checkpoint', async () => {
    // Prepare: one contact in UTC+14 (released), one in UTC−12, one with an invalid zone (the fallback UTC)
    ddb.on(BatchGetCommand).resolves({ Responses: { 'mailwright-test': [] } });
    ddb.on(QueryCommand).resolves({ Items: [contact(1, 'Pacific/Kiritimati'), contact(2, 'Etc/GMT+12'), contact(3, 'Mars/Olympus_Mons')] });
    ddb.on(UpdateCommand).callsFake(async (input: UpdateCommandInput) => {
      if (input.ReturnValues === 'ALL_OLD') return { Attributes: campaign };
      if (input.UpdateExpression!.startsWith('SET totalRecipients')) return { Attributes: { ...campaign, totalRecipients: 3 } };
      if (input.UpdateExpression!.startsWith('SET #dispatch.#done')) return { Attributes: { ...campaign, totalRecipients: 3 } };
      return {};
    });
    ddb.on(GetCommand, { Key: campaignKey }).resolves({ Item: { delivery: { released: delivery.released } } });
    ddb.on(GetCommand, { Key: statsKey }).resolves({ Item: { recipients: 3, settled: 0 } });
    ddb.on(BatchWriteCommand).resolves({});
    sqs.on(SendMessageBatchCommand).resolves({ Failed: [] });

    // Act
    await processFanoutMessage({ kind: 'dispatch', projectId: P, campaignId: C }, undefined, withTime(60_000));

    // Assess
    const written = ddb.commandCalls(BatchWriteCommand).flatMap((call) => Object.values(call.args[0].input.RequestItems!).flat().map((request) => request.PutRequest!.Item!));
    const records = written.filter((item) => item.PK === `PROJECT#${P}` && String(item.SK).startsWith('EMAIL#'));
    const held = written.filter((item) => String(item.PK).includes('#ZONE#'));
    const queued = sqs.commandCalls(SendMessageBatchCommand).filter((call) => call.args[0].input.QueueUrl === SEND_QUEUE_URL).flatMap((call) => call.args[0].input.Entries!.map((entry) => JSON.parse(entry.MessageBody!).emailId));
    const idOf = (n: number) => records.find((record) => record.contactId === contactId(n))!.id;
    expect(records).toHaveLength(3);
    expect(queued).toEqual([idOf(1)]);
    expect(held.map((item) => item.emailId).sort()).toEqual([idOf(2), idOf(3)].sort());
    const checkpoint = ddb.commandCalls(UpdateCommand).map((call) => call.args[0].input).find((input) => input.UpdateExpression!.startsWith('SET totalRecipients'))!;
    const zoneCounts = Object.fromEntries(
      Object.entries(checkpoint.ExpressionAttributeNames!)
        .filter(([alias]) => /^#z\d+$/.test(alias))
        .map(([alias, zone]) => [zone, checkpoint.ExpressionAttributeValues![`:${alias.slice(1)}`]]),
    );
    expect(zoneCounts).toEqual({ 'Pacific/Kiritimati': 1, 'Etc/GMT+12': 1, UTC: 1 });
    expect(checkpoint.UpdateExpression).toContain('#delivery.#zones.#z0 = if_not_exists(#delivery.#zones.#z0, :zero) + :z0');
  });
});
