import { ApiError } from '../http/errors';
import { hashPassword, verifyPassword } from './passwords';
import { revokeSessions } from './sessions';
import { getUserWithHash, setPassword } from './users';

/** The one answer to a wrong email or password, whichever was wrong. */
export const invalidCredentials = () => new ApiError(401, 'INVALID_CREDENTIALS', 'The email or password is wrong');

/** PATCH /me/password: checks the current password; every other session of the user ends. */
export async function changePassword(userId: string, currentSessionId: string, input: { currentPassword: string; newPassword: string }): Promise<void> {
  const user = await getUserWithHash(userId);
  if (!user || !(await verifyPassword(input.currentPassword, user.passwordHash))) throw invalidCredentials();
  await setPassword(userId, await hashPassword(input.newPassword));
  await revokeSessions(userId, { except: currentSessionId });
}
