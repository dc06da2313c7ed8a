/**
 * The introduction of the API reference (the document's info.description, the top of GET /docs):
 * the whole service in a page, one heading per tag of the document. A unit test fails when a tag
 * has no heading here, so a new resource group cannot be left out.
 */
export const introduction = `Mailwright is a self-hostable, serverless email service: transactional sending, contacts and their events, the activity log and daily analytics, templates, segments, marketing campaigns, automated workflows, outbound webhooks and sender domains, in one API. Every request is scoped to the project of its API key.

## Authentication

Send \`Authorization: Bearer <key>\`. **Secret keys** (\`sk_…\`) work on every route and belong on servers only. **Public keys** (\`pk_…\`) work only on \`POST /v1/track\` and are safe in browsers (that route answers CORS preflight). Keys are issued, rotated and revoked with the admin CLI; a revoked key or a disabled project is refused at once (401 / 403 \`PROJECT_DISABLED\`). The unsubscribe links and this reference need no key.

## Requests and responses

Bodies are JSON (parsed as JSON whatever their \`Content-Type\`, except CSV imports). A success is \`{ success: true, data }\`. An error always has one envelope: \`{ success: false, message, error: { code, message, statusCode, requestId, errors?, suggestion? }, timestamp }\` — 400 for malformed JSON or a bad cursor, 401/403 for keys, 404 for an unknown route or an id that names nothing in the project (ids are ULIDs), 409 for conflicts, 413 for a body over the route's limit (256 KB; \`/v1/send\` 6,000,000 bytes), 422 \`VALIDATION_ERROR\` with one \`errors\` entry per field, 429 for the rate limit, and 500 with only the \`requestId\` (the details are in the logs).

**Pagination.** Lists take \`limit\` (1–100, default 20) and \`cursor\`, and answer \`{ items, nextCursor, hasMore, total }\`; pass \`nextCursor\` back as \`cursor\` for the next page. A cursor is opaque and bound to its query and project: an edited one is a 400 \`INVALID_CURSOR\`.

**Rate limit.** Each project may make a configured number of requests per minute (1,000 by default), in a one-minute window that opens with its first request; beyond it the answer is 429 \`RATE_LIMITED\` with \`Retry-After\` in seconds.

## Sending

\`POST /v1/send\` sends a transactional email to up to 50 recipients, from a template or a subject and body (HTML or Markdown) with \`{{variables}}\`, always with a plain-text part beside the HTML (\`text\`, or made from the HTML), from a verified domain, with custom headers and attachments; an \`Idempotency-Key\` header makes retries safe for 24 hours. Each recipient becomes a contact. \`POST /v1/verify\` checks an address (syntax, domain and MX records, disposable domains, aliases, plus addressing, likely typos) without sending anything.

## Events

\`POST /v1/track\` records that a contact did something (with a secret or a public key), creating or updating the contact; events start workflows and feed segments. \`GET /events\` lists the project's events (by contact, email, name or time) and \`GET /events/names\` the names in use. The service records its own events too: \`email.*\` (sent, delivered, opened, clicked, bounced, complained…), \`contact.*\` and \`segment.*\`.

## Emails

The activity log: \`GET /emails\` lists every email of the project — transactional, campaign, workflow and campaign test sends — newest first, filtered by recipient, status, source, campaign and date; \`GET /emails/{id}\` is one email with its rendered HTML, headers and timeline (queued, sent, delivered or bounced with the reason, complained, opens, clicks with the link).

## Analytics

\`GET /analytics\` answers a daily series of sent, delivered, opened, clicked, bounced and complained (UTC days, up to 366), with totals, the bounce and complaint rates against the rates from which SES reviews an account (5 % and 0.1 %), and the contact and subscriber counts — read from counters kept as mail goes out, never by scanning.

## Contacts

A contact is an email address with a \`subscribed\` flag and free-form \`data\`. \`POST /contacts\` creates or updates by email; contacts are read, updated and deleted by id, and listed with a search on email and a filter on \`subscribed\`. An address that bounces hard or complains is suppressed: no more mail is sent to it.

## Imports and exports

\`POST /contacts/imports\` imports contacts in bulk from CSV, JSON or a presigned upload; \`POST /contacts/exports\` writes all contacts, the subscribed ones or a segment's members to a CSV to download. Both answer 202 with a job to poll.

## Templates

Reusable subjects and bodies with \`{{variables}}\`, for transactional mail, campaigns and workflows. A template that does not parse is refused with 422.

## Segments

Groups of contacts defined by filters on their email, subscription, dates, \`data\` and events. A tracked segment keeps its members current as contacts and events change (and records \`segment.entered\` / \`segment.exited\`); list its members with \`GET /segments/{id}/contacts\`.

## Campaigns

One marketing email to every subscribed contact or to a segment's subscribed members: draft it, send a test, send it now or schedule it, cancel it, and read its delivery, open, click, bounce and unsubscribe statistics. Campaign mail carries one-click unsubscribe links and headers.

## Workflows

Automations: when a contact triggers an event, is created, or enters or leaves a segment, run steps — send a template, wait for a time or for an event, check a condition, update the contact, call a webhook, exit. Every run is an execution, listed per workflow with what happened to whom.

## Webhooks

Register HTTPS endpoints for event kinds: every matching event reaches each endpoint as a signed JSON POST (HMAC-SHA256), retried until it is taken, with a log of every delivery, a test event and secret rotation.

## Domains

Sender domains: add one, publish the DNS records it returns (DKIM; SPF and DMARC recommended), and mail may be sent from it (or a subdomain) once it is verified.

## Unsubscribe

The links in marketing mail: \`GET /unsubscribe/{token}\` unsubscribes the contact and shows a page with a re-subscribe button, \`POST\` is RFC 8058 one-click unsubscribe. The signed token is the credential; a token that is not exactly one the service signed gets a 400 page.

## Dashboard

The web dashboard at \`/dashboard\`: its pages, served by the service from its own origin, call this same API as any client does.

## Dashboard session

Signing in to the dashboard: \`POST /dashboard/session\` answers a short-lived access token (sent as \`Authorization: Bearer mwa_…\`) and sets an HttpOnly refresh cookie scoped to these routes; renewing, signing out, password resets and accepting invitations. Cookie-authenticated calls must come from the dashboard's own origin with the header \`X-Mailwright-Request: 1\`. \`/v1/*\` never accepts a session.

## Account

The signed-in user: who they are and their projects, changing their password, their sessions (sign out one, or everywhere).

## Project

The project's name and id.

## API keys

The project's secret and public keys: create (the key is shown once), rotate, revoke, and when each was last used. Owners only.

## Members

Who may sign in to the project, as \`OWNER\` or \`MEMBER\`: invitations by email, role changes, removal, and the audit trail of sign-ins, invitations, role and key changes. Owners only.

## API contract

This reference: the OpenAPI 3.1 document at \`GET /openapi.json\` and this page at \`GET /docs\`, both without a key, generated from the same schemas that validate requests.`;
