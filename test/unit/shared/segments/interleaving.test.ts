import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { ulid } from 'ulid';
import { runBuild } from '../../../../shared/segments/build';
import { reevaluateContact, segmentLoader } from '../../../../shared/segments/membership';
import { FakeTable } from '../../../support/fake-table';

/**
 * A new tracked segment's build and the stream consumer race over the same contacts: the build
 * reads a page of contacts, then their members, then writes; the stream consumer, for a contact
 * change written after the segment, reads the contact and its memberships, then writes. Every
 * order of those steps (and of the change itself) ends the same: a contact that joined because
 * it changed after the segment was created is a member with exactly one segment.entered; one
 * untouched since is a member with none.
 */

const ddb = mockClient(DynamoDBDocumentClient);

const P = 'P1';
const SEGMENT = '01JSEGMENT000000000000000A';
const pro = { operator: 'AND', conditions: [{ field: 'data.plan', operator: 'equals', value: 'pro' }] };
const CREATED = Date.now() - 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

const BUILD = ['build-read', 'build-members', 'build-write'] as const;
const STREAM = ['change', 'stream-read', 'stream-write'] as const;
type Step = (typeof BUILD)[number] | (typeof STREAM)[number];

/** Every merge of the two step chains, each chain in its own order. */
function interleavings(a: readonly Step[], b: readonly Step[]): Step[][] {
  if (a.length === 0) return [[...b]];
  if (b.length === 0) return [[...a]];
  return [...interleavings(a.slice(1), b).map((rest) => [a[0]!, ...rest]), ...interleavings(a, b.slice(1)).map((rest) => [b[0]!, ...rest])];
}

const ORDERS = interleavings(BUILD, STREAM);

const contactItem = (id: string, plan: string, updatedAt: number) => ({
  PK: `PROJECT#${P}`,
  SK: `CONTACT#${id}`,
  contactId: id,
  email: `${id.toLowerCase()}@example.com`,
  subscribed: true,
  data: { plan },
  createdAt: iso(CREATED - 3_600_000),
  updatedAt: iso(updatedAt),
});

/** Lets every started command run until it parks at a gate or its caller finishes. */
const settle = async () => {
  for (let turn = 0; turn < 200; turn++) await new Promise((resolve) => setImmediate(resolve));
};

interface Scenario {
  /** The contact before the segment's creation (absent: created after it). */
  before?: { plan: string };
  /** The change written after the segment's creation (the stream consumer's record); absent: the record of the change before it, arriving late. */
  after?: { plan: string };
}

/** Runs one order of the steps; returns the table afterwards. */
async function race(order: Step[], scenario: Scenario, contactId: string): Promise<FakeTable> {
  const table = new FakeTable(ddb);
  table.put({ PK: `PROJECT#${P}`, SK: `SEGMENT#${SEGMENT}`, segmentId: SEGMENT, name: 'Pro', filters: pro, trackMembership: true, filtersVersion: 1, memberCount: 0, membershipStatus: 'BUILDING', createdAt: iso(CREATED) });
  if (scenario.before) table.put(contactItem(contactId, scenario.before.plan, CREATED - 60_000));
  table.hold('build-read', (command, input) => command === 'Query' && input.ExpressionAttributeValues?.[':prefix'] === 'CONTACT#');
  table.hold('build-members', (command, input) => command === 'Query' && String(input.KeyConditionExpression).includes('BETWEEN'));
  table.hold('build-write', (command, input) => command === 'TransactWrite' && input.TransactItems[0].Update !== undefined);
  table.hold('stream-read', (command, input) =>
    (command === 'Get' && String(input.Key.SK).startsWith('CONTACT#')) || (command === 'BatchGet' && JSON.stringify(input).includes('SEGMENT_MEMBER#')),
  );
  table.hold('stream-write', (command, input) => command === 'TransactWrite' && (input.TransactItems[0].Put ?? input.TransactItems[0].Delete) !== undefined);

  const build = runBuild({ projectId: P, segmentId: SEGMENT, filtersVersion: 1, recordEvents: false }, Date.now() + 60_000);
  let stream: Promise<unknown> | undefined;
  await settle();
  for (const step of order) {
    if (step === 'change') {
      if (scenario.after) table.put(contactItem(contactId, scenario.after.plan, Date.now()));
      stream = reevaluateContact(P, contactId, segmentLoader());
    } else if (table.arrived(step)) {
      table.release(step);
    } // else: that writer finished without needing the step (nothing to write)
    await settle();
  }
  for (const step of [...BUILD, ...STREAM]) if (step !== 'change') table.release(step);
  await Promise.all([build, stream]);
  return table;
}

