import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { carefulFetch } from './careful-fetch';
import { deadLetters } from './dead-letters';
import { startLocalStack, type LocalStack } from './local-stack';

/**
 * Nothing lost, nothing twice, when every AWS dependency fails now and then (issue 28, item 3):
 * one run of everything the service does on a stack of its own with LOCAL_FAULTS at the issue's
 * rates — transactional sends retried by Idempotency-Key on 503, a CSV import, a campaign to the
 * imported contacts, tracked events through a workflow whose first step sends, and the webhooks
 * of every send — then every guarantee checked from outside: the mail viewer, the API and the
 * queues. Shared by test/integration/faults.test.ts (a small run, each check asserted) and the
 * bench's `faults` section (test/bench/faults.ts: the full run, PASS/FAIL per check).
 *
 * The scenario never throws on a broken guarantee: it records a failed check naming what is
 * missing, mailed twice or stuck, so that one run reports every guarantee.
 */
export const ISSUE_FAULTS = 'dynamodb:throttle=0.1,error=0.02;sqs:error=0.05;s3:error=0.05;ses:throttle=0.3,error=0.05;scheduler:error=0.05';

export interface FaultsScenarioSizes {
  /** Transactional emails, sent `perSend` recipients a `/v1/send` request. */
  sends: number;
  perSend: number;
  /** Rows of the CSV import, and recipients of the campaign to the imported contacts. */
  campaign: number;
  /** Tracked events, one contact each, through a workflow whose first step sends. */
  tracked: number;
  /** Client requests in flight at once (sends, tracks). */
  concurrency: number;
}

export interface FaultsCheck {
  guarantee: string;
  pass: boolean;
  /** What was counted; on a failure, what is missing, twice or stuck. */
  detail: string;
}

export interface FaultsScenarioResult {
  checks: FaultsCheck[];
  /** Wall-clock seconds per phase, and counts, for the bench's report. */
  figures: { label: string; value: string }[];
}

export interface FaultsReceiver {
  url: string;
  hooks: { headers: IncomingHttpHeaders; body: string }[];
  close(): Promise<void>;
}

/** A webhook receiver on 127.0.0.1 that keeps every delivery (retries included) and answers 200. */
export async function startFaultsReceiver(): Promise<FaultsReceiver> {
  const hooks: FaultsReceiver['hooks'] = [];
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      hooks.push({ headers: request.headers, body });
      response.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hooks,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** The stack the scenario runs on: `faults` in force, webhook retries 1 s apart, no rate limit in the way. */
export function startFaultsStack(faults = ISSUE_FAULTS, extraEnv: Record<string, string> = {}): Promise<LocalStack> {
  return startLocalStack({
    LOCAL_FAULTS: faults,
    SEND_RATE_PER_SECOND: '100',
    RATE_LIMIT_PER_MINUTE: '100000000',
    WEBHOOK_ALLOWED_HOSTS: '127.0.0.1,localhost',
    WEBHOOK_RETRY_SCHEDULE: '1,1,1,1,1,1',
    ...extraEnv,
  });
}

type Answer = { status: number; body: any };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function mapLimit<T>(items: T[], limit: number, each: (item: T, index: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) {
        const index = next++;
        await each(items[index]!, index);
      }
    }),
  );
}

/** A list of names, cut short for a report line. */
const some = (names: string[], max = 10) => (names.length <= max ? names.join(', ') : `${names.slice(0, max).join(', ')} … (${names.length} in all)`);

