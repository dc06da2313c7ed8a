import { readFileSync } from 'node:fs';
import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { decodeTime } from 'ulid';
import { interpret, sesEventApplier, type SesEvent } from '../../../../shared/delivery/ses-events';

const fixture = (name: string): SesEvent => JSON.parse(readFileSync(`test/fixtures/ses-events/${name}.json`, 'utf8'));
const ddb = mockClient(DynamoDBDocumentClient);
/** Transactional mail: no listener reacts (the campaign listener has its own tests). */
const applySesEvent = sesEventApplier([]);

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
/** The email's status update refused: the record is not where the move is forward from, and comes back as DynamoDB returns it. */
const notForwardFrom = (status: string) => new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {}, Item: marshall({ ...emailRecord, status }) });
const contactItem = { contactId: CONTACT, email: 'jane@example.org', subscribed: true, data: {}, createdAt: 'c', updatedAt: 'u' };

/** The email status updates, and the contact events written (by PutItem or in a transaction). */
const statusUpdates = () => ddb.commandCalls(UpdateCommand).map((call) => call.args[0].input).filter((input) => input.Key?.SK === `EMAIL#${EMAIL}`);
const transactions = () => ddb.commandCalls(TransactWriteCommand).map((call) => call.args[0].input.TransactItems!);
const eventPuts = () => [
  ...ddb.commandCalls(PutCommand).map((call) => call.args[0].input),
  ...transactions().flatMap((items) => items.map((item) => item.Put).filter((put) => put !== undefined)),
].filter((put) => String(put.Item?.SK).startsWith('EVENT#'));
/** Updates of anything but the email and the contact: counters, which transactional mail no longer writes (the table stream counts its events' tallies). */
const counterUpdates = () => ddb.commandCalls(UpdateCommand).map((call) => call.args[0].input).filter((input) => input.Key?.SK !== `EMAIL#${EMAIL}` && input.Key?.SK !== `CONTACT#${CONTACT}`);
/** Each event written, by name, with its tally (what shared/delivery/tallies.ts adds to the counters). */
const tallies = () => eventPuts().map((put) => [put.Item!.name, put.Item!.tally]);
/** The tally of an outcome's first event for transactional mail. */
const tally = (metrics: string[], daily: [metric: string, day: string][]) => ({ stats: { type: 'transactional', metrics }, daily: daily.map(([metric, day]) => ({ metric, day })) });

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
    ddb.on(UpdateCommand, { Key: { PK: `PROJECT#${PROJECT}`, SK: `EMAIL#${EMAIL}` } }).resolves({ Attributes: emailRecord });
    ddb.on(PutCommand).resolves({});
    ddb.on(TransactWriteCommand).resolves({});
  });

  it('moves a delivery forward and records email.delivered with one conditional PutItem that carries its tally, and writes no counter', async () => {
    // Act
    await applySesEvent(fixture('delivery'));

    // Assess
    expect(statusUpdates()).toEqual([
      expect.objectContaining({
        ConditionExpression: '#status IN (:from0)',
        ExpressionAttributeValues: expect.objectContaining({ ':status': 'DELIVERED', ':from0': 'SENT', ':f0': '2026-11-22T10:00:02.000Z' }),
        ReturnValues: 'ALL_OLD',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    ]);
    expect(ddb.commandCalls(GetCommand)).toHaveLength(0);
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
    const [put] = ddb.commandCalls(PutCommand).map((call) => call.args[0].input);
    expect(put).toMatchObject({ Item: { name: 'email.delivered', contactId: CONTACT, emailId: EMAIL, createdAt: '2026-11-22T10:00:02.000Z' }, ConditionExpression: 'attribute_not_exists(PK)' });
    expect(decodeTime(put!.Item!.eventId as string)).toBe(Date.parse('2026-11-22T10:00:02.000Z'));
    expect(put!.Item!.tally).toEqual(tally(['delivered'], [['delivered', '2026-11-22']]));
    expect(counterUpdates()).toEqual([]);
  });

  it('writes the same event item when the same SES event comes again, so the replay is refused and counts nothing', async () => {
    await applySesEvent(fixture('open'));
    const first = eventPuts()[0]!;
    ddb.reset();
    ddb.on(GetCommand, { Key: { PK: `PROJECT#${PROJECT}`, SK: `EMAIL#${EMAIL}` } }).resolves({ Item: emailRecord });
    ddb.on(PutCommand).rejects(new ConditionalCheckFailedException({ message: 'exists', $metadata: {} }));
    ddb.on(UpdateCommand).resolves({});

    await expect(applySesEvent(fixture('open'))).resolves.toBeUndefined();

    expect(ddb.commandCalls(PutCommand)[0]!.args[0].input).toEqual(first);
    expect(first.Item!.tally).toEqual(tally(['opened'], [['opened', '2026-11-22']]));
    expect(counterUpdates()).toHaveLength(0);
  });

  it('gives different SES events different event items', async () => {
    const other = { ...fixture('open'), id: 'another-eventbridge-id' };

    await applySesEvent(fixture('open'));
    await applySesEvent(other);

    const [a, b] = eventPuts().map((put) => put.Item!.SK);
    expect(a).not.toBe(b);
  });

  it('suppresses the address and unsubscribes the contact on a permanent bounce, the event and suppression in one transaction', async () => {
    await applySesEvent(fixture('bounce-permanent'));

    expect(statusUpdates()[0]!.ExpressionAttributeValues).toMatchObject({ ':status': 'BOUNCED', ':from0': 'SENT', ':from1': 'DELIVERED' });
    const contactWrite = transactions().find((items) => items[0]!.Put?.Item?.SK === `CONTACT#${CONTACT}`);
    expect(contactWrite![0]!.Put!.Item).toMatchObject({ subscribed: false });
    const recorded = transactions().find((items) => items.some((item) => String(item.Put?.Item?.SK).startsWith('EVENT#')))!;
    expect(recorded[0]!.Put!.Item).toMatchObject({ name: 'email.bounced' });
    expect(recorded.at(-1)!.Update).toMatchObject({ Key: { PK: `PROJECT#${PROJECT}`, SK: 'SUPPRESSED#jane@example.org' }, ExpressionAttributeValues: expect.objectContaining({ ':reason': 'BOUNCE' }) });
  });

  it('changes nothing the second time a permanent bounce is applied', async () => {
    ddb.on(TransactWriteCommand).callsFake((input: { TransactItems: { Put?: { Item?: { SK?: string } } }[] }) => {
      if (!input.TransactItems.some((item) => item.Put?.Item?.SK?.startsWith('EVENT#'))) return {};
      throw new TransactionCanceledException({ message: 'cancelled', $metadata: {}, CancellationReasons: [{ Code: 'ConditionalCheckFailed' }, { Code: 'None' }] });
    });

    await expect(applySesEvent(fixture('bounce-permanent'))).resolves.toBeUndefined();
    expect(counterUpdates()).toHaveLength(0);
  });

  it('does not suppress on a transient bounce', async () => {
    await applySesEvent(fixture('bounce-transient'));

    expect(statusUpdates()).toHaveLength(0);
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
    expect(eventPuts().map((put) => put.Item!.name)).toEqual(['email.bounced']);
  });

  it('records a late delivery as an event from the record its refused move returned, but never moves a bounced email back', async () => {
    ddb.on(UpdateCommand, { Key: { PK: `PROJECT#${PROJECT}`, SK: `EMAIL#${EMAIL}` } }).rejects(notForwardFrom('BOUNCED'));

    await applySesEvent(fixture('delivery'));

    expect(ddb.commandCalls(GetCommand)).toHaveLength(0);
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
    expect(eventPuts().map((put) => put.Item!.name)).toEqual(['email.delivered']);
  });

  it('moves an email the sender still holds together with email.sent and the delivery, in one transaction, when the delivery overtook the sender', async () => {
    // Prepare: the email is still SENDING, so the move from SENT (or later) is refused
    ddb.on(UpdateCommand, { Key: { PK: `PROJECT#${PROJECT}`, SK: `EMAIL#${EMAIL}` } }).rejects(notForwardFrom('SENDING'));

    // Act
    await applySesEvent(fixture('delivery'));

    // Assess
    expect(transactions()).toHaveLength(1);
    const [items] = transactions();
    expect(items![0]!.Update).toMatchObject({
      Key: { PK: `PROJECT#${PROJECT}`, SK: `EMAIL#${EMAIL}` },
      ConditionExpression: '#status IN (:from0)',
      ExpressionAttributeValues: expect.objectContaining({ ':status': 'DELIVERED', ':from0': 'SENDING' }),
      UpdateExpression: expect.stringContaining('#m0 = if_not_exists(#m0, :m0)'),
      ExpressionAttributeNames: expect.objectContaining({ '#m0': 'sesMessageId', '#m1': 'sentAt' }),
    });
    expect(items!.slice(1).map((item) => item.Put!.Item!.name)).toEqual(['email.sent', 'email.delivered']);
    // The move names the delivery, which stays out of the email index; the record does not name this email.sent
    const [sent, delivered] = items!.slice(1).map((item) => item.Put!.Item!);
    expect(Object.values(items![0]!.Update!.ExpressionAttributeValues!)).toContain(delivered!.eventId);
    expect(delivered).not.toHaveProperty('GSI3PK');
    expect(sent).toHaveProperty('GSI3PK', `PROJECT#${PROJECT}#EMAIL_EVENTS#${EMAIL}`);
    expect(tallies()).toEqual([
      [
        'email.sent',
        tally(
          ['sent', 'delivered'],
          [
            ['sent', '2026-11-22'],
            ['delivered', '2026-11-22'],
          ],
        ),
      ],
      ['email.delivered', { daily: [] }],
    ]);
    expect(counterUpdates()).toEqual([]);
  });

  it('still records email.sent when the delivery that overtook the sender is retried after a fault lost its first write', async () => {
    // Prepare: a table with the email SENDING whose first transaction fails (a fault), as DynamoDB would hold it
    let status = 'SENDING';
    const written: Record<string, unknown>[] = [];
    const holds = (input: { ConditionExpression?: string; ExpressionAttributeValues?: Record<string, unknown> }) =>
      Object.entries(input.ExpressionAttributeValues ?? {}).some(([name, value]) => name.startsWith(':from') && value === status);
    ddb.on(UpdateCommand, { Key: { PK: `PROJECT#${PROJECT}`, SK: `EMAIL#${EMAIL}` } }).callsFake((input) => {
      if (!holds(input)) throw notForwardFrom(status);
      const before = { ...emailRecord, status };
      status = input.ExpressionAttributeValues[':status'];
      return { Attributes: before };
    });
    let faults = 1;
    ddb.on(TransactWriteCommand).callsFake((input: { TransactItems: { Update?: any; Put?: any }[] }) => {
      if (faults-- > 0) throw Object.assign(new Error('Internal server error'), { name: 'InternalServerError' });
      const move = input.TransactItems.find((item) => item.Update?.Key?.SK === `EMAIL#${EMAIL}`)?.Update;
      if (move && !holds(move)) throw new TransactionCanceledException({ message: 'cancelled', $metadata: {}, CancellationReasons: [{ Code: 'ConditionalCheckFailed' }] });
      if (move) status = move.ExpressionAttributeValues[':status'];
      written.push(...input.TransactItems.flatMap((item) => (item.Put ? [item.Put.Item] : [])));
      return {};
    });

    // Act: EventBridge delivers the event, the write fails, and it delivers the event again
    await expect(applySesEvent(fixture('delivery'))).rejects.toThrow('Internal server error');
    await applySesEvent(fixture('delivery'));

    // Assess
    expect(status).toBe('DELIVERED');
    expect(written.map((item) => item.name)).toEqual(['email.sent', 'email.delivered']);
  });

  it('applies the delivery to the record as it is when the sender finishes the email during the take-over: email.sent only once, by the sender', async () => {
    // Prepare: the take-over is refused because the sender recorded SENT meanwhile; the move from SENT then holds
    ddb.on(UpdateCommand, { Key: { PK: `PROJECT#${PROJECT}`, SK: `EMAIL#${EMAIL}` } }).rejectsOnce(notForwardFrom('SENDING')).resolves({ Attributes: emailRecord });
    ddb.on(TransactWriteCommand).rejects(new TransactionCanceledException({ message: 'cancelled', $metadata: {}, CancellationReasons: [{ Code: 'ConditionalCheckFailed' }, { Code: 'None' }, { Code: 'None' }] }));

    // Act
    await applySesEvent(fixture('delivery'));

    // Assess: the second round moved SENT → DELIVERED and wrote email.delivered alone
    expect(statusUpdates()).toHaveLength(2);
    expect(ddb.commandCalls(PutCommand).map((call) => call.args[0].input.Item!.name)).toEqual(['email.delivered']);
    expect(ddb.commandCalls(PutCommand)[0]!.args[0].input.Item!.tally).toEqual(tally(['delivered'], [['delivered', '2026-11-22']]));
    expect(counterUpdates()).toEqual([]);
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

    expect(eventPuts()).toHaveLength(0);
  });

  it('stops the Send event after one read when the sender has recorded the email', async () => {
    await applySesEvent(fixture('send'));

    expect(ddb.calls()).toHaveLength(1);
    expect(ddb.commandCalls(GetCommand)[0]!.args[0].input).toMatchObject({ Key: { PK: `PROJECT#${PROJECT}`, SK: `EMAIL#${EMAIL}` }, ConsistentRead: true });
  });

  it('lets the Send event repair a record the sender could not finish: SENT and email.sent, with sent tallied, in one transaction', async () => {
    ddb.on(GetCommand, { Key: { PK: `PROJECT#${PROJECT}`, SK: `EMAIL#${EMAIL}` } }).resolves({ Item: { ...emailRecord, status: 'SENDING' } });

    await applySesEvent(fixture('send'));

    const [items] = transactions();
    expect(items![0]!.Update).toMatchObject({ Key: { PK: `PROJECT#${PROJECT}`, SK: `EMAIL#${EMAIL}` }, ConditionExpression: '#status IN (:from0, :from1)', ExpressionAttributeValues: expect.objectContaining({ ':status': 'SENT' }) });
    expect(items![1]!.Put!.Item).toMatchObject({ name: 'email.sent', emailId: EMAIL, tally: tally(['sent'], [['sent', '2026-11-22']]) });
    expect(counterUpdates()).toEqual([]);
  });

  it('leaves it to the sender when it finishes while the Send event repairs (the transaction condition fails)', async () => {
    ddb.on(GetCommand, { Key: { PK: `PROJECT#${PROJECT}`, SK: `EMAIL#${EMAIL}` } }).resolves({ Item: { ...emailRecord, status: 'SENDING' } });
    ddb.on(TransactWriteCommand).rejects(new TransactionCanceledException({ message: 'cancelled', $metadata: {}, CancellationReasons: [{ Code: 'ConditionalCheckFailed' }, { Code: 'None' }] }));

    await expect(applySesEvent(fixture('send'))).resolves.toBeUndefined();
    expect(counterUpdates()).toHaveLength(0);
  });

  it('throws (so EventBridge retries) when DynamoDB fails', async () => {
    ddb.on(PutCommand).rejects(new Error('service unavailable'));

    await expect(applySesEvent(fixture('open'))).rejects.toThrow('service unavailable');
  });
});

