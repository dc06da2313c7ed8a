import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { updateIfStill, writeAllOrNone, writeOnce } from '../../../../shared/db/transactions';

const ddb = mockClient(DynamoDBDocumentClient);
const update = {
  TableName: 'mailwright-test',
  Key: { PK: 'PROJECT#P1', SK: 'THING#1' },
  UpdateExpression: 'SET #status = :done',
  ConditionExpression: '#status = :open',
  ExpressionAttributeNames: { '#status': 'status' },
  ExpressionAttributeValues: { ':done': 'DONE', ':open': 'OPEN' },
};
const conditionFailed = () => new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} });

describe('updateIfStill', () => {
  beforeEach(() => ddb.reset());

  it('sends the update as given and answers true when it was written', async () => {
    // Prepare
    ddb.on(UpdateCommand).resolves({});

    // Act
    const written = await updateIfStill(update);

    // Assess
    expect(written).toBe(true);
    expect(ddb.commandCalls(UpdateCommand).map((call) => call.args[0].input)).toEqual([update]);
  });

  it('answers false when the condition failed', async () => {
    // Prepare
    ddb.on(UpdateCommand).rejects(conditionFailed());

    // Act
    const written = await updateIfStill(update);

    // Assess
    expect(written).toBe(false);
  });

  it('throws any other error', async () => {
    // Prepare
    ddb.on(UpdateCommand).rejects(Object.assign(new Error('Rate exceeded'), { name: 'ProvisionedThroughputExceededException' }));

    // Act / Assess
    await expect(updateIfStill(update)).rejects.toThrow('Rate exceeded');
  });
});

describe('writeOnce', () => {
  beforeEach(() => ddb.reset());

  it('sends one update item as its own UpdateItem, false when its condition failed', async () => {
    // Prepare
    ddb.on(UpdateCommand).rejectsOnce(conditionFailed()).resolves({});

    // Act
    const results = [await writeOnce([{ Update: update }]), await writeOnce([{ Update: update }])];

    // Assess
    expect(results).toEqual([false, true]);
    expect(ddb.commandCalls(UpdateCommand)).toHaveLength(2);
  });
});

describe('writeAllOrNone', () => {
  beforeEach(() => ddb.reset());

  const put = { TableName: 'mailwright-test', Item: { PK: 'PROJECT#P1', SK: 'THING#2' }, ConditionExpression: 'attribute_not_exists(PK)' };

  it('sends one put item as its own conditional PutItem and one update item as its own UpdateItem, no transaction', async () => {
    // Prepare
    ddb.on(PutCommand).resolves({});
    ddb.on(UpdateCommand).resolves({});

    // Act
    await writeAllOrNone([{ Put: put }]);
    await writeAllOrNone([{ Update: update }]);

    // Assess
    expect(ddb.commandCalls(PutCommand).map((call) => call.args[0].input)).toEqual([put]);
    expect(ddb.commandCalls(UpdateCommand).map((call) => call.args[0].input)).toEqual([update]);
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('throws the failed condition of a lone item', async () => {
    // Prepare
    ddb.on(PutCommand).rejects(conditionFailed());

    // Act / Assess
    await expect(writeAllOrNone([{ Put: put }])).rejects.toBeInstanceOf(ConditionalCheckFailedException);
  });

  it('writes more items as one transaction', async () => {
    // Prepare
    ddb.on(TransactWriteCommand).resolves({});

    // Act
    await writeAllOrNone([{ Put: put }, { Update: update }]);

    // Assess
    expect(ddb.commandCalls(TransactWriteCommand).map((call) => call.args[0].input.TransactItems)).toEqual([[{ Put: put }, { Update: update }]]);
    expect(ddb.commandCalls(PutCommand)).toHaveLength(0);
  });
});
