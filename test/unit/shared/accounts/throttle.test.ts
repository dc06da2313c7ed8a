import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { assertMayTry, LOCK_MS, recordFailure, throttleRules, THROTTLE_WINDOW_MS, waitFor } from '../../../../shared/accounts/throttle';

const ddb = mockClient(DynamoDBDocumentClient);
const now = 1_800_000_000_000;
const account = throttleRules.email;

describe('sign-in throttling', () => {
  beforeEach(() => ddb.reset());

  it('lets the first five failures retry at once, then one more second per failure', () => {
    expect(account).toEqual({ slowFrom: 6, lockAt: 10 });
    expect(waitFor({ failures: 5, lastFailureAt: now }, account, now)).toBe(0);
    expect(waitFor({ failures: 6, lastFailureAt: now }, account, now)).toBe(1000);
    expect(waitFor({ failures: 9, lastFailureAt: now - 1000 }, account, now)).toBe(3000);
    expect(waitFor({ failures: 9, lastFailureAt: now - 4000 }, account, now)).toBe(0);
  });

  it('waits out a lock, and forgets failures older than the window', () => {
    expect(waitFor({ failures: 0, lastFailureAt: now, lockedUntil: now + LOCK_MS }, account, now)).toBe(LOCK_MS);
    expect(waitFor({ failures: 9, lastFailureAt: now - THROTTLE_WINDOW_MS }, account, now)).toBe(0);
  });

  it('answers 429 with Retry-After when the account must wait, from one consistent BatchGetItem', async () => {
    // Prepare
    ddb.on(BatchGetCommand).resolves({ Responses: { 'mailwright-test': [{ PK: 'SIGNIN#EMAIL#ada@example.com', SK: 'THROTTLE', failures: 0, lastFailureAt: now, lockedUntil: now + 600_500 }] } });

    // Act
    const attempt = assertMayTry([{ email: 'ada@example.com' }, { ip: '203.0.113.9' }], now);

    // Assess
    await expect(attempt).rejects.toMatchObject({ statusCode: 429, code: 'TOO_MANY_ATTEMPTS', headers: { 'Retry-After': '601' } });
    expect(ddb.commandCalls(BatchGetCommand)[0]!.args[0].input).toEqual({
      RequestItems: {
        'mailwright-test': {
          Keys: [
            { PK: 'SIGNIN#EMAIL#ada@example.com', SK: 'THROTTLE' },
            { PK: 'SIGNIN#IP#203.0.113.9', SK: 'THROTTLE' },
          ],
          ConsistentRead: true,
        },
      },
    });
  });

  it('lets a subject with no failures try', async () => {
    ddb.on(BatchGetCommand).resolves({ Responses: { 'mailwright-test': [] } });

    await expect(assertMayTry([{ email: 'ada@example.com' }], now)).resolves.toBeUndefined();
  });

  it('counts a failure within the window and locks the account at the tenth', async () => {
    // Prepare
    ddb.on(UpdateCommand).resolvesOnce({ Attributes: { failures: 10 } }).resolves({});

    // Act
    await recordFailure([{ email: 'ada@example.com' }], now);

    // Assess
    const calls = ddb.commandCalls(UpdateCommand).map((call) => call.args[0].input);
    expect(calls[0]).toEqual({
      TableName: 'mailwright-test',
      Key: { PK: 'SIGNIN#EMAIL#ada@example.com', SK: 'THROTTLE' },
      UpdateExpression: 'ADD failures :one SET lastFailureAt = :now, expiresAt = :ttl',
      ConditionExpression: 'lastFailureAt > :staleBefore',
      ExpressionAttributeValues: { ':one': 1, ':now': now, ':ttl': Math.ceil((now + THROTTLE_WINDOW_MS + LOCK_MS) / 1000), ':staleBefore': now - THROTTLE_WINDOW_MS },
      ReturnValues: 'ALL_NEW',
    });
    expect(calls[1]).toEqual({
      TableName: 'mailwright-test',
      Key: { PK: 'SIGNIN#EMAIL#ada@example.com', SK: 'THROTTLE' },
      UpdateExpression: 'SET lockedUntil = :until, failures = :zero',
      ExpressionAttributeValues: { ':until': now + LOCK_MS, ':zero': 0 },
    });
  });

  it('starts a new count when the last failure is older than the window, without locking', async () => {
    ddb.on(UpdateCommand).rejectsOnce(new ConditionalCheckFailedException({ message: 'failed', $metadata: {} })).resolves({});

    await recordFailure([{ ip: '203.0.113.9' }], now);

    const calls = ddb.commandCalls(UpdateCommand).map((call) => call.args[0].input);
    expect(calls).toHaveLength(2);
    expect(calls[1]).toMatchObject({ Key: { PK: 'SIGNIN#IP#203.0.113.9', SK: 'THROTTLE' }, UpdateExpression: 'SET failures = :one, lastFailureAt = :now, expiresAt = :ttl REMOVE lockedUntil' });
  });
});
