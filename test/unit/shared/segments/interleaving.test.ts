import { jest } from '@jest/globals';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { ulid } from 'ulid';
import { eventWriteItems, newEvent } from '../../../../shared/events/events';
import { runBuild } from '../../../../shared/segments/build';
import { reevaluateContact, segmentLoader } from '../../../../shared/segments/membership';
import { FakeTable } from '../../../support/fake-table';

/**
 * A tracked segment's build and the stream consumer race over the same contact. The build reads
 * a page of contacts, then their members, checks the contacts to change again, writes, then
 * re-reads the page and re-evaluates what changed (a read and a write of its own); the stream
 * consumer, for a contact change, reads the contact and its memberships, then writes. Each test
 * drives both, step by step, through every order of those steps (84), on an in-memory table, and
 * checks what must hold whatever the order:
 * - the contact is a member exactly when the segment's current filters match its final state,
 *   and memberCount counts the members;
 * - its segment.entered / segment.exited events alternate (never two entries in a row: a
 *   SEGMENT_ENTERED workflow starts once per entry);
 * - what the scenario fixes: e.g. a contact that joins a new segment because it was created or
 *   changed after the segment's creation has exactly one segment.entered, and a rebuild under new
 *   filters removes a member they exclude however recently it entered.
 */

const ddb = mockClient(DynamoDBDocumentClient);

const P = 'P1';
const SEGMENT = '01JSEGMENT000000000000000A';
const plan = (value: string) => ({ operator: 'AND', conditions: [{ field: 'data.plan', operator: 'equals', value }] });
const iso = (ms: number) => new Date(ms).toISOString();
const CREATED = Date.now() - 60_000;
const BEFORE = CREATED - 60_000;

const BUILD = ['build-read', 'build-members', 'build-check', 'build-write', 'build-reconcile', 'build-reeval-write'] as const;
const STREAM = ['change', 'stream-read', 'stream-write'] as const;
type Step = (typeof BUILD)[number] | (typeof STREAM)[number];

/** Every merge of the two step chains, each chain in its own order. */
function interleavings(a: readonly Step[], b: readonly Step[]): Step[][] {
  if (a.length === 0) return [[...b]];
  if (b.length === 0) return [[...a]];
  return [...interleavings(a.slice(1), b).map((rest) => [a[0]!, ...rest]), ...interleavings(a, b.slice(1)).map((rest) => [b[0]!, ...rest])];
}

const ORDERS = interleavings(BUILD, STREAM);

type Input = Record<string, any>;
const isContactKey = (key: Input) => String(key.SK).startsWith('CONTACT#');
const batchKeys = (input: Input): Input[] => Object.values(input.RequestItems as Record<string, { Keys: Input[] }>).flatMap(({ Keys }) => Keys);

/** Where each step parks its writer (a command parks at the first unreleased gate it matches). */
const GATES: [Step, (command: string, input: Input, actor: string | undefined) => boolean][] = [
  ['build-read', (command, input, actor) => actor === 'build' && command === 'Query' && input.ExpressionAttributeValues?.[':prefix'] === 'CONTACT#'],
  ['build-members', (command, input, actor) => actor === 'build' && command === 'Query' && String(input.KeyConditionExpression).includes('BETWEEN')],
  ['build-check', (command, input, actor) => actor === 'build' && command === 'BatchGet' && batchKeys(input).every(isContactKey)],
  ['build-write', (command, input, actor) => actor === 'build' && command === 'TransactWrite' && input.TransactItems[0].Update !== undefined],
  // The re-read of the page and, for a contact that changed, its re-evaluation's reads (memberships
  // included) in one step: the re-read reads nothing the stream consumer writes.
  ['build-reconcile', (command, input, actor) => actor === 'build' && (command === 'BatchGet' || (command === 'Get' && isContactKey(input.Key)))],
  ['build-reeval-write', (command, input, actor) => actor === 'build' && command === 'TransactWrite' && input.TransactItems[0].Update === undefined],
  ['stream-read', (command, input, actor) => actor === 'stream' && ((command === 'Get' && isContactKey(input.Key)) || command === 'BatchGet')],
  ['stream-write', (command, _input, actor) => actor === 'stream' && command === 'TransactWrite'],
];

const turn = () => new Promise((resolve) => setImmediate(resolve));

/** Lets each started writer run until it waits at a gate or finishes (then a few turns more, for commands sent together). */
async function settle(table: FakeTable, writers: { build: { done: boolean }; stream?: { done: boolean } }): Promise<void> {
  const still = (actor: 'build' | 'stream') => {
    const writer = writers[actor];
    return !writer || writer.done || table.waiting(actor) > 0;
  };
  for (let count = 0; count < 2_000 && !(still('build') && still('stream')); count++) await turn();
  for (let count = 0; count < 5; count++) await turn();
}