describe('applySesEvent: the per-day counts of GET /analytics, tallied on the events', () => {
  beforeEach(() => {
    ddb.reset();
    ddb.on(GetCommand, { Key: { PK: `PROJECT#${PROJECT}`, SK: `EMAIL#${EMAIL}` } }).resolves({ Item: emailRecord });
    ddb.on(GetCommand, { Key: { PK: `PROJECT#${PROJECT}`, SK: `CONTACT#${CONTACT}` } }).resolves({ Item: contactItem });
    ddb.on(UpdateCommand).resolves({});
    ddb.on(UpdateCommand, { Key: { PK: `PROJECT#${PROJECT}`, SK: `EMAIL#${EMAIL}` } }).resolves({ Attributes: emailRecord });
    ddb.on(PutCommand).resolves({});
    ddb.on(TransactWriteCommand).resolves({});
  });

  it('tallies a delivery on the UTC day it happened; the record names its event, which stays out of the email index (GSI3)', async () => {
    // Act
    await applySesEvent(fixture('delivery'));

    // Assess
    expect(tallies()).toEqual([['email.delivered', tally(['delivered'], [['delivered', '2026-11-22']])]]);
    const [put] = eventPuts();
    const [move] = statusUpdates();
    expect(Object.values(move!.ExpressionAttributeValues!)).toContain(put!.Item!.eventId);
    expect(put!.Item).not.toHaveProperty('GSI3PK');
    expect(put!.Item).toMatchObject({ GSI1PK: `PROJECT#${PROJECT}#CONTACT_EVENTS#${CONTACT}`, GSI2PK: `PROJECT#${PROJECT}#EVENT_NAME#email.delivered` });
    expect(counterUpdates()).toEqual([]);
  });

  it('writes a delivery whose move was made before a crash as the record names it (out of GSI3), and another delivery into GSI3', async () => {
    // Prepare: a first try moved the email and named its event, then stopped
    await applySesEvent(fixture('delivery'));
    const namedId = eventPuts()[0]!.Item!.eventId as string;
    const moved = { ...emailRecord, status: 'DELIVERED', deliveredEventId: namedId };
    ddb.resetHistory();
    ddb.on(UpdateCommand, { Key: { PK: `PROJECT#${PROJECT}`, SK: `EMAIL#${EMAIL}` } }).rejects(new ConditionalCheckFailedException({ message: 'refused', $metadata: {}, Item: marshall(moved) }));

    // Act: the retry, then a Delivery event of its own
    await applySesEvent(fixture('delivery'));
    await applySesEvent({ ...fixture('delivery'), id: 'another-delivery' });

    // Assess
    const [retried, other] = eventPuts();
    expect(retried!.Item).toMatchObject({ eventId: namedId });
    expect(retried!.Item).not.toHaveProperty('GSI3PK');
    expect(other!.Item!.eventId).not.toBe(namedId);
    expect(other!.Item).toMatchObject({ GSI3PK: `PROJECT#${PROJECT}#EMAIL_EVENTS#${EMAIL}`, GSI3SK: other!.Item!.eventId });
  });

  it('indexes an event the record does not name under its email (GSI3) for the timeline', async () => {
    // Act
    await applySesEvent(fixture('open'));

    // Assess
    const [put] = eventPuts();
    expect(put!.Item).toMatchObject({ name: 'email.opened', GSI3PK: `PROJECT#${PROJECT}#EMAIL_EVENTS#${EMAIL}`, GSI3SK: put!.Item!.eventId });
  });

  it('counts nothing when the same event is redelivered: its event write, tally and all, is refused', async () => {
    // Prepare: the first delivery was applied; its event item exists
    ddb.on(PutCommand).rejects(new ConditionalCheckFailedException({ message: 'exists', $metadata: {} }));
    ddb.on(UpdateCommand, { Key: { PK: `PROJECT#${PROJECT}`, SK: `EMAIL#${EMAIL}` } }).rejects(notForwardFrom('DELIVERED'));

    // Act
    await applySesEvent(fixture('delivery'));

    // Assess: one refused write, and nothing counted beside it
    expect(eventPuts()).toHaveLength(1);
    expect(counterUpdates()).toEqual([]);
  });

  it('tallies a permanent bounce on its day as bounced, and a transient one in the stats only (SES bounce rates count hard bounces)', async () => {
    // Act
    await applySesEvent(fixture('bounce-permanent'));
    const afterPermanent = tallies();
    ddb.resetHistory();
    await applySesEvent(fixture('bounce-transient'));

    // Assess
    expect(afterPermanent).toEqual([['email.bounced', tally(['bounced'], [['bounced', '2026-11-22']])]]);
    expect(tallies()).toEqual([['email.bounced', tally(['bounced'], [])]]);
    expect(counterUpdates()).toEqual([]);
  });

  it('tallies every open and click on its day', async () => {
    // Act: two opens (two SES events) and a click
    await applySesEvent(fixture('open'));
    await applySesEvent({ ...fixture('open'), id: 'another-open' });
    await applySesEvent(fixture('click'));

    // Assess
    expect(tallies()).toEqual([
      ['email.opened', tally(['opened'], [['opened', '2026-11-22']])],
      ['email.opened', tally(['opened'], [['opened', '2026-11-22']])],
      ['email.clicked', tally(['clicked'], [['clicked', '2026-11-22']])],
    ]);
  });

  it('tallies sent with the delivery when the delivery overtook the sender, each on the UTC day it happened', async () => {
    // Prepare: sent just before midnight UTC, delivered just after, and the email still SENDING
    const event = fixture('delivery');
    event.detail.mail.timestamp = '2026-11-22T23:59:59.000Z';
    (event.detail as any).delivery.timestamp = '2026-11-23T00:00:01.000Z';
    ddb.on(UpdateCommand, { Key: { PK: `PROJECT#${PROJECT}`, SK: `EMAIL#${EMAIL}` } }).rejects(notForwardFrom('SENDING'));

    // Act
    await applySesEvent(event);

    // Assess: the outcome's tally is on its first event (email.sent), once
    expect(tallies()).toEqual([
      [
        'email.sent',
        tally(
          ['sent', 'delivered'],
          [
            ['sent', '2026-11-22'],
            ['delivered', '2026-11-23'],
          ],
        ),
      ],
      ['email.delivered', { daily: [] }],
    ]);
  });

  it('tallies sent when the Send event repairs a record, and nothing when the repair finds it done', async () => {
    // Prepare
    ddb.on(GetCommand, { Key: { PK: `PROJECT#${PROJECT}`, SK: `EMAIL#${EMAIL}` } }).resolves({ Item: { ...emailRecord, status: 'SENDING' } });

    // Act
    await applySesEvent(fixture('send'));
    const repaired = tallies();
    ddb.resetHistory();
    ddb.on(TransactWriteCommand).rejects(new TransactionCanceledException({ message: 'cancelled', $metadata: {}, CancellationReasons: [{ Code: 'ConditionalCheckFailed' }, { Code: 'None' }] }));
    await applySesEvent(fixture('send'));

    // Assess: the second repair's tally was refused with its write, and nothing was counted beside it
    expect(repaired).toEqual([['email.sent', tally(['sent'], [['sent', '2026-11-22']])]]);
    expect(transactions()).toHaveLength(1);
    expect(counterUpdates()).toEqual([]);
  });
});
