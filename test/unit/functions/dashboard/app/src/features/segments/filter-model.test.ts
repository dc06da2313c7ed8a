import * as v from 'valibot';
import {
  describeFilters,
  fromFilters,
  newCondition,
  newGroup,
  operatorsFor,
  reshape,
  toFilters,
  updateItem,
  type ConditionDraft,
  type GroupDraft,
} from '../../../../../../../../functions/dashboard/app/src/features/segments/filter-model';
import { CONTACT_OPERATORS, EVENT_OPERATORS, filtersSchema } from '../../../../../../../../shared/segments/filter';

const condition = (change: Partial<ConditionDraft>): ConditionDraft => ({ ...newCondition(), ...change });

describe('the segment filter builder model', () => {
  it('builds data.plan equals pro AND event signed_up as the API takes it, and the server accepts it', () => {
    // Prepare
    const draft = newGroup('AND', [condition({ subject: 'data', dataKey: 'plan', operator: 'equals', value: 'pro' }), condition({ subject: 'event', operator: 'triggered', value: 'signed_up' })]);

    // Act
    const { filters, problems } = toFilters(draft);

    // Assess
    expect(problems).toEqual([]);
    expect(filters).toEqual({ operator: 'AND', conditions: [{ field: 'data.plan', operator: 'equals', value: 'pro' }, { field: 'event', operator: 'triggered', value: 'signed_up' }] });
    expect(v.safeParse(filtersSchema, filters).success).toBe(true);
  });

  it('types each value by its field: numbers, yes/no, dates, lists, event windows and nested groups', () => {
    // Prepare
    const draft = newGroup('OR', [
      condition({ subject: 'data', dataKey: 'seats', dataType: 'number', operator: 'gte', value: '5' }),
      condition({ subject: 'subscribed', operator: 'equals', value: 'false' }),
      newGroup('AND', [
        condition({ subject: 'createdAt', operator: 'gt', value: '2026-01-31' }),
        condition({ subject: 'data', dataKey: 'plan', dataType: 'text', operator: 'in', value: 'pro, team ,' }),
        condition({ subject: 'data', dataKey: 'tier', dataType: 'number', operator: 'notIn', value: '1,2' }),
        condition({ subject: 'event', operator: 'notTriggered', value: 'purchased', withinDays: '30' }),
        condition({ subject: 'data', dataKey: 'company.size', operator: 'exists', value: 'ignored' }),
      ]),
    ]);

    // Act
    const { filters, problems } = toFilters(draft);

    // Assess
    expect(problems).toEqual([]);
    expect(filters).toEqual({
      operator: 'OR',
      conditions: [
        { field: 'data.seats', operator: 'gte', value: 5 },
        { field: 'subscribed', operator: 'equals', value: false },
        {
          operator: 'AND',
          conditions: [
            { field: 'createdAt', operator: 'gt', value: '2026-01-31' },
            { field: 'data.plan', operator: 'in', value: ['pro', 'team'] },
            { field: 'data.tier', operator: 'notIn', value: [1, 2] },
            { field: 'event', operator: 'notTriggered', value: 'purchased', withinDays: 30 },
            { field: 'data.company.size', operator: 'exists' },
          ],
        },
      ],
    });
    expect(v.safeParse(filtersSchema, filters).success).toBe(true);
  });

  it('names what an incomplete filter still needs instead of building it', () => {
    // Prepare
    const draft = newGroup('AND', [
      condition({ subject: 'data', dataKey: '', value: 'pro' }),
      condition({ subject: 'data', dataKey: 'a b', value: 'x' }),
      condition({ subject: 'data', dataKey: 'n', dataType: 'number', operator: 'gt', value: 'many' }),
      newGroup('OR', [condition({ subject: 'event', operator: 'triggered', value: 'x', withinDays: '0' })]),
      newGroup('OR', []),
    ]);

    // Act
    const { filters, problems } = toFilters(draft);

    // Assess
    expect(filters).toBeNull();
    expect(problems).toEqual([
      'Condition 1: give the data key.',
      'Condition 2: data keys are up to 4 names of letters, digits, _ or - separated by dots.',
      'Condition 3: "many" is not a number.',
      'Condition 4.1: "within days" is a whole number from 1 to 3650.',
      'Group 5 is empty: add a condition or remove the group.',
    ]);
  });

  it('offers for each field only operators the server accepts for it', () => {
    // Prepare
    const cases = [
      ['email', 'text', 'email'],
      ['subscribed', 'text', 'subscribed'],
      ['createdAt', 'text', 'createdAt'],
      ['event', 'text', 'event'],
      ['data', 'text', 'data.k'],
      ['data', 'number', 'data.k'],
      ['data', 'boolean', 'data.k'],
      ['data', 'date', 'data.k'],
    ] as const;
    const values: Record<string, unknown> = { email: 'a', subscribed: true, createdAt: '2026-01-01', event: 'e', 'data.k': 'x' };
    const refused: string[] = [];

    // Act
    for (const [subject, dataType, field] of cases) {
      for (const operator of operatorsFor(subject, dataType)) {
        const value = operator === 'exists' || operator === 'notExists' ? undefined : operator === 'in' || operator === 'notIn' ? [values[field]] : ['gt', 'gte', 'lt', 'lte'].includes(operator) && field === 'data.k' ? 3 : values[field];
        const result = v.safeParse(filtersSchema, { operator: 'AND', conditions: [{ field, operator, ...(value === undefined ? {} : { value }) }] });
        if (!result.success) refused.push(`${field} ${operator}`);
      }
    }

    // Assess
    expect(refused).toEqual([]);
    expect(new Set(cases.flatMap(([subject, dataType]) => operatorsFor(subject, dataType)))).toEqual(new Set([...CONTACT_OPERATORS, ...EVENT_OPERATORS]));
  });

  it('keeps a fitting operator when the field changes and resets one that no longer fits', () => {
    // Prepare
    const text = condition({ subject: 'data', dataKey: 'plan', operator: 'startsWith', value: 'pr' });

    // Act
    const asNumber = reshape(text, { dataType: 'number' });
    const asEmail = reshape(text, { subject: 'email' });
    const asSubscribed = reshape(text, { subject: 'subscribed' });

    // Assess
    expect(asNumber).toMatchObject({ operator: 'equals', value: '' });
    expect(asEmail).toMatchObject({ operator: 'startsWith', value: 'pr' });
    expect(asSubscribed).toMatchObject({ operator: 'equals', value: 'true' });
  });

  it('opens saved filters for editing and builds them back unchanged', () => {
    // Prepare
    const saved = {
      operator: 'AND' as const,
      conditions: [
        { field: 'data.plan', operator: 'in' as const, value: ['pro', 'team'] },
        { field: 'data.renewsAt', operator: 'lt' as const, value: '2026-12-01' },
        { field: 'data.trial', operator: 'equals' as const, value: true },
        { operator: 'OR' as const, conditions: [{ field: 'updatedAt', operator: 'gte' as const, value: '2026-02-01' }, { field: 'event', operator: 'triggered' as const, value: 'signed_up', withinDays: 7 }] },
      ],
    };

    // Act
    const reopened = toFilters(fromFilters(saved));

    // Assess
    expect(reopened).toEqual({ filters: saved, problems: [] });
  });

  it('replaces or removes an item anywhere in the tree', () => {
    // Prepare
    const inner = condition({ subject: 'email', operator: 'endsWith', value: '@example.com' });
    const draft: GroupDraft = newGroup('AND', [condition({ subject: 'subscribed' }), newGroup('OR', [inner])]);

    // Act
    const changed = updateItem(draft, inner.id, { ...inner, value: '@acme.test' });
    const removed = updateItem(draft, inner.id, null);

    // Assess
    expect((changed.items[1] as GroupDraft).items[0]).toMatchObject({ value: '@acme.test' });
    expect((removed.items[1] as GroupDraft).items).toEqual([]);
    expect((draft.items[1] as GroupDraft).items[0]).toBe(inner);
  });

  it('puts filters in words, with nested groups in brackets', () => {
    // Act
    const text = describeFilters({ operator: 'AND', conditions: [{ field: 'data.plan', operator: 'equals', value: 'pro' }, { operator: 'OR', conditions: [{ field: 'event', operator: 'triggered', value: 'signed_up', withinDays: 7 }, { field: 'subscribed', operator: 'equals', value: true }] }] });

    // Assess
    expect(text).toBe('data.plan is "pro" AND (event "signed_up" was done in the last 7 days OR Subscribed is true)');
  });
});
