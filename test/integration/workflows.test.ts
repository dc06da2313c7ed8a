import { jest } from '@jest/globals';
import { Webhook } from 'standardwebhooks';
import { api, uniqueEmail, until } from '../support/api-client';
import { storedEmails, waitForEmails } from '../support/mail-viewer';
import { useWebhookReceiver } from '../support/webhook-receiver';

jest.setTimeout(90_000);

const FROM = 'hello@example.com';
const suffix = () => Math.random().toString(36).slice(2, 8);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function template(subject: string, type: 'TRANSACTIONAL' | 'MARKETING' = 'TRANSACTIONAL'): Promise<string> {
  const created = await api('POST', '/templates', { body: { name: subject, subject, body: `<p>${subject} for {{contact.email}} ({{event.plan}})</p>`, type, from: FROM } });
  expect(created.status).toBe(201);
  return created.body.data.id;
}

/** Every workflow a test makes, deleted after the file even when a test failed: one left enabled would act on other files' contacts. */
const made: string[] = [];
afterAll(async () => {
  await Promise.all(made.map((id) => api('DELETE', `/workflows/${id}`)));
});

async function workflow(body: Record<string, unknown>) {
  const created = await api('POST', '/workflows', { body: { name: `wf ${suffix()}`, ...body } });
  expect(created.status).toBe(201);
  made.push(created.body.data.id);
  return created.body.data as { id: string; webhookSecret: string; version: number };
}

const track = async (email: string, event: string, data?: Record<string, unknown>) => {
  const tracked = await api('POST', '/v1/track', { body: { email, event, ...(data ? { data } : {}) } });
  expect(tracked.status).toBe(200);
  return tracked.body.data as { contact: string; event: string };
};

const executionsOf = async (workflowId: string, query = '') => {
  const listed = await api('GET', `/workflows/${workflowId}/executions${query}`);
  expect(listed.status).toBe(200);
  return listed.body.data.items as any[];
};

/** Waits until the contact's executions of the workflow have all ended and there are `count`. */
const ended = (workflowId: string, contactId: string, count = 1) =>
  until(async () => {
    const items = await executionsOf(workflowId, `?contactId=${contactId}`);
    return items.length === count && items.every((item) => !['RUNNING', 'WAITING'].includes(item.status)) ? items : undefined;
  });

const subjectsTo = async (email: string) => (await storedEmails()).filter((stored) => stored.destination.to.some((to) => to.includes(email))).map((stored) => stored.subject).sort();

describe('workflows: the checked scenario (signed_up → welcome → wait 3 s → pro/free)', () => {
  it('delivers the right two emails to a pro and a free contact and shows every step COMPLETED', async () => {
    const event = `signed_up_${suffix()}`;
    const [welcome, tips, upgrade] = await Promise.all([template('Welcome'), template('Pro tips'), template('Upgrade now')]);
    const created = await workflow({
      trigger: { type: 'EVENT', event },
      steps: [
        { id: 'welcome', type: 'SEND_EMAIL', templateId: welcome, next: 'wait' },
        { id: 'wait', type: 'DELAY', amount: 3, unit: 'seconds', next: 'plan' },
        { id: 'plan', type: 'CONDITION', filters: { operator: 'AND', conditions: [{ field: 'data.plan', operator: 'equals', value: 'pro' }] }, then: 'tips', else: 'upgrade' },
        { id: 'tips', type: 'SEND_EMAIL', templateId: tips },
        { id: 'upgrade', type: 'SEND_EMAIL', templateId: upgrade },
      ],
    });
    expect(created.webhookSecret).toMatch(/^whsec_/);
    const [pro, free] = [uniqueEmail('wf-pro'), uniqueEmail('wf-free')];

    const [proContact, freeContact] = await Promise.all([track(pro, event, { plan: 'pro' }), track(free, event, { plan: 'free' })]);

    expect((await waitForEmails(pro, 2, { timeoutMs: 45_000 })).length).toBe(2);
    expect((await waitForEmails(free, 2, { timeoutMs: 45_000 })).length).toBe(2);
    expect(await subjectsTo(pro)).toEqual(['Pro tips', 'Welcome']);
    expect(await subjectsTo(free)).toEqual(['Upgrade now', 'Welcome']);
    const [welcomeMail] = (await storedEmails()).filter((stored) => stored.destination.to.some((to) => to.includes(pro)) && stored.subject === 'Welcome');
    expect(welcomeMail!.body.html).toBe(`<p>Welcome for ${pro} (pro)</p>`);

    for (const [contact, branch] of [[proContact.contact, 'tips'], [freeContact.contact, 'upgrade']] as const) {
      const [execution] = await ended(created.id, contact);
      expect(execution).toMatchObject({ workflowId: created.id, workflowVersion: 1, contactId: contact, status: 'COMPLETED', currentStepId: branch });
      expect(execution.steps.map((step: { stepId: string }) => step.stepId)).toEqual(['welcome', 'wait', 'plan', branch]);
      expect(execution.steps.every((step: { status: string }) => step.status === 'COMPLETED')).toBe(true);
      expect(execution.steps[2].outcome).toBe(branch === 'tips' ? 'THEN' : 'ELSE');
      expect(Date.parse(execution.steps[1].completedAt) - Date.parse(execution.steps[1].startedAt)).toBeGreaterThanOrEqual(3000);
    }

    const stats = await until(async () => {
      const { body } = await api('GET', `/workflows/${created.id}`);
      return body.data.stats.sentCount === 4 ? body.data.stats : undefined;
    });
    expect(stats).toMatchObject({ entered: 2, completed: 2, failed: 0, sentCount: 4 });
  });
});

