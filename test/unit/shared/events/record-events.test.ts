import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { newEvent, recordEvents } from '../../../../shared/events/events';

const ddb = mockClient(DynamoDBDocumentClient);
const P = 'P1';
const event = newEvent({ name: 'signup', contactId: '01JD0000000000000000000000', data: { plan: 'pro' } }, new Date('2026-11-20T10:00:00.000Z'));
const conditionFailed = () => new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} });

describe('recordEvents', () => {
  beforeEach(() => ddb.reset());

  it('writes a lone event as one conditional PutItem, not a transaction, then counts it', async () => {
    // Prepare
    ddb.on(PutCommand).resolves({});
    ddb.on(UpdateCommand).resolves({});

    // Act
    await recordEvents(P, [event]);

    // Assess
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
    const puts = ddb.commandCalls(PutCommand).map((call) => call.args[0].input);
    expect(puts).toEqual([
      {
        TableName: 'mailwright-test',
        Item: expect.objectContaining({ PK: `PROJECT#${P}`, eventId: event.id, name: 'signup', contactId: event.contactId, data: { plan: 'pro' }, createdAt: event.createdAt }),
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    ]);
    // The name's counter and the project's total
    expect(ddb.commandCalls(UpdateCommand).length).toBeGreaterThanOrEqual(2);
  });

  it('throws when the event id is taken, and counts nothing', async () => {
    // Prepare
    ddb.on(PutCommand).rejects(conditionFailed());
    ddb.on(UpdateCommand).resolves({});

    // Act / Assess
    await expect(recordEvents(P, [event])).rejects.toThrow('The conditional request failed');
    expect(ddb.commandCalls(UpdateCommand)).toHaveLength(0);
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });
});
