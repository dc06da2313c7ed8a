import { CreateScheduleCommand, DeleteScheduleCommand, SchedulerClient } from '@aws-sdk/client-scheduler';
import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { BatchGetCommand, type BatchGetCommandInput, DynamoDBDocumentClient, GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { allMoments, momentKey, wallClock } from '../../../../shared/campaigns/local-time';
import { sendAtLocalTime, stopPendingZones } from '../../../../shared/campaigns/local-time-send';
import { toItem as contactItem } from '../../../../shared/contacts/contacts';
import { ApiError } from '../../../../shared/http/errors';
import { C, campaignKey, P, startedCampaignItem } from '../../../support/campaign-fixtures';

const ddb = mockClient(DynamoDBDocumentClient);
const scheduler = mockClient(SchedulerClient);
const sqs = mockClient(SQSClient);

const NOW = Date.parse('2026-11-30T12:00:00Z');
const draft = startedCampaignItem({ status: 'DRAFT', sentAt: null, totalRecipients: 0, version: 1, from: { email: 'news@acme.test' } });
const reader = contactItem(P, { id: '01HZY3K8Q2V9J6M4T7W5X0C001', email: 'reader@example.com', subscribed: true, data: {}, createdAt: '2026-11-23T08:00:00.000Z', updatedAt: '2026-11-23T08:00:00.000Z' });

/** The campaign as stored, its project (approval not required unless said), the sender domain verified, one subscribed contact, nobody suppressed. */
function given(campaign: Record<string, unknown>, { requireCampaignApproval = false } = {}) {
  ddb.on(GetCommand, { Key: campaignKey }).resolves({ Item: campaign });
  ddb.on(GetCommand, { Key: { PK: `PROJECT#${P}`, SK: 'PROJECT' } }).resolves({ Item: { projectId: P, name: 'Acme', status: 'ACTIVE', createdAt: '2026-11-01T00:00:00.000Z', requireCampaignApproval } });
  ddb.on(BatchGetCommand).callsFake(async (input: BatchGetCommandInput) => {
    const keys = Object.values(input.RequestItems!)[0]!.Keys!;
    const domains = keys.filter((key) => String(key.SK).startsWith('DOMAIN#'));
    return { Responses: { 'mailwright-test': domains.map((key) => ({ ...key, domainId: 'D1', domain: 'acme.test', status: 'VERIFIED', createdAt: '2026-11-01T00:00:00.000Z' })) } };
  });
  ddb.on(QueryCommand).resolves({ Items: [reader] });
  ddb.on(TransactWriteCommand).resolves({});
  scheduler.on(CreateScheduleCommand).resolves({});
  scheduler.on(DeleteScheduleCommand).resolves({});
  sqs.on(SendMessageBatchCommand).resolves({ Failed: [] });
}

const created = () => scheduler.commandCalls(CreateScheduleCommand).map((call) => call.args[0].input);
const campaignUpdate = () => ddb.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!.find((item) => item.Update?.Key?.SK === campaignKey.SK)!.Update!;

async function refusal(promise: Promise<unknown>): Promise<{ status: number; code: string }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return { status: error.statusCode, code: error.errors?.[0]?.code ?? error.code };
    throw error;
  }
  throw new Error('not refused');
}

beforeEach(() => {
  ddb.reset();
  scheduler.reset();
  sqs.reset();
});