describe('workflows: reentry', () => {
  it('allowReentry false runs once for a contact tracking the event twice', async () => {
    const event = `once_${suffix()}`;
    const created = await workflow({ trigger: { type: 'EVENT', event }, allowReentry: false, steps: [{ id: 'mail', type: 'SEND_EMAIL', templateId: await template('Once only') }] });
    const email = uniqueEmail('wf-once');

    const { contact } = await track(email, event);
    await ended(created.id, contact);
    await waitForEmails(email, 1);
    await track(email, event);
    await sleep(3000);

    expect(await executionsOf(created.id, `?contactId=${contact}`)).toHaveLength(1);
    expect(await subjectsTo(email)).toEqual(['Once only']);
  });

  it('one event starts every workflow on it, each once with its own mail, and a second event only the one that may run again', async () => {
    // Prepare: three workflows on one event, entered together (one transaction); the third allows reentry.
    const event = `together_${suffix()}`;
    const subjects = ['Together one', 'Together two', 'Together again'];
    const created = await Promise.all(
      subjects.map(async (subject, index) => workflow({ trigger: { type: 'EVENT', event }, allowReentry: index === 2, steps: [{ id: 'mail', type: 'SEND_EMAIL', templateId: await template(subject) }] })),
    );
    const email = uniqueEmail('wf-together');

    // Act
    const { contact } = await track(email, event, { plan: 'pro' });
    await Promise.all(created.map((made) => ended(made.id, contact)));
    await track(email, event, { plan: 'pro' });
    await ended(created[2]!.id, contact, 2);
    await waitForEmails(email, 4);
    await sleep(3000);

    // Assess
    expect(await Promise.all(created.map(async (made) => (await executionsOf(made.id, `?contactId=${contact}`)).length))).toEqual([1, 1, 2]);
    expect(await subjectsTo(email)).toEqual(['Together again', 'Together again', 'Together one', 'Together two']);
  });

  it('allowReentry true runs again once the previous execution ended', async () => {
    const event = `again_${suffix()}`;
    const created = await workflow({ trigger: { type: 'EVENT', event }, allowReentry: true, steps: [{ id: 'mail', type: 'SEND_EMAIL', templateId: await template('Every time') }] });
    const email = uniqueEmail('wf-again');

    const { contact } = await track(email, event);
    await ended(created.id, contact);
    await track(email, event);

    const executions = await ended(created.id, contact, 2);
    expect(executions.map((execution) => execution.status)).toEqual(['COMPLETED', 'COMPLETED']);
    expect((await waitForEmails(email, 2)).length).toBe(2);

    // Cursor-paged, newest first, bound to its query.
    const first = await api('GET', `/workflows/${created.id}/executions?limit=1&status=COMPLETED`);
    expect(first.body.data).toMatchObject({ hasMore: true, total: 2, items: [{ id: executions[0].id }] });
    const second = await api('GET', `/workflows/${created.id}/executions?limit=1&status=COMPLETED&cursor=${first.body.data.nextCursor}`);
    expect(second.body.data).toMatchObject({ hasMore: false, nextCursor: null, items: [{ id: executions[1].id }] });
    expect(executions[0].id > executions[1].id).toBe(true);
    expect((await api('GET', `/workflows/${created.id}/executions?limit=1&cursor=${first.body.data.nextCursor}`)).status).toBe(400);
    expect((await api('GET', `/workflows/${created.id}/executions?status=DONE`)).status).toBe(422);
  });
});

