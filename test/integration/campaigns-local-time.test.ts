import { jest } from '@jest/globals';
import { startLocalStack, stopLocalStack, type LocalStack } from '../support/local-stack';
import { waitForEmails } from '../support/mail-viewer';

// Two starts of a stack of its own (DynamoDB's JVM included), a stop across the first zone's moment and the waits for it.
jest.setTimeout(420_000);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** The moment is at most two minutes after the send; the rest is a stop and a start of the stack on a loaded machine. */
const ARRIVES_WITHIN_MS = 240_000;

async function call(stack: LocalStack, method: string, route: string, body?: unknown): Promise<{ status: number; data: any; error: any }> {
  const response = await fetch(`${stack.baseUrl}${route}`, {
    method,
    headers: { Authorization: `Bearer ${stack.secretKey}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await response.json()) as { data?: unknown; error?: unknown };
  return { status: response.status, data: json.data, error: json.error };
}

/** The wall-clock time `YYYY-MM-DDTHH:MM` that a zone at this UTC offset (hours) reads at `instant`. */
const wallAt = (instant: number, offsetHours: number) => new Date(instant + offsetHours * 3600_000).toISOString().slice(0, 16);

describe('a campaign sent at a local time in each recipient\'s time zone', () => {
  let stack: LocalStack | undefined;

  afterAll(async () => {
    if (stack) await stopLocalStack(stack);
  });

  it('reaches only the UTC+14 contacts at their moment, keeps UTC−12 and the invalid zone (its fallback) pending, across a restart, and cancels the rest', async () => {
    // Prepare: a stack that keeps its data on disk; two contacts each in UTC+14, UTC−12 and an invalid zone;
    // localTime the next whole minute plus one in UTC+14 (at most two minutes ahead)
    stack = await startLocalStack({}, { onDisk: true });
    const tag = Date.now().toString(36);
    const groups = { plus14: 'Pacific/Kiritimati', minus12: 'Etc/GMT+12', invalid: 'Mars/Olympus_Mons' } as const;
    const emails: Record<keyof typeof groups, string[]> = { plus14: [], minus12: [], invalid: [] };
    for (const [group, timezone] of Object.entries(groups) as [keyof typeof groups, string][]) {
      for (const index of [1, 2]) {
        const email = `tz-${group}-${index}-${tag}@example.com`;
        expect((await call(stack, 'POST', '/contacts', { email, subscribed: true, data: { name: `${group} ${index}`, timezone } })).status).toBe(201);
        emails[group].push(email);
      }
    }
    const { data: campaign } = await call(stack, 'POST', '/campaigns', { name: 'At nine everywhere', subject: 'Good morning {{contact.data.name}}', body: '<p>Hi {{contact.data.name}}</p>', from: 'hello@example.com' });
    const moment = Math.ceil(Date.now() / 60_000) * 60_000 + 60_000;
    const localTime = wallAt(moment, 14);
    const refused = {
      both: await call(stack, 'POST', `/campaigns/${campaign.id}/send`, { localTime, scheduledFor: new Date(moment).toISOString() }),
      badZone: await call(stack, 'POST', `/campaigns/${campaign.id}/send`, { localTime, fallbackTimeZone: 'Mars/Olympus_Mons' }),
      badTime: await call(stack, 'POST', `/campaigns/${campaign.id}/send`, { localTime: '2026-13-01T09:00' }),
      fieldAlone: await call(stack, 'POST', `/campaigns/${campaign.id}/send`, { timeZoneField: 'data.timezone' }),
    };

    // Act: send at localTime; stop before the first moment, start again on the same data after it
    const sentAt = Date.now();
    const sent = await call(stack, 'POST', `/campaigns/${campaign.id}/send`, { localTime, timeZoneField: 'data.timezone', fallbackTimeZone: 'UTC' });
    await stopLocalStack(stack, { keepData: true });
    await sleep(Math.max(0, moment + 2_000 - Date.now()));
    stack = await startLocalStack({}, { restartOf: stack });
    const first = await Promise.all(emails.plus14.map((email) => waitForEmails(email, 1, { sesUrl: stack!.sesUrl, timeoutMs: Math.max(5_000, sentAt + ARRIVES_WITHIN_MS - Date.now()) })));
    const arrivedWithin = Date.now() - sentAt;
    let zones: any[] = [];
    for (const deadline = Date.now() + 30_000; !zones.some((zone) => zone.status === 'SENT') && Date.now() < deadline; await sleep(500)) {
      zones = (await call(stack, 'GET', `/campaigns/${campaign.id}`)).data.delivery.zones;
    }
    await sleep(5_000);
    const pending = await call(stack, 'GET', `/campaigns/${campaign.id}`);
    const others = await Promise.all([...emails.minus12, ...emails.invalid].map((email) => waitForEmails(email, 1, { sesUrl: stack!.sesUrl, timeoutMs: 0 })));
    const cancelled = await call(stack, 'POST', `/campaigns/${campaign.id}/cancel`);
    let afterCancel: any;
    for (const deadline = Date.now() + 30_000; Date.now() < deadline; await sleep(500)) {
      afterCancel = (await call(stack, 'GET', `/campaigns/${campaign.id}`)).data;
      const { data: page } = await call(stack, 'GET', `/emails?campaignId=${campaign.id}&status=CANCELLED&limit=100`);
      if (page.items.length === 4) break;
    }
    const { data: cancelledEmails } = await call(stack, 'GET', `/emails?campaignId=${campaign.id}&status=CANCELLED&limit=100`);

    // Assess
    expect(refused.both).toMatchObject({ status: 422, error: { code: 'VALIDATION_ERROR' } });
    expect(refused.badZone).toMatchObject({ status: 422, error: { code: 'VALIDATION_ERROR' } });
    expect(refused.badTime.status).toBe(422);
    expect(refused.fieldAlone.status).toBe(422);
    expect(sent).toMatchObject({ status: 200, data: { status: 'SCHEDULED', scheduledFor: new Date(moment).toISOString(), delivery: { mode: 'LOCAL_TIME', localTime, zones: [] } } });
    expect(first.map((mails) => mails.length)).toEqual([1, 1]);
    expect(arrivedWithin).toBeLessThan(ARRIVES_WITHIN_MS);
    expect(pending.data.status).toBe('SENDING');
    expect(pending.data.totalRecipients).toBe(6);
    expect(pending.data.delivery.zones).toEqual([
      { timeZone: 'Pacific/Kiritimati', at: new Date(moment).toISOString(), recipients: 2, status: 'SENT' },
      { timeZone: 'UTC', at: new Date(moment + 14 * 3600_000).toISOString(), recipients: 2, status: 'PENDING' },
      { timeZone: 'Etc/GMT+12', at: new Date(moment + 26 * 3600_000).toISOString(), recipients: 2, status: 'PENDING' },
    ]);
    expect(others.map((mails) => mails.length)).toEqual([0, 0, 0, 0]);
    expect(cancelled).toMatchObject({ status: 200, data: { status: 'CANCELLED' } });
    expect(afterCancel.delivery.zones.map((zone: { status: string }) => zone.status)).toEqual(['SENT', 'CANCELLED', 'CANCELLED']);
    expect(cancelledEmails.items).toHaveLength(4);
    expect(await waitForEmails(emails.plus14[0]!, 2, { sesUrl: stack.sesUrl, timeoutMs: 0 })).toHaveLength(1);
  });
});
