import { readFileSync } from 'node:fs';
import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { applySesEvent, interpret, type SesEvent } from '../../../shared/deliverability/ses-events';

const fixture = (name: string): SesEvent => JSON.parse(readFileSync(`test/fixtures/ses-events/${name}.json`, 'utf8'));
const ddb = mockClient(DynamoDBDocumentClient);

const PROJECT = '01JPROJECT0000000000000000';
const EMAIL = '01JEMAIL00000000000000000A';
const CONTACT = '01JD0000000000000000000000';
const emailRecord = {
  PK: `PROJECT#${PROJECT}`,
  SK: `EMAIL#${EMAIL}`,
  id: EMAIL,
  projectId: PROJECT,
  contactId: CONTACT,
  to: { email: 'jane@example.org' },
  source: { type: 'transactional' },
  status: 'SENT',
};
const contactItem = { contactId: CONTACT, email: 'jane@example.org', subscribed: true, data: {}, createdAt: 'c', updatedAt: 'u' };

/** The email status update, if any, and the recording transaction's items. */
const statusUpdates = () => ddb.commandCalls(UpdateCommand).map((call) => call.args[0].input).filter((input) => input.Key?.SK === `EMAIL#${EMAIL}`);
const recorded = () => ddb.commandCalls(TransactWriteCommand).map((call) => call.args[0].input.TransactItems!).find((items) => items.some((item) => item.Put?.Item?.SK?.startsWith('SES_EVENT#')));

describe('interpret: what each SES event means', () => {
  it.each([
    ['send', 'email.sent', 'SENT', 'sent', undefined],
    ['delivery', 'email.delivered', 'DELIVERED', 'delivered', undefined],
    ['bounce-permanent', 'email.bounced', 'BOUNCED', 'bounced', 'BOUNCE'],
    ['bounce-transient', 'email.bounced', undefined, 'bounced', undefined],
    ['complaint', 'email.complained', 'COMPLAINED', 'complained', 'COMPLAINT'],
    ['reject', 'email.rejected', 'FAILED', 'rejected', undefined],
    ['rendering-failure', 'email.failed', 'FAILED', 'failed', undefined],
    ['delivery-delay', 'email.delayed', undefined, 'delayed', undefined],
    ['open', 'email.opened', undefined, 'opened', undefined],
    ['click', 'email.clicked', undefined, 'clicked', undefined],
  ])('%s → %s', (name, eventName, status, metric, suppress) => {
    const outcome = interpret(fixture(name).detail)!;

    expect(outcome.name).toBe(eventName);
    expect(outcome.status).toBe(status);
    expect(outcome.metric).toBe(metric);
    expect(outcome.suppress).toBe(suppress);
  });

  it('keeps what each event carries: bounce type, the clicked link', () => {
    expect(interpret(fixture('bounce-permanent').detail)!.data).toMatchObject({ bounceType: 'Permanent', bounceSubType: 'General', diagnosticCode: 'smtp; 550 5.1.1 user unknown' });
    expect(interpret(fixture('click').detail)!.data).toMatchObject({ link: 'https://example.com/pricing' });
  });
});

