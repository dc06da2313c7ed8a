import * as v from 'valibot';
import { countSchema, idSchema, isoDateTimeSchema } from '../http/responses';
import { abMetrics, abPhases } from './ab-test-model';
import { campaignStatuses } from './status';

const editorSchema = v.pipe(
  v.strictObject({ type: v.picklist(['user', 'key', 'system']), userId: v.optional(v.string()), email: v.optional(v.string()), keyId: v.optional(v.string()) }),
  v.description('A signed-in user (`userId`), an API key (`keyId`), or the system'),
);

/** Four-eyes approval (shared/campaigns/approval.ts). */
const campaignApprovalSchema = v.pipe(
  v.strictObject({
    required: v.pipe(v.optional(v.boolean()), v.description('The project\'s `requireCampaignApproval`; absent from the answers that do not read it (cancel, resume of a PAUSED campaign) and from webhook payloads')),
    approved: v.boolean(),
    approvedBy: v.pipe(v.nullable(editorSchema), v.description('The owner who approved it; null until approved, and again after a change')),
    approvedAt: v.nullable(isoDateTimeSchema),
    lastEditedBy: v.pipe(v.nullable(editorSchema), v.description('Who last changed its content, audience or schedule (they cannot approve it)')),
  }),
  v.title('CampaignApproval'),
);

/** A local-time send (shared/campaigns/local-time.ts `DeliveryView`). */
const localTimeDeliverySchema = v.pipe(
  v.strictObject({
    mode: v.literal('LOCAL_TIME'),
    localTime: v.pipe(v.string(), v.description('The wall-clock time each recipient gets it at, in their own zone'), v.examples(['2026-12-01T09:00'])),
    timeZoneField: v.pipe(v.string(), v.examples(['data.timezone'])),
    fallbackTimeZone: v.pipe(v.string(), v.examples(['UTC'])),
    startsAt: v.pipe(isoDateTimeSchema, v.description('The first zone\'s moment (UTC+14): the audience is frozen then')),
    endsAt: v.pipe(isoDateTimeSchema, v.description('The last zone\'s moment (UTC−12)')),
    zones: v.pipe(
      v.array(
        v.strictObject({
          timeZone: v.pipe(v.string(), v.examples(['Europe/Berlin'])),
          at: v.pipe(isoDateTimeSchema, v.description('When the zone\'s clock reads localTime')),
          recipients: countSchema,
          status: v.pipe(v.picklist(['PENDING', 'SENT', 'CANCELLED']), v.description('PENDING until its moment; SENT: its mail went to the sender at its moment; CANCELLED: the campaign was cancelled before')),
        }),
      ),
      v.description('The frozen audience\'s zones (the contact\'s zone, or the fallback when it has none or an invalid one), by moment; empty until the audience is frozen'),
    ),
  }),
  v.title('LocalTimeDelivery'),
);

/** A campaign as the API returns it (shared/campaigns/store.ts `Campaign`). */
export const campaignResponseSchema = v.pipe(
  v.strictObject({
    id: idSchema,
    name: v.pipe(v.string(), v.examples(['November newsletter'])),
    description: v.nullable(v.string()),
    subject: v.nullable(v.string()),
    body: v.pipe(v.nullable(v.string()), v.description('HTML with {{mustache}} variables; with templateId, overrides the template body')),
    text: v.pipe(v.nullable(v.string()), v.description('The plain-text part with {{mustache}} variables; null: the template\'s with templateId (unless body overrides it), else made from the rendered body')),
    templateId: v.nullable(idSchema),
    from: v.nullable(v.strictObject({ name: v.optional(v.string()), email: v.pipe(v.string(), v.email()) })),
    replyTo: v.nullable(v.pipe(v.string(), v.email())),
    segmentId: v.pipe(v.nullable(idSchema), v.description('null: every subscribed contact')),
    status: v.picklist(campaignStatuses),
    scheduledFor: v.nullable(isoDateTimeSchema),
    sentAt: v.pipe(v.nullable(isoDateTimeSchema), v.description('When sending started')),
    totalRecipients: v.pipe(countSchema, v.description('Recipients queued so far while SENDING; the audience size once read')),
    cancelledAt: v.nullable(isoDateTimeSchema),
    failureReason: v.nullable(v.string()),
    pausedAt: v.pipe(v.nullable(isoDateTimeSchema), v.description('When the deliverability guard paused the campaign; cleared when it is resumed')),
    pauseReason: v.pipe(v.nullable(v.string()), v.description('Why the deliverability guard paused the campaign (bounce or complaint rate); cleared when POST /campaigns/{id}/send resumes it')),
    delivery: v.pipe(v.nullable(localTimeDeliverySchema), v.description('Sent at a local time in each recipient\'s time zone (POST /campaigns/{id}/send with localTime); null otherwise')),
    spreadOverMinutes: v.pipe(v.nullable(v.pipe(v.number(), v.integer())), v.description('Sending spreads the mail evenly over this many minutes (1–1440); null: as fast as the SES rate allows')),
    spread: v.pipe(
      v.nullable(
        v.strictObject({
          overMinutes: v.pipe(v.number(), v.integer()),
          startedAt: isoDateTimeSchema,
          endsAt: v.pipe(isoDateTimeSchema, v.description('When the last email is due (later only if the SES rate cannot keep up)')),
          recipients: v.pipe(v.nullable(countSchema), v.description('The audience the spread divides (counted when the fan-out starts); null until then')),
        }),
      ),
      v.description('Once a spread campaign has started: its window; the emails sent so far are the stats\' sentCount. null otherwise'),
    ),
    createdAt: isoDateTimeSchema,
    updatedAt: isoDateTimeSchema,
    approval: campaignApprovalSchema,
    abTest: v.pipe(
      v.nullable(
        v.strictObject({
          variants: v.array(v.strictObject({ subject: v.string() })),
          samplePercent: v.pipe(v.number(), v.integer()),
          metric: v.picklist(abMetrics),
          waitMinutes: v.pipe(v.number(), v.integer()),
          phase: v.pipe(v.nullable(v.picklist(abPhases)), v.description('null until sending starts; SAMPLE while the sample is queued, WAITING until the pick, WINNER after')),
          waitUntil: v.pipe(v.nullable(isoDateTimeSchema), v.description('When the winner is picked automatically (set when WAITING starts)')),
          winner: v.pipe(v.nullable(v.pipe(v.number(), v.integer())), v.description('The index of the winning variant, once picked')),
          pickedBy: v.pipe(v.nullable(v.picklist(['schedule', 'hand'])), v.description('schedule: the highest rate when the wait ended; hand: POST /campaigns/{id}/ab-winner')),
          pickedAt: v.nullable(isoDateTimeSchema),
        }),
      ),
      v.description('The A/B subject test; null: none'),
    ),
  }),
  v.title('Campaign'),
);

