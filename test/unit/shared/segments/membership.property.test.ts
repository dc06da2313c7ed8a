import fc from 'fast-check';
import { decodeTime, ulid } from 'ulid';
import { eventIdBounds } from '../../../../shared/events/keys';
import { compileFilter, eventWindows, type Condition, type ContactView, type FilterGroup } from '../../../../shared/segments/filter';
import { lastEventAtFrom, type NameFacts } from '../../../../shared/segments/evaluate';
import { contactToReevaluate, decideMembership, ENTERED, EXITED, lastEventTimes, membershipDiff, type TrackedSegment } from '../../../../shared/segments/membership';

/**
 * After any sequence of contact creates, updates, deletes and tracked events, the membership the
 * stream consumer materialises (routing of table changes → decideMembership → entered/exited,
 * whose own event records are fed back into the stream) equals the on-demand evaluation (name
 * partitions → compiled filter over every contact). Time is fixed, as within-N-days conditions of
 * tracked segments are only re-evaluated on change (/docs "Segments").
 */
const NOW = Date.parse('2026-06-01T00:00:00Z');
const DAY = 86_400_000;
const P = 'P1';

const plans = ['pro', 'free', 'PRO', 'team'];
const eventNames = ['purchase', 'signup', 'login'];

const conditionArb: fc.Arbitrary<Condition> = fc.oneof(
  fc.record({ field: fc.constant('data.plan'), operator: fc.constantFrom('equals', 'notEquals', 'startsWith' as const), value: fc.constantFrom(...plans) }),
  fc.record({ field: fc.constant('data.plan'), operator: fc.constantFrom('in', 'notIn' as const), value: fc.subarray(plans, { minLength: 1 }) }),
  fc.record({ field: fc.constant('data.plan'), operator: fc.constantFrom('exists', 'notExists' as const) }),
  fc.record({ field: fc.constant('data.seats'), operator: fc.constantFrom('gt', 'gte', 'lt', 'lte', 'equals' as const), value: fc.integer({ min: 0, max: 10 }) }),
  fc.record({ field: fc.constant('email'), operator: fc.constantFrom('contains', 'endsWith', 'notContains' as const), value: fc.constantFrom('@a.com', 'x', '@b.org') }),
  fc.record({ field: fc.constant('subscribed'), operator: fc.constantFrom('equals', 'notEquals' as const), value: fc.boolean() }),
  fc.record(
    { field: fc.constant('event' as const), operator: fc.constantFrom('triggered', 'notTriggered' as const), value: fc.constantFrom(...eventNames), withinDays: fc.integer({ min: 1, max: 30 }) },
    { requiredKeys: ['field', 'operator', 'value'] },
  ),
) as fc.Arbitrary<Condition>;

const groupArb: fc.Arbitrary<FilterGroup> = fc.letrec<{ group: FilterGroup }>((tie) => ({
  group: fc.record({
    operator: fc.constantFrom('AND', 'OR' as const),
    conditions: fc.array(fc.oneof({ depthSize: 'small', withCrossShrink: true }, conditionArb, tie('group')), { minLength: 1, maxLength: 3 }),
  }),
})).group;

type Op =
  | { kind: 'create'; email: string; subscribed: boolean; plan?: string; seats?: number }
  | { kind: 'update'; target: number; subscribed?: boolean; plan?: string | null; seats?: number | null; email?: string }
  | { kind: 'delete'; target: number }
  | { kind: 'track'; target: number; name: string; daysAgo: number }
  | { kind: 'patchSegment'; segment: number; filters: FilterGroup };

