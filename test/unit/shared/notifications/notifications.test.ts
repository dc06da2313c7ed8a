import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { notificationId, recordNotification } from '../../../../shared/notifications/notifications';

const ddb = mockClient(DynamoDBDocumentClient);
const at = new Date('2026-11-20T10:00:00.000Z');
const conditionFailed = () => new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} });

describe('recordNotification', () => {
  beforeEach(() => ddb.reset());

  it('puts the notification with one conditional PutItem, no transaction, and answers true', async () => {
    // Prepare
    ddb.on(PutCommand).resolves({});

    // Act
    const recorded = await recordNotification('P1', 'campaign.sent', { id: 'C1' }, 'C1', at);

    // Assess
    expect(recorded).toBe(true);
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
    expect(ddb.commandCalls(PutCommand).map((call) => call.args[0].input)).toEqual([
      {
        TableName: 'mailwright-test',
        Item: expect.objectContaining({ PK: 'PROJECT#P1', SK: `NOTIFICATION#${notificationId('campaign.sent', 'C1')}`, type: 'campaign.sent', data: { id: 'C1' } }),
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    ]);
  });

  it('answers false when the same happening was recorded already', async () => {
    // Prepare
    ddb.on(PutCommand).rejects(conditionFailed());

    // Act
    const recorded = await recordNotification('P1', 'campaign.sent', { id: 'C1' }, 'C1', at);

    // Assess
    expect(recorded).toBe(false);
  });
});
