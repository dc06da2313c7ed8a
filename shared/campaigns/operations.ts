import { concurrentModificationCase, type ErrorCase, notFoundCase, type OperationDoc } from '../http/operation-doc';
import { deletedSchema, pageSchema } from '../http/responses';
import { campaignAudienceResponseSchema, campaignResponseSchema, campaignStatsResponseSchema, campaignTestResponseSchema } from './responses';
import { abWinnerSchema } from './ab-test-model';
import { createCampaignSchema, listCampaignsQuerySchema, patchCampaignSchema, sendCampaignSchema, testSendSchema } from './schemas';

const invalidState: ErrorCase = { status: 409, code: 'INVALID_CAMPAIGN_STATE', when: 'The campaign\'s status does not allow this' };
const approvalRequiredCase: ErrorCase = { status: 409, code: 'APPROVAL_REQUIRED', when: 'The project requires approval (`requireCampaignApproval`) and no owner has approved the campaign as it stands' };

/** The OpenAPI entries of the campaign routes, keyed by route key ('METHOD /path'). */
export const campaignOperations: Record<string, OperationDoc> = {
  'POST /campaigns': {
    operationId: 'createCampaign',
    tag: 'Campaigns',
    summary: 'Create a campaign',
    description:
      'A DRAFT: `subject` and `body` (and optionally `text`), or a MARKETING `templateId` whose fields the campaign\'s own override; `from` (needed here or on the template) on a verified domain; `segmentId` narrows the audience (default every subscribed contact). Template, sender domain and segment are checked now (422 on the field) and again when the campaign is sent. `spreadOverMinutes` (a whole number, 1–1440, else 422) spreads the sending evenly over that many minutes from the moment it starts: the audience is counted when the fan-out starts and recipient i of N is due at start + i × spread / N — never faster than the SES rate (a spread asking for more ends later) and behind transactional mail, as all campaign mail. A pause holds the mail that falls due meanwhile; the resume sends it at the spread\'s pace from then, the mail not yet due keeping its times. A cancel sends nothing more; the mail not yet due ends CANCELLED when it is next looked at, at the latest when it would have been due. Nothing is sent twice: each email is still sent once by its claim. ' +
      '`abTest: { variants: [{ subject }, …] (2–4), samplePercent (5–50), metric: "opens" | "clicks", waitMinutes (1–10080) }` makes it an A/B subject test: sending sends the sample first — exactly ⌊audience × samplePercent / 100⌋ recipients, spread evenly over the frozen audience, taking the variants in turn — and holds the rest; when the whole sample is queued, `abTest.phase` goes from `SAMPLE` to `WAITING`, and `waitMinutes` after the last sample email has gone out (`waitUntil`, moved to that moment once the sample has all gone out) a one-time schedule picks the variant with the highest unique open (click) rate of its sent mail (ties: the first), `WINNER` with `winner` its index, and the rest gets that subject. The pick and the rest happen once whatever is redelivered or restarted; each contact gets one email. The campaign is SENT when the rest has settled. Cancel works in every phase (while WAITING nothing more is sent). Not combinable with `spreadOverMinutes` or a send at each recipient\'s local time (422 `AB_TEST_WITH_SPREAD` / `AB_TEST_WITH_LOCAL_TIME`). The campaign\'s `subject` stays required (unless a template gives one) but the mail carries the variants\' subjects.',
    body: createCampaignSchema,
    bodyExample: { name: 'November newsletter', subject: 'What is new, {{contact.data.firstName}}', body: '<p>News…</p>', from: { name: 'Acme', email: 'news@mail.example.com' } },
    success: { status: 201, description: 'The campaign, DRAFT', data: campaignResponseSchema },
    errors: [
      { status: 422, code: 'VALIDATION_ERROR', when: 'Fields fail validation, the template is missing or not MARKETING, or from is missing' },
      { status: 422, code: 'AB_TEST_WITH_SPREAD', when: 'abTest and spreadOverMinutes are both given' },
    ],
  },
  'GET /campaigns': {
    operationId: 'listCampaigns',
    tag: 'Campaigns',
    summary: 'List campaigns',
    description:
      'Newest first; `status` filters; `total` is read from a counter (all campaigns, or those of that status).',
    query: listCampaignsQuerySchema,
    success: { status: 200, description: 'A page of campaigns', data: pageSchema(campaignResponseSchema) },
  },
  'GET /campaigns/{id}': {
    operationId: 'getCampaign',
    tag: 'Campaigns',
    summary: 'Get a campaign',
    description:
      'The campaign: content, audience, `status`, schedule, `totalRecipients`, and when paused or failed, why (`pauseReason`, `failureReason`). A spread campaign that has started shows `spread: { overMinutes, startedAt, endsAt, recipients }` (when its last email is due, and the audience it divides); the emails sent so far are `sentCount` of `GET /campaigns/{id}/stats`. `approval`: whether the project requires four-eyes approval (`required`, its `requireCampaignApproval`), who approved it and when (`approvedBy`, `approvedAt`; null until approved and again after any change of content, audience or schedule), and `lastEditedBy`, who made the last such change (a user, or an API key by `keyId`), who cannot approve it. Sent at a local time in each recipient\'s zone, `delivery` shows its zones: their moments, recipients and status.',
    success: { status: 200, description: 'The campaign', data: campaignResponseSchema },
    errors: [notFoundCase('campaign')],
  },
  'PATCH /campaigns/{id}': {
    operationId: 'updateCampaign',
    tag: 'Campaigns',
    summary: 'Update a campaign',
    description:
      'DRAFT or SCHEDULED campaigns only; `null` removes an optional field (`spreadOverMinutes: null`: no spread; `abTest: null` removes the A/B test). Checked as on creation. A change of anything but `name` and `description` (content, audience, `spreadOverMinutes`, `abTest`) records the caller as `approval.lastEditedBy` and clears the approval, in the same write: with the project\'s `requireCampaignApproval` on, it must be approved again before it is sent, and a SCHEDULED campaign whose approval was cleared goes back to DRAFT (`failureReason` `APPROVAL_REQUIRED`) when its time comes instead of starting.',
    body: patchCampaignSchema,
    bodyExample: { subject: 'Our November news' },
    success: { status: 200, description: 'The updated campaign', data: campaignResponseSchema },
    errors: [notFoundCase('campaign'), invalidState, concurrentModificationCase],
  },
  'DELETE /campaigns/{id}': {
    operationId: 'deleteCampaign',
    tag: 'Campaigns',
    summary: 'Delete a campaign',
    description: 'DRAFT campaigns only.',
    success: { status: 200, description: 'Deleted', data: deletedSchema },
    errors: [notFoundCase('campaign'), invalidState, concurrentModificationCase],
  },
  'POST /campaigns/{id}/send': {
    operationId: 'sendCampaign',
    tag: 'Campaigns',
    summary: 'Send, schedule or resume a campaign',
    description:
      'No body or `scheduledFor: null` sends now (DRAFT or SCHEDULED → SENDING); a future `scheduledFor` (at most 365 days ahead, else 422 `IN_THE_PAST` / `BEYOND_HORIZON`) schedules it (SCHEDULED; on a SCHEDULED campaign it reschedules). On a PAUSED campaign (paused by the deliverability guard) no body resumes it: SENDING again, its held-back emails sent once each. Content, sender domain and audience are checked first (422 `EMPTY_AUDIENCE` when nobody subscribed is in it); the audience is frozen when sending starts. With the project\'s `requireCampaignApproval` on, sending or scheduling a campaign no one has approved is 409 `APPROVAL_REQUIRED` (the attempt is recorded in the audit trail as `campaign.approval_requested`; resuming a PAUSED campaign needs no new approval); a reschedule is a change of schedule: it clears the approval, so the new time needs one too. Every send and schedule is recorded in the audit trail (`campaign.send_started`, `campaign.scheduled`) with who did it and who had approved it.\n\n' +
      '**In each recipient\'s time zone**: `{ "localTime": "2026-12-01T09:00", "timeZoneField": "data.timezone", "fallbackTimeZone": "UTC" }` (the last two are these defaults) sends each recipient the mail when their own clock reads `localTime`: their zone is the IANA time zone in that contact field (`Europe/Berlin`; a missing or invalid one: `fallbackTimeZone`), daylight saving time minded (a time that occurs twice: its first occurrence; one the clock skips: read with the offset before the change). The campaign is SCHEDULED until the first zone\'s moment (UTC+14; `scheduledFor` shows it), when the audience is frozen; then SENDING until the last zone (UTC−12) has gone out, and SENT when every email is settled. Zones whose moment has already passed when you send get it at once (and the campaign is SENDING at once). One schedule per distinct moment (zones at the same UTC offset share one, at most about 40), never per recipient; each recipient gets it once, also across redeliveries and restarts. `GET /campaigns/{id}` shows `delivery.zones`: each zone\'s moment, recipients and status (`PENDING`, `SENT`, `CANCELLED`). Cancel stops the zones not yet gone out (their emails end `CANCELLED`); a send without `localTime` of a SCHEDULED campaign replaces the plan. `localTime` is refused with `scheduledFor` (422 `CONFLICTING_FIELDS`), on a campaign with `abTest` (422 `LOCAL_TIME_WITH_AB_TEST`: a sample and its winner cannot wait for every zone) or `spreadOverMinutes` (422 `LOCAL_TIME_WITH_SPREAD`), and on a PAUSED campaign (409); its last moment must be within 365 days (422 `BEYOND_HORIZON`), the fallback a zone (422 `INVALID_TIME_ZONE`).',
    body: sendCampaignSchema,
    bodyExample: { scheduledFor: '2026-12-01T09:00:00Z' },
    success: { status: 200, description: 'The campaign, SENDING or SCHEDULED', data: campaignResponseSchema },
    errors: [
      notFoundCase('campaign'),
      invalidState,
      approvalRequiredCase,
      concurrentModificationCase,
      { status: 422, code: 'EMPTY_AUDIENCE', when: 'The audience has no subscribed contacts' },
      { status: 422, code: 'LOCAL_TIME_WITH_AB_TEST', when: 'localTime on a campaign with abTest' },
      { status: 422, code: 'LOCAL_TIME_WITH_SPREAD', when: 'localTime on a campaign with spreadOverMinutes' },
    ],
  },
  'POST /campaigns/{id}/approve': {
    operationId: 'approveCampaign',
    tag: 'Campaigns',
    summary: 'Approve a campaign (four-eyes)',
    description:
      'For projects with `requireCampaignApproval` (`PATCH /project`): a signed-in owner who is not the campaign\'s last editor (`approval.lastEditedBy`) approves a DRAFT or SCHEDULED campaign as it stands; it may then be sent or scheduled, by anyone. API keys cannot approve (403 `APPROVAL_NEEDS_OWNER`), nor MEMBER sessions (403), nor the last editor (403 `OWN_CHANGES`). The approval is written conditioned on the campaign not having changed since it was read, and any later change of content, audience or schedule clears it. Approving an approved campaign changes nothing. Recorded in the audit trail (`campaign.approved`).',
    success: { status: 200, description: 'The campaign, approved', data: campaignResponseSchema },
    errors: [
      notFoundCase('campaign'),
      { status: 403, code: 'APPROVAL_NEEDS_OWNER', when: 'An API key tried to approve' },
      { status: 403, code: 'FORBIDDEN', when: 'A MEMBER session (owners only)' },
      { status: 403, code: 'OWN_CHANGES', when: 'The caller made the campaign\'s latest change' },
      invalidState,
      concurrentModificationCase,
    ],
  },
  'POST /campaigns/{id}/cancel': {
    operationId: 'cancelCampaign',
    tag: 'Campaigns',
    summary: 'Cancel a scheduled or sending campaign',
    description:
      'A SCHEDULED campaign goes back to DRAFT (its schedule is deleted); a SENDING or PAUSED one is CANCELLED at once and its emails not yet handed to SES end `CANCELLED` (the rest stands).',
    success: { status: 200, description: 'The campaign', data: campaignResponseSchema },
    errors: [notFoundCase('campaign'), invalidState, concurrentModificationCase],
  },
  'POST /campaigns/{id}/test': {
    operationId: 'testCampaign',
    tag: 'Campaigns',
    summary: 'Send a test email',
    description:
      '`{ email }` or `{ emails: [...] }` (at most 5): sent at once, the subject prefixed `[TEST] `, rendered for each address\'s contact (its data) or with sample values (`firstName` Sample). Each is an email of source `test` (`sourceId` the campaign; `contactId` `sample` when the address is no contact): it shows in `GET /emails?source=test&campaignId=…` with its timeline and counts in the day\'s `sent` of `GET /analytics`, never in the campaign\'s stats or progress.',
    body: testSendSchema,
    bodyExample: { email: 'me@example.com' },
    success: { status: 200, description: 'The test emails sent', data: campaignTestResponseSchema },
    errors: [notFoundCase('campaign'), { status: 422, code: 'TEST_SEND_FAILED', when: 'SES rejected the test email' }, { status: 503, code: 'TEST_SEND_FAILED', when: 'SES could not take the test email now' }],
  },
  'GET /campaigns/{id}/audience': {
    operationId: 'getCampaignAudience',
    tag: 'Campaigns',
    summary: 'Who the campaign would reach now',
    description:
      'The audience counted now, by the same reading and filters that sending uses (the segment\'s tracked members, or its filters evaluated, or every subscribed contact; unsubscribed contacts and suppressed addresses left out): `contacts` in the audience, `subscribed` among them, `suppressed` among those, and `recipients`, exactly how many emails sending now would queue. After the campaign is sent its `totalRecipients` equals `recipients` if nobody changed meanwhile. The audience is read page by page, as sending reads it. `estimatedCost`: what sending to `recipients` would cost on AWS, in USD — `ses` (SES\'s charge), `aws` (DynamoDB, Lambda, SQS and, for mail sent through the API, API Gateway) and `total` — from the per-email cost model of the deployment guide (infra/README.md "Cost model"), whose prices the deployment may set (CDK context `priceSesPer1000`, `priceDynamoWritePerMillion`, `priceDynamoReadPerMillion`, `priceSqsPerMillion`, `priceLambdaRequestsPerMillion`, `priceLambdaGbSecond`, `priceApiRequestsPerMillion`; by default the us-east-1 list prices). Fixed monthly costs (CloudWatch, idle queues) are not in it.',
    success: { status: 200, description: 'The audience counts', data: campaignAudienceResponseSchema },
    errors: [notFoundCase('campaign'), { status: 422, code: 'VALIDATION_ERROR', when: 'The campaign\'s segment no longer exists (field segmentId, code NOT_FOUND)' }],
  },
  'GET /campaigns/{id}/stats': {
    operationId: 'getCampaignStats',
    tag: 'Campaigns',
    summary: 'Campaign analytics',
    description:
      'Counts and rates (see Campaigns): unique opens and clicks and every open and click, bounces, complaints, unsubscribes, failed, suppressed and cancelled emails, and rates in percent of `sentCount` (two decimals; 0 when nothing was sent). `variants` (A/B test): for each subject variant, its sample mail `sent`, `delivered`, unique `opened` and `clicked` contacts, `openRate` and `clickRate` (percent of its `sent`), and whether it is the `winner`; the rest\'s mail counts in the campaign\'s figures only. `links`: each link clicked in the campaign\'s mail with its `clicks` and `uniqueClicks` (contacts), most clicked first — at most 100 distinct links are kept per campaign (personalised URLs cannot grow it further; clicks on others still count in `clicks`), URLs up to 2,048 characters. `hourly`: for every UTC hour since sending started, up to 14 days, the emails `delivered`, `opened` and `clicked` in it (every open and click). Both are counters kept as SES events arrive (a redelivered event counts once), read in one request whatever the campaign\'s size.',
    success: { status: 200, description: 'Counts and rates', data: campaignStatsResponseSchema },
    errors: [notFoundCase('campaign')],
  },
  'POST /campaigns/{id}/ab-winner': {
    operationId: 'pickCampaignAbWinner',
    tag: 'Campaigns',
    summary: 'Pick an A/B test\'s winner by hand',
    description:
      'Ends an A/B test\'s wait early: `{ "variant": n }` (0-based, the index in `abTest.variants`) is the winner (`abTest.phase` `WINNER`, `pickedBy` `hand`), the rest of the audience is queued with its subject, and the scheduled pick is deleted. Only while `abTest.phase` is `WAITING` and the campaign SENDING or PAUSED: the winner is picked once.',
    body: abWinnerSchema,
    bodyExample: { variant: 1 },
    success: { status: 200, description: 'The campaign, its test WINNER', data: campaignResponseSchema },
    errors: [
      notFoundCase('campaign'),
      { status: 409, code: 'NO_AB_TEST', when: 'The campaign has no A/B test' },
      { status: 409, code: 'AB_TEST_NOT_WAITING', when: 'The test is not WAITING (the sample is still being queued, the winner is picked, or the campaign is not sending)' },
      { status: 422, code: 'VALIDATION_ERROR', when: 'variant is not a variant of the test' },
    ],
  },
};
