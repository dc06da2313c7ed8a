import { jest } from '@jest/globals';
import { startLocalStack, stopLocalStack, type LocalStack } from '../support/local-stack';
import { waitForEmails } from '../support/mail-viewer';

// Two starts of a stack of its own (DynamoDB's JVM included) and a stop across the schedule's time.
jest.setTimeout(240_000);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function call(stack: LocalStack, method: string, route: string, body?: unknown): Promise<{ status: number; data: any }> {
  const response = await fetch(`${stack.baseUrl}${route}`, {
    method,
    headers: { Authorization: `Bearer ${stack.secretKey}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, data: ((await response.json()) as { data: unknown }).data };
}

describe('a scheduled campaign and a stopped `npm start`', () => {
  let stack: LocalStack | undefined;

  afterAll(async () => {
    if (stack) await stopLocalStack(stack);
  });

  it('fires after the restart when its time passed while the stack was stopped, exactly once', async () => {
    // Prepare: a stack that keeps its data on disk, as `npm start` does; one subscribed contact of
    // the seeded project (its sender domain is verified); a campaign scheduled 10 s ahead
    stack = await startLocalStack({}, { onDisk: true });
    const email = `restart-${Date.now().toString(36)}@example.com`;
    expect((await call(stack, 'POST', '/contacts', { email, subscribed: true, data: { name: 'Ada' } })).status).toBe(201);
    const { data: campaign } = await call(stack, 'POST', '/campaigns', { name: 'Across a restart', subject: 'Hello {{contact.data.name}}', body: '<p>Hi {{contact.data.name}}</p>', from: 'hello@example.com' });
    const at = new Date(Date.now() + 10_000);
    const scheduled = await call(stack, 'POST', `/campaigns/${campaign.id}/send`, { scheduledFor: at.toISOString() });

    // Act: stop before its time, start again on the same data after it
    await stopLocalStack(stack, { keepData: true });
    await sleep(Math.max(0, at.getTime() + 3_000 - Date.now()));
    stack = await startLocalStack({}, { restartOf: stack });
    const mails = await waitForEmails(email, 1, { sesUrl: stack.sesUrl, timeoutMs: 60_000 });
    let status = '';
    for (const deadline = Date.now() + 30_000; status !== 'SENT' && Date.now() < deadline; await sleep(500)) {
      status = (await call(stack, 'GET', `/campaigns/${campaign.id}`)).data.status;
    }
    await sleep(2_000);

    // Assess
    expect(scheduled).toMatchObject({ status: 200, data: { status: 'SCHEDULED' } });
    expect(mails.map((mail) => mail.subject)).toEqual(['Hello Ada']);
    expect(await waitForEmails(email, 2, { sesUrl: stack.sesUrl, timeoutMs: 0 })).toHaveLength(1);
    expect(status).toBe('SENT');
  });
});
