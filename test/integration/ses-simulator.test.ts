import { admin, api, stack, until } from '../support/api-client';
import { storedEmails } from '../support/mail-viewer';

/**
 * SES's mailbox simulator addresses behave locally as in AWS: an ordinary /v1/send to one ends in
 * the status SES's events for it lead to, with no admin command. Labels (bounce+<label>@) keep the
 * recipients of this file apart from any other send to the same simulator address.
 */

const FROM = 'hello@example.com';
const label = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const address = (name: string) => `${name}+${label}@simulator.amazonses.com`;

async function send(to: string): Promise<string> {
  const sent = await api('POST', '/v1/send', { body: { to, from: FROM, subject: `Simulator ${to}`, body: '<p>x</p>' } });
  expect(sent.status).toBe(200);
  return sent.body.data.emails[0].email as string;
}

/** The email once its status is `status` (the events arrive through the local EventBridge, asynchronously). */
const settledAs = (emailId: string, status: string) =>
  until(async () => {
    const { body } = await api('GET', `/emails/${emailId}`);
    return body.data?.status === status ? body.data : undefined;
  }, 30_000);

async function eventsOf(email: string): Promise<{ name: string; data: Record<string, unknown> }[]> {
  return (await api('GET', `/events?email=${encodeURIComponent(email)}&limit=100`)).body.data.items;
}

const suppressed = async () => (await admin<{ email: string }[]>('list-suppressed', '--project', stack.projectId)).map((entry) => entry.email);

describe("SES's mailbox simulator", () => {
  it('success@ is DELIVERED', async () => {
    const to = address('success');
    const emailId = await send(to);
    await settledAs(emailId, 'DELIVERED');
    // The status moves before ses-events writes the event: wait for it.
    const names = await until(async () => {
      const found = (await eventsOf(to)).map((event) => event.name);
      return found.includes('email.delivered') ? found : undefined;
    });
    expect(names).toEqual(expect.arrayContaining(['email.sent', 'email.delivered']));
    expect(names).not.toContain('email.bounced');
  });

  it('bounce@ ends BOUNCED (Permanent, General) and suppressed', async () => {
    const to = address('bounce');
    const emailId = await send(to);
    await settledAs(emailId, 'BOUNCED');
    const bounced = await until(async () => (await eventsOf(to)).find((event) => event.name === 'email.bounced'));
    expect(bounced.data).toMatchObject({ bounceType: 'Permanent', bounceSubType: 'General' });
    expect((await eventsOf(to)).map((event) => event.name)).not.toContain('email.delivered');
    expect(await until(async () => ((await suppressed()).includes(to) ? true : undefined))).toBe(true);
  });

  it('suppressionlist@ ends BOUNCED as on the account-level suppression list, and suppressed', async () => {
    const to = address('suppressionlist');
    const emailId = await send(to);
    await settledAs(emailId, 'BOUNCED');
    const bounced = await until(async () => (await eventsOf(to)).find((event) => event.name === 'email.bounced'));
    expect(bounced.data).toMatchObject({ bounceType: 'Permanent', bounceSubType: 'OnAccountSuppressionList' });
    expect(await until(async () => ((await suppressed()).includes(to) ? true : undefined))).toBe(true);
  });

  it('complaint@ is delivered, then COMPLAINED and suppressed', async () => {
    const to = address('complaint');
    const emailId = await send(to);
    await settledAs(emailId, 'COMPLAINED');
    const names = await until(async () => {
      const found = (await eventsOf(to)).map((event) => event.name);
      return found.includes('email.complained') && found.includes('email.delivered') ? found : undefined;
    });
    expect(names).toEqual(expect.arrayContaining(['email.sent', 'email.delivered', 'email.complained']));
    expect(await until(async () => ((await suppressed()).includes(to) ? true : undefined))).toBe(true);
  });

  it('ooto@ is DELIVERED and answers the sender with an out-of-office reply', async () => {
    const to = address('ooto');
    const emailId = await send(to);
    await settledAs(emailId, 'DELIVERED');
    const reply = await until(async () => (await storedEmails()).find((mail) => mail.subject === `Out of the office: Simulator ${to}`), 15_000);
    expect(reply).toMatchObject({ destination: { to: [FROM] } });
    expect(reply.from).toContain(to);
    expect((await suppressed()).includes(to)).toBe(false);
  });
});
