import type { components } from '../../lib/schema';

/**
 * The filter builder's model: the segment filter language (shared/segments/filter.ts, documented
 * in /docs "Segments") as the form edits it — every value a string from an input — and the
 * conversions to and from the API's filters. Pure, so the rules are unit-tested.
 */

export type ApiFilter = components['schemas']['SegmentFilter'];
export type ApiCondition = components['schemas']['SegmentCondition'];
export type Operator = ApiCondition['operator'];

/** What a condition is about: a contact field, a data key (with the type its value is compared as) or an event. */
export type Subject = 'email' | 'subscribed' | 'createdAt' | 'updatedAt' | 'data' | 'event';
export type DataType = 'text' | 'number' | 'boolean' | 'date';

export interface ConditionDraft {
  kind: 'condition';
  id: string;
  subject: Subject;
  /** data.<key>: the key, a dotted path of up to 4 keys. */
  dataKey: string;
  dataType: DataType;
  operator: Operator;
  /** The value as typed; for in / notIn, values separated by commas. */
  value: string;
  /** Event conditions: only the last N days (empty: ever). */
  withinDays: string;
}

export interface GroupDraft {
  kind: 'group';
  id: string;
  operator: 'AND' | 'OR';
  items: (ConditionDraft | GroupDraft)[];
}

/** The language's limits (shared/segments/filter.ts filterLimits). */
export const LIMITS = { maxDepth: 3, maxConditions: 50, maxInValues: 100, maxStringLength: 1000, maxWithinDays: 3650, maxDataPathSegments: 4 } as const;

export const SUBJECTS: readonly (readonly [Subject, string])[] = [
  ['email', 'Email'],
  ['subscribed', 'Subscribed'],
  ['createdAt', 'Created'],
  ['updatedAt', 'Updated'],
  ['data', 'Data key'],
  ['event', 'Event'],
];

export const DATA_TYPES: readonly (readonly [DataType, string])[] = [
  ['text', 'Text'],
  ['number', 'Number'],
  ['boolean', 'Yes / no'],
  ['date', 'Date'],
];

const LABELS: Record<Operator, string> = {
  equals: 'is',
  notEquals: 'is not',
  contains: 'contains',
  notContains: 'does not contain',
  startsWith: 'starts with',
  endsWith: 'ends with',
  gt: 'is greater than',
  gte: 'is at least',
  lt: 'is less than',
  lte: 'is at most',
  exists: 'is set',
  notExists: 'is not set',
  in: 'is one of',
  notIn: 'is none of',
  triggered: 'was done',
  notTriggered: 'was not done',
};

const DATE_LABELS: Partial<Record<Operator, string>> = { equals: 'is on', notEquals: 'is not on', gt: 'is after', gte: 'is on or after', lt: 'is before', lte: 'is on or before' };

/** The operators that fit a condition's subject (and a data key's type), as the server accepts them. */
export function operatorsFor(subject: Subject, dataType: DataType): Operator[] {
  switch (subject) {
    case 'email':
      return ['equals', 'notEquals', 'contains', 'notContains', 'startsWith', 'endsWith', 'in', 'notIn'];
    case 'subscribed':
      return ['equals', 'notEquals'];
    case 'createdAt':
    case 'updatedAt':
      return ['equals', 'notEquals', 'gt', 'gte', 'lt', 'lte'];
    case 'event':
      return ['triggered', 'notTriggered'];
    case 'data':
      switch (dataType) {
        case 'text':
          return ['equals', 'notEquals', 'contains', 'notContains', 'startsWith', 'endsWith', 'in', 'notIn', 'exists', 'notExists'];
        case 'number':
          return ['equals', 'notEquals', 'gt', 'gte', 'lt', 'lte', 'in', 'notIn', 'exists', 'notExists'];
        case 'boolean':
          return ['equals', 'notEquals', 'exists', 'notExists'];
        case 'date':
          return ['equals', 'notEquals', 'gt', 'gte', 'lt', 'lte', 'exists', 'notExists'];
      }
  }
}

/** The operator as the form reads it ("is after" for a date's gt). */
export function operatorLabel(operator: Operator, subject: Subject, dataType: DataType): string {
  const isDate = subject === 'createdAt' || subject === 'updatedAt' || (subject === 'data' && dataType === 'date');
  return (isDate && DATE_LABELS[operator]) || LABELS[operator];
}

/** The input a condition's value needs: none, a yes/no choice, a date, a number, an event name or text. */
export function valueInput(condition: Pick<ConditionDraft, 'subject' | 'dataType' | 'operator'>): 'none' | 'boolean' | 'date' | 'number' | 'event' | 'text' | 'list' {
  const { subject, dataType, operator } = condition;
  if (operator === 'exists' || operator === 'notExists') return 'none';
  if (operator === 'in' || operator === 'notIn') return 'list';
  if (subject === 'event') return 'event';
  if (subject === 'subscribed' || (subject === 'data' && dataType === 'boolean')) return 'boolean';
  if (subject === 'createdAt' || subject === 'updatedAt' || (subject === 'data' && dataType === 'date')) return 'date';
  if (subject === 'data' && dataType === 'number') return 'number';
  return 'text';
}