const tracked = (work: Promise<unknown>) => {
  const writer = { done: false, work };
  void work.finally(() => (writer.done = true)).catch(() => {});
  return writer;
};

interface Scenario {
  /** A creation build (the segment's first filters, `data.plan` pro) or a rebuild after its filters changed from pro to vip. */
  build: 'creation' | 'rebuild';
  /** The contact's plan before the build (absent: created during it). */
  before?: string;
  /** The change written during the build; absent: the stream consumer gets a late record of the change before it. */
  after?: string;
  /** Instead of data.plan, the filters ask whether the contact tracked `opened` (triggered / notTriggered), and the change is that event. */
  event?: 'triggered' | 'notTriggered';
  /** A member before the build: written under the previous filters (stamped) or before members carried their view (legacy). */
  memberBefore?: 'stamped' | 'legacy';
}

interface Outcome {
  member: boolean;
  events: string[];
  memberCount: unknown;
  status: unknown;
}

const contactItem = (id: string, planValue: string, updatedAt: number) => ({
  PK: `PROJECT#${P}`,
  SK: `CONTACT#${id}`,
  contactId: id,
  email: `${id.toLowerCase()}@example.com`,
  subscribed: true,
  data: { plan: planValue },
  createdAt: iso(BEFORE),
  updatedAt: iso(updatedAt),
});

/** Runs one order of the steps. */
async function race(table: FakeTable, order: Step[], scenario: Scenario): Promise<Outcome> {
  table.clear();
  const contactId = ulid();
  const rebuild = scenario.build === 'rebuild';
  const filtersVersion = rebuild ? 2 : 1;
  table.put({
    PK: `PROJECT#${P}`,
    SK: `SEGMENT#${SEGMENT}`,
    segmentId: SEGMENT,
    name: 'Segment',
    filters: scenario.event ? { operator: 'AND', conditions: [{ field: 'event', operator: scenario.event, value: 'opened' }] } : plan(rebuild ? 'vip' : 'pro'),
    trackMembership: true,
    filtersVersion,
    memberCount: scenario.memberBefore ? 1 : 0,
    membershipStatus: 'BUILDING',
    createdAt: iso(CREATED),
  });
  if (scenario.before) table.put(contactItem(contactId, scenario.before, BEFORE));
  if (scenario.memberBefore) {
    // It entered a moment ago, under the previous filters.
    const stamp = scenario.memberBefore === 'stamped' ? { filtersVersion: 1, seenUpdatedAt: iso(BEFORE), seenEventAt: 0 } : {};
    table.put({ PK: `PROJECT#${P}`, SK: `SEGMENT_MEMBER#${SEGMENT}#${contactId}`, segmentId: SEGMENT, contactId, enteredAt: iso(Date.now()), ...stamp });
  }
  for (const [name, matches] of GATES) table.hold(name, matches);

  const writers: { build: ReturnType<typeof tracked>; stream?: ReturnType<typeof tracked> } = {
    build: tracked(table.as('build', () => runBuild({ projectId: P, segmentId: SEGMENT, filtersVersion, recordEvents: rebuild }, Date.now() + 60_000))),
  };
  await settle(table, writers);
  for (const step of order) {
    if (step === 'change') {
      if (scenario.after) table.put(contactItem(contactId, scenario.after, Date.now()));
      if (scenario.event) table.put(eventWriteItems(P, newEvent({ name: 'opened', contactId, data: {} }))[0]!.Put!.Item!);
      writers.stream = tracked(table.as('stream', () => reevaluateContact(P, contactId, segmentLoader())));
    } else {
      table.release(step); // a step its writer does not need (nothing to write) just lets it pass later
    }
    await settle(table, writers);
  }
  for (const [name] of GATES) table.release(name);
  await Promise.all([writers.build.work, writers.stream?.work]);

  const segment = table.get({ PK: `PROJECT#${P}`, SK: `SEGMENT#${SEGMENT}` })!;
  return {
    member: table.get({ PK: `PROJECT#${P}`, SK: `SEGMENT_MEMBER#${SEGMENT}#${contactId}` }) !== undefined,
    events: table.history.filter((item) => String(item.SK).startsWith('EVENT#') && item.contactId === contactId && String(item.name).startsWith('segment.')).map((item) => String(item.name)),
    memberCount: segment.memberCount,
    status: segment.membershipStatus,
  };
}

