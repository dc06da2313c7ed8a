import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { DASHBOARD_MAIL_PROJECT } from '../../../../shared/accounts/mail';
import { contentOf } from '../../../../shared/emails/emails';
import { emailOwnersOfDisabledEndpoint } from '../../../../shared/webhooks/disabled-notice';
import { disabledEndpointNotice } from '../../../../shared/webhooks/events';
import type { StreamChange } from '../../../../shared/streams/handler';

const ddb = mockClient(DynamoDBDocumentClient);
const sqs = mockClient(SQSClient);
const P = 'P1';
const notification = {
  id: 'N1',
  type: 'webhook.disabled',
  createdAt: '2026-11-25T10:00:00.000Z',
  data: { id: '01JD000000000000000000WEB1', url: 'https://hooks.example.com/<b>in</b>', status: 'DISABLED', disabledReason: 'Every delivery failed for 1 day (since 2026-11-24T09:00:00.000Z); the last: HTTP 500' },
};
const member = (userId: string, role: string) => ({ PK: `PROJECT#${P}`, SK: `MEMBER#${userId}`, userId, projectId: P, email: `${userId.toLowerCase()}@example.com`, role, createdAt: '2026-01-01T00:00:00.000Z' });
const change = (fields: Partial<StreamChange>): StreamChange =>
  ({ eventName: 'INSERT', keys: { PK: `PROJECT#${P}`, SK: 'NOTIFICATION#N1' }, newImage: notification, sequenceNumber: '1', record: {}, ...fields }) as StreamChange;

beforeEach(() => {
  ddb.reset();
  sqs.reset();
  ddb.on(QueryCommand).resolves({ Items: [member('OWNER1', 'OWNER'), member('MEMBER1', 'MEMBER'), member('OWNER2', 'OWNER')] });
  ddb.on(GetCommand).resolves({ Item: { memberCount: 3 } });
  ddb.on(PutCommand).resolves({});
  sqs.on(SendMessageBatchCommand).resolves({ Successful: [], Failed: [] });
});

describe('disabledEndpointNotice', () => {
  it('picks out a new webhook.disabled notification and nothing else', () => {
    expect(disabledEndpointNotice(change({}))).toMatchObject({ id: 'N1', type: 'webhook.disabled' });
    expect(disabledEndpointNotice(change({ newImage: { ...notification, type: 'campaign.sent' } }))).toBeUndefined();
    expect(disabledEndpointNotice(change({ eventName: 'MODIFY' }))).toBeUndefined();
    expect(disabledEndpointNotice(change({ keys: { PK: `PROJECT#${P}`, SK: 'WEBHOOK#01JD000000000000000000WEB1' } }))).toBeUndefined();
  });
});

describe('emailOwnersOfDisabledEndpoint', () => {
  it("mails each owner (not the other members) the endpoint's address and why, escaped, with a link to the Webhooks page", async () => {
    // Act
    await emailOwnersOfDisabledEndpoint(P, notification);

    // Assess
    const items = ddb.commandCalls(PutCommand).map((call) => call.args[0].input.Item!);
    const records = items.filter((item) => item.PK === `PROJECT#${DASHBOARD_MAIL_PROJECT}` && String(item.SK).startsWith('EMAIL#'));
    expect(records.map((record) => record.to)).toEqual([{ email: 'owner1@example.com' }, { email: 'owner2@example.com' }]);
    // The mail's HTML is in its content item, written beside the record
    const contentItem = items.find((item) => item.SK === `EMAIL_CONTENT#${records[0]!.id}`);
    const html = contentOf(contentItem)!.html;
    expect(html).toContain('https://hooks.example.com/&lt;b&gt;in&lt;/b&gt;');
    expect(html).toContain('Every delivery failed for 1 day');
    expect(html).toContain('https://api.example.test/api/dashboard/webhooks');
    expect(sqs.commandCalls(SendMessageBatchCommand)).toHaveLength(2);
  });

  it('gives each mail an id derived from the notification and the owner, so a retried stream batch writes the same records', async () => {
    // Act
    await emailOwnersOfDisabledEndpoint(P, notification);
    await emailOwnersOfDisabledEndpoint(P, notification);

    // Assess: the same two ids both times, each written only if it does not exist yet
    const puts = ddb.commandCalls(PutCommand).map((call) => call.args[0].input).filter((input) => input.Item!.subject);
    const ids = puts.map((input) => input.Item!.id as string);
    expect(new Set(ids).size).toBe(2);
    expect(ids.slice(0, 2)).toEqual(ids.slice(2));
    expect(puts.every((input) => input.ConditionExpression === 'attribute_not_exists(PK)')).toBe(true);
  });
});
