import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { queueDispatchOrRollBack } from '../../../../shared/campaigns/start-dispatch';
import type { StoredCampaign } from '../../../../shared/campaigns/store';
import { C, campaignKey, P, startedCampaignItem } from '../../../support/campaign-fixtures';

const ddb = mockClient(DynamoDBDocumentClient);
const sqs = mockClient(SQSClient);
const scheduled = startedCampaignItem({ status: 'SCHEDULED', version: 4 }) as unknown as StoredCampaign;

describe('queueDispatchOrRollBack', () => {
  beforeEach(() => {
    ddb.reset();
    sqs.reset();
    ddb.on(TransactWriteCommand).resolves({});
  });

  it('queues the fan-out of the campaign and changes nothing else', async () => {
    // Prepare
    sqs.on(SendMessageBatchCommand).resolves({ Failed: [] });

    // Act
    await queueDispatchOrRollBack(P, scheduled, 5);

    // Assess
    const body = sqs.commandCalls(SendMessageBatchCommand)[0]!.args[0].input.Entries![0]!.MessageBody!;
    expect(JSON.parse(body)).toEqual({ kind: 'dispatch', projectId: P, campaignId: C });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('moves the campaign back to the status it had when nothing could be queued, if it is still the version that started, and throws', async () => {
    // Prepare
    sqs.on(SendMessageBatchCommand).rejects(new Error('SQS is down'));

    // Act
    const thrown = await queueDispatchOrRollBack(P, scheduled, 5).catch((error: Error) => error);

    // Assess
    expect(thrown).toMatchObject({ message: 'SQS is down' });
    const [back] = ddb.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!;
    expect(back!.Update).toMatchObject({ Key: campaignKey, ExpressionAttributeValues: { ':previous': 'SCHEDULED', ':sending': 'SENDING', ':version': 5 } });
  });
});
