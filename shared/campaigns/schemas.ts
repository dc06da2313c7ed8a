import * as v from 'valibot';
import { emailSchema } from '../contacts/schemas';
import { pageQueryEntries } from '../http/pagination';
import { bodySchema, senderSchema, subjectSchema, textSchema } from '../templates/schemas';
import { LOCAL_TIME, TIME_ZONE_FIELD } from './local-time';
import { spreadOverMinutesSchema } from './spread';
import { abTestSchema } from './ab-test-model';
import { campaignStatuses } from './status';

/** The limits on campaigns, documented in the README ("Campaigns"). */
export const campaignLimits = {
  maxNameLength: 200,
  maxDescriptionLength: 1000,
  maxTestRecipients: 5,
  /** How far ahead a campaign may be scheduled. */
  maxScheduleDays: 365,
} as const;

const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;

const nameSchema = v.pipe(v.string('name must be a string'), v.trim(), v.nonEmpty('name must not be empty'), v.maxLength(campaignLimits.maxNameLength, `name must be at most ${campaignLimits.maxNameLength} characters`));
const descriptionSchema = v.pipe(v.string('description must be a string'), v.maxLength(campaignLimits.maxDescriptionLength, `description must be at most ${campaignLimits.maxDescriptionLength} characters`));
const idSchema = (field: string) => v.pipe(v.string(`${field} must be a string`), v.regex(ULID, `${field} must be an id`));

export const createCampaignSchema = v.pipe(
  v.object({
    name: nameSchema,
    description: v.optional(descriptionSchema),
    subject: v.optional(subjectSchema),
    body: v.optional(bodySchema),
    text: v.optional(textSchema),
    templateId: v.optional(idSchema('templateId')),
    from: v.optional(senderSchema),
    replyTo: v.optional(emailSchema),
    segmentId: v.optional(idSchema('segmentId')),
    spreadOverMinutes: v.optional(spreadOverMinutesSchema),
    abTest: v.optional(abTestSchema),
  }),
  v.forward(
    v.check((input) => input.templateId !== undefined || input.subject !== undefined, 'subject is required unless templateId is given'),
    ['subject'],
  ),
  v.forward(
    v.check((input) => input.templateId !== undefined || input.body !== undefined, 'body is required unless templateId is given'),
    ['body'],
  ),
);

/** PATCH: the given fields replace the stored ones; null removes an optional one. */
export const patchCampaignSchema = v.pipe(
  v.object({
    name: v.optional(nameSchema),
    description: v.optional(v.nullable(descriptionSchema)),
    subject: v.optional(v.nullable(subjectSchema)),
    body: v.optional(v.nullable(bodySchema)),
    text: v.optional(v.nullable(textSchema)),
    templateId: v.optional(v.nullable(idSchema('templateId'))),
    from: v.optional(v.nullable(senderSchema)),
    replyTo: v.optional(v.nullable(emailSchema)),
    segmentId: v.optional(v.nullable(idSchema('segmentId'))),
    spreadOverMinutes: v.optional(v.nullable(spreadOverMinutesSchema)),
    abTest: v.optional(v.nullable(abTestSchema)),
  }),
  v.check((changes) => Object.values(changes).some((value) => value !== undefined), 'give at least one field to change'),
);

/** POST /campaigns/{id}/send: no body, or scheduledFor null, sends now. */
export const sendCampaignSchema = v.optional(
  v.pipe(
  v.object({
    scheduledFor: v.optional(v.nullable(v.pipe(v.string('scheduledFor must be an ISO 8601 date-time'), v.isoTimestamp('scheduledFor must be an ISO 8601 date-time with a time zone, e.g. 2026-12-01T09:00:00Z')))),
    /** Each recipient's own time zone (shared/campaigns/local-time.ts): checked further by the service. */
    localTime: v.optional(v.pipe(v.string('localTime must be a string'), v.regex(LOCAL_TIME, 'localTime must be a date and time without a zone, e.g. 2026-12-01T09:00'))),
    timeZoneField: v.optional(v.pipe(v.string('timeZoneField must be a string'), v.regex(TIME_ZONE_FIELD, 'timeZoneField must name a contact data field, e.g. data.timezone'))),
    fallbackTimeZone: v.optional(v.pipe(v.string('fallbackTimeZone must be a string'), v.maxLength(64, 'fallbackTimeZone must be an IANA time zone'))),
  }),
  v.forward(
    v.check((input) => input.localTime !== undefined || (input.timeZoneField === undefined && input.fallbackTimeZone === undefined), 'timeZoneField and fallbackTimeZone go with localTime'),
    ['localTime'],
  ),
  ),
  {},
);

export const testSendSchema = v.pipe(
  v.object({
    email: v.optional(emailSchema),
    emails: v.optional(v.pipe(v.array(emailSchema, 'emails must be an array of email addresses'), v.minLength(1, 'emails must not be empty'), v.maxLength(campaignLimits.maxTestRecipients, `at most ${campaignLimits.maxTestRecipients} test recipients`))),
  }),
  v.forward(
    v.check((input) => (input.email === undefined) !== (input.emails === undefined), 'give either email or emails'),
    ['email'],
  ),
);

export const listCampaignsQuerySchema = v.object({
  ...pageQueryEntries,
  status: v.optional(v.picklist(campaignStatuses, `status must be one of ${campaignStatuses.join(', ')}`)),
});

export type CreateCampaignInput = v.InferOutput<typeof createCampaignSchema>;
export type CampaignChanges = v.InferOutput<typeof patchCampaignSchema>;
export type ListCampaignsQuery = v.InferOutput<typeof listCampaignsQuerySchema>;
export type TestSendInput = v.InferOutput<typeof testSendSchema>;
