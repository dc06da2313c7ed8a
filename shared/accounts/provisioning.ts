import { notFound } from '../http/errors';
import { getProject } from '../projects/projects';
import type { Role } from './access-tokens';
import { generatePassword, hashPassword, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './passwords';
import { addMembership, createUser, findUserByEmail, getMembership, normalizeEmail } from './users';

export interface ProvisionedMember {
  userId: string;
  email: string;
  projectId: string;
  role: Role;
  /** Whether the account was made now (false: an existing account joined or already was a member). */
  createdUser: boolean;
  /** The generated password, when one was made for a new account; shown once. */
  generatedPassword?: string;
}

/**
 * The operator's way in (admin CLI create-user, the local stack's seeded owner): makes the account
 * if the address has none (with the given password or a generated one) and makes it a member of
 * the project with `role`. An existing account keeps its password.
 */
export async function provisionMember(input: { email: string; name?: string; password?: string; projectId: string; role: Role }): Promise<ProvisionedMember> {
  if (input.password !== undefined && (input.password.length < PASSWORD_MIN_LENGTH || input.password.length > PASSWORD_MAX_LENGTH)) {
    throw new Error(`The password must be ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters`);
  }
  if (!(await getProject(input.projectId))) throw notFound('Project');
  const email = normalizeEmail(input.email);
  const existing = await findUserByEmail(email);
  let generatedPassword: string | undefined;
  let user = existing;
  if (!user) {
    const password = input.password ?? (generatedPassword = generatePassword());
    user = { ...(await createUser({ email, name: input.name ?? null, passwordHash: await hashPassword(password) })), passwordHash: '' };
  }
  if (!(await getMembership(input.projectId, user.userId))) await addMembership(input.projectId, user, input.role);
  return { userId: user.userId, email, projectId: input.projectId, role: (await getMembership(input.projectId, user.userId))!.role, createdUser: !existing, ...(generatedPassword ? { generatedPassword } : {}) };
}
