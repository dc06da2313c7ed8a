import { jest } from '@jest/globals';
import { admin, api, stack, until } from '../support/api-client';
import { storedEmails, type StoredEmail } from '../support/mail-viewer';

jest.setTimeout(300_000);

/**
 * A spread send (spreadOverMinutes, shared/campaigns/spread.ts) against the local stack: its
 * validation, 20 recipients spread over 2 minutes arriving over about 2 minutes (not in a burst,
 * each once), a cancel that stops the mail not yet due, and a pause by the deliverability guard
 * whose resume sends the held mail once each, at the spread's pace.
 */
const suffix = Math.random().toString(36).slice(2, 8);
const domain = `spread-${suffix}.test`;
const audienceSize = 20;
let key: string;
let segmentOfSix: string;
/** The 20 contacts of beforeAll (the pause test adds contacts of its own to the project meanwhile). */
let segmentOfAll: string;
const emails: string[] = [];

const mailsWithSubject = async (subject: string) => (await storedEmails()).filter((mail) => mail.subject.startsWith(subject));

async function createCampaign(subject: string, extra: Record<string, unknown> = {}) {
  return api('POST', '/campaigns', {
    key,
    body: { name: `Spread ${subject}`, subject, body: '<p>Hello {{contact.email}}</p><p><a href="{{unsubscribeUrl}}">Unsubscribe</a></p>', from: { email: `news@${domain}` }, ...extra },
  });
}

/** The most arrivals within any `windowMs` (a window starting at each arrival). */
const busiestWindow = (times: number[], windowMs: number) => Math.max(...times.map((start) => times.filter((time) => time >= start && time < start + windowMs).length));

beforeAll(async () => {
  key = (await admin<{ secretKey: string }>('create-project', '--name', `spread-${suffix}`)).secretKey;
  expect((await api('POST', '/domains', { key, body: { domain } })).status).toBe(201);
  await admin('verify-domain', '--domain', domain);
  await until(async () => (await api('GET', '/domains', { key })).body.data.items.find((item: { domain: string; status: string }) => item.domain === domain && item.status === 'VERIFIED'));
  for (let index = 0; index < audienceSize; index++) {
    const email = `spread${index}-${suffix}@example.com`;
    expect((await api('POST', '/contacts', { key, body: { email, subscribed: true, data: { group: index < 6 ? 'six' : 'rest', first: 'yes' } } })).status).toBe(201);
    emails.push(email);
  }
  const segment = await api('POST', '/segments', { key, body: { name: `six-${suffix}`, filters: { operator: 'AND', conditions: [{ field: 'data.group', operator: 'equals', value: 'six' }] } } });
  expect(segment.status).toBe(201);
  segmentOfSix = segment.body.data.id;
  const all = await api('POST', '/segments', { key, body: { name: `all-${suffix}`, filters: { operator: 'AND', conditions: [{ field: 'data.first', operator: 'equals', value: 'yes' }] } } });
  expect(all.status).toBe(201);
  segmentOfAll = all.body.data.id;
});