const rateSchema = v.pipe(v.number(), v.minValue(0), v.description('Percent, two decimals'));

/** GET /campaigns/{id}/stats (shared/campaigns/stats.ts `CampaignStats`). */
export const campaignStatsResponseSchema = v.pipe(
  v.strictObject({
    totalRecipients: countSchema,
    sentCount: countSchema,
    deliveredCount: countSchema,
    openedCount: v.pipe(countSchema, v.description('Unique contacts')),
    clickedCount: v.pipe(countSchema, v.description('Unique contacts')),
    opens: countSchema,
    clicks: countSchema,
    bouncedCount: countSchema,
    complainedCount: countSchema,
    unsubscribedCount: countSchema,
    failedCount: countSchema,
    suppressedCount: countSchema,
    cancelledCount: countSchema,
    deliveryRate: rateSchema,
    openRate: rateSchema,
    clickRate: rateSchema,
    bounceRate: rateSchema,
    complaintRate: rateSchema,
    unsubscribeRate: rateSchema,
    links: v.pipe(
      v.array(v.strictObject({ url: v.string(), clicks: countSchema, uniqueClicks: v.pipe(countSchema, v.description('Contacts who clicked this link')) })),
      v.description('Clicks per link (from SES click events), most clicked first; at most 100 links per campaign are itemised'),
    ),
    hourly: v.pipe(
      v.array(v.strictObject({ hour: isoDateTimeSchema, delivered: countSchema, opened: countSchema, clicked: countSchema })),
      v.description('Every UTC hour since sending started (its start time), up to 14 days; empty before sending'),
    ),
    variants: v.pipe(
      v.array(
        v.strictObject({
          variant: v.pipe(v.number(), v.integer()),
          subject: v.string(),
          sent: countSchema,
          delivered: countSchema,
          opened: v.pipe(countSchema, v.description('Unique contacts')),
          clicked: v.pipe(countSchema, v.description('Unique contacts')),
          openRate: rateSchema,
          clickRate: rateSchema,
          winner: v.boolean(),
        }),
      ),
      v.description('An A/B test\'s sample, per variant (percent of the variant\'s sent); the rest\'s mail counts in the campaign\'s figures only. Empty without a test'),
    ),
  }),
  v.title('CampaignStats'),
);

/** POST /campaigns/{id}/test. */
export const campaignTestResponseSchema = v.pipe(v.strictObject({ emails: v.array(v.strictObject({ email: v.pipe(v.string(), v.email()), messageId: v.string() })) }), v.title('CampaignTestSend'));

export const campaignAudienceResponseSchema = v.pipe(
  v.strictObject({
    contacts: v.pipe(countSchema, v.description('The audience: the segment\'s members, subscribed or not; without a segment, every contact of the project')),
    subscribed: v.pipe(countSchema, v.description('Of those, the subscribed ones')),
    suppressed: v.pipe(countSchema, v.description('Subscribed, but their address is on the suppression list: never sent to')),
    recipients: v.pipe(countSchema, v.description('How many emails sending now would queue: subscribed and not suppressed (each contact once); after sending, the campaign\'s totalRecipients')),
    estimatedCost: v.pipe(
      v.strictObject({
        ses: v.pipe(v.number(), v.description('SES\'s charge for `recipients` emails, USD')),
        aws: v.pipe(v.number(), v.description('DynamoDB, Lambda and SQS for them, USD')),
        total: v.number(),
        currency: v.literal('USD'),
      }),
      v.description('What sending now would cost on AWS, by the per-email cost model (infra/README.md "Cost model"; prices are deploy settings, by default the us-east-1 list prices); six decimals'),
    ),
  }),
  v.title('CampaignAudience'),
);