describe('applySesEvent', () => {
  beforeEach(() => {
    ddb.reset();
    ddb.on(GetCommand, { Key: { PK: `PROJECT#${PROJECT}`, SK: `EMAIL#${EMAIL}` } }).resolves({ Item: emailRecord });
    ddb.on(GetCommand, { Key: { PK: `PROJECT#${PROJECT}`, SK: `CONTACT#${CONTACT}` } }).resolves({ Item: contactItem });
    ddb.on(UpdateCommand).resolves({});
    ddb.on(TransactWriteCommand).resolves({});
  });

  it('moves a delivery forward and records email.delivered with the source counter and a replay marker', async () => {
    // Act
    await applySesEvent(fixture('delivery'));

    // Assess
    expect(statusUpdates()[0]).toMatchObject({
      ConditionExpression: '#status IN (:from0, :from1)',
      ExpressionAttributeValues: expect.objectContaining({ ':status': 'DELIVERED', ':from0': 'SENDING', ':from1': 'SENT', ':f0': '2026-11-22T10:00:02.000Z' }),
    });
    const items = recorded()!;
    expect(items[0]!.Put).toMatchObject({ Item: { PK: `PROJECT#${PROJECT}`, SK: `SES_EVENT#${fixture('delivery').id}` }, ConditionExpression: 'attribute_not_exists(PK)' });
    expect(items[1]!.Put!.Item).toMatchObject({ name: 'email.delivered', contactId: CONTACT, emailId: EMAIL, createdAt: '2026-11-22T10:00:02.000Z' });
    expect(items).toHaveLength(2);
    const counters = ddb.commandCalls(UpdateCommand).map((call) => call.args[0].input).filter((input) => input.Key?.SK !== `EMAIL#${EMAIL}`);
    expect(counters).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ Key: { PK: `PROJECT#${PROJECT}`, SK: 'STATS#transactional' }, UpdateExpression: 'ADD #a0 :a0', ExpressionAttributeNames: { '#a0': 'delivered' }, ExpressionAttributeValues: { ':a0': 1 } }),
        expect.objectContaining({ Key: { PK: `PROJECT#${PROJECT}`, SK: 'EVENT_NAME#email.delivered' } }),
        expect.objectContaining({ Key: { PK: `PROJECT#${PROJECT}`, SK: 'COUNTER#EVENTS' } }),
      ]),
    );
  });

  it('suppresses the address and unsubscribes the contact on a permanent bounce', async () => {
    await applySesEvent(fixture('bounce-permanent'));

    expect(statusUpdates()[0]!.ExpressionAttributeValues).toMatchObject({ ':status': 'BOUNCED', ':from2': 'DELIVERED' });
    const contactWrite = ddb.commandCalls(TransactWriteCommand).map((call) => call.args[0].input.TransactItems!).find((items) => items[0]!.Put?.Item?.SK === `CONTACT#${CONTACT}`);
    expect(contactWrite![0]!.Put!.Item).toMatchObject({ subscribed: false });
    expect(recorded()!.at(-1)!.Update).toMatchObject({ Key: { PK: `PROJECT#${PROJECT}`, SK: 'SUPPRESSED#jane@example.org' }, ExpressionAttributeValues: expect.objectContaining({ ':reason': 'BOUNCE' }) });
  });

  it('does not suppress on a transient bounce', async () => {
    await applySesEvent(fixture('bounce-transient'));

    expect(statusUpdates()).toHaveLength(0);
    expect(JSON.stringify(recorded())).not.toContain('SUPPRESSED#');
  });

  it('records a late delivery as an event but never moves a bounced email back', async () => {
    ddb.on(UpdateCommand, { Key: { PK: `PROJECT#${PROJECT}`, SK: `EMAIL#${EMAIL}` } }).rejects(new ConditionalCheckFailedException({ message: 'failed', $metadata: {} }));

    await applySesEvent(fixture('delivery'));

    expect(recorded()![1]!.Put!.Item).toMatchObject({ name: 'email.delivered' });
  });

  it('changes nothing the second time the same event is applied', async () => {
    ddb.on(TransactWriteCommand).rejects(new TransactionCanceledException({ message: 'cancelled', $metadata: {}, CancellationReasons: [{ Code: 'ConditionalCheckFailed' }, { Code: 'None' }] }));

    await expect(applySesEvent(fixture('open'))).resolves.toBeUndefined();
  });

  it('logs and drops an event for an unknown message instead of retrying forever', async () => {
    const event = fixture('delivery');
    event.detail.mail.tags = { 'ses:configuration-set': ['mailwright'] };

    await expect(applySesEvent(event)).resolves.toBeUndefined();
    expect(ddb.calls()).toHaveLength(0);
  });

  it('drops an event whose email record is gone', async () => {
    ddb.on(GetCommand, { Key: { PK: `PROJECT#${PROJECT}`, SK: `EMAIL#${EMAIL}` } }).resolves({});

    await applySesEvent(fixture('click'));

    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('lets the Send event repair only a record the sender could not finish', async () => {
    ddb.on(UpdateCommand).rejects(new ConditionalCheckFailedException({ message: 'already SENT', $metadata: {} }));
    await applySesEvent(fixture('send'));
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);

    ddb.on(UpdateCommand).resolves({});
    await applySesEvent(fixture('send'));
    expect(recorded()![1]!.Put!.Item).toMatchObject({ name: 'email.sent' });
  });

  it('throws (so EventBridge retries) when DynamoDB fails', async () => {
    ddb.on(TransactWriteCommand).rejects(new Error('service unavailable'));

    await expect(applySesEvent(fixture('open'))).rejects.toThrow('service unavailable');
  });
});