const emailArb = fc.tuple(fc.constantFrom('ann', 'bob', 'xena', 'max'), fc.constantFrom('@a.com', '@b.org')).map(([user, domain]) => `${user}${domain}`);
const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('create' as const), email: emailArb, subscribed: fc.boolean(), plan: fc.option(fc.constantFrom(...plans), { nil: undefined }), seats: fc.option(fc.integer({ min: 0, max: 10 }), { nil: undefined }) }),
  fc.record(
    { kind: fc.constant('update' as const), target: fc.nat(), subscribed: fc.boolean(), plan: fc.option(fc.constantFrom(...plans)), seats: fc.option(fc.integer({ min: 0, max: 10 })), email: emailArb },
    { requiredKeys: ['kind', 'target'] },
  ),
  fc.record({ kind: fc.constant('delete' as const), target: fc.nat() }),
  fc.record({ kind: fc.constant('track' as const), target: fc.nat(), name: fc.constantFrom(...eventNames), daysAgo: fc.integer({ min: 0, max: 60 }) }),
  fc.record({ kind: fc.constant('patchSegment' as const), segment: fc.nat(), filters: groupArb }),
);

interface StoredEvent {
  eventId: string;
  name: string;
  contactId: string;
}

interface Change {
  keys: Record<string, unknown>;
  newImage?: Record<string, unknown>;
  oldImage?: Record<string, unknown>;
}

/** The table as the model sees it, plus the consumer's materialised memberships. */
class Model {
  contacts = new Map<string, ContactView>();
  events: StoredEvent[] = [];
  members = new Map<string, Set<string>>();
  loops = 0;

  constructor(public segments: TrackedSegment[]) {
    for (const segment of segments) this.members.set(segment.id, new Set());
  }

  /** What the on-demand evaluation reads: the name partitions (from each window's start) and every contact. */
  onDemand(filters: FilterGroup): Set<string> {
    const facts: NameFacts = new Map();
    for (const [name, from] of eventWindows(filters, NOW)) {
      const latest = new Map<string, number>();
      const inPartition = this.events.filter((event) => event.name === name && event.eventId >= eventIdBounds(from, from).low).sort((a, b) => (a.eventId < b.eventId ? -1 : 1));
      for (const event of inPartition) latest.set(event.contactId, decodeTime(event.eventId));
      facts.set(name, latest);
    }
    const predicate = compileFilter(filters, NOW);
    return new Set([...this.contacts.values()].filter((contact) => predicate(contact, lastEventAtFrom(facts, contact.id))).map((contact) => contact.id));
  }

  /** The stream consumer: routes a change, re-evaluates the contact, writes entered/exited (whose records come back). */
  consume(change: Change) {
    const target = contactToReevaluate(change);
    if (!target) return;
    expect(target.projectId).toBe(P);
    const contact = this.contacts.get(target.contactId);
    const times = lastEventTimes(this.events.filter((event) => event.contactId === target.contactId));
    const { enter, exit } = decideMembership(this.segments, contact, (name) => times.get(name), (id) => this.members.get(id)!.has(target.contactId), NOW);
    const written: Change[] = [];
    for (const segment of enter) {
      this.members.get(segment.id)!.add(target.contactId);
      written.push(this.recordEvent(target.contactId, ENTERED, NOW));
    }
    for (const segment of exit) {
      this.members.get(segment.id)!.delete(target.contactId);
      written.push(this.recordEvent(target.contactId, EXITED, NOW));
    }
    for (const next of written) {
      if (contactToReevaluate(next)) this.loops++;
      this.consume(next);
    }
  }

  recordEvent(contactId: string, name: string, at: number): Change {
    const event = { eventId: ulid(at), name, contactId };
    this.events.push(event);
    return { keys: { PK: `PROJECT#${P}`, SK: `EVENT#${event.eventId}` }, newImage: { ...event, PK: `PROJECT#${P}`, SK: `EVENT#${event.eventId}` } };
  }

  contactChange(id: string, before: ContactView | undefined, after: ContactView | undefined): Change {
    const keys = { PK: `PROJECT#${P}`, SK: `CONTACT#${id}` };
    return { keys, ...(after ? { newImage: { ...keys, contactId: id, ...after } } : {}), ...(before ? { oldImage: { ...keys, contactId: id, ...before } } : {}) };
  }

