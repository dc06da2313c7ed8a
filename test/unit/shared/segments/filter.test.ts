import { ApiError } from '../../../../shared/http/errors';
import { parseInput } from '../../../../shared/http/validation';
import { contactPaths, eventWindows, matches, type ContactView, type FilterGroup } from '../../../../shared/segments/filter';
import { createSegmentSchema } from '../../../../shared/segments/schemas';

const NOW = Date.parse('2026-06-01T12:00:00Z');
const DAY = 86_400_000;

const contact: ContactView = {
  id: '01JD0000000000000000000000',
  email: 'Jane.Doe@Example.com',
  subscribed: true,
  data: { plan: 'Pro', seats: 5, vip: true, tags: ['beta', 'VIP'], trialEnds: '2026-07-01', profile: { country: 'FR', score: 7 }, nothing: null },
  createdAt: '2026-01-15T10:00:00.000Z',
  updatedAt: '2026-05-30T10:00:00.000Z',
};

const lastEventAt = (name: string) => ({ purchase: NOW - 2 * DAY, signup: NOW - 40 * DAY })[name];
const one = (condition: Record<string, unknown>): FilterGroup => ({ operator: 'AND', conditions: [condition as never] });
const check = (condition: Record<string, unknown>) => matches(one(condition), contact, lastEventAt, NOW);

function errorsOf(filters: unknown) {
  try {
    parseInput(createSegmentSchema, { name: 'x', filters });
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).statusCode).toBe(422);
    return (error as ApiError).errors!.map((item) => item.field);
  }
  throw new Error('expected a validation error');
}

describe('filter operators', () => {
  it.each([
    [{ field: 'email', operator: 'equals', value: 'jane.doe@example.COM' }, true],
    [{ field: 'email', operator: 'notEquals', value: 'jane.doe@example.com' }, false],
    [{ field: 'email', operator: 'contains', value: 'DOE@' }, true],
    [{ field: 'email', operator: 'notContains', value: 'doe' }, false],
    [{ field: 'email', operator: 'startsWith', value: 'jane.' }, true],
    [{ field: 'email', operator: 'endsWith', value: '@example.org' }, false],
    [{ field: 'email', operator: 'in', value: ['a@b.c', 'JANE.DOE@example.com'] }, true],
    [{ field: 'email', operator: 'notIn', value: ['a@b.c'] }, true],
    [{ field: 'subscribed', operator: 'equals', value: true }, true],
    [{ field: 'subscribed', operator: 'notEquals', value: true }, false],
    [{ field: 'data.plan', operator: 'equals', value: 'pro' }, true],
    [{ field: 'data.plan', operator: 'equals', value: 'free' }, false],
    [{ field: 'data.seats', operator: 'equals', value: 5 }, true],
    [{ field: 'data.seats', operator: 'equals', value: '5' }, false],
    [{ field: 'data.vip', operator: 'equals', value: true }, true],
    [{ field: 'data.missing', operator: 'notEquals', value: 'x' }, true],
    [{ field: 'data.seats', operator: 'gt', value: 4 }, true],
    [{ field: 'data.seats', operator: 'gt', value: 5 }, false],
    [{ field: 'data.seats', operator: 'gte', value: 5 }, true],
    [{ field: 'data.seats', operator: 'lt', value: 5 }, false],
    [{ field: 'data.seats', operator: 'lte', value: 5 }, true],
    [{ field: 'data.plan', operator: 'gt', value: 1 }, false],
    [{ field: 'data.trialEnds', operator: 'gt', value: '2026-06-30' }, true],
    [{ field: 'data.trialEnds', operator: 'lte', value: '2026-06-30T23:59:59Z' }, false],
    [{ field: 'data.trialEnds', operator: 'equals', value: '2026-07-01' }, true],
    [{ field: 'data.plan', operator: 'exists' }, true],
    [{ field: 'data.nothing', operator: 'exists' }, false],
    [{ field: 'data.missing', operator: 'notExists' }, true],
    [{ field: 'data.plan', operator: 'in', value: ['free', 'PRO'] }, true],
    [{ field: 'data.plan', operator: 'notIn', value: ['free', 'PRO'] }, false],
    [{ field: 'data.tags', operator: 'contains', value: 'vip' }, true],
    [{ field: 'data.tags', operator: 'notContains', value: 'alpha' }, true],
    [{ field: 'data.plan', operator: 'contains', value: 'R' }, true],
    [{ field: 'data.plan', operator: 'startsWith', value: 'pr' }, true],
    [{ field: 'data.plan', operator: 'endsWith', value: 'RO' }, true],
    [{ field: 'data.profile.country', operator: 'equals', value: 'fr' }, true],
    [{ field: 'data.profile.score', operator: 'gte', value: 7 }, true],
    [{ field: 'data.plan.deeper', operator: 'exists' }, false],
    [{ field: 'createdAt', operator: 'equals', value: '2026-01-15' }, true],
    [{ field: 'createdAt', operator: 'gt', value: '2026-01-15' }, false],
    [{ field: 'createdAt', operator: 'gte', value: '2026-01-15' }, true],
    [{ field: 'createdAt', operator: 'lt', value: '2026-01-15T10:00:00.001Z' }, true],
    [{ field: 'updatedAt', operator: 'lte', value: '2026-05-30' }, true],
    [{ field: 'updatedAt', operator: 'notEquals', value: '2026-05-30' }, false],
    [{ field: 'event', operator: 'triggered', value: 'purchase' }, true],
    [{ field: 'event', operator: 'triggered', value: 'purchase', withinDays: 1 }, false],
    [{ field: 'event', operator: 'triggered', value: 'signup', withinDays: 30 }, false],
    [{ field: 'event', operator: 'triggered', value: 'signup', withinDays: 41 }, true],
    [{ field: 'event', operator: 'notTriggered', value: 'login' }, true],
    [{ field: 'event', operator: 'notTriggered', value: 'purchase', withinDays: 1 }, true],
  ])('%j → %s', (condition, expected) => {
    expect(parseInput(createSegmentSchema, { name: 'x', filters: one(condition) }).filters).toBeDefined();
    expect(check(condition)).toBe(expected);
  });

  it('combines with AND / OR and nested groups', () => {
    const filters: FilterGroup = {
      operator: 'OR',
      conditions: [
        { field: 'data.plan', operator: 'equals', value: 'free' },
        { operator: 'AND', conditions: [{ field: 'data.seats', operator: 'gte', value: 5 }, { operator: 'OR', conditions: [{ field: 'email', operator: 'endsWith', value: '.org' }, { field: 'event', operator: 'triggered', value: 'purchase' }] }] },
      ],
    };
    expect(matches(filters, contact, lastEventAt, NOW)).toBe(true);
    expect(matches(filters, contact, () => undefined, NOW)).toBe(false);
  });
});

