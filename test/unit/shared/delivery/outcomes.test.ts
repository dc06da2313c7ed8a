import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { decodeTime } from 'ulid';
import { DynamoDBDocumentClient, GetCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { recordOutcome, recordSendEnd, recordSendEndEvent, type Outcome, type OutcomeListener } from '../../../../shared/delivery/outcomes';
import { finishClaimItem } from '../../../../shared/emails/emails';
import { newEvent } from '../../../../shared/events/events';
import { endedItem, sendingEmailRecord } from '../../../support/email-fixtures';

const ddb = mockClient(DynamoDBDocumentClient);

/** Contact ids are ULIDs (anything else is not found). */
const CONTACT = '01JD0000000000000000000000';

const email = sendingEmailRecord({ contactId: CONTACT });
const emailKey = { PK: 'PROJECT#P1', SK: 'EMAIL#E1' };
const contactKey = { PK: 'PROJECT#P1', SK: `CONTACT#${CONTACT}` };
const refused = () => new TransactionCanceledException({ message: 'cancelled', $metadata: {}, CancellationReasons: [{ Code: 'ConditionalCheckFailed' }, { Code: 'None' }] });

const delivered = newEvent({ name: 'email.delivered', contactId: CONTACT, emailId: 'E1', data: {} }, new Date('2026-11-22T10:00:02.000Z'), 'eb-1');
const sent = newEvent({ name: 'email.sent', contactId: CONTACT, emailId: 'E1', data: {} }, new Date('2026-11-22T10:00:01.000Z'), 'eb-1#sent');
const opened = newEvent({ name: 'email.opened', contactId: CONTACT, emailId: 'E1', data: {} }, new Date('2026-11-22T10:00:03.000Z'), 'eb-2');

const transactions = () => ddb.commandCalls(TransactWriteCommand).map((call) => call.args[0].input.TransactItems!);
/** Updates of anything but the email and the contact: counters (none but a campaign's stats are updated here any more). */
const counterUpdates = () => ddb.commandCalls(UpdateCommand).map((call) => call.args[0].input).filter((input) => input.Key?.SK !== 'EMAIL#E1' && input.Key?.SK !== `CONTACT#${CONTACT}`);
/** The event items written, by PutItem or in a transaction, in order. */
const eventItems = () =>
  [...ddb.commandCalls(PutCommand).map((call) => call.args[0].input), ...transactions().flatMap((items) => items.flatMap((item) => (item.Put ? [item.Put] : [])))]
    .map((put) => put.Item!)
    .filter((item) => String(item.SK).startsWith('EVENT#'));
/** Each event written, by name, with the tally the delivery-counters consumer adds up (shared/delivery/tallies.ts). */
const tallies = () => eventItems().map((item) => [item.name, item.tally]);

/** A listener that notes what it was told, and when (how many event items had been written, how many counter writes made, by then). */
function noting(name: string, heard: string[]): OutcomeListener {
  return async (outcome) => {
    heard.push(`${name}: ${outcome.events.map((event) => event.name).join(', ')} after ${eventItems().length} event writes and ${counterUpdates().length} counter writes`);
  };
}

describe('recordOutcome', () => {
  beforeEach(() => {
    ddb.reset();
    ddb.on(PutCommand).resolves({});
    // Counters that exist already (a name seen before is not counted again on the names total).
    ddb.on(UpdateCommand).resolves({ Attributes: { count: 1 } });
    ddb.on(TransactWriteCommand).resolves({});
    ddb.on(GetCommand, { Key: contactKey }).resolves({ Item: { contactId: CONTACT, email: 'jane@example.com', subscribed: true, data: {}, createdAt: 'c', updatedAt: 'u' } });
  });

  it('writes the status move, the events and the suppression in one transaction, in that order, the tally on the first event, and tells the listeners in turn', async () => {
    // Prepare
    const heard: string[] = [];
    const outcome: Outcome = {
      email,
      transition: finishClaimItem('P1', 'E1', 'BOUNCED', { failureReason: 'Permanent' }),
      events: [sent, delivered],
      suppress: 'BOUNCE',
      metrics: ['sent', 'bounced'],
      daily: [
        { metric: 'sent', at: sent.createdAt },
        { metric: 'bounced', at: delivered.createdAt },
      ],
    };

    // Act
    const recorded = await recordOutcome(outcome, [noting('first', heard), noting('second', heard)]);

    // Assess
    expect(recorded).toBe(true);
    const written = transactions().find((items) => items.some((item) => String(item.Put?.Item?.SK).startsWith('EVENT#')))!;
    expect(written.map((item) => item.Update?.Key?.SK ?? item.Put?.Item?.SK)).toEqual(['EMAIL#E1', `EVENT#${sent.id}`, `EVENT#${delivered.id}`, 'SUPPRESSED#jane@example.com']);
    expect(transactions().find((items) => items[0]!.Put?.Item?.SK === `CONTACT#${CONTACT}`)![0]!.Put!.Item).toMatchObject({ subscribed: false });
    // The outcome's stats and day counts ride on its first event, once; the stream counts every event by its name
    expect(tallies()).toEqual([
      [
        'email.sent',
        {
          stats: { type: 'transactional', metrics: ['sent', 'bounced'] },
          daily: [
            { metric: 'sent', day: '2026-11-22' },
            { metric: 'bounced', day: '2026-11-22' },
          ],
        },
      ],
      ['email.delivered', { daily: [] }],
    ]);
    expect(counterUpdates()).toEqual([]);
    expect(heard).toEqual(['first: email.sent, email.delivered after 2 event writes and 0 counter writes', 'second: email.sent, email.delivered after 2 event writes and 0 counter writes']);
  });

  it('keeps the events the record names (by its move, or as it was) out of the email index, and indexes the others under the email', async () => {
    // Prepare: the record names its send end; the move names the delivery
    const named = { ...email, sendEnd: { status: 'SENT' as const, eventId: sent.id } };

    // Act
    await recordOutcome({ email: named, transition: finishClaimItem('P1', 'E1', 'DELIVERED', {}), events: [sent, delivered, opened], namedByRecord: delivered.id, metrics: [], daily: [] }, []);

    // Assess
    const puts = transactions().flat().flatMap((item) => (item.Put ? [item.Put.Item!] : []));
    expect(puts.map((item) => [item.name, item.GSI3PK])).toEqual([
      ['email.sent', undefined],
      ['email.delivered', undefined],
      ['email.opened', 'PROJECT#P1#EMAIL_EVENTS#E1'],
    ]);
  });

  it('writes a lone event as one conditional PutItem, without a transaction, with its tally and no counter write', async () => {
    // Act
    await recordOutcome({ email, events: [delivered], metrics: ['delivered'], daily: [{ metric: 'delivered', at: delivered.createdAt }] }, []);

    // Assess
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
    expect(ddb.commandCalls(PutCommand)[0]!.args[0].input).toMatchObject({
      Item: { name: 'email.delivered', eventId: delivered.id, tally: { stats: { type: 'transactional', metrics: ['delivered'] }, daily: [{ metric: 'delivered', day: '2026-11-22' }] } },
      ConditionExpression: 'attribute_not_exists(PK)',
    });
    expect(counterUpdates()).toEqual([]);
  });

  it('tallies each day count on the UTC day it happened, which need not be the day of the event', async () => {
    // Prepare: sent just before midnight UTC, delivered just after; an offset time is read in UTC
    const lateSent = newEvent({ name: 'email.sent', contactId: CONTACT, emailId: 'E1', data: {} }, new Date('2026-11-21T23:59:59.900Z'), 'eb-2#sent');
    const earlyDelivered = newEvent({ name: 'email.delivered', contactId: CONTACT, emailId: 'E1', data: {} }, new Date('2026-11-22T00:00:00.100Z'), 'eb-2');

    // Act
    await recordOutcome(
      {
        email,
        events: [lateSent, earlyDelivered],
        metrics: ['sent', 'delivered'],
        daily: [
          { metric: 'sent', at: lateSent.createdAt },
          { metric: 'delivered', at: '2026-11-22T01:30:00.000+02:00' },
        ],
      },
      [],
    );

    // Assess
    expect(tallies()[0]![1]).toEqual({
      stats: { type: 'transactional', metrics: ['sent', 'delivered'] },
      daily: [
        { metric: 'sent', day: '2026-11-21' },
        { metric: 'delivered', day: '2026-11-21' },
      ],
    });
  });

  it('leaves campaign mail\'s stats to its listener (one ADD with its progress): its tally carries only the day counts', async () => {
    // Prepare
    const campaignEmail = { ...email, source: { type: 'campaign' as const, id: 'CAMP1' } };
    const told: Outcome[] = [];

    // Act
    await recordOutcome({ email: campaignEmail, events: [delivered], metrics: ['delivered'], daily: [{ metric: 'delivered', at: delivered.createdAt }] }, [async (outcome) => void told.push(outcome)]);

    // Assess
    expect(tallies()).toEqual([['email.delivered', { daily: [{ metric: 'delivered', day: '2026-11-22' }] }]]);
    expect(counterUpdates()).toEqual([]);
    expect(told.map((outcome) => outcome.metrics)).toEqual([['delivered']]);
  });

  it('counts nothing beyond the refused write, whose tally is refused with it, and tells no listener (a replay, or someone else recorded it)', async () => {
    // Prepare
    const heard: string[] = [];
    ddb.on(TransactWriteCommand).rejects(refused());

    // Act
    const recorded = await recordOutcome(
      { email, transition: finishClaimItem('P1', 'E1', 'SENT', {}), events: [sent], metrics: ['sent'], daily: [{ metric: 'sent', at: sent.createdAt }], settles: 'SENT' },
      [noting('listener', heard)],
    );

    // Assess: the tally was only ever on the refused transaction's event
    expect(recorded).toBe(false);
    expect(transactions()).toHaveLength(1);
    expect(tallies()).toEqual([['email.sent', { stats: { type: 'transactional', metrics: ['sent'] }, daily: [{ metric: 'sent', day: '2026-11-22' }] }]]);
    expect(counterUpdates()).toEqual([]);
    expect(heard).toEqual([]);
  });

  it('tallies no stats for an outcome without metrics, and no day for one without days (the event alone is counted)', async () => {
    // Act
    await recordOutcome({ email, transition: finishClaimItem('P1', 'E1', 'SUPPRESSED', {}), events: [sent], metrics: [], daily: [], settles: 'SUPPRESSED' }, []);

    // Assess
    expect(tallies()).toEqual([['email.sent', { daily: [] }]]);
    expect(counterUpdates()).toEqual([]);
  });

  it('tallies stats without a day for a metric the day counters do not keep, or an outcome given no day', async () => {
    // Act: a transient bounce's outcome (the day counts hard bounces only), and a delay (no day metric)
    await recordOutcome({ email, events: [delivered], metrics: ['bounced'], daily: [] }, []);
    await recordOutcome({ email, events: [sent], metrics: ['delayed'], daily: [{ metric: 'delayed', at: sent.createdAt }] }, []);

    // Assess
    expect(tallies()).toEqual([
      ['email.delivered', { stats: { type: 'transactional', metrics: ['bounced'] }, daily: [] }],
      ['email.sent', { stats: { type: 'transactional', metrics: ['delayed'] }, daily: [] }],
    ]);
  });

  it('throws when DynamoDB fails, before anything is counted or told', async () => {
    // Prepare
    const heard: string[] = [];
    ddb.on(PutCommand).rejects(new Error('service unavailable'));

    // Act / Assess
    await expect(recordOutcome({ email, events: [delivered], metrics: ['delivered'], daily: [] }, [noting('listener', heard)])).rejects.toThrow('service unavailable');
    expect(counterUpdates()).toEqual([]);
    expect(heard).toEqual([]);
  });
});

describe('recordSendEnd', () => {
  const eventPuts = () => ddb.commandCalls(PutCommand).map((call) => call.args[0].input.Item!);

  beforeEach(() => {
    ddb.reset();
    // Counters that exist already (a name seen before is not counted again on the names total).
    ddb.on(UpdateCommand).callsFake((input) => (input.Key.SK === 'EMAIL#E1' ? { Attributes: endedItem(email, input) } : { Attributes: { count: 1 } }));
    ddb.on(PutCommand).resolves({});
  });

  it('ends the claim with SENT in one conditional write marked with its event, then writes email.sent on its own (no transaction) tallying sent for the source and the day, and settles the email with the listeners', async () => {
    // Prepare
    const told: Outcome[] = [];

    // Act
    const result = await recordSendEnd(email, 'SENT', { sesMessageId: 'ses-1' }, [async (outcome) => void told.push(outcome)]);

    // Assess
    expect(transactions()).toEqual([]);
    const end = ddb.commandCalls(UpdateCommand).map((call) => call.args[0].input).find((input) => input.Key?.SK === 'EMAIL#E1')!;
    expect(end).toMatchObject({ ConditionExpression: '#status = :sending', ExpressionAttributeValues: expect.objectContaining({ ':status': 'SENT', ':f0': 'ses-1' }) });
    const [event] = eventPuts();
    expect(event).toMatchObject({ eventId: result!.sendEnd!.eventId, name: 'email.sent', contactId: CONTACT, emailId: 'E1', data: { sesMessageId: 'ses-1', subject: 'Hello', source: { type: 'transactional' } } });
    expect(result!.sendEnd).toEqual({ status: 'SENT', eventId: expect.any(String) });
    // The record names it, so the email's timeline reads it by key: no entry in the email index
    expect(event).not.toHaveProperty('GSI3PK');
    expect(event).toHaveProperty('GSI1PK');
    const day = (event!.createdAt as string).slice(0, 10);
    expect(event!.tally).toEqual({ stats: { type: 'transactional', metrics: ['sent'] }, daily: [{ metric: 'sent', day }] });
    expect(counterUpdates()).toEqual([]);
    expect(told.map((outcome) => [outcome.settles, outcome.metrics])).toEqual([['SENT', ['sent']]]);
  });

  it('tallies only the event of an email that ends without going out (no stats, no day), and settles it with its status', async () => {
    // Prepare
    const told: Outcome[] = [];

    // Act
    await recordSendEnd(email, 'FAILED', { failureReason: 'ATTACHMENT_MISSING' }, [async (outcome) => void told.push(outcome)]);

    // Assess
    expect(eventPuts()).toEqual([expect.objectContaining({ name: 'email.failed', data: { reason: 'ATTACHMENT_MISSING', subject: 'Hello', source: { type: 'transactional' } }, tally: { daily: [] } })]);
    expect(counterUpdates()).toEqual([]);
    expect(told.map((outcome) => [outcome.settles, outcome.metrics])).toEqual([['FAILED', []]]);
  });

  it('leaves an email someone else finished as it is: no event, nothing counted, no listener told', async () => {
    // Prepare: an SES event moved it SENT meanwhile, with no sender's end on it
    const told: Outcome[] = [];
    ddb.on(UpdateCommand, { Key: emailKey }).rejects(conditionFailed({ ...email, status: 'SENT' }));

    // Act
    const result = await recordSendEnd(email, 'SENT', { sesMessageId: 'ses-1' }, [async (outcome) => void told.push(outcome)]);

    // Assess
    expect(result).toBeUndefined();
    expect(eventPuts()).toEqual([]);
    expect(counterUpdates()).toEqual([]);
    expect(told).toEqual([]);
  });

  it('writes the event an earlier try of the same end owes (its answer was lost), under the earlier id', async () => {
    // Prepare: the end went through before, with its own event id; this try's write is refused
    const earlier = { status: 'SENT' as const, eventId: '01JD0000010000000000000000' };
    ddb.on(UpdateCommand, { Key: emailKey }).rejects(conditionFailed({ ...email, status: 'SENT', sesMessageId: 'ses-1', sendEnd: earlier }));

    // Act
    await recordSendEnd(email, 'SENT', { sesMessageId: 'ses-1' }, []);

    // Assess
    expect(eventPuts()).toEqual([expect.objectContaining({ eventId: earlier.eventId, name: 'email.sent', createdAt: new Date(decodeTime(earlier.eventId)).toISOString() })]);
  });

  it("does not take another claim's end for its own", async () => {
    // Prepare: another sender (another claim) ended it SENT
    ddb.on(UpdateCommand, { Key: emailKey }).rejects(conditionFailed({ ...email, claimToken: 'claim-2', status: 'SENT', sendEnd: { status: 'SENT', eventId: '01JD0000010000000000000000' } }));

    // Act
    await recordSendEnd(email, 'SENT', { sesMessageId: 'ses-1' }, []);

    // Assess
    expect(eventPuts()).toEqual([]);
  });
});

describe('recordSendEndEvent', () => {
  const endedRecord = { ...email, status: 'DELIVERED' as const, sesMessageId: 'ses-1', sendEnd: { status: 'SENT' as const, eventId: '01JD0000010000000000000000' } };

  beforeEach(() => {
    ddb.reset();
    ddb.on(UpdateCommand).resolves({ Attributes: { count: 1 } });
  });

  it('writes the owed event from the record alone, with its tally, also after the email moved on', async () => {
    // Prepare
    ddb.on(PutCommand).resolves({});
    const told: Outcome[] = [];

    // Act
    await recordSendEndEvent(endedRecord, [async (outcome) => void told.push(outcome)]);

    // Assess
    expect(ddb.commandCalls(PutCommand).map((call) => call.args[0].input)).toEqual([
      expect.objectContaining({ ConditionExpression: 'attribute_not_exists(PK)', Item: expect.objectContaining({ eventId: endedRecord.sendEnd.eventId, name: 'email.sent', data: { sesMessageId: 'ses-1', subject: 'Hello', source: { type: 'transactional' } } }) }),
    ]);
    const [owed] = ddb.commandCalls(PutCommand).map((call) => call.args[0].input.Item!);
    expect(owed!.tally).toEqual({ stats: { type: 'transactional', metrics: ['sent'] }, daily: [{ metric: 'sent', day: new Date(decodeTime(endedRecord.sendEnd.eventId)).toISOString().slice(0, 10) }] });
    expect(counterUpdates()).toEqual([]);
    expect(told.map((outcome) => outcome.settles)).toEqual(['SENT']);
  });

  it('counts nothing and tells no listener when the event is written already', async () => {
    // Prepare
    ddb.on(PutCommand).rejects(new ConditionalCheckFailedException({ message: 'exists', $metadata: {} }));
    const told: Outcome[] = [];

    // Act
    await recordSendEndEvent(endedRecord, [async (outcome) => void told.push(outcome)]);

    // Assess
    expect(counterUpdates()).toEqual([]);
    expect(told).toEqual([]);
  });

  it('owes nothing for a record no sender ended', async () => {
    await recordSendEndEvent({ ...email, status: 'SENT' }, []);

    expect(ddb.commandCalls(PutCommand)).toEqual([]);
  });
});

/** A refused conditional write, with the item as it is (ReturnValuesOnConditionCheckFailure ALL_OLD, in DynamoDB's wire format). */
function conditionFailed(item: Record<string, unknown>) {
  return Object.assign(new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} }), { Item: marshall({ ...emailKey, ...item }, { removeUndefinedValues: true }) });
}
