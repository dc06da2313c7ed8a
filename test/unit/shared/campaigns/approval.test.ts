import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { approveCampaign, assertApproved, editFields } from '../../../../shared/campaigns/approval';
import type { StoredCampaign } from '../../../../shared/campaigns/store';
import type { Caller } from '../../../../shared/http/handler';
import { C, campaignKey, P, startedCampaignItem } from '../../../support/campaign-fixtures';

const ddb = mockClient(DynamoDBDocumentClient);
const projectKey = { PK: `PROJECT#${P}`, SK: 'PROJECT' };

const ada: Caller = { kind: 'session', userId: 'U-ADA', role: 'OWNER', sessionId: 'S1' };
const bob: Caller = { kind: 'session', userId: 'U-BOB', role: 'OWNER', sessionId: 'S2' };
const apiKey: Caller = { kind: 'key', keyId: 'K1', keyKind: 'secret' };

const draft = startedCampaignItem({ status: 'DRAFT', sentAt: null, totalRecipients: 0, version: 4, lastEditedBy: { type: 'user', userId: 'U-ADA' } });

/** The audit entries written (each a Put of an AUDIT# item in a transaction with its counter). */
const auditPuts = () =>
  ddb
    .commandCalls(TransactWriteCommand)
    .flatMap((call) => call.args[0].input.TransactItems!)
    .map((item) => item.Put?.Item)
    .filter((item): item is Record<string, unknown> => typeof item?.SK === 'string' && (item.SK as string).startsWith('AUDIT#'));

beforeEach(() => {
  ddb.reset();
});

describe('approveCampaign', () => {
  it('refuses an API key before reading anything (403 APPROVAL_NEEDS_OWNER)', async () => {
    // Act
    const approving = approveCampaign(P, C, apiKey);

    // Assess
    await expect(approving).rejects.toMatchObject({ statusCode: 403, code: 'APPROVAL_NEEDS_OWNER' });
    expect(ddb.calls()).toHaveLength(0);
  });

  it('refuses the owner who made the last change (403 OWN_CHANGES) and writes nothing', async () => {
    // Prepare
    ddb.on(GetCommand, { Key: campaignKey }).resolves({ Item: draft });

    // Act
    const approving = approveCampaign(P, C, ada);

    // Assess
    await expect(approving).rejects.toMatchObject({ statusCode: 403, code: 'OWN_CHANGES' });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('records another owner\'s approval conditioned on the version read, in one transaction with its audit entry', async () => {
    // Prepare
    ddb.on(GetCommand, { Key: campaignKey }).resolves({ Item: draft });
    ddb.on(TransactWriteCommand).resolves({});

    // Act
    const approved = await approveCampaign(P, C, bob);

    // Assess
    expect(approved).toMatchObject({ approvedBy: { type: 'user', userId: 'U-BOB' }, approvedAt: expect.any(String), version: 5 });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(1);
    const [write] = ddb.commandCalls(TransactWriteCommand).map((call) => call.args[0].input.TransactItems!);
    const update = write![0]!.Update!;
    expect(update.ConditionExpression).toMatch(/= :from AND #version = :version$/);
    expect(update.ExpressionAttributeValues).toMatchObject({ ':from': 'DRAFT', ':version': 4 });
    expect(Object.values(update.ExpressionAttributeValues!)).toContainEqual({ type: 'user', userId: 'U-BOB' });
    expect(auditPuts()).toEqual([expect.objectContaining({ action: 'campaign.approved', actor: { type: 'user', userId: 'U-BOB' }, target: C, detail: { name: 'November', lastEditedBy: 'U-ADA' } })]);
  });

  it('answers 409 CONCURRENT_MODIFICATION and records nothing when the campaign changed since it was read', async () => {
    // Prepare
    ddb.on(GetCommand, { Key: campaignKey }).resolves({ Item: draft });
    ddb.on(TransactWriteCommand).rejects(new TransactionCanceledException({ message: 'cancelled', $metadata: {}, CancellationReasons: [{ Code: 'ConditionalCheckFailed' }] }));

    // Act
    const approving = approveCampaign(P, C, bob);

    // Assess
    await expect(approving).rejects.toMatchObject({ statusCode: 409, code: 'CONCURRENT_MODIFICATION' });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(1);
  });

  it('changes nothing on an approved campaign', async () => {
    // Prepare
    ddb.on(GetCommand, { Key: campaignKey }).resolves({ Item: { ...draft, approvedBy: { type: 'user', userId: 'U-BOB' }, approvedAt: '2026-11-23T08:30:00.000Z' } });

    // Act
    const approved = await approveCampaign(P, C, bob);

    // Assess
    expect(approved.approvedAt).toBe('2026-11-23T08:30:00.000Z');
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('refuses a campaign that is already sending (409 INVALID_CAMPAIGN_STATE)', async () => {
    // Prepare
    ddb.on(GetCommand, { Key: campaignKey }).resolves({ Item: { ...draft, status: 'SENDING' } });

    // Act
    const approving = approveCampaign(P, C, bob);

    // Assess
    await expect(approving).rejects.toMatchObject({ statusCode: 409, code: 'INVALID_CAMPAIGN_STATE' });
  });
});

describe('editFields', () => {
  it('keeps the approval on a rename and clears it, naming the editor, on a change of content or audience', () => {
    // Act
    const rename = editFields(apiKey, { name: 'December', description: null });
    const content = editFields(apiKey, { subject: 'New subject' });
    const audience = editFields(ada, { segmentId: null });

    // Assess
    expect(rename).toEqual({});
    expect(content).toEqual({ lastEditedBy: { type: 'key', keyId: 'K1' }, approvedBy: null, approvedAt: null });
    expect(audience).toEqual({ lastEditedBy: { type: 'user', userId: 'U-ADA' }, approvedBy: null, approvedAt: null });
  });
});

describe('assertApproved', () => {
  it('refuses an unapproved campaign when the project requires approval (409 APPROVAL_REQUIRED), recording the request', async () => {
    // Prepare
    ddb.on(GetCommand, { Key: projectKey }).resolves({ Item: { ...projectKey, projectId: P, name: 'Acme', status: 'ACTIVE', createdAt: '2026-11-01T00:00:00.000Z', requireCampaignApproval: true } });
    ddb.on(TransactWriteCommand).resolves({});

    // Act
    const checking = assertApproved(P, draft as unknown as StoredCampaign, apiKey, 'schedule');

    // Assess
    await expect(checking).rejects.toMatchObject({ statusCode: 409, code: 'APPROVAL_REQUIRED' });
    expect(auditPuts()).toEqual([expect.objectContaining({ action: 'campaign.approval_requested', actor: { type: 'key', keyId: 'K1' }, target: C, detail: { name: 'November', attempted: 'schedule' } })]);
  });

  it('lets an approved campaign, or any campaign of a project without the setting, through', async () => {
    // Prepare
    ddb.on(GetCommand, { Key: projectKey }).resolvesOnce({ Item: { ...projectKey, requireCampaignApproval: true } }).resolvesOnce({ Item: { ...projectKey } });
    const approved = { ...draft, approvedAt: '2026-11-23T08:30:00.000Z' } as unknown as StoredCampaign;

    // Act
    const required = await assertApproved(P, approved, ada, 'send');
    const notRequired = await assertApproved(P, draft as unknown as StoredCampaign, ada, 'send');

    // Assess
    expect(required).toBe(true);
    expect(notRequired).toBe(false);
    expect(auditPuts()).toEqual([]);
  });
});
