import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../aws/clients';
import { tableName } from '../db/table';
import { transactWrite } from '../db/transactions';
import { accountKeys } from './keys';
import { queueDashboardMail } from './mail';
import { hashOneTimeToken, newOneTimeToken } from './one-time-tokens';
import { invalidToken } from './invitations';
import { setPasswordItem, type User } from './users';

export const PASSWORD_RESET_TTL_MS = 3600_000;

/** Stores a reset token's hash (1 hour, single use) and queues the mail with the link. */
export async function sendPasswordReset(user: User, dashboardUrl: string, now = Date.now()): Promise<void> {
  const token = newOneTimeToken();
  await documentClient.send(
    new PutCommand({
      TableName: tableName,
      Item: { ...accountKeys.passwordReset(hashOneTimeToken(token)), userId: user.userId, expiresAtMs: now + PASSWORD_RESET_TTL_MS, expiresAt: Math.ceil((now + PASSWORD_RESET_TTL_MS) / 1000) },
      ConditionExpression: 'attribute_not_exists(PK)',
    }),
  );
  await queueDashboardMail({
    to: user.email,
    subject: 'Reset your Mailwright password',
    paragraphs: ['Someone (hopefully you) asked to reset the password of your Mailwright dashboard account.', 'The link works once and expires in 1 hour. If you did not ask for it, ignore this email.'],
    link: { url: `${dashboardUrl}/reset-password#token=${token}`, label: 'Choose a new password' },
    subjectId: user.userId,
  });
}

/** Uses up the token and sets the new password in one transaction; returns the user id. 400 INVALID_TOKEN otherwise. */
export async function resetPassword(token: string, passwordHash: string, now = Date.now()): Promise<string> {
  const key = accountKeys.passwordReset(hashOneTimeToken(token));
  const { Item } = await documentClient.send(new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }));
  if (!Item || (Item.expiresAtMs as number) <= now) throw invalidToken();
  const userId = Item.userId as string;
  try {
    await transactWrite([
      { Delete: { TableName: tableName, Key: key, ConditionExpression: 'attribute_exists(PK) AND expiresAtMs > :now', ExpressionAttributeValues: { ':now': now } } },
      setPasswordItem(userId, passwordHash),
    ]);
  } catch (error) {
    if ((error as Error).name === 'TransactionCanceledException') throw invalidToken();
    throw error;
  }
  return userId;
}