let nextId = 0;
const newId = () => `f${++nextId}`;

export const newCondition = (subject: Subject = 'data'): ConditionDraft => ({
  kind: 'condition',
  id: newId(),
  subject,
  dataKey: '',
  dataType: 'text',
  operator: operatorsFor(subject, 'text')[0]!,
  value: subject === 'subscribed' ? 'true' : '',
  withinDays: '',
});

export const newGroup = (operator: 'AND' | 'OR' = 'AND', items: (ConditionDraft | GroupDraft)[] = [newCondition()]): GroupDraft => ({ kind: 'group', id: newId(), operator, items });

/**
 * A change of subject or data type keeps the operator when it still fits (else the first that
 * does) and the value when its input stays the same kind.
 */
export function reshape(condition: ConditionDraft, change: Partial<Pick<ConditionDraft, 'subject' | 'dataType' | 'operator'>>): ConditionDraft {
  const next = { ...condition, ...change };
  const operators = operatorsFor(next.subject, next.dataType);
  if (!operators.includes(next.operator)) next.operator = operators[0]!;
  const before = valueInput(condition);
  const after = valueInput(next);
  if (after !== before) next.value = after === 'boolean' ? 'true' : before === 'list' || after === 'list' ? next.value : '';
  if (next.subject !== 'event') next.withinDays = '';
  return next;
}

const DATA_KEY = /^[A-Za-z0-9_-]{1,64}$/;
const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
const EVENT_NAME = /^[A-Za-z0-9][A-Za-z0-9 _.:/-]*$/;

export interface Converted {
  /** The API's filters, or null while a condition is incomplete. */
  filters: ApiFilter | null;
  /** What is missing or wrong, one line per condition, as the user reads it. */
  problems: string[];
}

/** The draft as the API's filters; incomplete conditions are named in `problems` instead. */
export function toFilters(root: GroupDraft): Converted {
  const problems: string[] = [];
  let count = 0;
  const convertGroup = (group: GroupDraft, depth: number, path: string): ApiFilter => {
    if (depth > LIMITS.maxDepth) problems.push(`Groups nest at most ${LIMITS.maxDepth} levels deep.`);
    if (group.items.length === 0) problems.push(`${path ? `Group ${path}` : 'The filter'} is empty: add a condition${path ? ' or remove the group' : ''}.`);
    return {
      operator: group.operator,
      conditions: group.items.map((item, index) => {
        const at = path ? `${path}.${index + 1}` : `${index + 1}`;
        if (item.kind === 'group') return convertGroup(item, depth + 1, at);
        count++;
        const converted = convertCondition(item);
        if (typeof converted === 'string') {
          problems.push(`Condition ${at}: ${converted}`);
          return { field: 'email', operator: 'exists' } as ApiCondition;
        }
        return converted;
      }),
    };
  };
  const filters = convertGroup(root, 1, '');
  if (count > LIMITS.maxConditions) problems.push(`A segment has at most ${LIMITS.maxConditions} conditions.`);
  return problems.length ? { filters: null, problems } : { filters, problems };
}

function convertCondition(condition: ConditionDraft): ApiCondition | string {
  const { subject, operator } = condition;
  let field: string = subject;
  if (subject === 'data') {
    const key = condition.dataKey.trim();
    const parts = key.split('.');
    if (!key) return 'give the data key.';
    if (parts.length > LIMITS.maxDataPathSegments || !parts.every((part) => DATA_KEY.test(part))) return `data keys are up to ${LIMITS.maxDataPathSegments} names of letters, digits, _ or - separated by dots.`;
    field = `data.${key}`;
  }
  const input = valueInput(condition);
  if (input === 'none') return { field, operator };
  if (input === 'event') {
    const name = condition.value.trim();
    if (!name) return 'give the event name.';
    if (name.length > 100 || !EVENT_NAME.test(name)) return 'event names are letters, digits, spaces and _ . : - /, starting with a letter or digit.';
    const days = condition.withinDays.trim();
    if (!days) return { field, operator, value: name };
    const withinDays = Number(days);
    if (!Number.isInteger(withinDays) || withinDays < 1 || withinDays > LIMITS.maxWithinDays) return `"within days" is a whole number from 1 to ${LIMITS.maxWithinDays}.`;
    return { field, operator, value: name, withinDays };
  }
  if (input === 'list') {
    const items = condition.value.split(',').map((item) => item.trim()).filter(Boolean);
    if (items.length === 0) return 'give at least one value (separate values with commas).';
    if (items.length > LIMITS.maxInValues) return `at most ${LIMITS.maxInValues} values.`;
    const values = items.map((item) => scalar(condition, item));
    const bad = values.find((value) => typeof value === 'object');
    if (bad) return (bad as { problem: string }).problem;
    return { field, operator, value: values };
  }
  const value = scalar(condition, condition.value.trim());
  return typeof value === 'object' ? value.problem : { field, operator, value };
}

