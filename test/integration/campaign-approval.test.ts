import { jest } from '@jest/globals';
import { admin, api, stack, uniqueEmail, until } from '../support/api-client';
import { storedEmails } from '../support/mail-viewer';

/**
 * Four-eyes approval of campaigns (issue 26 item 4) and the estimated cost before sending
 * (item 5), black-box against the local stack, in a project of its own (the setting is
 * project-wide): owners and a member made with the admin CLI, their sessions through the session
 * routes as the browser calls them.
 */
jest.setTimeout(180_000);

const suffix = Math.random().toString(36).slice(2, 8);
const domain = `approval-${suffix}.test`;
const password = 'correct horse battery staple';
const browser = { Origin: new URL(stack.baseUrl).origin, 'X-Mailwright-Request': '1' };
const readers = [0, 1, 2].map((index) => `approval-reader${index}-${suffix}@example.com`);

interface Person {
  email: string;
  userId: string;
  token: string;
}

let key: string;
let first: Person;
let second: Person;
let member: Person;

async function signIn(email: string): Promise<Person> {
  const response = await api('POST', '/dashboard/session', { key: null, body: { email, password }, headers: browser });
  expect(response.status).toBe(200);
  return { email, userId: response.body.data.user.id, token: response.body.data.accessToken };
}

async function createCampaign(as: string, subject: string) {
  const response = await api('POST', '/campaigns', { key: as, body: { name: `Approval ${subject}`, subject, body: '<p>Hello</p>', from: { email: `news@${domain}` } } });
  expect(response.status).toBe(201);
  return response.body.data as { id: string; approval: Record<string, unknown> };
}

const audit = async () => (await api('GET', '/audit?limit=100', { key })).body.data.items as { action: string; actor: Record<string, string>; target: string | null; detail: Record<string, string> }[];

beforeAll(async () => {
  const project = await admin<{ projectId: string; secretKey: string }>('create-project', '--name', `approval-${suffix}`);
  key = project.secretKey;
  const emails = { first: uniqueEmail('approval-owner1'), second: uniqueEmail('approval-owner2'), member: uniqueEmail('approval-member') };
  await admin('create-user', '--email', emails.first, '--project', project.projectId, '--role', 'OWNER', '--password', password);
  await admin('create-user', '--email', emails.second, '--project', project.projectId, '--role', 'OWNER', '--password', password);
  await admin('create-user', '--email', emails.member, '--project', project.projectId, '--role', 'MEMBER', '--password', password);
  [first, second, member] = await Promise.all([signIn(emails.first), signIn(emails.second), signIn(emails.member)]);
  expect((await api('POST', '/domains', { key, body: { domain } })).status).toBe(201);
  await admin('verify-domain', '--domain', domain);
  await until(async () => (await api('GET', '/domains', { key })).body.data.items.find((item: { domain: string; status: string }) => item.domain === domain && item.status === 'VERIFIED'));
  for (const email of readers) expect((await api('POST', '/contacts', { key, body: { email, subscribed: true } })).status).toBe(201);
});

