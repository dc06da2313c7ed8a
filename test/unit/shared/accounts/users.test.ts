import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { changeRole, removeMembership } from '../../../../shared/accounts/users';

const ddb = mockClient(DynamoDBDocumentClient);
const owner = { PK: 'PROJECT#P1', SK: 'MEMBER#U1', userId: 'U1', projectId: 'P1', email: 'ada@example.com', name: null, role: 'OWNER', createdAt: '2026-11-23T09:30:00.000Z' };
const cancelled = (codes: string[]) => new TransactionCanceledException({ message: 'cancelled', $metadata: {}, CancellationReasons: codes.map((Code) => ({ Code })) });

describe('membership rules', () => {
  beforeEach(() => ddb.reset());

  it('demotes an owner only while the project counts another owner, in one transaction', async () => {
    // Prepare
    ddb.on(GetCommand).resolves({ Item: owner });
    ddb.on(TransactWriteCommand).resolves({});

    // Act
    const { after } = await changeRole('P1', 'U1', 'MEMBER');

    // Assess
    expect(after.role).toBe('MEMBER');
    expect(ddb.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems).toEqual([
      {
        Update: {
          TableName: 'mailwright-test',
          Key: { PK: 'PROJECT#P1', SK: 'MEMBER#U1' },
          UpdateExpression: 'SET #role = :role',
          ConditionExpression: '#role = :was',
          ExpressionAttributeNames: { '#role': 'role' },
          ExpressionAttributeValues: { ':role': 'MEMBER', ':was': 'OWNER' },
        },
      },
      {
        Update: {
          TableName: 'mailwright-test',
          Key: { PK: 'PROJECT#P1', SK: 'PROJECT' },
          UpdateExpression: 'ADD ownerCount :delta',
          ConditionExpression: 'ownerCount > :one',
          ExpressionAttributeValues: { ':delta': -1, ':one': 1 },
        },
      },
    ]);
  });

  it('refuses to demote the last owner with 409 LAST_OWNER', async () => {
    ddb.on(GetCommand).resolves({ Item: owner });
    ddb.on(TransactWriteCommand).rejects(cancelled(['None', 'ConditionalCheckFailed']));

    await expect(changeRole('P1', 'U1', 'MEMBER')).rejects.toMatchObject({ statusCode: 409, code: 'LAST_OWNER' });
  });

  it('refuses to remove the last owner with 409 LAST_OWNER', async () => {
    ddb.on(GetCommand).resolves({ Item: owner });
    ddb.on(TransactWriteCommand).rejects(cancelled(['None', 'ConditionalCheckFailed']));

    await expect(removeMembership('P1', 'U1')).rejects.toMatchObject({ statusCode: 409, code: 'LAST_OWNER' });
    expect(ddb.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems![1]).toEqual({
      Update: {
        TableName: 'mailwright-test',
        Key: { PK: 'PROJECT#P1', SK: 'PROJECT' },
        UpdateExpression: 'ADD ownerCount :delta, memberCount :delta',
        ConditionExpression: 'ownerCount > :one',
        ExpressionAttributeValues: { ':delta': -1, ':one': 1 },
      },
    });
  });

  it('removes a MEMBER with the member count only, and 404 for someone who is not a member', async () => {
    ddb.on(GetCommand).resolvesOnce({ Item: { ...owner, role: 'MEMBER' } }).resolves({});
    ddb.on(TransactWriteCommand).resolves({});

    await removeMembership('P1', 'U1');
    await expect(removeMembership('P1', 'U2')).rejects.toMatchObject({ statusCode: 404 });

    expect(ddb.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems![1]).toEqual({
      Update: { TableName: 'mailwright-test', Key: { PK: 'PROJECT#P1', SK: 'PROJECT' }, UpdateExpression: 'ADD memberCount :minusOne', ExpressionAttributeValues: { ':minusOne': -1 } },
    });
  });
});
