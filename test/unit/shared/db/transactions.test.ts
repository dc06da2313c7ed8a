import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { updateIfStill, writeOnce } from '../../../../shared/db/transactions';

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
