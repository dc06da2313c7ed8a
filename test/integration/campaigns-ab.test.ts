import { jest } from '@jest/globals';
import { admin, api, stack, until } from '../support/api-client';
import { deadLetters } from '../support/dead-letters';
import { storedEmails, type StoredEmail } from '../support/mail-viewer';
import { streamConsumers } from '../../infra/streams';

// A/B subject tests (issue 26 item 1), black-box against the local stack: the sample, the wait's
// one-time schedule (the local scheduler fires it), the automatic and the hand-picked winner, and a
// cancel while WAITING. Each scenario has a project of its own, so its audience is its contacts.
jest.setTimeout(300_000);

const suffix = Math.random().toString(36).slice(2, 8);
const AUDIENCE = 20;

interface Scenario {
  key: string;
  tag: string;
  contacts: { id: string; email: string }[];
}

async function scenario(name: string): Promise<Scenario> {
  const tag = `${name}-${suffix}`;
  const key = (await admin<{ secretKey: string }>('create-project', '--name', `ab-${tag}`)).secretKey;
  const domain = `ab-${tag}.test`;
  expect((await api('POST', '/domains', { key, body: { domain } })).status).toBe(201);
  await admin('verify-domain', '--domain', domain);
  await until(async () => (await api('GET', '/domains', { key })).body.data.items.find((item: { domain: string; status: string }) => item.domain === domain && item.status === 'VERIFIED'));
  const contacts: Scenario['contacts'] = [];
  for (let index = 0; index < AUDIENCE; index++) {
    const email = `ab${index}-${tag}@example.com`;
    const { status, body } = await api('POST', '/contacts', { key, body: { email, subscribed: true } });
    expect(status).toBe(201);
    contacts.push({ id: body.data.id, email });
  }
  return { key, tag, contacts };
}

async function abCampaign({ key, tag }: Scenario, waitMinutes: number): Promise<string> {
  const { status, body } = await api('POST', '/campaigns', {
    key,
    body: {
      name: `A/B ${tag}`,
      subject: `Alpha ${tag}`,
      body: '<p>Hello</p><p><a href="{{unsubscribeUrl}}">Unsubscribe</a></p>',
      from: { email: `news@ab-${tag}.test` },
      abTest: { variants: [{ subject: `Alpha ${tag}` }, { subject: `Beta ${tag}` }], samplePercent: 50, metric: 'opens', waitMinutes },
    },
  });
  expect(status).toBe(201);
  expect(body.data.abTest).toMatchObject({ samplePercent: 50, metric: 'opens', waitMinutes, phase: null, winner: null });
  return body.data.id as string;
}

const mailsOf = async ({ tag }: Scenario) => (await storedEmails()).filter((mail) => mail.subject.endsWith(tag));
const waitForMails = (run: Scenario, count: number, ms = 60_000) =>
  until(async () => {
    const found = await mailsOf(run);
    return found.length >= count ? found : undefined;
  }, ms);
const campaignOf = async ({ key }: Scenario, id: string) => (await api('GET', `/campaigns/${id}`, { key })).body.data;
const waitForCampaign = (run: Scenario, id: string, check: (campaign: any) => boolean, ms = 60_000) =>
  until(async () => {
    const campaign = await campaignOf(run, id);
    return check(campaign) ? campaign : undefined;
  }, ms);
const recipientsOf = (mails: StoredEmail[]) => mails.map((mail) => mail.destination.to[0]!).sort();
const simulateOpen = (mail: StoredEmail) => fetch(`${stack.sesUrl}/_local/simulate`, { method: 'POST', body: JSON.stringify({ messageId: mail.messageId, type: 'open' }) });

