import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { countDaily } from '../../../../shared/analytics/counters';
import { recordOutcome, recordSendEnd } from '../../../../shared/delivery/outcomes';
import { countTallies, type Tally } from '../../../../shared/delivery/tallies';
import { countEvents, newEvent } from '../../../../shared/events/events';
import { addToCounters } from '../../../../shared/db/counters';
import { statsKeys } from '../../../../shared/stats/keys';
import type { StreamChange } from '../../../../shared/streams/handler';
import { sendingEmailRecord } from '../../../support/email-fixtures';
import { FakeTable } from '../../../support/fake-table';

const ddb = mockClient(DynamoDBDocumentClient);
let table: FakeTable;

/** Which TransactWriteItems calls (1-based, counted per test) fail with a fault (DynamoDB's 500) before they reach the table. */
let faultyTransactions: number[] = [];
/**
 * Whether a cancelled transaction hands back, as DynamoDB does, the items refused under
 * ReturnValuesOnConditionCheckFailure ALL_OLD in its cancellation reasons, in wire format (the
 * document client does not unmarshall an error). The FakeTable's own cancellations carry no items.
 */
let refusedItemsAsDynamoDB = false;

/**
 * The FakeTable behind the mocked document client, its transactions behind a switch: the table's
 * own handler is caught as the FakeTable installs it, and called unless the call is to fail.
 */
function tableWithFaults(): FakeTable {
  let onTable: (input: any) => Promise<unknown> = async () => {
    throw new Error('The FakeTable installed no transaction handler');
  };
  const catching = { on: (command: any, input?: any) => (command === TransactWriteCommand ? { callsFake: (handler: typeof onTable) => void (onTable = handler) } : ddb.on(command, input)) };
  const fake = new FakeTable(catching as unknown as typeof ddb);
  let calls = 0;
  ddb.on(TransactWriteCommand).callsFake(async (input: any) => {
    if (isCountingRun(input.TransactItems)) calls++;
    if (isCountingRun(input.TransactItems) && faultyTransactions.includes(calls)) throw Object.assign(new Error('Internal server error'), { name: 'InternalServerError', $fault: 'server' });
    try {
      return await onTable(input);
    } catch (error) {
      if (!refusedItemsAsDynamoDB || !(error instanceof TransactionCanceledException)) throw error;
      error.CancellationReasons = error.CancellationReasons!.map((reason, index) => {
        const put = input.TransactItems[index].Put;
        const old = put?.ReturnValuesOnConditionCheckFailure === 'ALL_OLD' && reason.Code === 'ConditionalCheckFailed' ? fake.get(put.Item) : undefined;
        return old ? { ...reason, Item: marshall(old) as never } : reason;
      });
      throw error;
    }
  });
  return fake;
}

/** Stream sequence numbers: increasing numeric strings, larger than a JavaScript number holds. */
const sequenceOf = (n: number) => (100_000_000_000_000_000_000n + BigInt(n)).toString();

interface EventSpec {
  project: string;
  name?: string;
  at?: string;
  /** The event's tally; null for an event written without one. */
  tally?: Tally | null;
}

/** The tally of a transactional outcome's first event: email.sent counts sent, email.delivered delivered, and so on, on 2026-11-22. */
const tallyOfName = (name: string): Tally => {
  const metric = { 'email.sent': 'sent', 'email.delivered': 'delivered', 'email.opened': 'opened' }[name] as 'sent' | 'delivered' | 'opened';
  return { stats: { type: 'transactional', metrics: [metric] }, daily: [{ metric, day: '2026-11-22' }] };
};

/** The stream record of event item n's INSERT (record id `record-<n>`, sequence number n). */
function inserted(n: number, { project, name = 'email.delivered', at = '2026-11-22T10:00:00.000Z', tally = tallyOfName(name) }: EventSpec): StreamChange {
  const keys = { PK: `PROJECT#${project}`, SK: `EVENT#E${n}` };
  const newImage = { ...keys, eventId: `E${n}`, name, contactId: 'C1', emailId: 'M1', data: {}, createdAt: at, ...(tally ? { tally } : {}) };
  return { eventName: 'INSERT', keys, newImage, sequenceNumber: sequenceOf(n), record: { eventID: `record-${n}`, eventName: 'INSERT', dynamodb: { SequenceNumber: sequenceOf(n) } } };
}