// The spread tests wait minutes of real time each, on campaigns and subjects of their own: they run side by side.
describe('campaigns spread over minutes', () => {
  it('takes spreadOverMinutes 1–1440 on create and update, null removes it, anything else is 422 on the field', async () => {
    // Act
    const refused = await Promise.all([0, 1441, 2.5, '10', -3].map((value) => createCampaign(`Refused-${suffix}`, { spreadOverMinutes: value })));
    const created = await createCampaign(`Valid-${suffix}`, { spreadOverMinutes: 1440 });
    expect(created.body.error).toBeUndefined();
    const id = created.body.data.id as string;
    const badPatch = await api('PATCH', `/campaigns/${id}`, { key, body: { spreadOverMinutes: 0 } });
    const patched = await api('PATCH', `/campaigns/${id}`, { key, body: { spreadOverMinutes: 1 } });
    const removed = await api('PATCH', `/campaigns/${id}`, { key, body: { spreadOverMinutes: null } });
    // Assess
    for (const answer of refused) {
      expect(answer.status).toBe(422);
      expect(answer.body.error.code).toBe('VALIDATION_ERROR');
      expect(answer.body.error.errors[0].field).toBe('spreadOverMinutes');
    }
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ spreadOverMinutes: 1440, spread: null });
    expect(badPatch.status).toBe(422);
    expect(badPatch.body.error.errors[0].field).toBe('spreadOverMinutes');
    expect(patched.body.data.spreadOverMinutes).toBe(1);
    expect(removed.body.data.spreadOverMinutes).toBeNull();
    expect((await api('GET', `/campaigns/${id}`, { key })).body.data.spreadOverMinutes).toBeNull();
  });

  it.concurrent('delivers 20 recipients spread over 2 minutes over about 2 minutes, not in a burst, each once', async () => {
    // Prepare
    const subject = `Spread2-${suffix}`;
    const created = await createCampaign(subject, { spreadOverMinutes: 2, segmentId: segmentOfAll });
    expect(created.body.error).toBeUndefined();
    const id = created.body.data.id as string;
    // Act
    const sent = await api('POST', `/campaigns/${id}/send`, { key });
    const mails = await until(async () => {
      const found = await mailsWithSubject(subject);
      return found.length >= audienceSize ? found : undefined;
    }, 240_000);
    const campaign = await until(async () => {
      const { body } = await api('GET', `/campaigns/${id}`, { key });
      return body.data.status === 'SENT' ? body.data : undefined;
    }, 60_000);
    // Assess
    expect(sent.status).toBe(200);
    // The mail viewer's arrival times are whole seconds.
    const times = mails.map((mail: StoredEmail) => mail.at * 1000).sort((a, b) => a - b);
    const span = times.at(-1)! - times[0]!;
    // Due 6 s apart from the start: the last 114 s after the first (a loaded machine may stretch it, never compress it).
    expect(span).toBeGreaterThanOrEqual(60_000);
    expect(busiestWindow(times, 20_000)).toBeLessThanOrEqual(Math.ceil(audienceSize / 3));
    expect(mails.map((mail) => mail.destination.to[0]).sort()).toEqual([...emails].sort());
    expect(campaign.spread).toEqual({ overMinutes: 2, startedAt: campaign.sentAt, endsAt: new Date(Date.parse(campaign.sentAt) + 120_000).toISOString(), recipients: audienceSize });
    const stats = await api('GET', `/campaigns/${id}/stats`, { key });
    expect(stats.body.data.sentCount).toBe(audienceSize);
  });

  it.concurrent('sends nothing more after a cancel: the mail not yet due ends CANCELLED', async () => {
    // Prepare: 6 recipients over 1 minute, one every 10 s.
    const subject = `SpreadCancel-${suffix}`;
    const created = await createCampaign(subject, { spreadOverMinutes: 1, segmentId: segmentOfSix });
    const id = created.body.data.id as string;
    // Act
    await api('POST', `/campaigns/${id}/send`, { key });
    await until(async () => ((await mailsWithSubject(subject)).length > 0 ? true : undefined), 60_000);
    const cancel = await api('POST', `/campaigns/${id}/cancel`, { key });
    const cancelled = await until(async () => {
      const { body } = await api('GET', `/campaigns/${id}/stats`, { key });
      return body.data.sentCount + body.data.cancelledCount === 6 ? body.data : undefined;
    }, 120_000);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    // Assess
    expect(cancel.status).toBe(200);
    expect(cancel.body.data.status).toBe('CANCELLED');
    expect(cancelled.cancelledCount).toBeGreaterThan(0);
    expect(await mailsWithSubject(subject)).toHaveLength(cancelled.sentCount);
    expect((await api('GET', `/campaigns/${id}`, { key })).body.data.status).toBe('CANCELLED');
  });

  it.concurrent('holds the mail due while the guard has paused it, and the resume sends it once each at the spread\'s pace', async () => {
    // Prepare: 45 recipients over 2 minutes, one every 2.7 s (the test stack judges bounce rates from 30 sends).
    const batch = `pause-${suffix}`;
    const subject = `SpreadPause-${suffix}`;
    const audience = Array.from({ length: 45 }, (_, index) => `pause${index}-${suffix}@example.com`);
    for (let start = 0; start < audience.length; start += 9) {
      await Promise.all(audience.slice(start, start + 9).map((email) => api('POST', '/contacts', { key, body: { email, subscribed: true, data: { batch } } })));
    }
    const segment = await api('POST', '/segments', { key, body: { name: batch, filters: { operator: 'AND', conditions: [{ field: 'data.batch', operator: 'equals', value: batch }] } } });
    const created = await createCampaign(subject, { spreadOverMinutes: 2, segmentId: segment.body.data.id });
    const id = created.body.data.id as string;
    const stats = async () => (await api('GET', `/campaigns/${id}/stats`, { key })).body.data;
    // Act: after 30 sends, 10 of them bounce: the guard pauses the campaign.
    await api('POST', `/campaigns/${id}/send`, { key });
    await until(async () => ((await stats()).sentCount >= 30 ? true : undefined), 120_000);
    const bounced = (await mailsWithSubject(subject)).slice(0, 10);
    const simulated = await Promise.all(bounced.map((mail) => fetch(`${stack.sesUrl}/_local/simulate`, { method: 'POST', body: JSON.stringify({ messageId: mail.messageId, type: 'bounce', bounceType: 'Permanent' }) })));
    const paused = await until(async () => {
      const { body } = await api('GET', `/campaigns/${id}`, { key });
      return body.data.status === 'PAUSED' ? body.data : undefined;
    }, 60_000);
    const heldAt = (await mailsWithSubject(subject)).length;
    // Every remaining email falls due while PAUSED (the spread ends 120 s after the start) and is parked, not sent.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, Date.parse(paused.sentAt) + 125_000 - Date.now())));
    const stillHeld = (await mailsWithSubject(subject)).length;
    const resumedAt = Date.now();
    const resume = await api('POST', `/campaigns/${id}/send`, { key });
    const mails = await until(async () => {
      const found = await mailsWithSubject(subject);
      return found.length >= audience.length ? found : undefined;
    }, 180_000);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    // Assess
    expect(simulated.map((response) => response.status)).toEqual(Array(10).fill(202));
    expect(stillHeld).toBe(heldAt);
    expect(heldAt).toBeLessThan(audience.length - 2);
    expect(resume.body.data.status).toBe('SENDING');
    const all = await mailsWithSubject(subject);
    expect(all.map((mail) => mail.destination.to[0]).sort()).toEqual([...audience].sort());
    // The held mail went out 120 s / 45 apart from the resume, not in a burst (whole seconds in the viewer).
    const after = mails.map((mail) => mail.at * 1000).filter((at) => at >= Math.floor(resumedAt / 1000) * 1000).sort((a, b) => a - b);
    const held = audience.length - heldAt;
    expect(after).toHaveLength(held);
    expect(after.at(-1)! - after[0]!).toBeGreaterThanOrEqual(Math.floor(((held - 1) * 120_000) / audience.length) - 1_000);
  });
});