describe('filter validation (422 with paths)', () => {
  it('names the bad operator', () => {
    expect(errorsOf({ operator: 'AND', conditions: [{ field: 'email', operator: 'equals', value: 'a' }, { field: 'email', operator: 'like', value: 'a' }] })).toEqual([
      'filters.conditions[1].operator',
    ]);
  });

  it('names an operator the field does not take, and values of the wrong type', () => {
    expect(errorsOf(one({ field: 'subscribed', operator: 'contains', value: 'x' }))).toEqual(['filters.conditions[0].operator']);
    expect(errorsOf(one({ field: 'createdAt', operator: 'gt', value: 'soon' }))).toEqual(['filters.conditions[0].value']);
    expect(errorsOf(one({ field: 'data.seats', operator: 'gt', value: true }))).toEqual(['filters.conditions[0].value']);
    expect(errorsOf(one({ field: 'data.plan', operator: 'in', value: ['a', { b: 1 }] }))).toEqual(['filters.conditions[0].value[1]']);
    expect(errorsOf(one({ field: 'data.plan', operator: 'in', value: [] }))).toEqual(['filters.conditions[0].value']);
    expect(errorsOf(one({ field: 'data.plan', operator: 'exists', value: 'x' }))).toEqual(['filters.conditions[0].value']);
    expect(errorsOf(one({ field: 'data.plan', operator: 'equals', value: 'x', withinDays: 3 }))).toEqual(['filters.conditions[0].withinDays']);
  });

  it('checks fields, event names and nested paths', () => {
    expect(errorsOf(one({ field: 'name', operator: 'equals', value: 'x' }))).toEqual(['filters.conditions[0].field']);
    expect(errorsOf(one({ field: 'data.__proto__', operator: 'exists' }))).toEqual(['filters.conditions[0].field']);
    expect(errorsOf(one({ field: 'event', operator: 'triggered', value: 'segment.entered' }))).toEqual(['filters.conditions[0].value']);
    expect(errorsOf(one({ field: 'event', operator: 'triggered', value: 'x', withinDays: 0 }))).toEqual(['filters.conditions[0].withinDays']);
    expect(errorsOf(one({ field: 'event', operator: 'equals', value: 'x' }))).toEqual(['filters.conditions[0].operator']);
    expect(errorsOf({ operator: 'AND', conditions: [{ operator: 'OR', conditions: [{ field: 'email', operator: 'startsWith', value: 1 }] }] })).toEqual([
      'filters.conditions[0].conditions[0].value',
    ]);
  });

  it('bounds depth to 3 and size to 50 conditions', () => {
    const leaf = { field: 'email', operator: 'contains', value: 'a' };
    const depth3 = { operator: 'AND', conditions: [{ operator: 'OR', conditions: [{ operator: 'AND', conditions: [leaf] }] }] };
    expect(parseInput(createSegmentSchema, { name: 'x', filters: depth3 })).toBeDefined();
    expect(errorsOf({ operator: 'AND', conditions: [depth3] })).toEqual(['filters.conditions[0].conditions[0].conditions[0]']);
    const wide = { operator: 'AND', conditions: Array.from({ length: 30 }, () => ({ operator: 'OR', conditions: [leaf, leaf] })) };
    expect(errorsOf(wide)).toEqual(['filters.conditions']);
    expect(errorsOf('nope')).toEqual(['filters']);
    expect(errorsOf({ operator: 'XOR', conditions: [leaf] })).toEqual(['filters.operator']);
  });
});

describe('what a filter reads', () => {
  it('lists contact paths without overlaps and event windows from the earliest time', () => {
    const filters = {
      operator: 'AND',
      conditions: [
        { field: 'data.profile', operator: 'exists' },
        { field: 'data.profile.country', operator: 'equals', value: 'FR' },
        { field: 'email', operator: 'contains', value: 'a' },
        { field: 'event', operator: 'triggered', value: 'purchase', withinDays: 7 },
        { field: 'event', operator: 'notTriggered', value: 'purchase', withinDays: 30 },
        { field: 'event', operator: 'triggered', value: 'signup' },
      ],
    } as FilterGroup;
    expect(contactPaths(filters)).toEqual([['data', 'profile'], ['email']]);
    expect(eventWindows(filters, NOW)).toEqual(new Map([['purchase', NOW - 30 * DAY], ['signup', 0]]));
  });
});