describe('four-eyes approval of campaigns', () => {
  it('is a project setting only owners change (PATCH /project), recorded in the audit trail', async () => {
    // Act
    const byMember = await api('PATCH', '/project', { key: member.token, body: { requireCampaignApproval: true } });
    const invalid = await api('PATCH', '/project', { key: first.token, body: { requireCampaignApproval: 'yes' } });
    const byOwner = await api('PATCH', '/project', { key: first.token, body: { requireCampaignApproval: true } });
    const read = await api('GET', '/project', { key: member.token });

    // Assess
    expect(byMember.status).toBe(403);
    expect(invalid.status).toBe(422);
    expect(byOwner.status).toBe(200);
    expect(byOwner.body.data.requireCampaignApproval).toBe(true);
    expect(read.body.data.requireCampaignApproval).toBe(true);
    expect(await audit()).toContainEqual(expect.objectContaining({ action: 'project.settings_changed', actor: { type: 'user', userId: first.userId }, detail: { requireCampaignApproval: 'true' } }));
  });

  it('refuses to send or schedule an unapproved campaign (409 APPROVAL_REQUIRED), recording the request', async () => {
    // Prepare
    const campaign = await createCampaign(first.token, `Unapproved ${suffix}`);

    // Act
    const send = await api('POST', `/campaigns/${campaign.id}/send`, { key: first.token });
    const schedule = await api('POST', `/campaigns/${campaign.id}/send`, { key, body: { scheduledFor: new Date(Date.now() + 3_600_000).toISOString() } });
    const after = await api('GET', `/campaigns/${campaign.id}`, { key });

    // Assess
    expect(campaign.approval).toEqual({ required: true, approved: false, approvedBy: null, approvedAt: null, lastEditedBy: { type: 'user', userId: first.userId } });
    expect(send.status).toBe(409);
    expect(send.body.error.code).toBe('APPROVAL_REQUIRED');
    expect(schedule.status).toBe(409);
    expect(schedule.body.error.code).toBe('APPROVAL_REQUIRED');
    expect(after.body.data.status).toBe('DRAFT');
    const requests = (await audit()).filter((entry) => entry.action === 'campaign.approval_requested' && entry.target === campaign.id);
    expect(requests.map((entry) => [entry.actor.type, entry.detail.attempted])).toEqual(expect.arrayContaining([['user', 'send'], ['key', 'schedule']]));
  });

  it('is approved by a second owner through the session routes, not by the last editor, a member or an API key', async () => {
    // Prepare
    const campaign = await createCampaign(first.token, `Approve ${suffix}`);

    // Act
    const byKey = await api('POST', `/campaigns/${campaign.id}/approve`, { key });
    const byEditor = await api('POST', `/campaigns/${campaign.id}/approve`, { key: first.token });
    const byMember = await api('POST', `/campaigns/${campaign.id}/approve`, { key: member.token });
    const bySecond = await api('POST', `/campaigns/${campaign.id}/approve`, { key: second.token });
    const again = await api('POST', `/campaigns/${campaign.id}/approve`, { key: second.token });
    const read = await api('GET', `/campaigns/${campaign.id}`, { key });

    // Assess
    expect(byKey.status).toBe(403);
    expect(byKey.body.error.code).toBe('APPROVAL_NEEDS_OWNER');
    expect(byEditor.status).toBe(403);
    expect(byEditor.body.error.code).toBe('OWN_CHANGES');
    expect(byMember.status).toBe(403);
    expect(bySecond.status).toBe(200);
    expect(bySecond.body.data.approval).toMatchObject({ required: true, approved: true, approvedBy: { type: 'user', userId: second.userId }, lastEditedBy: { type: 'user', userId: first.userId } });
    expect(again.status).toBe(200);
    expect(again.body.data.approval.approvedAt).toBe(bySecond.body.data.approval.approvedAt);
    expect(read.body.data.approval).toEqual(bySecond.body.data.approval);
    expect(await audit()).toContainEqual(expect.objectContaining({ action: 'campaign.approved', actor: { type: 'user', userId: second.userId }, target: campaign.id }));
  });

  it('is cleared by a change of content or audience (an API key edits: it is the last editor), not by a rename', async () => {
    // Prepare
    const campaign = await createCampaign(first.token, `Edit ${suffix}`);
    expect((await api('POST', `/campaigns/${campaign.id}/approve`, { key: second.token })).status).toBe(200);

    // Act
    const renamed = await api('PATCH', `/campaigns/${campaign.id}`, { key, body: { name: `Renamed ${suffix}` } });
    const edited = await api('PATCH', `/campaigns/${campaign.id}`, { key, body: { subject: `Edited ${suffix}` } });
    const send = await api('POST', `/campaigns/${campaign.id}/send`, { key });
    const reapproved = await api('POST', `/campaigns/${campaign.id}/approve`, { key: first.token });

    // Assess
    expect(renamed.body.data.approval.approved).toBe(true);
    expect(edited.status).toBe(200);
    expect(edited.body.data.approval).toMatchObject({ approved: false, approvedBy: null, approvedAt: null, lastEditedBy: { type: 'key' } });
    expect(typeof edited.body.data.approval.lastEditedBy.keyId).toBe('string');
    expect(send.status).toBe(409);
    expect(send.body.error.code).toBe('APPROVAL_REQUIRED');
    expect(reapproved.status).toBe(200);
    expect(reapproved.body.data.approval.approvedBy).toEqual({ type: 'user', userId: first.userId });
  });

  it('sends once approved, recording who sent it and who approved it; the audience shows the estimated cost first', async () => {
    // Prepare
    const subject = `Approved send ${suffix}`;
    const campaign = await createCampaign(first.token, subject);
    expect((await api('POST', `/campaigns/${campaign.id}/approve`, { key: second.token })).status).toBe(200);

    // Act
    const audience = await api('GET', `/campaigns/${campaign.id}/audience`, { key: first.token });
    const send = await api('POST', `/campaigns/${campaign.id}/send`, { key: first.token });
    const sent = await until(async () => {
      const { body } = await api('GET', `/campaigns/${campaign.id}`, { key });
      return body.data.status === 'SENT' ? body.data : undefined;
    }, 90_000);
    const mails = (await storedEmails()).filter((mail) => mail.subject === subject);

    // Assess
    expect(audience.status).toBe(200);
    expect(audience.body.data.recipients).toBe(3);
    expect(audience.body.data.estimatedCost).toMatchObject({ ses: 0.0003, currency: 'USD' });
    expect(audience.body.data.estimatedCost.aws).toBeGreaterThan(0);
    expect(audience.body.data.estimatedCost.total).toBeCloseTo(audience.body.data.estimatedCost.ses + audience.body.data.estimatedCost.aws, 6);
    expect(send.status).toBe(200);
    expect(sent.totalRecipients).toBe(3);
    expect(mails.flatMap((mail) => mail.destination.to).sort()).toEqual([...readers].sort());
    expect(await audit()).toContainEqual(
      expect.objectContaining({ action: 'campaign.send_started', actor: { type: 'user', userId: first.userId }, target: campaign.id, detail: expect.objectContaining({ approvedBy: second.userId }) }),
    );
  });

  it('does not start a scheduled campaign whose approval an edit cleared: back to DRAFT with failureReason APPROVAL_REQUIRED, nothing sent', async () => {
    // Prepare
    const subject = `Scheduled edit ${suffix}`;
    const campaign = await createCampaign(first.token, subject);
    expect((await api('POST', `/campaigns/${campaign.id}/approve`, { key: second.token })).status).toBe(200);
    const scheduled = await api('POST', `/campaigns/${campaign.id}/send`, { key: second.token, body: { scheduledFor: new Date(Date.now() + 20_000).toISOString() } });

    // Act
    const edited = await api('PATCH', `/campaigns/${campaign.id}`, { key: first.token, body: { subject: `${subject} changed` } });
    const back = await until(async () => {
      const { body } = await api('GET', `/campaigns/${campaign.id}`, { key });
      return body.data.status === 'DRAFT' ? body.data : undefined;
    }, 90_000);
    const mails = (await storedEmails()).filter((mail) => mail.subject.startsWith(subject));

    // Assess
    expect(scheduled.status).toBe(200);
    expect(scheduled.body.data.status).toBe('SCHEDULED');
    expect(edited.body.data.status).toBe('SCHEDULED');
    expect(edited.body.data.approval.approved).toBe(false);
    expect(back.failureReason).toBe('APPROVAL_REQUIRED');
    expect(mails).toEqual([]);
    expect(await audit()).toContainEqual(expect.objectContaining({ action: 'campaign.scheduled', actor: { type: 'user', userId: second.userId }, target: campaign.id }));
  });
});