/** A later change (MODIFY) of event item n, which still carries its tally. */
function modified(n: number, spec: EventSpec): StreamChange {
  const insert = inserted(n, spec);
  return { ...insert, eventName: 'MODIFY', oldImage: insert.newImage, newImage: { ...insert.newImage, data: { edited: true } }, record: { ...insert.record, eventID: `record-${n}-modify`, eventName: 'MODIFY' } };
}

/** Every counter item of a project (name counters, totals, stats, day counters), by sort key, without its keys. */
function countersOf(project: string): Record<string, Record<string, unknown>> {
  const counters = [...table.items.values()].filter((item) => item.PK === `PROJECT#${project}` && /^(EVENT_NAME#|COUNTER#|STATS#|ANALYTICS_DAY#)/.test(String(item.SK)));
  return Object.fromEntries(counters.map(({ PK: _pk, SK, ...rest }) => [String(SK), rest]));
}

const marker = (n: number) => table.get({ PK: `COUNTED_RUN#delivery-counters#record-${n}`, SK: 'COUNTED_RUN' });
/** A counting transaction (a run's marker and its counters), not the making of a name's counter. */
const isCountingRun = (items: { Put?: { Item?: Record<string, unknown> } }[]) => items[0]?.Put?.Item?.SK === 'COUNTED_RUN';
const transactions = () => ddb.commandCalls(TransactWriteCommand).map((call) => call.args[0].input.TransactItems!).filter(isCountingRun);
const nameCounterPuts = () =>
  ddb
    .commandCalls(TransactWriteCommand)
    .flatMap((call) => call.args[0].input.TransactItems!)
    .flatMap((item) => (item.Put && String(item.Put.Item!.SK).startsWith('EVENT_NAME#') ? [item.Put] : []));

/** The day `index` days after 2026-01-01. */
const dayOf = (index: number) => new Date(Date.UTC(2026, 0, 1 + index)).toISOString().slice(0, 10);

/** `count` sent events from record `from` on, each on its own day: a counter item per event besides the shared ones. */
const sentOnDays = (project: string, from: number, count: number) =>
  Array.from({ length: count }, (_, index) =>
    inserted(from + index, { project, name: 'email.sent', at: `${dayOf(from + index)}T12:00:00.000Z`, tally: { stats: { type: 'transactional', metrics: ['sent'] }, daily: [{ metric: 'sent', day: dayOf(from + index) }] } }),
  );

/** The counters `count` sent events from record `from` on (sentOnDays) make, on a project that had none. */
function sentOnDaysCounters(from: number, count: number) {
  const last = from + count - 1;
  return {
    'EVENT_NAME#email.sent': { name: 'email.sent', count, lastSeenAt: `${dayOf(last)}T12:00:00.000Z` },
    'COUNTER#EVENTS': { count },
    'COUNTER#EVENT_NAMES': { total: 1 },
    'STATS#transactional': { sent: count },
    ...Object.fromEntries(Array.from({ length: count }, (_, index) => [`ANALYTICS_DAY#${dayOf(from + index)}`, { sent: 1 }])),
  };
}

beforeEach(() => {
  ddb.reset();
  faultyTransactions = [];
  refusedItemsAsDynamoDB = false;
  table = tableWithFaults();
});

// The names this container has met are module state (countTallies' knownNames): each test counts its own project.
describe('countTallies (the delivery-counters stream consumer)', () => {
  it("counts a batch's events on their names' counters, the events total, the source stats and the day counters, in one transaction with the run's marker", async () => {
    // Prepare: an outcome's first event carries its stats and days; a later one ({ daily: [] }) counts by its name only
    const project = 'COUNT';
    const batch = [
      inserted(1, { project, name: 'email.sent', at: '2026-11-22T10:00:00.000Z', tally: { stats: { type: 'transactional', metrics: ['sent'] }, daily: [{ metric: 'sent', day: '2026-11-22' }] } }),
      inserted(2, { project, name: 'email.delivered', at: '2026-11-22T10:00:02.000Z' }),
      modified(2, { project, name: 'email.delivered' }),
      inserted(3, { project, name: 'email.opened', at: '2026-11-22T11:00:00.000Z', tally: null }),
      inserted(4, {
        project,
        name: 'email.sent',
        at: '2026-11-23T08:00:00.000Z',
        tally: {
          stats: { type: 'workflow', id: 'W1', metrics: ['sent', 'delivered'] },
          daily: [
            { metric: 'sent', day: '2026-11-23' },
            { metric: 'delivered', day: '2026-11-23' },
          ],
        },
      }),
      inserted(5, { project, name: 'email.delivered', at: '2026-11-23T08:00:01.000Z', tally: { daily: [] } }),
    ];

    // Act
    await countTallies(batch);

    // Assess: the MODIFY and the event without a tally are not counted
    expect(countersOf(project)).toEqual({
      'EVENT_NAME#email.sent': { name: 'email.sent', count: 2, lastSeenAt: '2026-11-23T08:00:00.000Z' },
      'EVENT_NAME#email.delivered': { name: 'email.delivered', count: 2, lastSeenAt: '2026-11-23T08:00:01.000Z' },
      'COUNTER#EVENTS': { count: 4 },
      'COUNTER#EVENT_NAMES': { total: 2 },
      'STATS#transactional': { sent: 1, delivered: 1 },
      'STATS#workflow#W1': { sent: 1, delivered: 1 },
      'ANALYTICS_DAY#2026-11-22': { sent: 1, delivered: 1 },
      'ANALYTICS_DAY#2026-11-23': { sent: 1, delivered: 1 },
    });
    // One transaction: the marker of the run (its first record, its last sequence number), put only if absent, and an update per counter
    expect(transactions()).toHaveLength(1);
    const [items] = transactions();
    expect(items![0]!.Put).toMatchObject({ Item: { PK: 'COUNTED_RUN#delivery-counters#record-1', SK: 'COUNTED_RUN', lastSequence: sequenceOf(5) }, ConditionExpression: 'attribute_not_exists(PK)' });
    expect(items!.slice(1).map((item) => item.Update!.Key!.SK).sort()).toEqual(
      ['ANALYTICS_DAY#2026-11-22', 'ANALYTICS_DAY#2026-11-23', 'COUNTER#EVENTS', 'EVENT_NAME#email.delivered', 'EVENT_NAME#email.sent', 'STATS#transactional', 'STATS#workflow#W1'].sort(),
    );
    expect(marker(1)).toMatchObject({ lastSequence: sequenceOf(5), expiresAt: expect.any(Number) });
  });

  it('counts nothing when no change carries a tally', async () => {
    // Act
    await countTallies([inserted(1, { project: 'NONE', tally: null }), modified(2, { project: 'NONE' })]);

    // Assess
    expect(countersOf('NONE')).toEqual({});
    expect(ddb.calls()).toHaveLength(0);
  });

  it('counts each new name once on the names total, and a name whose counter exists already not at all', async () => {
    // Prepare: email.sent was counted before (by this consumer in another container, or by countEvents)
    const project = 'NAMES';
    table.put({ PK: `PROJECT#${project}`, SK: 'EVENT_NAME#email.sent', name: 'email.sent', count: 5, lastSeenAt: '2026-11-21T00:00:00.000Z' });
    table.put({ PK: `PROJECT#${project}`, SK: 'COUNTER#EVENT_NAMES', total: 1 });

    // Act: a batch with email.sent and email.delivered twice, then one with email.delivered again and email.opened
    await countTallies([inserted(1, { project, name: 'email.sent' }), inserted(2, { project, name: 'email.delivered' }), inserted(3, { project, name: 'email.delivered' })]);
    await countTallies([inserted(4, { project, name: 'email.delivered' }), inserted(5, { project, name: 'email.opened' })]);

    // Assess
    const counters = countersOf(project);
    expect(counters['COUNTER#EVENT_NAMES']).toEqual({ total: 3 });
    expect([counters['EVENT_NAME#email.sent']!.count, counters['EVENT_NAME#email.delivered']!.count, counters['EVENT_NAME#email.opened']!.count]).toEqual([6, 3, 1]);
    expect(counters['COUNTER#EVENTS']).toEqual({ count: 5 });
    // A name's counter is made (count 0) only if absent, never overwritten
    expect(nameCounterPuts().filter((input) => input.Item!.SK === 'EVENT_NAME#email.sent')).toEqual([
      expect.objectContaining({ Item: expect.objectContaining({ count: 0 }), ConditionExpression: 'attribute_not_exists(PK)' }),
    ]);
  });

  it('counts nothing again when the same batch is delivered again', async () => {
    // Prepare
    const project = 'AGAIN';
    const batch = [inserted(1, { project, name: 'email.sent' }), inserted(2, { project }), inserted(3, { project })];
    await countTallies(batch);
    const counted = countersOf(project);

    // Act
    await countTallies(batch);

    // Assess
    expect(counted['COUNTER#EVENTS']).toEqual({ count: 3 });
    expect(countersOf(project)).toEqual(counted);
  });

  it('counts only the records added at the end of a batch delivered again with more', async () => {
    // Prepare
    const project = 'MORE';
    const first = [inserted(1, { project, name: 'email.sent' }), inserted(2, { project }), inserted(3, { project })];
    await countTallies(first);

    // Act: Lambda retries from the same first record, with two records more
    await countTallies([...first, inserted(4, { project, name: 'email.opened' }), inserted(5, { project })]);

    // Assess
    expect(countersOf(project)).toEqual({
      'EVENT_NAME#email.sent': { name: 'email.sent', count: 1, lastSeenAt: '2026-11-22T10:00:00.000Z' },
      'EVENT_NAME#email.delivered': { name: 'email.delivered', count: 3, lastSeenAt: '2026-11-22T10:00:00.000Z' },
      'EVENT_NAME#email.opened': { name: 'email.opened', count: 1, lastSeenAt: '2026-11-22T10:00:00.000Z' },
      'COUNTER#EVENTS': { count: 5 },
      'COUNTER#EVENT_NAMES': { total: 3 },
      'STATS#transactional': { sent: 1, delivered: 3, opened: 1 },
      'ANALYTICS_DAY#2026-11-22': { sent: 1, delivered: 3, opened: 1 },
    });
    expect(marker(4)).toMatchObject({ lastSequence: sequenceOf(5) });
  });

  it('counts a batch of more counters than one transaction holds in several transactions, each counter once', async () => {
    // Prepare: 150 events on 150 days: 153 counter items
    const project = 'WIDE';

    // Act
    await countTallies(sentOnDays(project, 0, 150));

    // Assess: runs of at most 99 counters and their marker, each marked with its first record and last sequence number
    expect(transactions().map((items) => items.length)).toEqual([100, 58]);
    expect(marker(0)).toMatchObject({ lastSequence: sequenceOf(95) });
    expect(marker(96)).toMatchObject({ lastSequence: sequenceOf(149) });
    expect(countersOf(project)).toEqual(sentOnDaysCounters(0, 150));
  });

  it('counts nothing again when a batch of several transactions is delivered again, and only the new records when it comes with more', async () => {
    // Prepare
    const project = 'WIDE_AGAIN';
    await countTallies(sentOnDays(project, 0, 150));

    // Act
    await countTallies(sentOnDays(project, 0, 150));
    const again = countersOf(project);
    await countTallies(sentOnDays(project, 0, 160));

    // Assess
    expect(again).toEqual(sentOnDaysCounters(0, 150));
    expect(countersOf(project)).toEqual(sentOnDaysCounters(0, 160));
  });

  it('throws when a transaction fails, and the retry counts the runs counted before not again and the rest once', async () => {
    // Prepare: the second run's transaction fails (a fault)
    const project = 'FAULT';
    faultyTransactions = [2];

    // Act
    await expect(countTallies(sentOnDays(project, 0, 150))).rejects.toThrow('Internal server error');
    const beforeRetry = countersOf(project)['COUNTER#EVENTS'];
    await countTallies(sentOnDays(project, 0, 150));

    // Assess
    expect(beforeRetry).toEqual({ count: 96 });
    expect(countersOf(project)).toEqual(sentOnDaysCounters(0, 150));
  });

  it('throws when the only transaction fails, having counted nothing, and the retry counts the batch once', async () => {
    // Prepare
    const project = 'FAULT_ONE';
    faultyTransactions = [1];
    const batch = [inserted(1, { project, name: 'email.sent' }), inserted(2, { project }), inserted(3, { project })];

    // Act
    await expect(countTallies(batch)).rejects.toThrow('Internal server error');
    const beforeRetry = countersOf(project);
    await countTallies(batch);

    // Assess: only the names' counters (count 0) and the names total were made before the fault
    expect(Object.keys(beforeRetry).sort()).toEqual(['COUNTER#EVENT_NAMES', 'EVENT_NAME#email.delivered', 'EVENT_NAME#email.sent']);
    expect(beforeRetry['EVENT_NAME#email.sent']).toMatchObject({ count: 0 });
    expect(countersOf(project)).toEqual({
      'EVENT_NAME#email.sent': { name: 'email.sent', count: 1, lastSeenAt: '2026-11-22T10:00:00.000Z' },
      'EVENT_NAME#email.delivered': { name: 'email.delivered', count: 2, lastSeenAt: '2026-11-22T10:00:00.000Z' },
      'COUNTER#EVENTS': { count: 3 },
      'COUNTER#EVENT_NAMES': { total: 2 },
      'STATS#transactional': { sent: 1, delivered: 2 },
      'ANALYTICS_DAY#2026-11-22': { sent: 1, delivered: 2 },
    });
  });

  it("reads a refused marker's last sequence number as DynamoDB hands it back (in wire format, in the cancellation reason)", async () => {
    // Prepare: cancellations carry the refused marker, as DynamoDB answers ReturnValuesOnConditionCheckFailure ALL_OLD
    const project = 'WIRE';
    refusedItemsAsDynamoDB = true;
    await countTallies(sentOnDays(project, 0, 150));

    // Act: delivered again, with more
    await countTallies(sentOnDays(project, 0, 160));

    // Assess
    expect(countersOf(project)).toEqual(sentOnDaysCounters(0, 160));
  });
});

describe('from recordOutcome through the table stream to the counters', () => {
  const CONTACT = '01JD0000000000000000000000';

  it("counts the events an email's outcomes wrote as the direct counting did", async () => {
    // Prepare: a transactional email a sender claimed, in the table
    const email = sendingEmailRecord({ projectId: 'PIPE', contactId: CONTACT });
    table.put({ PK: 'PROJECT#PIPE', SK: 'EMAIL#E1', ...email });

    // Act: the sender ends it SENT; SES reports the delivery; the table stream hands the new items to the consumer
    const ended = await recordSendEnd(email, 'SENT', { sesMessageId: 'ses-1', sentAt: new Date().toISOString() }, []);
    const delivered = newEvent({ name: 'email.delivered', contactId: CONTACT, emailId: 'E1', data: {} }, new Date(Date.now() + 2000), 'eb-1');
    await recordOutcome({ email: ended!, events: [delivered], metrics: ['delivered'], daily: [{ metric: 'delivered', at: delivered.createdAt }] }, []);
    const updatedOnTheWay = ddb.commandCalls(UpdateCommand).map((call) => call.args[0].input.Key!);
    const written = table.history.filter((item) => item.PK === 'PROJECT#PIPE' && String(item.SK).startsWith('EVENT#'));
    await countTallies(
      written.map((item, index) => ({
        eventName: 'INSERT',
        keys: { PK: item.PK, SK: item.SK },
        newImage: item,
        sequenceNumber: sequenceOf(index + 1),
        record: { eventID: `pipe-${index + 1}`, eventName: 'INSERT', dynamodb: { SequenceNumber: sequenceOf(index + 1) } },
      })),
    );

    // The counting the outcomes made directly before (countEvents, the source stats' ADD, countDaily), on another project
    const [sent, deliveredItem] = written;
    await Promise.all([countEvents('DIRECT', [{ id: 'x1', name: 'email.sent', contactId: CONTACT, data: {}, createdAt: String(sent!.createdAt) }]), addToCounters(statsKeys.source('DIRECT', email.source.type), { sent: 1 }), countDaily('DIRECT', [{ metric: 'sent', at: String(sent!.createdAt) }])]);
    await Promise.all([countEvents('DIRECT', [{ id: 'x2', name: 'email.delivered', contactId: CONTACT, data: {}, createdAt: String(deliveredItem!.createdAt) }]), addToCounters(statsKeys.source('DIRECT', email.source.type), { delivered: 1 }), countDaily('DIRECT', [{ metric: 'delivered', at: String(deliveredItem!.createdAt) }])]);

    // Assess
    const day = String(sent!.createdAt).slice(0, 10);
    expect(written.map((item) => item.name)).toEqual(['email.sent', 'email.delivered']);
    expect(countersOf('PIPE')).toMatchObject({
      'STATS#transactional': { sent: 1, delivered: 1 },
      'EVENT_NAME#email.sent': { count: 1 },
      'COUNTER#EVENTS': { count: 2 },
      'COUNTER#EVENT_NAMES': { total: 2 },
    });
    expect(countersOf('PIPE')[`ANALYTICS_DAY#${day}`]).toMatchObject({ sent: 1 });
    expect(countersOf('PIPE')).toEqual(countersOf('DIRECT'));
    // Nothing was counted on the way: the outcomes updated the email alone
    expect(updatedOnTheWay).toEqual([{ PK: 'PROJECT#PIPE', SK: 'EMAIL#E1' }]);
  });
});