/** What must hold in every order; returns what does not. */
function problems(scenario: Scenario, outcome: Outcome, expected: { member: boolean; events: string[][] }): string[] {
  const found: string[] = [];
  if (outcome.member !== expected.member) found.push(`member: ${outcome.member}`);
  if (outcome.memberCount !== (outcome.member ? 1 : 0)) found.push(`memberCount: ${String(outcome.memberCount)}`);
  if (outcome.status !== 'READY') found.push(`status: ${String(outcome.status)}`);
  if (outcome.events.some((name, index) => index > 0 && outcome.events[index - 1] === name)) found.push(`events do not alternate`);
  if (scenario.memberBefore && outcome.events[0] === 'segment.entered') found.push('a member entered again');
  if (!expected.events.some((events) => JSON.stringify(events) === JSON.stringify(outcome.events))) found.push(`events: ${JSON.stringify(outcome.events)}`);
  return found;
}

async function everyOrder(scenario: Scenario, expected: { member: boolean; events: string[][] }): Promise<string[]> {
  const failures: string[] = [];
  const table = new FakeTable(ddb);
  for (const order of ORDERS) {
    const found = problems(scenario, await race(table, order, scenario), expected);
    if (found.length > 0) failures.push(`${order.join(' → ')}: ${found.join(', ')}`);
  }
  return failures;
}

const ENTERED = 'segment.entered';
const EXITED = 'segment.exited';

// Each scenario plays 84 orders step by step: about a second on a quiet machine, many on a loaded one.
jest.setTimeout(60_000);