// Each scenario has a project of its own and waits a minute or more of real time: they run side by side.
describe('an A/B subject test', () => {
  it.concurrent('sends the sample split evenly, then the variant with the most unique opens to the other 10, each contact exactly once', async () => {
    // Prepare: 20 contacts, two subjects, 50 % sample, metric opens, a 1 minute wait
    const run = await scenario('auto');
    const id = await abCampaign(run, 1);

    // Act: send; the sample goes out; three of Beta's mail are opened during the wait
    const sent = await api('POST', `/campaigns/${id}/send`, { key: run.key });
    const sample = await waitForMails(run, 10);
    const waiting = await waitForCampaign(run, id, (campaign) => campaign.abTest.phase === 'WAITING');
    const beta = sample.filter((mail) => mail.subject === `Beta ${run.tag}`);
    for (const mail of beta.slice(0, 3)) expect((await simulateOpen(mail)).status).toBe(202);
    const opened = await until(async () => {
      const { body } = await api('GET', `/campaigns/${id}/stats`, { key: run.key });
      return body.data.variants[1].opened >= 3 ? body.data : undefined;
    });
    const done = await waitForCampaign(run, id, (campaign) => campaign.status === 'SENT', 150_000);
    const mails = await mailsOf(run);
    const { body: stats } = await api('GET', `/campaigns/${id}/stats`, { key: run.key });

    // Assess
    expect(sent.status).toBe(200);
    expect(sample.length).toBe(10);
    expect(sample.filter((mail) => mail.subject === `Alpha ${run.tag}`).length).toBe(5);
    expect(beta.length).toBe(5);
    expect(waiting.abTest.waitUntil).toEqual(expect.any(String));
    expect(opened.variants.map((variant: { sent: number }) => variant.sent)).toEqual([5, 5]);
    expect(done.abTest).toMatchObject({ phase: 'WINNER', winner: 1, pickedBy: 'schedule' });
    expect(done.totalRecipients).toBe(AUDIENCE);
    expect(mails.length).toBe(AUDIENCE);
    expect(recipientsOf(mails)).toEqual(run.contacts.map((contact) => contact.email).sort());
    const sampled = new Set(recipientsOf(sample));
    const rest = mails.filter((mail) => !sampled.has(mail.destination.to[0]!));
    expect(rest.length).toBe(10);
    expect(rest.every((mail) => mail.subject === `Beta ${run.tag}`)).toBe(true);
    expect(stats.data.variants).toEqual([
      expect.objectContaining({ variant: 0, subject: `Alpha ${run.tag}`, sent: 5, opened: 0, openRate: 0, winner: false }),
      expect.objectContaining({ variant: 1, subject: `Beta ${run.tag}`, sent: 5, opened: 3, openRate: 60, winner: true }),
    ]);
    expect(stats.data.sentCount).toBe(AUDIENCE);
  });

  it.concurrent('ends the wait with a hand-picked winner, once: the rest get its subject, a second pick is 409', async () => {
    // Prepare: a long wait, so only the hand pick ends it
    const run = await scenario('hand');
    const id = await abCampaign(run, 600);
    await api('POST', `/campaigns/${id}/send`, { key: run.key });
    const sample = await waitForMails(run, 10);
    await waitForCampaign(run, id, (campaign) => campaign.abTest.phase === 'WAITING');

    // Act
    const picked = await api('POST', `/campaigns/${id}/ab-winner`, { key: run.key, body: { variant: 1 } });
    const again = await api('POST', `/campaigns/${id}/ab-winner`, { key: run.key, body: { variant: 0 } });
    const outOfRange = await api('POST', `/campaigns/${id}/ab-winner`, { key: run.key, body: { variant: 'x' } });
    const done = await waitForCampaign(run, id, (campaign) => campaign.status === 'SENT', 90_000);
    const mails = await mailsOf(run);

    // Assess
    expect(picked.status).toBe(200);
    expect(picked.body.data.abTest).toMatchObject({ phase: 'WINNER', winner: 1, pickedBy: 'hand' });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('AB_TEST_NOT_WAITING');
    expect(outOfRange.status).toBe(422);
    expect(done.abTest.winner).toBe(1);
    expect(recipientsOf(mails)).toEqual(run.contacts.map((contact) => contact.email).sort());
    const sampled = new Set(recipientsOf(sample));
    expect(mails.filter((mail) => !sampled.has(mail.destination.to[0]!)).map((mail) => mail.subject)).toEqual(Array(10).fill(`Beta ${run.tag}`));
  });

  it.concurrent('sends nothing more when cancelled while WAITING, even after its pick was due', async () => {
    // Prepare
    const run = await scenario('cancel');
    const id = await abCampaign(run, 1);
    await api('POST', `/campaigns/${id}/send`, { key: run.key });
    await waitForMails(run, 10);
    const waiting = await waitForCampaign(run, id, (campaign) => campaign.abTest.phase === 'WAITING');

    // Act: cancel, then wait past the pick's time and some more
    const cancelled = await api('POST', `/campaigns/${id}/cancel`, { key: run.key });
    const due = Date.parse(waiting.abTest.waitUntil);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - Date.now()) + 20_000));
    const mails = await mailsOf(run);
    const after = await campaignOf(run, id);

    // Assess
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data.status).toBe('CANCELLED');
    expect(mails.length).toBe(10);
    expect(after.status).toBe('CANCELLED');
    expect(after.abTest.phase).toBe('WAITING');
  });

  it('refuses a test out of its limits with a clear 422', async () => {
    // Prepare
    const run = { key: (await admin<{ secretKey: string }>('create-project', '--name', `ab-limits-${suffix}`)).secretKey };

    // Act
    const { status, body } = await api('POST', '/campaigns', {
      key: run.key,
      body: { name: 'Bad', subject: 'S', body: '<p>B</p>', from: { email: 'news@example.com' }, abTest: { variants: [{ subject: 'Only one' }], samplePercent: 80, metric: 'views', waitMinutes: 0 } },
    });

    // Assess
    expect(status).toBe(422);
    expect(body.error.code).toBe('VALIDATION_ERROR');
  });

  it('leaves the table stream\'s consumers nothing they failed on: the held rest is no contact to them', async () => {
    const { dlqs, holding } = await deadLetters(stack.sqsEndpoint);

    expect(dlqs.filter((url) => url.endsWith('-stream-dlq'))).toHaveLength(streamConsumers.length);
    expect(holding.filter((queue) => queue.includes('-stream-dlq'))).toEqual([]);
  });
});