describe('workflows: WAIT_FOR_EVENT', () => {
  it('takes the event branch when the event comes in time and the timeout branch otherwise, exactly one each', async () => {
    const event = `trial_${suffix()}`;
    const confirm = `confirmed_${suffix()}`;
    const created = await workflow({
      trigger: { type: 'EVENT', event },
      steps: [
        { id: 'wait', type: 'WAIT_FOR_EVENT', event: confirm, timeoutSeconds: 6, next: 'thanks', timeoutNext: 'reminder' },
        { id: 'thanks', type: 'SEND_EMAIL', templateId: await template('Thanks for confirming') },
        { id: 'reminder', type: 'SEND_EMAIL', templateId: await template('Please confirm') },
      ],
    });
    const [eager, silent] = [uniqueEmail('wf-eager'), uniqueEmail('wf-silent')];

    const eagerContact = await track(eager, event);
    const silentContact = await track(silent, event);
    await until(async () => ((await executionsOf(created.id, `?contactId=${eagerContact.contact}&status=WAITING`)).length === 1 ? true : undefined));
    await track(eager, confirm);

    const [eagerRun] = await ended(created.id, eagerContact.contact);
    const [silentRun] = await ended(created.id, silentContact.contact);
    expect(eagerRun.steps.map((step: any) => [step.stepId, step.status, step.outcome])).toEqual([
      ['wait', 'COMPLETED', 'EVENT'],
      ['thanks', 'COMPLETED', 'EMAIL_QUEUED'],
    ]);
    expect(silentRun.steps.map((step: any) => [step.stepId, step.status, step.outcome])).toEqual([
      ['wait', 'COMPLETED', 'TIMEOUT'],
      ['reminder', 'COMPLETED', 'EMAIL_QUEUED'],
    ]);
    await waitForEmails(eager, 1);
    await waitForEmails(silent, 1);
    await sleep(7000); // past the eager contact's timeout: its timer must change nothing
    expect(await subjectsTo(eager)).toEqual(['Thanks for confirming']);
    expect(await subjectsTo(silent)).toEqual(['Please confirm']);
    expect((await executionsOf(created.id, `?contactId=${eagerContact.contact}`))[0].steps).toHaveLength(2);
  });
});

describe('workflows: WEBHOOK step', () => {
  const receiver = useWebhookReceiver(() => ({ status: 204 }));
  const received = receiver.received;

  it('POSTs once to a local receiver, signed so that the standardwebhooks package verifies it', async () => {
    const event = `hook_${suffix()}`;
    const url = `${receiver.url}/hooks`;
    const created = await workflow({ trigger: { type: 'EVENT', event }, steps: [{ id: 'notify', type: 'WEBHOOK', url, headers: { 'X-Team': 'growth' } }] });
    const email = uniqueEmail('wf-hook');

    const { contact, event: eventId } = await track(email, event, { plan: 'pro' });
    const [execution] = await ended(created.id, contact);
    await sleep(1000);

    const mine = received.filter((request) => request.body.includes(created.id));
    expect(mine).toHaveLength(1);
    const payload = new Webhook(created.webhookSecret).verify(mine[0]!.body, mine[0]!.headers as Record<string, string>) as any;
    expect(payload).toMatchObject({ workflowId: created.id, executionId: execution.id, contact: { id: contact, email, data: { plan: 'pro' } }, event: { type: 'EVENT', event, eventId, data: { plan: 'pro' } } });
    expect(mine[0]!.headers['x-team']).toBe('growth');
    expect(execution).toMatchObject({ status: 'COMPLETED', steps: [{ stepId: 'notify', status: 'COMPLETED', outcome: 'HTTP 204' }] });
  });

  it.each([
    ['the metadata address', 'http://169.254.169.254/latest/meta-data/'],
    ['a private address', 'http://10.0.0.1/'],
    ['a private address over https', 'https://10.0.0.1/'],
  ])('refuses %s at create time with 422 on the step field', async (_, url) => {
    const refused = await api('POST', '/workflows', { body: { name: 'bad hook', trigger: { type: 'EVENT', event: 'x' }, steps: [{ id: 'hook', type: 'WEBHOOK', url }] } });
    expect(refused.status).toBe(422);
    expect(refused.body.error.errors).toEqual([expect.objectContaining({ field: 'steps[0].url' })]);
  });
});