function scalar(condition: ConditionDraft, text: string): string | number | boolean | { problem: string } {
  const input = condition.subject === 'data' && condition.dataType === 'number' ? 'number' : valueInput({ ...condition, operator: 'equals' });
  if (input === 'boolean') return text === 'true';
  if (!text) return { problem: 'give a value.' };
  if (text.length > LIMITS.maxStringLength) return { problem: `values are at most ${LIMITS.maxStringLength} characters.` };
  if (input === 'number') {
    const number = Number(text);
    return text !== '' && Number.isFinite(number) ? number : { problem: `"${text}" is not a number.` };
  }
  if (input === 'date') return ISO_DAY.test(text) && Number.isFinite(Date.parse(`${text}T00:00:00Z`)) ? text : { problem: 'give a date.' };
  return text;
}

/** The API's filters as a draft (a segment opened for editing). */
export function fromFilters(filters: ApiFilter): GroupDraft {
  return {
    kind: 'group',
    id: newId(),
    operator: filters.operator,
    items: filters.conditions.map((item) => ('conditions' in item ? fromFilters(item as ApiFilter) : fromCondition(item as ApiCondition))),
  };
}

function fromCondition(condition: ApiCondition): ConditionDraft {
  const isData = condition.field.startsWith('data.');
  const subject = (isData ? 'data' : condition.field) as Subject;
  const values = Array.isArray(condition.value) ? (condition.value as unknown[]) : condition.value === undefined || condition.value === null ? [] : [condition.value];
  const sample = values[0];
  const dataType: DataType = typeof sample === 'number' ? 'number' : typeof sample === 'boolean' ? 'boolean' : typeof sample === 'string' && ISO_DAY.test(sample.slice(0, 10)) && ['gt', 'gte', 'lt', 'lte'].includes(condition.operator) ? 'date' : 'text';
  const asText = (value: unknown) => (typeof value === 'string' && (subject === 'createdAt' || subject === 'updatedAt' || dataType === 'date') ? value.slice(0, 10) : String(value));
  return {
    kind: 'condition',
    id: newId(),
    subject,
    dataKey: isData ? condition.field.slice(5) : '',
    dataType,
    operator: condition.operator,
    value: values.map(asText).join(', '),
    withinDays: condition.withinDays === undefined ? '' : String(condition.withinDays),
  };
}

/** The filters in words ("data.plan is pro AND (…)"), for the segment's page and its list. */
export function describeFilters(filters: ApiFilter, nested = false): string {
  const parts = filters.conditions.map((item) => ('conditions' in item ? describeFilters(item as ApiFilter, true) : describeCondition(item as ApiCondition)));
  const text = parts.join(` ${filters.operator} `);
  return nested && parts.length > 1 ? `(${text})` : text;
}

function describeCondition(condition: ApiCondition): string {
  const subject = (condition.field.startsWith('data.') ? 'data' : condition.field) as Subject;
  const label = operatorLabel(condition.operator, subject, typeof condition.value === 'string' && ISO_DAY.test(condition.value.slice(0, 10)) ? 'date' : 'text');
  if (subject === 'event') return `event "${String(condition.value)}" ${label}${condition.withinDays ? ` in the last ${condition.withinDays} days` : ''}`;
  const field = SUBJECTS.find(([value]) => value === subject && subject !== 'data')?.[1] ?? condition.field;
  if (condition.value === undefined || condition.value === null) return `${field} ${label}`;
  const value = Array.isArray(condition.value) ? (condition.value as unknown[]).map((item) => JSON.stringify(item)).join(', ') : JSON.stringify(condition.value);
  return `${field} ${label} ${value}`;
}

/** How many conditions the draft holds, in every group (a segment takes at most LIMITS.maxConditions). */
export function countConditions(group: GroupDraft): number {
  return group.items.reduce((sum, item) => sum + (item.kind === 'group' ? countConditions(item) : 1), 0);
}

/** Replaces the item of that id anywhere in the tree (or removes it when `next` is null). */
export function updateItem(group: GroupDraft, id: string, next: ConditionDraft | GroupDraft | null): GroupDraft {
  return {
    ...group,
    items: group.items.flatMap((item) => {
      if (item.id === id) return next ? [next] : [];
      return [item.kind === 'group' ? updateItem(item, id, next) : item];
    }),
  };
}
