import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { consumeInvitationItems } from '../../../../shared/accounts/invitations';
import { hashOneTimeToken } from '../../../../shared/accounts/one-time-tokens';
import { resetPassword } from '../../../../shared/accounts/password-resets';
import { parseRefreshCredential, rotateSession, SESSION_IDLE_MS } from '../../../../shared/accounts/sessions';

const ddb = mockClient(DynamoDBDocumentClient);
const now = 1_800_000_000_000;
const token = 'T'.repeat(43);

describe('single-use tokens and refresh secrets', () => {
  beforeEach(() => ddb.reset());

  it('uses an invitation token up with a conditional delete that fails a second use or an expired token', () => {
    const items = consumeInvitationItems({ projectId: 'P1', invitationId: 'I1', email: 'grace@example.com', role: 'MEMBER', tokenHash: hashOneTimeToken(token) }, now);

    expect(items).toEqual([
      {
        Delete: {
          TableName: 'mailwright-test',
          Key: { PK: `INVITETOKEN#${hashOneTimeToken(token)}`, SK: 'INVITETOKEN' },
          ConditionExpression: 'attribute_exists(PK) AND expiresAtMs > :now',
          ExpressionAttributeValues: { ':now': now },
        },
      },
      { Delete: { TableName: 'mailwright-test', Key: { PK: 'PROJECT#P1', SK: 'INVITATION#I1' } } },
    ]);
  });

  it('resets a password in one transaction with the token\'s conditional delete', async () => {
    // Prepare
    ddb.on(GetCommand).resolves({ Item: { userId: 'U1', expiresAtMs: now + 1000 } });
    ddb.on(TransactWriteCommand).resolves({});

    // Act
    const userId = await resetPassword(token, 'scrypt$hash', now);

    // Assess
    expect(userId).toBe('U1');
    const [consume, setPassword] = ddb.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!;
    expect(consume).toEqual({
      Delete: {
        TableName: 'mailwright-test',
        Key: { PK: `RESETTOKEN#${hashOneTimeToken(token)}`, SK: 'RESETTOKEN' },
        ConditionExpression: 'attribute_exists(PK) AND expiresAtMs > :now',
        ExpressionAttributeValues: { ':now': now },
      },
    });
    expect(setPassword!.Update).toMatchObject({ Key: { PK: 'USER#U1', SK: 'USER' }, UpdateExpression: 'SET passwordHash = :hash, passwordChangedAt = :now', ConditionExpression: 'attribute_exists(PK)' });
    expect(setPassword!.Update!.ExpressionAttributeValues![':hash']).toBe('scrypt$hash');
  });

  it('refuses an expired, unknown or already used reset token with 400 INVALID_TOKEN', async () => {
    ddb.on(GetCommand).resolvesOnce({ Item: { userId: 'U1', expiresAtMs: now } }).resolvesOnce({}).resolves({ Item: { userId: 'U1', expiresAtMs: now + 1000 } });
    ddb.on(TransactWriteCommand).rejects(new TransactionCanceledException({ message: 'cancelled', $metadata: {}, CancellationReasons: [{ Code: 'ConditionalCheckFailed' }, { Code: 'None' }] }));

    await expect(resetPassword(token, 'h', now)).rejects.toMatchObject({ statusCode: 400, code: 'INVALID_TOKEN' });
    await expect(resetPassword(token, 'h', now)).rejects.toMatchObject({ statusCode: 400, code: 'INVALID_TOKEN' });
    await expect(resetPassword(token, 'h', now)).rejects.toMatchObject({ statusCode: 400, code: 'INVALID_TOKEN' });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(1);
  });

  it('replaces a refresh secret only if it is still the one presented, sliding the idle expiry', async () => {
    // Prepare
    ddb.on(UpdateCommand).resolves({});
    const session = { sessionId: '01KAQ5VZ3N4G8T2M6P0R9S7W2Y', userId: '01KAQ5VZ3N4G8T2M6P0R9S7W1X', projectId: 'P1', createdAt: '', lastUsedAt: '', idleExpiresAt: now, absoluteExpiresAt: now + 10 * SESSION_IDLE_MS, userAgent: null, secretHash: 'old-hash' };

    // Act
    const rotated = await rotateSession(session, 'P2', now);

    // Assess
    const input = ddb.commandCalls(UpdateCommand)[0]!.args[0].input;
    expect(input).toMatchObject({
      Key: { PK: `USER#${session.userId}`, SK: `SESSION#${session.sessionId}` },
      UpdateExpression: 'SET secretHash = :new, projectId = :projectId, lastUsedAt = :now, idleExpiresAt = :idle, expiresAt = :ttl',
      ConditionExpression: 'secretHash = :old',
    });
    expect(input.ExpressionAttributeValues).toMatchObject({ ':old': 'old-hash', ':projectId': 'P2', ':idle': now + SESSION_IDLE_MS, ':ttl': (now + SESSION_IDLE_MS) / 1000 });
    expect(input.ExpressionAttributeValues![':new']).not.toBe('old-hash');
    expect(parseRefreshCredential(`${session.userId}.${session.sessionId}.${rotated!.credential.secret}`)).toEqual(rotated!.credential);
  });

  it('reads only well-formed refresh cookies', () => {
    expect(parseRefreshCredential(undefined)).toBeNull();
    expect(parseRefreshCredential('a.b.c')).toBeNull();
    expect(parseRefreshCredential(`01KAQ5VZ3N4G8T2M6P0R9S7W1X.01KAQ5VZ3N4G8T2M6P0R9S7W2Y.${'x'.repeat(44)}`)).toBeNull();
  });
});