describe('workflows: definitions', () => {
  it.each([
    ['an unknown template', (t: string) => [{ id: 'a', type: 'SEND_EMAIL', templateId: '01ARZ3NDEKTSV4RRFFQ69G5FAV' }, { id: 'b', type: 'SEND_EMAIL', templateId: t }], 'steps[0].templateId'],
    ['an unknown step type', () => [{ id: 'a', type: 'PAUSE' }], 'steps[0].type'],
    ['a next to nowhere', (t: string) => [{ id: 'a', type: 'SEND_EMAIL', templateId: t, next: 'zzz' }], 'steps[0].next'],
    ['an unreachable step', (t: string) => [{ id: 'a', type: 'EXIT' }, { id: 'b', type: 'SEND_EMAIL', templateId: t }], 'steps[1]'],
    ['a cycle', () => [{ id: 'a', type: 'DELAY', amount: 1, unit: 'seconds', next: 'b' }, { id: 'b', type: 'DELAY', amount: 1, unit: 'seconds', next: 'a' }], 'steps[1].next'],
    ['a delay over 365 days', () => [{ id: 'a', type: 'DELAY', amount: 366, unit: 'days' }], 'steps[0].amount'],
    ['51 steps', () => Array.from({ length: 51 }, (_, index) => ({ id: `s${index}`, type: 'EXIT' })), 'steps'],
    ['a bad filter', () => [{ id: 'a', type: 'CONDITION', filters: { operator: 'AND', conditions: [{ field: 'data.plan', operator: 'near', value: 1 }] } }], 'steps[0].filters.conditions[0].operator'],
  ])('refuses %s with 422 naming the field', async (_, steps, field) => {
    const templateId = await template('Valid');
    const refused = await api('POST', '/workflows', { body: { name: 'bad', trigger: { type: 'EVENT', event: 'x' }, steps: (steps as (t: string) => unknown[])(templateId) } });
    expect(refused.status).toBe(422);
    expect(refused.body.error.errors.map((error: { field: string }) => error.field)).toContain(field);
  });

  it('refuses a segment trigger on a missing segment, hostile input and malformed JSON', async () => {
    const missing = await api('POST', '/workflows', { body: { name: 'seg', trigger: { type: 'SEGMENT_ENTERED', segmentId: '01ARZ3NDEKTSV4RRFFQ69G5FAV' }, steps: [{ id: 'a', type: 'EXIT' }] } });
    expect(missing.status).toBe(422);
    expect(missing.body.error.errors[0].field).toBe('trigger.segmentId');
    const hostile = await api('POST', '/workflows', { body: { name: 'x'.repeat(5000), trigger: { type: 'EVENT', event: 'email.sent' }, steps: [{ id: '../../etc', type: 'EXIT' }], allowReentry: 'yes' } });
    expect(hostile.status).toBe(422);
    expect(hostile.body.error.errors.map((error: { field: string }) => error.field).sort()).toEqual(['allowReentry', 'name', 'steps[0].id', 'trigger.event']);
    expect((await api('POST', '/workflows', { rawBody: '{"name":' })).status).toBe(400);
    expect((await api('GET', '/workflows/not-an-id')).status).toBe(404);
    expect((await api('GET', '/workflows?cursor=abc')).status).toBe(400);
  });

  it('keeps a running execution on its version when the workflow is edited; new entries use the new one', async () => {
    const event = `versioned_${suffix()}`;
    const [first, second] = await Promise.all([template('Version one'), template('Version two')]);
    const created = await workflow({ trigger: { type: 'EVENT', event }, steps: [{ id: 'pause', type: 'DELAY', amount: 4, unit: 'seconds', next: 'mail' }, { id: 'mail', type: 'SEND_EMAIL', templateId: first }] });
    const [early, late] = [uniqueEmail('wf-early'), uniqueEmail('wf-late')];
    const earlyContact = await track(early, event);
    await until(async () => ((await executionsOf(created.id, `?contactId=${earlyContact.contact}&status=WAITING`)).length === 1 ? true : undefined));

    const patched = await api('PATCH', `/workflows/${created.id}`, { body: { steps: [{ id: 'mail', type: 'SEND_EMAIL', templateId: second }] } });
    expect(patched.status).toBe(200);
    expect(patched.body.data.version).toBe(2);
    const lateContact = await track(late, event);

    const [earlyRun] = await ended(created.id, earlyContact.contact);
    const [lateRun] = await ended(created.id, lateContact.contact);
    expect(earlyRun).toMatchObject({ workflowVersion: 1, status: 'COMPLETED' });
    expect(lateRun).toMatchObject({ workflowVersion: 2, status: 'COMPLETED' });
    await waitForEmails(early, 1);
    await waitForEmails(late, 1);
    expect(await subjectsTo(early)).toEqual(['Version one']);
    expect(await subjectsTo(late)).toEqual(['Version two']);
  });

  it('still wakes what waits for an event an edit no longer waits for, and disabling one of two workflows on a trigger leaves the other listed', async () => {
    const [event, oldGo, newGo] = [`shared_${suffix()}`, `old_go_${suffix()}`, `new_go_${suffix()}`];
    const woken = await template('Woken by the old event');
    const waiting = await workflow({ trigger: { type: 'EVENT', event }, steps: [{ id: 'wait', type: 'WAIT_FOR_EVENT', event: oldGo, timeoutSeconds: 3600, next: 'mail' }, { id: 'mail', type: 'SEND_EMAIL', templateId: woken }] });
    const other = await workflow({ trigger: { type: 'EVENT', event }, steps: [{ id: 'end', type: 'EXIT' }] });
    const [first, second] = [uniqueEmail('wf-names-first'), uniqueEmail('wf-names-second')];
    const firstContact = await track(first, event);
    await until(async () => ((await executionsOf(waiting.id, `?contactId=${firstContact.contact}&status=WAITING`)).length === 1 ? true : undefined));

    const edited = await api('PATCH', `/workflows/${waiting.id}`, { body: { enabled: false, steps: [{ id: 'wait', type: 'WAIT_FOR_EVENT', event: newGo, timeoutSeconds: 3600, next: 'mail' }, { id: 'mail', type: 'SEND_EMAIL', templateId: woken }] } });
    expect(edited.status).toBe(200);
    await track(first, oldGo);
    const secondContact = await track(second, event);

    const [firstRun] = await ended(waiting.id, firstContact.contact);
    expect(firstRun.steps.map((step: any) => [step.stepId, step.outcome])).toEqual([
      ['wait', 'EVENT'],
      ['mail', 'EMAIL_QUEUED'],
    ]);
    await waitForEmails(first, 1);
    expect(await ended(other.id, secondContact.contact)).toHaveLength(1);
    expect(await executionsOf(waiting.id, `?contactId=${secondContact.contact}`)).toHaveLength(0);
  });

  it('stops new entries when disabled, and deleting cancels what waits', async () => {
    const event = `toggle_${suffix()}`;
    const go = `go_${suffix()}`;
    const created = await workflow({ trigger: { type: 'EVENT', event }, enabled: false, steps: [{ id: 'wait', type: 'WAIT_FOR_EVENT', event: go, timeoutSeconds: 3600, next: 'mail' }, { id: 'mail', type: 'SEND_EMAIL', templateId: await template('After go') }] });
    const [off, on] = [uniqueEmail('wf-off'), uniqueEmail('wf-on')];

    await track(off, event);
    await sleep(3000);
    expect(await executionsOf(created.id)).toHaveLength(0);

    expect((await api('PATCH', `/workflows/${created.id}`, { body: { enabled: true } })).status).toBe(200);
    const onContact = await track(on, event);
    await until(async () => ((await executionsOf(created.id, '?status=WAITING')).length === 1 ? true : undefined));
    expect((await api('GET', `/workflows?limit=100`)).body.data.items.map((item: { id: string }) => item.id)).toContain(created.id);

    expect((await api('DELETE', `/workflows/${created.id}`)).body.data).toEqual({ id: created.id, deleted: true });
    await track(on, go);
    await sleep(4000);
    expect(await subjectsTo(on)).toEqual([]);
    expect((await api('GET', `/workflows/${created.id}`)).status).toBe(404);
    expect(onContact.contact).toBeDefined();
  });
});