  apply(op: Op, step: number) {
    const ids = [...this.contacts.keys()];
    const pick = (n: number) => (ids.length ? ids[n % ids.length] : undefined);
    switch (op.kind) {
      case 'create': {
        if ([...this.contacts.values()].some((contact) => contact.email === op.email)) return;
        const id = ulid(NOW - 100 * DAY + step);
        const at = new Date(NOW - 100 * DAY + step).toISOString();
        const data: Record<string, unknown> = {};
        if (op.plan !== undefined) data.plan = op.plan;
        if (op.seats !== undefined) data.seats = op.seats;
        const contact = { id, email: op.email, subscribed: op.subscribed, data, createdAt: at, updatedAt: at };
        this.contacts.set(id, contact);
        return this.consume(this.contactChange(id, undefined, contact));
      }
      case 'update': {
        const id = pick(op.target);
        if (!id) return;
        const before = this.contacts.get(id)!;
        const data = { ...before.data };
        for (const key of ['plan', 'seats'] as const) {
          if (op[key] === null) delete data[key];
          else if (op[key] !== undefined) data[key] = op[key];
        }
        const emailFree = op.email !== undefined && ![...this.contacts.values()].some((contact) => contact.email === op.email && contact.id !== id);
        const after = { ...before, data, subscribed: op.subscribed ?? before.subscribed, email: emailFree ? op.email! : before.email };
        this.contacts.set(id, after);
        return this.consume(this.contactChange(id, before, after));
      }
      case 'delete': {
        const id = pick(op.target);
        if (!id) return;
        const before = this.contacts.get(id)!;
        this.contacts.delete(id);
        return this.consume(this.contactChange(id, before, undefined));
      }
      case 'track': {
        const id = pick(op.target);
        if (!id) return;
        return this.consume(this.recordEvent(id, op.name, NOW - op.daysAgo * DAY - 1000));
      }
      case 'patchSegment': {
        // PATCH: new filters, then the diff between the on-demand evaluation and the stored members.
        const index = op.segment % this.segments.length;
        const segment = { ...this.segments[index]!, filters: op.filters, filtersVersion: this.segments[index]!.filtersVersion + 1 };
        this.segments[index] = segment;
        const members = this.members.get(segment.id)!;
        const diff = membershipDiff(this.onDemand(segment.filters), members);
        for (const id of diff.enter) members.add(id);
        for (const id of diff.exit) members.delete(id);
        return;
      }
    }
  }
}

describe('materialised membership equals on-demand evaluation', () => {
  it('after any sequence of contact writes, events and segment edits', () => {
    fc.assert(
      fc.property(fc.array(groupArb, { minLength: 1, maxLength: 3 }), fc.array(opArb, { maxLength: 40 }), (filters, ops) => {
        const model = new Model(filters.map((group, index) => ({ id: `S${index}`, name: `segment ${index}`, filters: group, filtersVersion: 1 })));
        ops.forEach((op, step) => model.apply(op, step));
        for (const segment of model.segments) {
          expect([...model.members.get(segment.id)!].sort()).toEqual([...model.onDemand(segment.filters)].sort());
        }
        // segment.* events never re-enter the consumer.
        expect(model.loops).toBe(0);
      }),
      { numRuns: 300 },
    );
  });

  it('a segment built mid-way (create) and kept by the stream agrees too', () => {
    fc.assert(
      fc.property(groupArb, fc.array(opArb, { maxLength: 20 }), fc.array(opArb, { maxLength: 20 }), (filters, before, after) => {
        const model = new Model([]);
        before.forEach((op, step) => op.kind !== 'patchSegment' && model.apply(op, step));
        const segment = { id: 'NEW', name: 'new', filters, filtersVersion: 1 };
        model.segments.push(segment);
        model.members.set(segment.id, model.onDemand(filters));
        after.forEach((op, step) => model.apply(op, before.length + step));
        expect([...model.members.get('NEW')!].sort()).toEqual([...model.onDemand(model.segments[0]!.filters)].sort());
      }),
      { numRuns: 200 },
    );
  });
});