const eventsOf = (table: FakeTable, contactId: string) =>
  [...table.items.values()].filter((item) => String(item.SK).startsWith('EVENT#') && item.contactId === contactId).map((item) => item.name);

describe('a new tracked segment: the build and the stream consumer in every order', () => {
  beforeEach(() => {
    ddb.reset();
  });

  it('there are 20 orders', () => {
    expect(ORDERS).toHaveLength(20);
  });

  it.each(ORDERS.map((order) => [order.join(' → '), order]))('a contact created during the build enters once, with segment.entered: %s', async (_, order) => {
    // Prepare
    const contactId = ulid();

    // Act
    const table = await race(order as Step[], { after: { plan: 'pro' } }, contactId);

    // Assess
    expect(table.get({ PK: `PROJECT#${P}`, SK: `SEGMENT_MEMBER#${SEGMENT}#${contactId}` })).toMatchObject({ contactId });
    expect(eventsOf(table, contactId)).toEqual(['segment.entered']);
    expect(table.get({ PK: `PROJECT#${P}`, SK: `SEGMENT#${SEGMENT}` })).toMatchObject({ memberCount: 1, membershipStatus: 'READY' });
  });

  it.each(ORDERS.map((order) => [order.join(' → '), order]))('a contact updated into the segment during the build enters once, with segment.entered: %s', async (_, order) => {
    // Prepare
    const contactId = ulid();

    // Act
    const table = await race(order as Step[], { before: { plan: 'free' }, after: { plan: 'pro' } }, contactId);

    // Assess
    expect(table.get({ PK: `PROJECT#${P}`, SK: `SEGMENT_MEMBER#${SEGMENT}#${contactId}` })).toMatchObject({ contactId });
    expect(eventsOf(table, contactId)).toEqual(['segment.entered']);
    expect(table.get({ PK: `PROJECT#${P}`, SK: `SEGMENT#${SEGMENT}` })).toMatchObject({ memberCount: 1 });
  });

  // Its state at the creation is gone when the build reads it after the change: segment.exited is
  // recorded when the build counted it in first (it was in, it left), not when it reads it after.
  it.each(ORDERS.map((order) => [order.join(' → '), order]))('a contact updated out of the segment during the build is no member and never entered: %s', async (_, order) => {
    // Prepare
    const contactId = ulid();

    // Act
    const table = await race(order as Step[], { before: { plan: 'pro' }, after: { plan: 'free' } }, contactId);

    // Assess
    expect(table.get({ PK: `PROJECT#${P}`, SK: `SEGMENT_MEMBER#${SEGMENT}#${contactId}` })).toBeUndefined();
    expect(table.get({ PK: `PROJECT#${P}`, SK: `SEGMENT#${SEGMENT}` })).toMatchObject({ memberCount: 0 });
    const events = eventsOf(table, contactId);
    expect(events.filter((name) => name === 'segment.entered')).toHaveLength(0);
    expect(events.length).toBeLessThanOrEqual(1);
  });

  it.each(ORDERS.map((order) => [order.join(' → '), order]))('a contact in the segment at its creation, whose change record arrives late, is a member with no event: %s', async (_, order) => {
    // Prepare: its last change predates the segment; the stream consumer sees that record only now.
    const contactId = ulid();

    // Act
    const table = await race(order as Step[], { before: { plan: 'pro' } }, contactId);

    // Assess
    expect(table.get({ PK: `PROJECT#${P}`, SK: `SEGMENT_MEMBER#${SEGMENT}#${contactId}` })).toMatchObject({ contactId });
    expect(table.get({ PK: `PROJECT#${P}`, SK: `SEGMENT#${SEGMENT}` })).toMatchObject({ memberCount: 1 });
    expect(eventsOf(table, contactId)).toEqual([]);
  });
});