describe('workflows: one execution', () => {
  it('shows an execution\'s path (entered, left, outcome, the email sent), cancels it while it waits (again: the same answer), and refuses to cancel one that ended', async () => {
    // Prepare
    const event = `path_${suffix()}`;
    const go = `path_go_${suffix()}`;
    const created = await workflow({
      trigger: { type: 'EVENT', event },
      steps: [
        { id: 'hello', type: 'SEND_EMAIL', templateId: await template('Path hello'), next: 'wait' },
        { id: 'wait', type: 'WAIT_FOR_EVENT', event: go, timeoutSeconds: 3600, next: 'after' },
        { id: 'after', type: 'SEND_EMAIL', templateId: await template('Path after') },
      ],
    });
    const email = uniqueEmail('wf-path');
    const { contact } = await track(email, event);
    const [waiting] = await until(async () => {
      const items = await executionsOf(created.id, `?contactId=${contact}&status=WAITING`);
      return items.length === 1 ? items : undefined;
    });

    // Act
    const detail = await api('GET', `/workflows/${created.id}/executions/${waiting.id}`);
    const cancelled = await api('POST', `/workflows/${created.id}/executions/${waiting.id}/cancel`);
    const again = await api('POST', `/workflows/${created.id}/executions/${waiting.id}/cancel`);
    await track(email, go);
    await waitForEmails(email, 1);
    await sleep(3000);
    const other = uniqueEmail('wf-path-done');
    const done = await track(other, event);
    await until(async () => ((await executionsOf(created.id, `?contactId=${done.contact}&status=WAITING`)).length === 1 ? true : undefined));
    await track(other, go);
    const [completed] = await ended(created.id, done.contact);
    const refused = await api('POST', `/workflows/${created.id}/executions/${completed.id}/cancel`);
    const unknown = await api('GET', `/workflows/${created.id}/executions/01JD00000000000000000000ZZ`);

    // Assess
    expect(detail.status).toBe(200);
    expect(detail.body.data.path).toEqual([
      { stepId: 'hello', type: 'SEND_EMAIL', enteredAt: expect.any(String), leftAt: expect.any(String), outcome: 'EMAIL_QUEUED', emailId: expect.stringMatching(/^[0-9A-Z]{26}$/), error: null },
      { stepId: 'wait', type: 'WAIT_FOR_EVENT', enteredAt: expect.any(String), leftAt: null, outcome: null, emailId: null, error: null },
    ]);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data).toMatchObject({ id: waiting.id, status: 'CANCELLED', exitReason: 'CANCELLED_BY_REQUEST' });
    expect(again.status).toBe(200);
    expect(again.body.data.status).toBe('CANCELLED');
    expect(await subjectsTo(email)).toEqual(['Path hello']);
    expect(completed.status).toBe('COMPLETED');
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('EXECUTION_FINISHED');
    expect(unknown.status).toBe(404);
  });
});

