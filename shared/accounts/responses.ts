import * as v from 'valibot';
import { idSchema, isoDateTimeSchema } from '../http/responses';

const role = v.picklist(['OWNER', 'MEMBER']);
const userSchema = v.pipe(v.strictObject({ id: idSchema, email: v.pipe(v.string(), v.examples(['ada@example.com'])), name: v.nullable(v.string()) }), v.title('DashboardUser'));
const projectEntry = v.pipe(v.strictObject({ id: v.string(), name: v.string(), role }), v.title('UserProject'));

export const sessionGrantSchema = v.pipe(
  v.strictObject({
    accessToken: v.pipe(v.string(), v.description('Send as Authorization: Bearer <accessToken>; valid 5 minutes, renewed through POST /dashboard/session/refresh')),
    expiresAt: isoDateTimeSchema,
    user: userSchema,
    projectId: v.pipe(v.string(), v.description('The project the access token is for')),
    projects: v.array(projectEntry),
  }),
  v.title('SessionGrant'),
);

export const meResponseSchema = v.pipe(v.strictObject({ user: userSchema, projectId: v.string(), role, projects: v.array(projectEntry) }), v.title('Me'));

export const sessionResponseSchema = v.pipe(
  v.strictObject({
    id: idSchema,
    projectId: v.string(),
    createdAt: isoDateTimeSchema,
    lastUsedAt: isoDateTimeSchema,
    expiresAt: v.pipe(isoDateTimeSchema, v.description('When it ends unless refreshed (7 days idle, 30 days after sign-in at most)')),
    userAgent: v.nullable(v.string()),
    current: v.pipe(v.boolean(), v.description('The session of this request')),
  }),
  v.title('DashboardSession'),
);

export const projectResponseSchema = v.pipe(
  v.strictObject({
    id: v.string(),
    name: v.string(),
    status: v.picklist(['ACTIVE', 'DISABLED']),
    createdAt: isoDateTimeSchema,
    requireCampaignApproval: v.pipe(v.boolean(), v.description('Campaigns are sent or scheduled only after an owner other than their last editor approved them (POST /campaigns/{id}/approve)')),
  }),
  v.title('Project'),
);

export const apiKeyResponseSchema = v.pipe(
  v.strictObject({
    id: idSchema,
    name: v.string(),
    kind: v.picklist(['secret', 'public']),
    prefix: v.pipe(v.string(), v.examples(['sk_Ab3d…'])),
    last4: v.nullable(v.string()),
    createdAt: isoDateTimeSchema,
    lastUsedAt: v.pipe(v.nullable(isoDateTimeSchema), v.description('Recorded at most once a minute, when the gateway authorizes the key')),
  }),
  v.title('ApiKey'),
);

export const createdApiKeyResponseSchema = v.pipe(
  v.strictObject({ ...apiKeyResponseSchema.pipe[0].entries, key: v.pipe(v.string(), v.description('The key itself: shown only here, only its hash is stored')) }),
  v.title('CreatedApiKey'),
);

export const rotatedApiKeyResponseSchema = v.pipe(
  v.strictObject({ ...createdApiKeyResponseSchema.pipe[0].entries, replaced: v.pipe(v.string(), v.description('The id of the key this one replaced, now revoked')) }),
  v.title('RotatedApiKey'),
);

export const memberResponseSchema = v.pipe(v.strictObject({ userId: idSchema, email: v.string(), name: v.nullable(v.string()), role, createdAt: isoDateTimeSchema }), v.title('Member'));

export const invitationResponseSchema = v.pipe(
  v.strictObject({ id: idSchema, email: v.string(), role, invitedBy: v.pipe(v.string(), v.description('The inviting user id, or key:<keyId>')), createdAt: isoDateTimeSchema, expiresAt: isoDateTimeSchema }),
  v.title('Invitation'),
);

export const auditEntryResponseSchema = v.pipe(
  v.strictObject({
    id: idSchema,
    action: v.string(),
    actor: v.strictObject({ type: v.picklist(['user', 'key', 'system']), userId: v.optional(v.string()), email: v.optional(v.string()), keyId: v.optional(v.string()) }),
    target: v.nullable(v.string()),
    detail: v.record(v.string(), v.string()),
    createdAt: isoDateTimeSchema,
  }),
  v.title('AuditEntry'),
);

export const okSchema = v.strictObject({ ok: v.literal(true) });
export const revokedSessionsSchema = v.strictObject({ revoked: v.pipe(v.number(), v.integer(), v.minValue(0)) });