describe('sendAtLocalTime', () => {
  it('schedules a campaign whose first moment is ahead: the campaign\'s own schedule starts it, one schedule per other distinct moment', async () => {
    // Prepare
    given(draft);
    const moments = allMoments(wallClock('2026-12-01T09:00'));

    // Act
    const campaign = await sendAtLocalTime(P, C, { localTime: '2026-12-01T09:00' }, undefined, NOW);

    // Assess
    expect(campaign).toMatchObject({ status: 'SCHEDULED', scheduledFor: '2026-11-30T19:00:00.000Z', delivery: { mode: 'LOCAL_TIME', localTime: '2026-12-01T09:00', timeZoneField: 'data.timezone', fallbackTimeZone: 'UTC', zones: [] } });
    const schedules = created();
    expect(schedules).toHaveLength(moments.length);
    expect(new Set(schedules.map((input) => input.Name)).size).toBe(moments.length);
    const start = schedules.find((input) => input.Name === `campaign-${C}`)!;
    expect(start.ScheduleExpression).toBe('at(2026-11-30T19:00:00)');
    const startMessage = JSON.parse(start.Target!.Input!);
    expect(startMessage).toMatchObject({ kind: 'start', projectId: P, campaignId: C });
    const last = schedules.find((input) => input.Name === `campaign-${C}-${momentKey(Date.parse('2026-12-01T21:00:00Z'))}`)!;
    expect(JSON.parse(last.Target!.Input!)).toEqual({ kind: 'zone', projectId: P, campaignId: C, planId: startMessage.scheduleId, moment: momentKey(Date.parse('2026-12-01T21:00:00Z')) });
    const stored = Object.entries(campaignUpdate().ExpressionAttributeNames!).find(([, name]) => name === 'delivery')![0];
    expect(campaignUpdate().ExpressionAttributeValues![`:${stored.slice(1)}`]).toMatchObject({ planId: startMessage.scheduleId, moments, released: {}, zones: {} });
  });

  it('sends at once when the first zones\' moment has passed: those moments released, the later ones scheduled, the fan-out queued', async () => {
    // Prepare: 09:00 on 1 December has passed in UTC+14 … UTC+10 at 23:30 UTC on 30 November
    given(draft);
    const now = Date.parse('2026-11-30T23:30:00Z');

    // Act
    const campaign = await sendAtLocalTime(P, C, { localTime: '2026-12-01T09:00', fallbackTimeZone: 'Europe/Berlin' }, undefined, now);

    // Assess
    expect(campaign.status).toBe('SENDING');
    expect(created().every((input) => Date.parse(`${input.ScheduleExpression!.slice(3, -1)}Z`) > now)).toBe(true);
    expect(created().map((input) => input.Name)).not.toContain(`campaign-${C}`);
    const values = Object.values(campaignUpdate().ExpressionAttributeValues!);
    const delivery = values.find((value) => (value as { mode?: string } | null)?.mode === 'LOCAL_TIME') as { released: Record<string, string>; fallbackTimeZone: string };
    expect(Object.keys(delivery.released)).toContain(momentKey(Date.parse('2026-11-30T19:00:00Z')));
    expect(Object.keys(delivery.released)).toContain(momentKey(Date.parse('2026-11-30T23:00:00Z')));
    expect(Object.keys(delivery.released)).not.toContain(momentKey(Date.parse('2026-12-01T09:00:00Z')));
    expect(delivery.fallbackTimeZone).toBe('Europe/Berlin');
    expect(JSON.parse(sqs.commandCalls(SendMessageBatchCommand)[0]!.args[0].input.Entries![0]!.MessageBody!)).toEqual({ kind: 'dispatch', projectId: P, campaignId: C });
  });

  it.each([
    ['with scheduledFor', {}, { localTime: '2026-12-01T09:00', scheduledFor: '2026-12-01T09:00:00Z' }, { status: 422, code: 'CONFLICTING_FIELDS' }],
    ['on a campaign with an A/B test', { abTest: { variants: [] } }, { localTime: '2026-12-01T09:00' }, { status: 422, code: 'LOCAL_TIME_WITH_AB_TEST' }],
    ['on a spread campaign', { spreadOverMinutes: 60 }, { localTime: '2026-12-01T09:00' }, { status: 422, code: 'LOCAL_TIME_WITH_SPREAD' }],
    ['on a PAUSED campaign', { status: 'PAUSED' }, { localTime: '2026-12-01T09:00' }, { status: 409, code: 'INVALID_CAMPAIGN_STATE' }],
    ['beyond 365 days', {}, { localTime: '2027-12-01T09:00' }, { status: 422, code: 'BEYOND_HORIZON' }],
  ])('refuses localTime %s, scheduling nothing', async (_case, campaign, input, expected) => {
    // Prepare
    given({ ...draft, ...campaign });

    // Act
    const refused = await refusal(sendAtLocalTime(P, C, input, undefined, NOW));

    // Assess
    expect(refused).toEqual(expected);
    expect(created()).toHaveLength(0);
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });
});

describe('sendAtLocalTime with four-eyes approval', () => {
  it('refuses an unapproved campaign with 409 APPROVAL_REQUIRED where the project requires approval, scheduling nothing', async () => {
    // Prepare
    given(draft, { requireCampaignApproval: true });

    // Act
    const refused = await refusal(sendAtLocalTime(P, C, { localTime: '2026-12-01T09:00' }, undefined, NOW));

    // Assess: the refusal is audited, the campaign untouched
    expect(refused).toEqual({ status: 409, code: 'APPROVAL_REQUIRED' });
    expect(created()).toHaveLength(0);
    const touched = ddb.commandCalls(TransactWriteCommand).flatMap((call) => call.args[0].input.TransactItems!.map((item) => item.Update?.Key?.SK ?? item.Put?.Item?.SK));
    expect(touched).not.toContain(campaignKey.SK);
  });

  it('schedules an approved campaign', async () => {
    // Prepare
    given({ ...draft, approvedAt: '2026-11-30T11:00:00.000Z', approvedBy: { type: 'user', userId: 'U2' } }, { requireCampaignApproval: true });

    // Act
    const campaign = await sendAtLocalTime(P, C, { localTime: '2026-12-01T09:00' }, undefined, NOW);

    // Assess
    expect(campaign.status).toBe('SCHEDULED');
  });
});

describe('stopPendingZones', () => {
  it('deletes the schedules of the moments not yet released and asks for their held mail at once', async () => {
    // Prepare
    given(draft);
    const moments = [momentKey(Date.parse('2026-11-30T19:00:00Z')), momentKey(Date.parse('2026-12-01T09:00:00Z')), momentKey(Date.parse('2026-12-01T21:00:00Z'))];
    const delivery = { mode: 'LOCAL_TIME' as const, localTime: '2026-12-01T09:00', timeZoneField: 'data.timezone', fallbackTimeZone: 'UTC', planId: 'PLAN1', moments, released: { [moments[0]!]: '2026-11-30T19:00:01.000Z' }, zones: {} };

    // Act
    await stopPendingZones(P, { id: C, delivery });

    // Assess
    expect(scheduler.commandCalls(DeleteScheduleCommand).map((call) => call.args[0].input.Name)).toEqual(moments.slice(1).map((moment) => `campaign-${C}-${moment}`));
    const messages = sqs.commandCalls(SendMessageBatchCommand).flatMap((call) => call.args[0].input.Entries!.map((entry) => JSON.parse(entry.MessageBody!)));
    expect(messages).toEqual(moments.slice(1).map((moment) => ({ kind: 'zone', projectId: P, campaignId: C, planId: 'PLAN1', moment })));
  });
});
