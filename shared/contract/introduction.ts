/**
 * The introduction of the API reference (the document's info.description, the top of GET /docs):
 * the whole service in a page, one heading per tag of the document. A unit test fails when a tag
 * has no heading here, so a new resource group cannot be left out.
 */
export const introduction = `Mailwright is a self-hostable, serverless email service: transactional sending, contacts and their events, the activity log and daily analytics, templates, segments, marketing campaigns, automated workflows, outbound webhooks and sender domains, in one API. Every request is scoped to the project of its API key.

## Authentication

Send \`Authorization: Bearer <key>\`. **Secret keys** (\`sk_…\`) work on every route and belong on servers only. **Public keys** (\`pk_…\`) work only on \`POST /v1/track\` and are safe in browsers (that route answers CORS preflight). A key is \`sk_\` or \`pk_\` and 43 base62 characters (256 random bits); only its SHA-256 is stored, and the project comes from the key. Keys are issued, rotated and revoked with the admin CLI or the API keys routes; a revoked key or a disabled project is refused at once (401 / 403 \`PROJECT_DISABLED\`). Rotating with the admin CLI adds a key and keeps the old one working until it is revoked, so clients can move over without downtime. The dashboard sends short-lived access tokens (\`mwa_…\`) instead: see Dashboard session. The unsubscribe links and this reference need no key.

## Requests and responses

Bodies are JSON (parsed as JSON whatever their \`Content-Type\`, so \`curl -d\` works; CSV imports excepted). A success is \`{ success: true, data }\`; a list is \`{ success: true, data: { items, nextCursor, hasMore, total } }\`. An error always has one envelope: \`{ success: false, message, error: { code, message, statusCode, requestId, errors?, suggestion? }, timestamp }\` — 400 for malformed JSON or a bad cursor, 401/403 for keys, 404 for an unknown route or an id that names nothing in the project (ids are ULIDs), 409 for conflicts, 413 for a body over the route's limit (256 KB; \`/v1/send\` 6,000,000 bytes), 422 \`VALIDATION_ERROR\` with one \`errors\` entry per field, 429 for the rate limit, 503 \`SERVICE_UNAVAILABLE\` with \`Retry-After\` when an AWS service the request needs stays busy or failing after the service's own retries (see below), and 500 with only the \`requestId\` (the details are in the logs). The top-level \`message\` repeats \`error.message\` with the field errors (\`The request did not pass validation: to: …\`), for clients that read it there, such as Plunk's. Errors API Gateway produces itself (a bad key, an unknown route, a body over 10 MB, a timeout after 29 s) carry the same envelope; their \`timestamp\` is API Gateway's request time (\`22/Nov/2026:17:00:00 +0000\`). Responses carry security headers (HSTS, \`X-Content-Type-Options: nosniff\`…); only \`POST /v1/track\` answers CORS preflight.

**Pagination.** Lists take \`limit\` (1–100, default 20) and \`cursor\`, and answer \`{ items, nextCursor, hasMore, total }\`; pass \`nextCursor\` back as \`cursor\` for the next page until \`hasMore\` is false. A cursor is opaque and bound to its query and project: an edited one, or one from another query or project, is a 400 \`INVALID_CURSOR\`. \`total\` is read from a counter, never counted: each list says what it counts (often the whole collection, not narrowed by every filter). A page filtered after reading may hold fewer than \`limit\` items while \`hasMore\` is true.

**When AWS is busy: 503.** DynamoDB throttling a hot partition, SQS, S3, SES or the Scheduler answering errors for a moment: every call is retried with backoff inside the request, and a request that still cannot complete answers 503 \`SERVICE_UNAVAILABLE\` with \`Retry-After\` (seconds; the key check before it answers the same 503 when it cannot read the key). Retry it after that long. A 503 has changed nothing that a retry repeats: on \`POST /v1/send\`, a retry with the same \`Idempotency-Key\` and body sends each email exactly once, whatever the failed attempt got done (a retry while another attempt still runs gets 409 \`IDEMPOTENCY_KEY_IN_PROGRESS\`: retry shortly). A request answered 2xx is never lost afterwards: its queued work is retried until it is done or ends visibly failed.

**Rate limit.** Each project may make a configured number of requests per minute (1,000 by default), in a fixed one-minute window that opens with the first request after the previous window closed (not at clock minutes); request N+1 within a minute of the window's first request is a 429 \`RATE_LIMITED\` with \`Retry-After\` = the seconds until the window closes. Like any fixed window it lets a client that waits for the boundary send up to 2N in a short span around it, never more than N within one window. It is checked in every function, so it holds whatever the gateway caches. The gateway's stage throttling (100 requests a second, burst 200) protects the deployment as a whole.

## Sending

\`POST /v1/send\` sends a transactional email to up to 50 recipients, from a template or a subject and body (HTML or Markdown) with \`{{variables}}\`, always with a plain-text part beside the HTML (\`text\`, or made from the HTML), from a verified domain, with custom headers and attachments; an \`Idempotency-Key\` header makes retries safe for 24 hours. Each recipient becomes a contact. Every email goes out with an HTML and a plain-text part, through a queue paced to the SES sending rate (14 a second by default) that all senders share; transactional and workflow mail always goes ahead of campaign mail: a campaign uses the slots they leave free and only ever reserves those of the next send interval, so the sender of a transactional email gets its slot at most two send intervals after it asks (about 150 ms at 14 a second), beside a campaign of any size. An email moves \`QUEUED → SENDING → SENT → DELIVERED | BOUNCED | COMPLAINED\`, or ends \`FAILED\` (SES refused it for good: \`failureReason\`) or \`SUPPRESSED\` (the address is suppressed; it never reaches SES); statuses only move forward, except that an email given back (SES throttled, or its campaign paused) returns from SENDING to QUEUED. SES throttling and transient errors are retried with backoff (1 s … 5 min). An email whose sender stopped while SENDING (a timeout or crash, perhaps after SES accepted it) is not sent again at once: it stays SENDING while SES's own events record it, and only when none has come 10 minutes after its claim ran out (SES never got it) is it sent again. An address that bounces permanently or complains is suppressed in the project (the admin CLI lists and lifts suppressions) and its contact unsubscribed. \`POST /v1/verify\` checks an address (syntax, domain and MX records, disposable domains, aliases, plus addressing, likely typos) without sending anything.

## Events

\`POST /v1/track\` records that a contact did something (with a secret or a public key), creating or updating the contact; events start workflows and feed segments. \`GET /events\` lists the project's events (by contact, email, name or time) and \`GET /events/names\` the names in use. The service records its own events too, each with its \`emailId\` where there is one: \`email.sent\`, \`email.delivered\`, \`email.bounced\` (\`bounceType\`, \`bounceSubType\`, \`diagnosticCode\`), \`email.complained\`, \`email.rejected\`, \`email.failed\`, \`email.delayed\`, \`email.opened\`, \`email.clicked\` (\`link\`), \`email.suppressed\`; \`contact.subscribed\` / \`contact.unsubscribed\`; \`segment.entered\` / \`segment.exited\`. Names starting \`email.\`, \`segment.\` or \`contact.\` are reserved for them. An SES event delivered twice is recorded once, and an email's status only moves forward (a late delivery never overwrites a bounce). Opens and clicks are tracked by SES (for links on your own domain, deploy with a tracking domain: \`-c trackingDomain=…\`). A deleted contact's events stay in the project's history under its id.

## Emails

The activity log: \`GET /emails\` lists every email of the project — transactional, campaign, workflow and campaign test sends — newest first, filtered by recipient, status, source, campaign and date; \`GET /emails/{id}\` is one email with its rendered HTML, headers and timeline (queued, sent, delivered or bounced with the reason, complained, opens, clicks with the link).

## Analytics

\`GET /analytics\` answers a daily series of sent, delivered, opened, clicked, bounced and complained (UTC days, up to 366), with totals, the bounce and complaint rates against the rates from which SES reviews an account (5 % and 0.1 %), and the contact and subscriber counts — read from counters kept as mail goes out, never by scanning. A counter is moved right after the write it counts, so a function that dies in between leaves a day one short, never one over.

## Contacts

A contact is an email address with a \`subscribed\` flag and free-form \`data\`. \`POST /contacts\` creates or updates by email; contacts are read, updated and deleted by id, and listed with a search on email and a filter on \`subscribed\`. An address that bounces hard or complains is suppressed: no more mail is sent to it.

- **Email**: trimmed and lower-cased, at most 254 characters, unique in the project.
- **subscribed**: true by default on create (a contact made by \`POST /v1/send\` starts unsubscribed unless the send says otherwise); kept on update unless given.
- **data** merges by top-level key: a key given replaces that key, a key given as \`null\` is removed, keys not given are kept. At most 100 keys per contact; keys are 1–64 letters, digits, \`_\` or \`-\` (they become segment fields such as \`data.plan\`); values are any JSON with finite numbers, nested at most 3 levels, at most 2 KB each as JSON. Every path that writes contacts (this API, \`/v1/send\`, \`/v1/track\`, imports, workflow steps) applies these rules.
- Deleting a contact removes it and its share of the counters; its events stay under its id, and a new contact with the same email gets a new id.

## Imports and exports

\`POST /contacts/imports\` imports contacts in bulk from CSV, JSON or a presigned upload; \`POST /contacts/exports\` writes all contacts, the subscribed ones or a segment's members to a CSV to download. Both answer 202 with a job to poll. Export files are kept 2 days; uploads and import files 3 days.

## Templates

Reusable subjects and bodies with \`{{variables}}\` (mustache), for transactional mail, campaigns and workflows. A subject, body or text that does not parse is refused with 422 (\`INVALID_TEMPLATE\`) when the template is saved, not when it is sent; the \`from\` domain is checked when sending, not when saving.

Variables: every top-level key of the send's \`data\` (\`{{plan}}\`, dotted paths \`{{order.total}}\`, sections \`{{#items}}…{{/items}}\`, inverted sections); \`contact\`, the recipient's \`{ id, email, data }\` (\`{{contact.data.plan}}\`; a \`data\` key named \`contact\` is ignored); \`email\`, the recipient's address unless \`data\` has its own \`email\`; in campaign and marketing workflow mail \`{{unsubscribeUrl}}\`; in workflow mail \`{{event.*}}\`, the trigger's data. In the body \`{{var}}\` is HTML-escaped and \`{{{var}}}\` inserted raw; the subject and the text are not HTML, so nothing in them is escaped. Missing variables render empty; partials are not supported.

Every email has a plain-text part beside the HTML: the \`text\` given (the request's, the campaign's or the template's), or one made from the rendered HTML (links as \`text [url]\`, images, styles and scripts dropped, table cells on lines of their own, wrapped at 78 characters). Marketing mail carries its unsubscribe URL in the text part too (\`Unsubscribe: <url>\`, appended when the text does not hold it).

## Segments

Groups of contacts defined by filters on their email, subscription, dates, \`data\` and events. A tracked segment keeps its members current as contacts and events change (and records \`segment.entered\` / \`segment.exited\`); list its members with \`GET /segments/{id}/contacts\`.

**Filters.** A group \`{ operator: "AND" | "OR", conditions: [...] }\`; a condition is \`{ field, operator, value }\` or another group; at most 3 levels of groups and 50 conditions. An invalid filter is a 422 whose \`errors[].field\` is the path of the bad part (\`filters.conditions[0].conditions[2].value\`).

| field | operators | value |
|---|---|---|
| \`email\` | equals, notEquals, contains, notContains, startsWith, endsWith, in, notIn | a string (an array for in/notIn) |
| \`subscribed\` | equals, notEquals | \`true\` / \`false\` |
| \`createdAt\`, \`updatedAt\` | equals, notEquals, gt, gte, lt, lte | an ISO date (\`2026-01-31\`) or date-time |
| \`data.<key>[.<key>…]\` (at most 4 keys) | all 14: equals, notEquals, contains, notContains, startsWith, endsWith, gt, gte, lt, lte, exists, notExists, in, notIn | a string, number or boolean; gt…lte: a number or ISO date; in/notIn: an array of 1–100; exists/notExists: none |
| \`event\` | triggered, notTriggered (optional \`withinDays\`: 1–3650) | an event name (not \`segment.*\`) |

Comparisons are typed: the condition value's JSON type decides, and a contact value of another type does not match (\`data.seats equals "5"\` does not match the number 5). Strings compare case-insensitively. An ISO date value compares as a time when the contact's value is a date too; a date-only value covers its UTC day (\`createdAt equals 2026-01-31\` is that whole day, \`gt 2026-01-31\` from the next day on). \`contains\` on an array means "has an element equal to". Negations (notEquals, notContains, notIn, notExists, notTriggered) match contacts without the field.

**On demand** (\`trackMembership: false\`, the default): members and \`memberCount\` are evaluated at every \`GET /segments/{id}\` and \`GET /segments/{id}/contacts\`, reading every contact of the project; a project with more contacts than the deployment's limit (\`SEGMENT_ON_DEMAND_MAX_CONTACTS\`, 80,000 by default) gets 422 \`SEGMENT_TOO_LARGE\` instead of a timeout — use a tracked segment.

**Tracked** (\`trackMembership: true\`, fixed at creation): membership is kept as contacts and events change, by every path, so reading a segment costs the same whatever its size, and each change records \`segment.entered\` / \`segment.exited\` (\`data: { segmentId, segmentName }\`) on the contact for workflows and webhooks. Creating one, or changing its filters, builds it: \`membershipStatus\` is \`BUILDING\` until its members are written, then \`READY\` (on-demand segments say \`null\`). Projects of up to 1,000 contacts (\`SEGMENT_INLINE_BUILD_MAX_CONTACTS\`) are built within the request; larger ones in the background — poll \`GET /segments/{id}\` for \`READY\`; meanwhile \`memberCount\` and the member list hold the members built so far. Creation records no \`segment.entered\` for the initial members (contacts that match and have not changed since the segment was created), while a contact created or changed into it afterwards records one, also during the build; a change of filters records entries and exits for the difference. A tracked segment with a \`withinDays\` condition is rebuilt daily (03:00 UTC), so a contact whose event grew too old leaves it at most a day late (entering is immediate).

## Campaigns

One marketing email to every subscribed contact or to a segment's subscribed members: draft it, send a test, send it now or schedule it, cancel it, and read its delivery, open, click, bounce and unsubscribe statistics. Campaign mail carries one-click unsubscribe links and headers.

**Statuses.** \`DRAFT → SCHEDULED → SENDING → SENT\`; \`SCHEDULED → DRAFT\` (cancel); \`DRAFT | SCHEDULED → SENDING\` (send now); \`SENDING → CANCELLED\`; \`SENDING → PAUSED\` (the deliverability guard only); \`PAUSED → SENDING\` (send: resume); \`PAUSED → CANCELLED\`. Any other action is a 409 \`INVALID_CAMPAIGN_STATE\` naming the current status; a change that races another is a 409 \`CONCURRENT_MODIFICATION\`.

**Content and audience.** A campaign has its own \`subject\`, \`body\` and \`text\`, or a MARKETING \`templateId\` whose fields the campaign's own override; its \`from\` domain must be verified (403 \`FROM_DOMAIN_NOT_VERIFIED\`, as for \`/v1/send\`). Template, sender domain and segment are checked on create and edit (422 on \`templateId\`, \`segmentId\`, \`subject\`, \`body\` or \`text\`) and again when it is sent. Sending keeps the resolved content, so a template edited later does not change a send under way. The audience is frozen when sending starts: contacts created before the start, subscribed ones only (suppressed addresses end \`SUPPRESSED\`); \`totalRecipients\` counts the recipients queued so far, then the frozen audience size. Each email is rendered for its contact (\`{{contact.email}}\`, \`{{contact.data.*}}\`, \`{{unsubscribeUrl}}\`) and sent once. The campaign becomes \`SENT\` when every email has reached a final state (sent, failed, suppressed or cancelled).

**Scheduling.** \`scheduledFor\` must be in the future and at most 365 days ahead (422 \`IN_THE_PAST\` / \`BEYOND_HORIZON\` on \`scheduledFor\`); sending starts within a minute of it. Sending a SCHEDULED campaign again with a new time reschedules it. If it cannot be sent at that time (the domain is no longer verified, the audience is empty), it returns to DRAFT with \`failureReason\`.

**Cancel while sending.** The campaign is CANCELLED at once; mail not yet handed to SES ends \`CANCELLED\` (counted in \`cancelledCount\`), the rest stands. Once drained, \`sentCount + failedCount + suppressedCount + cancelledCount = totalRecipients\`.

**Four-eyes approval.** With the project's \`requireCampaignApproval\` on (\`PATCH /project\`, owners), sending or scheduling a campaign no one has approved is 409 \`APPROVAL_REQUIRED\`. A signed-in owner who is not the campaign's last editor approves it (\`POST /campaigns/{id}/approve\`; API keys cannot: 403); every change of its content, audience or schedule records its editor (a user, or an API key by its id) and clears the approval in the same conditional write, and a SCHEDULED campaign whose approval was cleared goes back to DRAFT when its time comes (\`failureReason\` \`APPROVAL_REQUIRED\`). \`approval\` on the campaign shows the state; the audit trail (\`GET /audit\`) records each refused attempt (\`campaign.approval_requested\`), approval and send with who and when.

**The cost before sending.** \`GET /campaigns/{id}/audience\` answers \`estimatedCost: { ses, aws, total, currency: "USD" }\` for its \`recipients\`, from the deployment's per-email cost model (its prices are deploy settings; by default the us-east-1 list prices).

**Deliverability guard.** SES reviews an account whose bounce rate reaches 5 % or complaint rate 0.1 %, so a SENDING campaign pauses itself (PAUSED, with \`pausedAt\` and \`pauseReason\`, e.g. "Bounce rate 6.00 % over 250 sends passed the 5 % threshold", and a \`campaign.paused\` notification) when its bounce rate (\`bouncedCount / sentCount\`, every bounce SES reports) is strictly above 5 % once it has 200 sends, or its complaint rate strictly above 0.1 % once it has 1,000 sends (the deployment may set other values: \`pauseBounceRate\`, \`pauseBounceMinSends\`, \`pauseComplaintRate\`, \`pauseComplaintMinSends\`). While PAUSED none of its mail reaches SES and none is lost: it is held back. \`POST /campaigns/{id}/send\` without a body resumes it — SENDING again, the held-back mail sent once each, \`pausedAt\` and \`pauseReason\` cleared — and the guard's rates then count from the resume (the minimum sends start again). Cancelling a PAUSED campaign ends its held-back mail CANCELLED.

**A/B subject test.** \`abTest: { variants: [{ subject }, …] (2–4), samplePercent (5–50), metric: "opens" | "clicks", waitMinutes (1–10080) }\` on a campaign sends the sample first — ⌊audience × samplePercent / 100⌋ recipients spread evenly over the frozen audience, the variants in turn — and holds the rest (\`abTest.phase\` \`SAMPLE\`). Once the sample is queued it is \`WAITING\` until \`waitUntil\`: \`waitMinutes\` after the last sample email has gone out (first shown as \`waitMinutes\` after the sample was queued, then moved to it once the sample has all gone out), when a one-time schedule picks the variant with the highest unique open (click) rate of its sent mail (ties: the first) and sends the rest that subject (\`WINNER\`, \`winner\` its index); \`POST /campaigns/{id}/ab-winner { "variant": n }\` picks by hand earlier. The pick and the rest happen once, whatever is redelivered or restarted; every contact gets one email, and the campaign is SENT when the rest has settled. A cancel while WAITING sends nothing more. \`GET /campaigns/{id}/stats\` lists the sample's figures per variant in \`variants\`.

**Stats** (\`GET /campaigns/{id}/stats\`): \`totalRecipients\`, \`sentCount\`, \`deliveredCount\`, \`openedCount\` and \`clickedCount\` (unique contacts), \`opens\` and \`clicks\` (every one), \`bouncedCount\`, \`complainedCount\`, \`unsubscribedCount\`, \`failedCount\`, \`suppressedCount\`, \`cancelledCount\`, and \`deliveryRate\`, \`openRate\`, \`clickRate\`, \`bounceRate\`, \`complaintRate\`, \`unsubscribeRate\` in percent of \`sentCount\` (two decimals; 0 when nothing was sent). Test sends never count in them.

## Workflows

Automations: when a contact triggers an event, is created, or enters or leaves a segment, run steps — send a template, wait for a time or for an event, check a condition, update the contact, call a webhook, exit. Every run is an execution, listed per workflow with what happened to whom.

**Triggers.** \`{ type: "EVENT", event }\`: a custom event name (\`email.*\`, \`segment.*\`, \`contact.*\` are refused, so a workflow cannot trigger itself with the mail it sends); \`{ type: "SEGMENT_ENTERED" | "SEGMENT_EXITED", segmentId }\`: a segment with \`trackMembership: true\` (only those record entries and exits); \`{ type: "CONTACT_CREATED" }\`: any creation (API, \`/v1/send\`, \`/v1/track\`, imports). \`enabled\` defaults to true, \`allowReentry\` to false. A workflow never slows the request that triggers it: triggers are read in the background, from the table's changes.

**Steps** (ids: 1–64 letters, digits, \`_\`, \`-\`, unique; at most 50): the first one starts; \`next\` names the following one; no \`next\` ends the execution COMPLETED.
- \`SEND_EMAIL { templateId }\`: the template rendered for the contact (\`{{contact.*}}\`) with the trigger's data as \`{{event.*}}\` (the tracked event's \`data\`; for segment triggers \`{ segmentId, segmentName }\`); from and reply-to are the template's (it needs a from address, on a domain verified when the step runs). The email goes through the send queue like \`/v1/send\` (suppression, pacing, events) with source \`workflow\`. A MARKETING template to an unsubscribed contact is skipped (outcome \`SKIPPED_UNSUBSCRIBED\`); to a subscribed one it carries the one-click unsubscribe headers and \`{{unsubscribeUrl}}\`, as campaign mail does.
- \`DELAY { amount, unit: seconds | minutes | hours | days }\`, at most 365 days; a wait never ends early.
- \`WAIT_FOR_EVENT { event, timeoutSeconds, next?, timeoutNext? }\` (1 s – 365 days): \`next\` when the contact tracks \`event\` (custom, or \`email.opened\`, \`email.clicked\`…) before the timeout, else \`timeoutNext\`; without \`timeoutNext\` a timeout ends the execution EXITED (\`WAIT_TIMED_OUT\`). Exactly one of the two wins.
- \`CONDITION { filters, then?, else? }\`: the segment filter language (see Segments), evaluated on the contact when the step runs, event conditions included.
- \`UPDATE_CONTACT { data?, subscribed? }\`: the contact rules of \`PATCH /contacts/{id}\` (data merged by key, \`null\` removes a key, the same limits).
- \`WEBHOOK { url, headers? }\`: one POST of \`{ workflowId, executionId, stepId, contact, event }\` signed with the workflow's \`webhookSecret\` the Standard Webhooks way (\`webhook-id\` the same on every attempt, \`webhook-timestamp\`, \`webhook-signature\`), 10 s timeout, any 2xx is success, redirects are not followed. https only, never to a private, loopback, link-local or metadata address — checked when the workflow is saved and again at connect time (see Webhooks). At most 20 headers, none of \`webhook-*\`, \`content-*\`, \`host\`…; URLs up to 2,048 characters.
- \`EXIT\`: ends the execution EXITED (\`EXIT_STEP\`).

**Validation** (422, \`errors[].field\` names the place, e.g. \`steps[2].templateId\`): unknown step types, duplicate ids, a \`next\`/\`then\`/\`else\`/\`timeoutNext\` to no step, steps the first cannot reach, cycles (an execution runs each step at most once), a missing template or one without a from address, a missing or untracked segment, contact data that breaks the contact rules, unsafe webhook URLs; a name over 200 or a description over 1,000 characters.

**Reentry.** With \`allowReentry: false\` a contact enters once, ever; with \`true\` again once its previous execution has ended (never two at once).

**Versions.** A change of \`trigger\`, \`steps\` or \`allowReentry\` is a new \`version\`; every execution keeps the version it started on (\`workflowVersion\`). \`enabled: false\` stops new entries (running executions go on; what happened while a workflow was disabled, or before it was created, never starts it, even when read after it is enabled); deleting the workflow cancels its running and waiting ones (\`CANCELLED\`, \`WORKFLOW_DELETED\`).

**Executions** move \`RUNNING\`, \`WAITING\` (in a DELAY or WAIT_FOR_EVENT), then end \`COMPLETED\`, \`EXITED\` (\`EXIT_STEP\`, \`WAIT_TIMED_OUT\`, \`CONTACT_DELETED\`), \`FAILED\` (\`exitReason\` says which step and why) or \`CANCELLED\`; each step shows its status, outcome, error, \`waitUntil\` and \`emailId\`. A failing step is retried after 2, 4, 8 and 16 s (the last error and attempt count show on the step); the 5th failure — or at once one that cannot heal, such as a deleted template or an unverified from domain — ends the execution FAILED. A repeated trigger or step never runs twice. \`workflow.execution.completed\` and \`workflow.execution.failed\` are notifications for webhooks.

**Stats** on \`GET /workflows/{id}\`: \`entered\`, \`completed\`, \`exited\`, \`failed\`, \`cancelled\`, and the delivery counters of its emails (\`sentCount\`, \`deliveredCount\`, \`openedCount\`, \`clickedCount\`, \`bouncedCount\`, \`complainedCount\`, \`rejectedCount\`, \`failedCount\`, \`delayedCount\`).

## Webhooks

Register HTTPS endpoints for event kinds: every matching event reaches each endpoint as a signed JSON POST (HMAC-SHA256), retried until it is taken, with a log of every delivery, a test event and secret rotation. A project has at most 20 endpoints; an endpoint of another project is a 404.

**Event kinds** (\`events\`: 1–50 of these; \`"*"\` is every kind, present and future):

| kind | when | \`data\` |
|---|---|---|
| \`email.sent\`, \`email.delivered\`, \`email.delayed\`, \`email.bounced\`, \`email.complained\`, \`email.rejected\`, \`email.failed\`, \`email.opened\`, \`email.clicked\`, \`email.suppressed\` | the email event is recorded | the event as \`GET /events\` shows it; its \`data\` holds what happened (\`smtpResponse\`, \`bounceType\`, \`link\`, \`reason\`…) and \`source\` |
| \`contact.created\` | a contact is created (API, \`/v1/send\`, \`/v1/track\`, imports) | the contact as \`GET /contacts/{id}\` shows it |
| \`contact.updated\` | its \`email\`, \`subscribed\` or \`data\` changed (an update that changes none of them sends nothing) | the contact after the change |
| \`contact.unsubscribed\` | \`subscribed\` went from true to false, by any path; sent beside \`contact.updated\` | the contact |
| \`contact.deleted\` | the contact is deleted | the contact as it was |
| \`segment.entered\`, \`segment.exited\` | a contact enters or leaves a tracked segment | the event (\`data.segmentId\`…) |
| \`campaign.sent\`, \`campaign.cancelled\`, \`campaign.paused\`, \`workflow.execution.completed\`, \`workflow.execution.failed\` | campaigns and workflows | the campaign / execution as the API shows it |
| \`event:<name>\` | a custom event \`<name>\` is tracked; its type is \`event:<name>\` too | the event, its properties in \`data\` |
| \`webhook.disabled\` | an endpoint of the project the service disabled (to its other endpoints) | the endpoint as the API shows it |
| \`webhook.test\` | only from \`POST /webhooks/{id}/test\` | \`{ webhookId, url, message }\` |

**Payload and signing** ([Standard Webhooks](https://www.standardwebhooks.com/)): the body is \`{ "type": "email.delivered", "timestamp": "<when it happened, ISO 8601>", "data": { … } }\`; the headers are \`webhook-id\` (\`msg_<ulid>\`, the same on every retry of one event to one endpoint: deduplicate on it), \`webhook-timestamp\` (Unix seconds of this attempt) and \`webhook-signature\` (\`v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">\`; two, space-separated, during a rotation). Verify with the \`standardwebhooks\` library of your language: \`new Webhook(secret).verify(rawBody, headers)\` — it also refuses timestamps more than 5 minutes off. Secrets are stored encrypted and never logged.

**Delivery** never happens inside an API request, and sending mail never waits on it. A 2xx within 10 s is success; anything else (a status, a timeout, a refused connection, a redirect — never followed) is a failed attempt, retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h (about 27 hours in all, each ±20 %; the deployment may set another schedule), after which the delivery is \`failed\`. Delivery is at least once: a rare repeat carries the same \`webhook-id\`. At most 5 POSTs (by default) go to one endpoint at once, so a slow or dead endpoint delays only its own deliveries. An endpoint whose every delivery has failed for 24 hours (the deployment may set another period) is disabled (\`status: DISABLED\`, \`enabled: false\`, \`disabledReason\` says since when and the last error): no events are queued for it any more, a \`webhook.disabled\` event goes to the project's other endpoints, and the project's owners get an email. A success ends the streak; enabling it again (\`PATCH … { "enabled": true }\`) starts afresh. A delivery can be replayed (\`POST /webhooks/{id}/deliveries/{deliveryId}/replay\`): the same message with the same \`webhook-id\`, freshly signed. Deliveries are kept 30 days.

**Addresses.** Only \`https\` URLs without credentials, whose every address is public: loopback, private (10/8, 172.16/12, 192.168/16), CGNAT, link-local (cloud metadata 169.254.169.254 included), \`0.0.0.0/8\`, unique-local, IPv4-mapped, NAT64, 6to4, multicast, documentation and reserved ranges are refused with 422 \`VALIDATION_ERROR\` on \`url\` when the endpoint is saved, and again at connect time, so a name that later resolves to a private address fails the attempt. A deployment may allow listed hosts (\`WEBHOOK_ALLOWED_HOSTS\`, http included) for local receivers and tests.

## Domains

Sender domains: add one, publish the DNS records it returns (DKIM; SPF and DMARC recommended), and mail may be sent from it (or any of its subdomains) once it is VERIFIED. A domain belongs to one project only. Statuses: \`PENDING → VERIFIED | FAILED | TEMPORARY_FAILURE\`, from SES's verification and DKIM status.

## Unsubscribe

The links in marketing mail: \`GET /unsubscribe/{token}\` shows a page with one Unsubscribe button and changes nothing; \`POST\` to the same URL unsubscribes — the page's button (answered by a page with a re-subscribe button) and RFC 8058 one-click (body \`List-Unsubscribe=One-Click\`, answered in plain text). The signed token is the credential; a token that is not exactly one the service signed gets a 400 page, never a 500. Every campaign mail (and marketing workflow mail) carries \`List-Unsubscribe: <https://…/unsubscribe/<token>>\` and \`List-Unsubscribe-Post: List-Unsubscribe=One-Click\` (RFC 8058, required by Gmail and Yahoo of bulk senders); the same URL is \`{{unsubscribeUrl}}\`. The token names project, contact and campaign, signed with HMAC-SHA256. A link scanner that prefetches URLs in mail (GET) unsubscribes no one. Unsubscribing records \`contact.unsubscribed\` (with the campaign; re-subscribing \`contact.subscribed\`), once per change, and counts in the campaign's \`unsubscribedCount\`.

## Dashboard

The web dashboard at \`/dashboard\`: its pages, served by the service from its own origin, call this same API as any client does.

## Dashboard session

Signing in to the dashboard: \`POST /dashboard/session\` answers a short-lived access token (sent as \`Authorization: Bearer mwa_…\`) and sets an HttpOnly refresh cookie scoped to these routes; renewing, signing out, password resets and accepting invitations. Cookie-authenticated calls must come from the dashboard's own origin with the header \`X-Mailwright-Request: 1\`. \`/v1/*\` never accepts a session.

People sign in as **users** (email unique, name, password), each a **member** of one or more projects as \`OWNER\` or \`MEMBER\`. The first user of a project comes from the admin CLI; the others are invited.

**Tokens and cookie.** The access token (\`mwa_…\`, 5 minutes; it names user, project, role and session) goes in \`Authorization: Bearer\`. The \`mw_refresh\` cookie is \`HttpOnly; Secure; SameSite=Strict; Path=/dashboard/session\` (\`/api/dashboard/session\` on the execute-api URL; a custom domain must map the API at its root); every refresh replaces its secret, and the old cookie then gets 401. A session ends 7 days after its last refresh or 30 days after sign-in, on sign-out, sign-out everywhere, a password change (the other sessions) or reset (all of them), on removal from its project, and when the user signs in on a 51st browser (the oldest of the 50 ends). Sign-out, removal and role changes stop an access token on its next request (a changed role makes the app refresh for a token with the new role).

**CSRF.** Every session route answers only a request with \`X-Mailwright-Request: 1\` and an \`Origin\` naming the API's own host (or, without \`Origin\`, \`Sec-Fetch-Site: same-origin\`); otherwise 403 \`CSRF_REJECTED\`.

**Policies.** A session may call every route except \`/v1/*\`; owners only: \`/keys\`, member changes and \`/members/invitations\`, \`/audit\`, \`PATCH /project\`, \`/webhooks\`, \`POST\` and \`DELETE /domains\` (403 \`FORBIDDEN\` for a MEMBER). \`/me…\` takes sessions only.

**Sign-in throttling.** Per account and per source address, failures count within 15 minutes (each failure extends them). Account: the first 5 failures are free, from the 6th the next attempt waits 1 s more per failure (429 \`TOO_MANY_ATTEMPTS\` with \`Retry-After\`), the 10th locks it for 15 minutes. Address: slow-down from 30 failures, lock at 100. A success clears the account's count. An unknown email gets the same 401 \`INVALID_CREDENTIALS\` as a wrong password, after the same work.

**Passwords** are 10–256 characters, hashed with scrypt. **Invitations and password resets** are single-use links valid 7 days / 1 hour, mailed from the deployment's dashboard sender (\`-c dashboardMailFrom=…\`); without one, inviting and resetting answer 503 \`DASHBOARD_MAIL_NOT_CONFIGURED\` (signing in works).

## Account

The signed-in user: who they are and their projects, changing their password, their sessions (sign out one, or everywhere).

## Project

The project's name and id.

## API keys

The project's secret and public keys: create (the key is shown once), rotate, revoke, and when each was last used (recorded at most once a minute per key, so it may lag by the gateway's 5-minute cache). Each shows a name, its kind, a non-secret prefix and last four characters. A revoked key is refused by every route at once, and at the gateway once its cached authorizer result (up to 5 minutes) expires. Owners only.

## Members

Who may sign in to the project, as \`OWNER\` or \`MEMBER\`: invitations by email, role changes, removal, and the audit trail (who — a user or an API key —, what, when) of sign-ins and failed sign-ins, invitations and their revocation, joins, role changes, removals, key creation, rotation and revocation, and project renames. Owners only. The last owner cannot be demoted or removed (409 \`LAST_OWNER\`).

## API contract

This reference: the OpenAPI 3.1 document at \`GET /openapi.json\` and this page at \`GET /docs\`, both without a key, generated from the same schemas that validate requests, so it cannot drift from what the API does: every response of a documented route matches it (the service's own tests check each one). What JSON Schema cannot express is said in the text: a rule checked in code appears as "Rule: …" in a field's description.

**Typed client.** \`npm run client\` writes \`client/openapi.json\` and \`client/schema.d.ts\` (\`openapi-typescript\`); with \`openapi-fetch\`: \`createClient<paths>({ baseUrl, headers: { Authorization: 'Bearer ' + key } })\`, then \`client.GET('/contacts/{id}', { params: { path: { id } } })\`.

**Plunk compatibility.** Plunk's own client, \`@plunk/node\` 3.x, works unchanged with \`new Plunk(key, { baseUrl: 'https://<api>/v1/' })\`: \`emails.send\` with \`type: "markdown"\`, \`events.track\` with \`data\` values \`{ value, persistent }\`, and errors with a top-level \`message\`.`;