export async function runFaultsScenario(
  stack: LocalStack,
  receiver: FaultsReceiver,
  sizes: FaultsScenarioSizes,
  { log = () => {} }: { log?: (line: string) => void } = {},
): Promise<FaultsScenarioResult> {
  const run = Math.random().toString(36).slice(2, 8);
  const FROM = 'faults@example.com';
  const checks: FaultsCheck[] = [];
  const figures: FaultsScenarioResult['figures'] = [];
  const check = (guarantee: string, pass: boolean, detail: string) => {
    checks.push({ guarantee, pass, detail });
    log(`${pass ? 'PASS' : 'FAIL'}  ${guarantee}: ${detail}`);
  };
  /** Every status the API answered, retries included, and where each 500 came from. */
  const statuses: number[] = [];
  const fiveHundreds: string[] = [];
  const unexpected: string[] = [];
  const began = performance.now();
  const seconds = (since: number) => (performance.now() - since) / 1000;

  /**
   * One HTTP call as a careful client makes it (test/support/careful-fetch.ts). A run killed by its
   * timeout holds its key for the lease (35 s), so the retries go on past it.
   */
  async function call(method: string, path: string, options: { body?: unknown; raw?: string; contentType?: string; idempotencyKey?: string; repeatable?: boolean } = {}): Promise<Answer> {
    const { status, body } = await carefulFetch(
      `${stack.baseUrl}${path}`,
      {
        method,
        headers: {
          Authorization: `Bearer ${stack.secretKey}`,
          ...(options.body !== undefined || options.raw !== undefined ? { 'Content-Type': options.contentType ?? 'application/json' } : {}),
          ...(options.idempotencyKey ? { 'Idempotency-Key': options.idempotencyKey } : {}),
        },
        body: options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
      },
      {
        repeatable: method === 'GET' || options.idempotencyKey !== undefined || options.repeatable === true,
        onAnswer: (answer) => {
          statuses.push(answer.status);
          if (answer.status === 500) fiveHundreds.push(`${method} ${path}: ${answer.text.slice(0, 200)}`);
          if (answer.status === 503 && !/^\d+$/.test(answer.headers.get('retry-after') ?? '')) unexpected.push(`${method} ${path}: a 503 without a Retry-After in seconds`);
        },
      },
    );
    return { status, body };
  }

  /**
   * Creates something once (a create has no Idempotency-Key): after a 503, or the gateway's
   * 502/504 for a function that ran out of time, looks for it before trying again.
   */
  async function create(path: string, body: Record<string, unknown> | string, sameAs: (item: any) => boolean, { contentType = 'application/json', query = '', success = 201 } = {}): Promise<any> {
    for (let attempt = 1; attempt <= 10; attempt++) {
      const created = await fetch(`${stack.baseUrl}${path}${query}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${stack.secretKey}`, 'Content-Type': contentType },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
      statuses.push(created.status);
      const text = await created.text();
      if (created.status === success) return (JSON.parse(text) as { data: unknown }).data;
      if (created.status === 500) fiveHundreds.push(`POST ${path}: ${text.slice(0, 200)}`);
      if (![502, 503, 504].includes(created.status)) throw new Error(`POST ${path} answered ${created.status}: ${text.slice(0, 300)}`);
      await sleep(1000);
      const listed = await call('GET', `${path}?limit=100`);
      const found = ((listed.body?.data?.items ?? []) as any[]).find(sameAs);
      if (found) return found;
    }
    throw new Error(`Could not create ${path} in 10 attempts`);
  }

  /** Polls `probe` until it returns a value or `ms` pass; undefined then (the checks below say what is missing). */
  async function until<T>(probe: () => Promise<T | undefined>, ms: number, everyMs = 1000): Promise<T | undefined> {
    const deadline = Date.now() + ms;
    for (;;) {
      const value = await probe();
      if (value !== undefined || Date.now() > deadline) return value;
      await sleep(everyMs);
    }
  }

  /** Every item of a listing, page by page. */
  async function listAll(path: string): Promise<any[]> {
    const items: any[] = [];
    let cursor: string | null = null;
    do {
      const separator = path.includes('?') ? '&' : '?';
      const page: Answer = await call('GET', `${path}${separator}limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      if (page.status !== 200) throw new Error(`GET ${path} answered ${page.status}: ${JSON.stringify(page.body).slice(0, 300)}`);
      items.push(...(page.body.data.items as any[]));
      cursor = page.body.data.nextCursor;
    } while (cursor);
    return items;
  }

  const storedMails = async (): Promise<{ destination: { to: string[] } }[]> => ((await (await fetch(`${stack.sesUrl}/store`)).json()) as { emails: { destination: { to: string[] } }[] }).emails;
  const mine = async () => (await storedMails()).filter((mail) => mail.destination.to.some((to) => to.includes(`-${run}@`)));

  // Prepare: a webhook for every sent email, a workflow whose first step sends
  await create('/webhooks', { url: `${receiver.url}/sent-${run}`, events: ['email.sent'] }, (item) => item.url === `${receiver.url}/sent-${run}`);
  const template = await create('/templates', { name: `welcome-${run}`, subject: 'Welcome {{contact.email}}', body: '<p>hi</p>', type: 'TRANSACTIONAL', from: FROM }, (item) => item.name === `welcome-${run}`);
  const event = `signed_up_${run}`;
  const workflow = await create('/workflows', { name: `wf-${run}`, trigger: { type: 'EVENT', event }, steps: [{ id: 'mail', type: 'SEND_EMAIL', templateId: template.id }] }, (item) => item.name === `wf-${run}`);

  const sendTo = Array.from({ length: sizes.sends }, (_, index) => `tx${index}-${run}@example.com`);
  const campaignTo = Array.from({ length: sizes.campaign }, (_, index) => `camp${index}-${run}@example.com`);
  const trackedTo = Array.from({ length: sizes.tracked }, (_, index) => `wf${index}-${run}@example.com`);
  const everyone = [...sendTo, ...campaignTo, ...trackedTo];

  // Act, three clients at once: transactional sends retried by their Idempotency-Key until accepted;
  // an import (subscribed), a segment of exactly those contacts and a campaign to it; tracked events.
  const sendIds = new Map<string, string>();
  const refusedSends: string[] = [];
  const sending = (async () => {
    const started = performance.now();
    const requests = Array.from({ length: Math.ceil(sizes.sends / sizes.perSend) }, (_, index) => sendTo.slice(index * sizes.perSend, (index + 1) * sizes.perSend));
    await mapLimit(requests, sizes.concurrency, async (to, index) => {
      const sent = await call('POST', '/v1/send', { body: { to, from: FROM, subject: `tx ${index}`, body: '<p>x</p>' }, idempotencyKey: `send-${run}-${index}` });
      if (sent.status !== 200) return void refusedSends.push(`request ${index}: ${sent.status} ${JSON.stringify(sent.body).slice(0, 200)}`);
      for (const email of sent.body.data.emails as { contact: { email: string }; email: string }[]) sendIds.set(email.contact.email, email.email);
    });
    figures.push({ label: `${requests.length} POST /v1/send accepted (s)`, value: seconds(started).toFixed(0) });
  })();

  let job: any;
  let campaignId: string | undefined;
  const campaigning = (async () => {
    const started = performance.now();
    // The scenario's only import: after a failed answer, a job of this stack is the one it made.
    const imported = await create('/contacts/imports', `email,plan\n${campaignTo.map((email) => `${email},pro`).join('\n')}\n`, () => true, { contentType: 'text/csv', query: '?subscribed=true', success: 202 });
    job = await until(async () => {
      const got = await call('GET', `/contacts/imports/${imported.id}`);
      return ['COMPLETED', 'FAILED'].includes(got.body?.data?.status) ? got.body.data : undefined;
    }, 90_000 + sizes.campaign * 500);
    figures.push({ label: `import of ${sizes.campaign} rows (s)`, value: seconds(started).toFixed(0) });
    const segment = await create('/segments', { name: `camp-${run}`, filters: { operator: 'AND', conditions: [{ field: 'email', operator: 'contains', value: `-${run}@` }, { field: 'email', operator: 'startsWith', value: 'camp' }] } }, (item) => item.name === `camp-${run}`);
    const campaign = await create('/campaigns', { name: `camp-${run}`, subject: 'News for {{contact.email}}', body: '<p>news</p>', from: { email: FROM }, segmentId: segment.id }, (item) => item.name === `camp-${run}`);
    campaignId = campaign.id;
    const sent = await call('POST', `/campaigns/${campaign.id}/send`);
    if (sent.status >= 300) throw new Error(`POST /campaigns/{id}/send answered ${sent.status}: ${JSON.stringify(sent.body).slice(0, 300)}`);
  })();

  const refusedTracks: string[] = [];
  const tracking = mapLimit(trackedTo, Math.max(1, Math.ceil(sizes.concurrency / 2)), async (email) => {
    const tracked = await call('POST', '/v1/track', { body: { email, event }, repeatable: true });
    if (tracked.status !== 200) refusedTracks.push(`${email}: ${tracked.status} ${JSON.stringify(tracked.body).slice(0, 200)}`);
  });
  await Promise.all([sending, campaigning, tracking]);
  figures.push({ label: 'every request accepted (s)', value: seconds(began).toFixed(0) });
  check('every request accepted after its retries', refusedSends.length + refusedTracks.length === 0 && sendIds.size === sizes.sends, `${sendIds.size}/${sizes.sends} transactional emails accepted${refusedSends.length ? `; refused: ${some(refusedSends, 3)}` : ''}; ${sizes.tracked - refusedTracks.length}/${sizes.tracked} events tracked${refusedTracks.length ? `; refused: ${some(refusedTracks, 3)}` : ''}`);

  // Assess: every import row counted once, failures visible
  const importCounted = job !== undefined && job.status === 'COMPLETED' && job.rows === sizes.campaign && job.processed === sizes.campaign && job.created + job.updated + job.skipped + job.duplicates + job.failed === sizes.campaign;
  const importVisible = job !== undefined && (job.failed === 0 || job.errors.length > 0) && (job.errors as { message: string }[]).every((error) => error.message);
  check('every import row counted once', importCounted && job.failed === 0, job ? `${job.status}: rows ${job.rows}, processed ${job.processed}, created ${job.created}, updated ${job.updated}, skipped ${job.skipped}, duplicates ${job.duplicates}, failed ${job.failed}${job.failure ? `, failure ${JSON.stringify(job.failure)}` : ''}` : 'the import did not finish');

  // Assess: the mail viewer holds exactly one mail per recipient, and nothing more arrives
  const waited = performance.now();
  // Until every recipient has mail (a recipient mailed twice must not end the wait early).
  const recipients = async () => new Set((await mine()).flatMap((mail) => mail.destination.to)).size;
  await until(async () => ((await recipients()) >= everyone.length ? true : undefined), 240_000 + everyone.length * 400, everyone.length > 500 ? 5000 : 1000);
  await sleep(5000);
  const mails = await mine();
  figures.push({ label: `all ${everyone.length} mails at the mail viewer (s)`, value: seconds(began).toFixed(0) });
  const perRecipient = new Map<string, number>();
  for (const mail of mails) for (const to of mail.destination.to) perRecipient.set(to, (perRecipient.get(to) ?? 0) + 1);
  const missing = everyone.filter((to) => !perRecipient.has(to));
  const twice = everyone.filter((to) => (perRecipient.get(to) ?? 0) > 1);
  const strangers = [...perRecipient.keys()].filter((to) => !everyone.includes(to));
  check('every recipient mailed exactly once (mail viewer)', missing.length === 0 && twice.length === 0 && strangers.length === 0, `${perRecipient.size - strangers.length}/${everyone.length} recipients in ${mails.length} mails (waited ${seconds(waited).toFixed(0)} s)${missing.length ? `; missing: ${some(missing)}` : ''}${twice.length ? `; twice or more: ${some(twice)}` : ''}${strangers.length ? `; not ours: ${some(strangers)}` : ''}`);
  const campaignMailed = campaignTo.filter((to) => perRecipient.has(to)).length;

  // Assess: the campaign's stats equal the mail it sent
  const stats = campaignId
    ? await until(async () => {
        const got = await call('GET', `/campaigns/${campaignId}/stats`);
        const data = got.body?.data;
        const settled = data && data.sentCount + data.failedCount + data.suppressedCount + data.cancelledCount >= sizes.campaign;
        return settled && (await call('GET', `/campaigns/${campaignId}`)).body?.data?.status === 'SENT' ? data : undefined;
        // A lost counter add is repaired by the campaign's completion check: up to a minute, after 2 quiet minutes (shared/campaigns/completion-check.ts).
      }, 240_000)
    : undefined;
  const campaign = campaignId ? (await call('GET', `/campaigns/${campaignId}`)).body?.data : undefined;
  check(
    'campaign stats equal the mail sent',
    stats !== undefined && campaign?.status === 'SENT' && stats.totalRecipients === sizes.campaign && stats.sentCount === campaignMailed && stats.sentCount + stats.failedCount + stats.suppressedCount + stats.cancelledCount === sizes.campaign,
    stats ? `${campaign?.status}: totalRecipients ${stats.totalRecipients}, sentCount ${stats.sentCount}, failedCount ${stats.failedCount}, suppressedCount ${stats.suppressedCount}, cancelledCount ${stats.cancelledCount}; mailed ${campaignMailed}` : `no stats (campaign ${campaignId ?? 'not created'}, ${campaign?.status})`,
  );

  // Assess: one execution per tracked contact, each entered once, finished, its email sent once
  const executions = await until(async () => {
    const items = await listAll(`/workflows/${workflow.id}/executions`);
    return items.length >= sizes.tracked && items.every((item) => item.status !== 'RUNNING') ? items : undefined;
  }, 120_000, 2000);
  const allExecutions = executions ?? (await listAll(`/workflows/${workflow.id}/executions`));
  const contacts = new Set(allExecutions.map((item) => item.contactId));
  const byStatus = (status: string) => allExecutions.filter((item) => item.status === status).length;
  const executionEmails = allExecutions.flatMap((item) => (item.steps as { emailId?: string }[]).flatMap((step) => (step.emailId ? [step.emailId] : [])));
  check(
    'every workflow execution entered once, its email sent once',
    allExecutions.length === sizes.tracked && contacts.size === sizes.tracked && byStatus('COMPLETED') === sizes.tracked && new Set(executionEmails).size === sizes.tracked && trackedTo.every((to) => perRecipient.get(to) === 1),
    `${allExecutions.length} executions for ${contacts.size}/${sizes.tracked} contacts: ${byStatus('COMPLETED')} COMPLETED, ${byStatus('FAILED')} FAILED, ${byStatus('RUNNING')} RUNNING; ${executionEmails.length} emails queued by them`,
  );

  // Assess: the workflow's figures count each entry once (workflow-figures, from the table stream)
  const workflowStats = async () => (await call('GET', `/workflows/${workflow.id}`)).body?.data?.stats;
  const counted = (await until(async () => {
    const now = await workflowStats();
    return now && now.entered >= sizes.tracked && now.completed >= sizes.tracked ? now : undefined;
  }, 60_000)) ?? (await workflowStats());
  check(
    'every workflow entry counted once (its figures)',
    counted?.entered === allExecutions.length && counted?.completed === byStatus('COMPLETED'),
    `entered ${counted?.entered}, completed ${counted?.completed}, for ${allExecutions.length} executions, ${byStatus('COMPLETED')} COMPLETED`,
  );

  // Assess: a webhook for every sent email (at least once; repeats share their webhook-id and body)
  const sentEventIds = () => {
    const ids = new Set<string>();
    for (const hook of receiver.hooks) {
      try {
        const parsed = JSON.parse(hook.body) as { type?: string; data?: { id?: string } };
        if (parsed.type === 'email.sent' && parsed.data?.id) ids.add(parsed.data.id);
      } catch {
        // not a webhook body
      }
    }
    return ids;
  };
  const mailed = perRecipient.size - strangers.length;
  await until(async () => (sentEventIds().size >= mailed ? true : undefined), 120_000);
  const sentHookIds = sentEventIds();
  const byWebhookId = new Map<string, string>();
  const conflicting: string[] = [];
  for (const hook of receiver.hooks) {
    const id = String(hook.headers['webhook-id']);
    if (byWebhookId.has(id) && byWebhookId.get(id) !== hook.body) conflicting.push(id);
    byWebhookId.set(id, hook.body);
  }
  check('every webhook event delivered (deduplicated by webhook-id)', sentHookIds.size === mailed && conflicting.length === 0, `${sentHookIds.size} distinct email.sent events for ${mailed} recipients mailed, in ${receiver.hooks.length} deliveries (${byWebhookId.size} webhook-ids)${conflicting.length ? `; one webhook-id with different bodies: ${some(conflicting, 3)}` : ''}`);

  // Assess: the emails' events counted from the table stream once each (delivery-counters): by name and on the day
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  const countedAs = async () => {
    const names = await listAll('/events/names');
    const analytics = (await call('GET', `/analytics?from=${day(-1)}&to=${day(0)}`)).body?.data;
    const named = (name: string) => (names.find((item) => item.name === name)?.count as number | undefined) ?? 0;
    return { sentEvents: named('email.sent'), deliveredEvents: named('email.delivered'), sentOnDays: analytics?.totals?.sent as number | undefined, deliveredOnDays: analytics?.totals?.delivered as number | undefined };
  };
  const emailsCounted = (await until(async () => {
    const now = await countedAs();
    return now.sentEvents >= mailed && now.deliveredEvents >= mailed && (now.sentOnDays ?? 0) >= mailed && (now.deliveredOnDays ?? 0) >= mailed ? now : undefined;
  }, 60_000)) ?? (await countedAs());
  check(
    'every email counted once (event names, analytics)',
    [emailsCounted.sentEvents, emailsCounted.deliveredEvents, emailsCounted.sentOnDays, emailsCounted.deliveredOnDays].every((count) => count === mailed),
    `for ${mailed} mailed: email.sent ${emailsCounted.sentEvents}, email.delivered ${emailsCounted.deliveredEvents}; GET /analytics sent ${emailsCounted.sentOnDays}, delivered ${emailsCounted.deliveredOnDays}`,
  );

  // Assess: every email's timeline (GET /emails/{id}) shows its sending and its delivery once each,
  // whether its events are in the email's index or named by its record
  const deliveredEmails = await listAll('/emails?status=DELIVERED');
  const incomplete: string[] = [];
  for (let start = 0; start < deliveredEmails.length; start += 8) {
    await Promise.all(
      deliveredEmails.slice(start, start + 8).map(async (email) => {
        const timeline = ((await call('GET', `/emails/${email.id}`)).body?.data?.timeline ?? []) as { type: string; eventId: string | null }[];
        const once = (type: string) => timeline.filter((entry) => entry.type === type && entry.eventId).length === 1;
        if (!once('sent') || !once('delivered')) incomplete.push(`${email.to}: ${timeline.map((entry) => entry.type).join(' ')}`);
      }),
    );
  }
  check(
    "every email's timeline shows it sent and delivered, once each",
    deliveredEmails.length === mailed && incomplete.length === 0,
    `${deliveredEmails.length - incomplete.length}/${deliveredEmails.length} DELIVERED emails (${mailed} mailed)${incomplete.length ? `; otherwise: ${some(incomplete, 3)}` : ''}`,
  );

  // Assess: nothing stuck or silently failed — every email ended, every failure with its reason
  const stuck = [...(await listAll('/emails?status=QUEUED')), ...(await listAll('/emails?status=SENDING'))];
  const failed = await listAll('/emails?status=FAILED');
  const unexplained = failed.filter((email) => !email.failureReason);
  const failedExecutions = allExecutions.filter((item) => item.status === 'FAILED');
  const silentExecutions = failedExecutions.filter((item) => !item.exitReason && !(item.steps as { error?: string }[]).some((step) => step.error));
  check(
    'whatever failed after all retries is visible (FAILED with a reason)',
    stuck.length === 0 && unexplained.length === 0 && importVisible && silentExecutions.length === 0,
    `${stuck.length} emails still QUEUED or SENDING${stuck.length ? ` (${some(stuck.map((email) => `${email.to} ${email.status}`), 5)})` : ''}; ${failed.length} FAILED, ${unexplained.length} of them without a reason${failed.length ? ` (${some(failed.map((email) => `${email.to}: ${email.failureReason}`), 3)})` : ''}; import row errors ${job?.errors?.length ?? 0} for ${job?.failed ?? '?'} failed rows; ${failedExecutions.length} FAILED executions, ${silentExecutions.length} of them without a reason`,
  );

  // Assess: every DLQ empty, and no 500 anywhere
  const { dlqs, holding } = await deadLetters(stack.sqsEndpoint);
  check('every DLQ empty', dlqs.length > 0 && holding.length === 0, dlqs.length === 0 ? 'no DLQ found' : holding.length ? `holding: ${holding.join(', ')}` : `${dlqs.length} DLQs, all empty`);
  const answered = new Map<number, number>();
  for (const status of statuses) answered.set(status, (answered.get(status) ?? 0) + 1);
  check('no 500 anywhere', fiveHundreds.length === 0 && unexpected.length === 0, `${statuses.length} answers: ${[...answered].sort(([a], [b]) => a - b).map(([status, count]) => `${count} × ${status}`).join(', ')}${fiveHundreds.length ? `; 500s: ${some(fiveHundreds, 3)}` : ''}${unexpected.length ? `; ${some(unexpected, 3)}` : ''}`);
  figures.push({ label: 'whole run (s)', value: seconds(began).toFixed(0) });
  return { checks, figures };
}