describe('workflows: per-step figures', () => {
  it('counts what entered, waits and went on at each step, and which branch a condition took', async () => {
    // Prepare: hello → plan (pro?) → then: a long delay; else: bye
    const event = `stats_${suffix()}`;
    const created = await workflow({
      trigger: { type: 'EVENT', event },
      steps: [
        { id: 'hello', type: 'SEND_EMAIL', templateId: await template('Stats hello'), next: 'plan' },
        { id: 'plan', type: 'CONDITION', filters: { operator: 'AND', conditions: [{ field: 'data.plan', operator: 'equals', value: 'pro' }] }, then: 'later', else: 'bye' },
        { id: 'later', type: 'DELAY', amount: 1, unit: 'hours' },
        { id: 'bye', type: 'SEND_EMAIL', templateId: await template('Stats bye') },
      ],
    });

    // Act: two pro contacts end up waiting in the delay, one free contact goes through
    const contacts = await Promise.all([track(uniqueEmail('wf-st1'), event, { plan: 'pro' }), track(uniqueEmail('wf-st2'), event, { plan: 'pro' }), track(uniqueEmail('wf-st3'), event, { plan: 'free' })]);
    const stats = await until(async () => {
      const response = await api('GET', `/workflows/${created.id}/stats`);
      const data = response.body.data;
      return data?.entered === 3 && data.completed === 1 && data.steps.find((step: any) => step.stepId === 'later').active === 2 ? data : undefined;
    }, 60_000);
    const unknown = await api('GET', '/workflows/01JD00000000000000000000ZZ/stats');

    // Assess
    expect(contacts).toHaveLength(3);
    expect(stats).toMatchObject({ entered: 3, active: 2, completed: 1, failed: 0, cancelled: 0 });
    expect(stats.steps).toEqual([
      { stepId: 'hello', type: 'SEND_EMAIL', entered: 3, active: 0, completed: 3, failed: 0, cancelled: 0, branches: null },
      { stepId: 'plan', type: 'CONDITION', entered: 3, active: 0, completed: 3, failed: 0, cancelled: 0, branches: { then: 2, else: 1 } },
      { stepId: 'later', type: 'DELAY', entered: 2, active: 2, completed: 0, failed: 0, cancelled: 0, branches: null },
      { stepId: 'bye', type: 'SEND_EMAIL', entered: 1, active: 0, completed: 1, failed: 0, cancelled: 0, branches: null },
    ]);
    expect(unknown.status).toBe(404);
    await api('DELETE', `/workflows/${created.id}`);
  });
});