describe('the build and the stream consumer in every order of their steps', () => {
  beforeEach(() => {
    ddb.reset();
  });

  it('there are 84 orders', () => {
    expect(ORDERS).toHaveLength(84);
    expect(new Set(ORDERS.map((order) => order.join()))).toHaveProperty('size', 84);
  });

  describe('a new segment (creation build)', () => {
    it('a contact created into it during the build is a member with exactly one segment.entered', async () => {
      // Prepare
      const scenario: Scenario = { build: 'creation', after: 'pro' };

      // Act
      const failures = await everyOrder(scenario, { member: true, events: [[ENTERED]] });

      // Assess
      expect(failures).toEqual([]);
    });

    it('a contact changed into it during the build is a member with exactly one segment.entered', async () => {
      // Prepare
      const scenario: Scenario = { build: 'creation', before: 'free', after: 'pro' };

      // Act
      const failures = await everyOrder(scenario, { member: true, events: [[ENTERED]] });

      // Assess
      expect(failures).toEqual([]);
    });

    it('a contact changed out of it during the build is no member and never entered (it may have exited: it was in at the creation)', async () => {
      // Prepare
      const scenario: Scenario = { build: 'creation', before: 'pro', after: 'free' };

      // Act
      const failures = await everyOrder(scenario, { member: false, events: [[], [EXITED]] });

      // Assess
      expect(failures).toEqual([]);
    });

    it('a contact in it from its creation, whose change record arrives late, is a member with no event', async () => {
      // Prepare
      const scenario: Scenario = { build: 'creation', before: 'pro' };

      // Act
      const failures = await everyOrder(scenario, { member: true, events: [[]] });

      // Assess
      expect(failures).toEqual([]);
    });

    it('a contact in it from its creation and changed during the build, still matching, is a member that entered once at most', async () => {
      // Prepare: whoever reads the changed state first cannot tell it matched at the creation too.
      const scenario: Scenario = { build: 'creation', before: 'pro', after: 'pro' };

      // Act
      const failures = await everyOrder(scenario, { member: true, events: [[], [ENTERED]] });

      // Assess
      expect(failures).toEqual([]);
    });
  });

  describe('a new segment of an event condition (creation build)', () => {
    it('a contact that tracks the event during the build is a member with exactly one segment.entered', async () => {
      // Prepare
      const scenario: Scenario = { build: 'creation', before: 'free', event: 'triggered' };

      // Act
      const failures = await everyOrder(scenario, { member: true, events: [[ENTERED]] });

      // Assess
      expect(failures).toEqual([]);
    });

    it('a contact that tracks the event of a notTriggered condition during the build is no member and never entered', async () => {
      // Prepare
      const scenario: Scenario = { build: 'creation', before: 'free', event: 'notTriggered' };

      // Act
      const failures = await everyOrder(scenario, { member: false, events: [[], [EXITED]] });

      // Assess
      expect(failures).toEqual([]);
    });
  });

  describe('new filters (rebuild, pro → vip)', () => {
    it('a member that entered a moment ago under the old filters and matches no more exits once', async () => {
      // Prepare
      const scenario: Scenario = { build: 'rebuild', before: 'pro', memberBefore: 'stamped' };

      // Act
      const failures = await everyOrder(scenario, { member: false, events: [[EXITED]] });

      // Assess
      expect(failures).toEqual([]);
    });

    it('a member written before members carried their view, and matching no more, exits once', async () => {
      // Prepare
      const scenario: Scenario = { build: 'rebuild', before: 'pro', memberBefore: 'legacy' };

      // Act
      const failures = await everyOrder(scenario, { member: false, events: [[EXITED]] });

      // Assess
      expect(failures).toEqual([]);
    });

    it('a contact that matches the new filters and was no member enters once', async () => {
      // Prepare
      const scenario: Scenario = { build: 'rebuild', before: 'vip' };

      // Act
      const failures = await everyOrder(scenario, { member: true, events: [[ENTERED]] });

      // Assess
      expect(failures).toEqual([]);
    });

    it('a contact changed into the new filters during the rebuild enters once', async () => {
      // Prepare
      const scenario: Scenario = { build: 'rebuild', before: 'free', after: 'vip' };

      // Act
      const failures = await everyOrder(scenario, { member: true, events: [[ENTERED]] });

      // Assess
      expect(failures).toEqual([]);
    });

    it('a member changed out during the rebuild exits once', async () => {
      // Prepare
      const scenario: Scenario = { build: 'rebuild', before: 'pro', after: 'free', memberBefore: 'stamped' };

      // Act
      const failures = await everyOrder(scenario, { member: false, events: [[EXITED]] });

      // Assess
      expect(failures).toEqual([]);
    });

    it('a member changed into the new filters during the rebuild stays, or leaves and comes back when the rebuild saw it between', async () => {
      // Prepare
      const scenario: Scenario = { build: 'rebuild', before: 'pro', after: 'vip', memberBefore: 'stamped' };

      // Act
      const failures = await everyOrder(scenario, { member: true, events: [[], [EXITED, ENTERED]] });

      // Assess
      expect(failures).toEqual([]);
    });

    it('a contact matching the new filters and changed out during the rebuild ends outside, having entered once at most', async () => {
      // Prepare
      const scenario: Scenario = { build: 'rebuild', before: 'vip', after: 'free' };

      // Act
      const failures = await everyOrder(scenario, { member: false, events: [[], [ENTERED, EXITED]] });

      // Assess
      expect(failures).toEqual([]);
    });
  });

  it('a build does not undo a member the stream consumer wrote from a newer state after the build checked the contact (two changes)', async () => {
    // Prepare: the rebuild reads the contact free (V1) while a member from its pro state before (V0)
    // is still there, and parks just before writing its exit.
    const table = new FakeTable(ddb);
    const contactId = ulid();
    const V0 = Date.now() - 30_000;
    const V1 = Date.now() - 20_000;
    table.put({ PK: `PROJECT#${P}`, SK: `SEGMENT#${SEGMENT}`, segmentId: SEGMENT, name: 'Segment', filters: plan('pro'), trackMembership: true, filtersVersion: 2, memberCount: 1, membershipStatus: 'BUILDING', createdAt: iso(CREATED) });
    table.put(contactItem(contactId, 'free', V1));
    table.put({ PK: `PROJECT#${P}`, SK: `SEGMENT_MEMBER#${SEGMENT}#${contactId}`, segmentId: SEGMENT, contactId, enteredAt: iso(V0), filtersVersion: 2, seenUpdatedAt: iso(V0), seenEventAt: 0 });
    table.hold('build-write', GATES.find(([name]) => name === 'build-write')![1]);
    const build = table.as('build', () => runBuild({ projectId: P, segmentId: SEGMENT, filtersVersion: 2, recordEvents: true }, Date.now() + 60_000));
    await settle(table, { build: { done: false } });

    // Act: the stream consumer applies V1 (exit), then V2 (pro again: entry), then the build writes.
    await table.as('stream', () => reevaluateContact(P, contactId, segmentLoader()));
    table.put(contactItem(contactId, 'pro', Date.now()));
    await table.as('stream', () => reevaluateContact(P, contactId, segmentLoader()));
    const parked = table.arrived('build-write');
    table.release('build-write');
    await build;

    // Assess
    expect(parked).toBe(true);
    expect(table.get({ PK: `PROJECT#${P}`, SK: `SEGMENT_MEMBER#${SEGMENT}#${contactId}` })).toMatchObject({ contactId });
    expect(table.get({ PK: `PROJECT#${P}`, SK: `SEGMENT#${SEGMENT}` })).toMatchObject({ memberCount: 1, membershipStatus: 'READY' });
    const events = table.history.filter((item) => String(item.SK).startsWith('EVENT#') && item.contactId === contactId).map((item) => item.name);
    expect(events).toEqual([EXITED, ENTERED]);
  });
});
