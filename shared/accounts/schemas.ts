import * as v from 'valibot';
import { emailSchema } from '../contacts/schemas';
import { pageQueryEntries } from '../http/pagination';
import { ONE_TIME_TOKEN_PATTERN } from './one-time-tokens';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './passwords';

/** Request schemas of the session, account, member and key routes (/docs "Dashboard session"). */
const idString = (field: string) => v.pipe(v.string(`${field} must be a string`), v.nonEmpty(`${field} is required`), v.maxLength(64, `${field} must be at most 64 characters`));

/** A password being checked: any length up to the maximum (old passwords may predate the rules). */
const presentedPassword = (field: string) => v.pipe(v.string(`${field} must be a string`), v.nonEmpty(`${field} is required`), v.maxLength(PASSWORD_MAX_LENGTH, `${field} must be at most ${PASSWORD_MAX_LENGTH} characters`));

/** A password being set. */
export const newPasswordSchema = (field: string) =>
  v.pipe(
    v.string(`${field} must be a string`),
    v.minLength(PASSWORD_MIN_LENGTH, `${field} must be at least ${PASSWORD_MIN_LENGTH} characters`),
    v.maxLength(PASSWORD_MAX_LENGTH, `${field} must be at most ${PASSWORD_MAX_LENGTH} characters`),
  );

const tokenSchema = v.pipe(v.string('token must be a string'), v.regex(ONE_TIME_TOKEN_PATTERN, 'token is not a valid link token'));
const nameSchema = (field: string) => v.pipe(v.string(`${field} must be a string`), v.trim(), v.nonEmpty(`${field} must not be empty`), v.maxLength(100, `${field} must be at most 100 characters`));
export const roleSchema = v.picklist(['OWNER', 'MEMBER'], 'role must be OWNER or MEMBER');

export const signInSchema = v.strictObject({ email: emailSchema, password: presentedPassword('password'), projectId: v.optional(idString('projectId')) });
export const refreshSchema = v.optional(v.strictObject({ projectId: v.optional(idString('projectId')) }), {});
export const passwordResetRequestSchema = v.strictObject({ email: emailSchema });
export const passwordResetConfirmSchema = v.strictObject({ token: tokenSchema, password: newPasswordSchema('password') });
export const acceptInvitationSchema = v.strictObject({ token: tokenSchema, password: newPasswordSchema('password'), name: v.optional(nameSchema('name')) });
export const changePasswordSchema = v.strictObject({ currentPassword: presentedPassword('currentPassword'), newPassword: newPasswordSchema('newPassword') });
export const patchProjectSchema = v.pipe(
  v.strictObject({
    name: v.optional(nameSchema('name')),
    requireCampaignApproval: v.optional(v.boolean('requireCampaignApproval must be true or false')),
  }),
  v.check((input) => input.name !== undefined || input.requireCampaignApproval !== undefined, 'give name or requireCampaignApproval'),
);
export const createKeySchema = v.strictObject({ name: nameSchema('name'), kind: v.picklist(['secret', 'public'], 'kind must be secret or public') });
export const patchMemberSchema = v.strictObject({ role: roleSchema });
export const inviteSchema = v.strictObject({ email: emailSchema, role: roleSchema });
export const pageQuerySchema = v.strictObject(pageQueryEntries);