describe('workflows: segment and contact triggers', () => {
  it('SEGMENT_ENTERED sends when a contact enters the tracked segment, with the segment as {{event.*}}', async () => {
    const tier = `vip-${suffix()}`;
    const segment = await api('POST', '/segments', { body: { name: `Tier ${tier}`, trackMembership: true, filters: { operator: 'AND', conditions: [{ field: 'data.tier', operator: 'equals', value: tier }] } } });
    expect(segment.status).toBe(201);
    const created = await api('POST', '/templates', { body: { name: 'vip', subject: 'Welcome to {{event.segmentName}}', body: '<p>vip</p>', type: 'TRANSACTIONAL', from: FROM } });
    await workflow({ trigger: { type: 'SEGMENT_ENTERED', segmentId: segment.body.data.id }, steps: [{ id: 'mail', type: 'SEND_EMAIL', templateId: created.body.data.id }] });
    const email = uniqueEmail('wf-vip');
    // The project is large enough for a background build: the contact is created while it builds,
    // and whether the build or the stream consumer counts it in first, it enters once.

    expect((await api('POST', '/contacts', { body: { email, data: { tier } } })).status).toBe(201);

    const [mail] = await waitForEmails(email, 1, { timeoutMs: 45_000 });
    expect(mail?.subject).toBe(`Welcome to Tier ${tier}`);
  });

  it('CONTACT_CREATED runs for a new contact: UPDATE_CONTACT goes through the contact rules', async () => {
    const mark = `welcomed-${suffix()}`;
    const created = await workflow({ trigger: { type: 'CONTACT_CREATED' }, steps: [{ id: 'tag', type: 'UPDATE_CONTACT', data: { onboarding: mark, unwanted: null } }] });

    const contact = await api('POST', '/contacts', { body: { email: uniqueEmail('wf-new'), data: { unwanted: 'x', kept: 1 } } });
    expect(contact.status).toBe(201);

    const updated = await until(async () => {
      const { body } = await api('GET', `/contacts/${contact.body.data.id}`);
      return body.data.data.onboarding === mark ? body.data : undefined;
    });
    expect(updated.data).toEqual({ onboarding: mark, kept: 1 });
    const [execution] = await ended(created.id, contact.body.data.id);
    expect(execution).toMatchObject({ status: 'COMPLETED', steps: [{ stepId: 'tag', status: 'COMPLETED', outcome: 'UPDATED' }] });
    expect((await api('DELETE', `/workflows/${created.id}`)).status).toBe(200);
  });
});
