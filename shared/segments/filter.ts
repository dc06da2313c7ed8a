import * as v from 'valibot';
import type { Contact } from '../contacts/contacts';

/**
 * The segment filter language: its valibot schema (structure + typed semantics, with 422 paths
 * such as `filters.conditions[1].operator`) and a pure evaluator. Both the on-demand evaluation
 * and the stream consumer that keeps tracked memberships current evaluate contacts here and
 * nowhere else, so the two cannot disagree. /docs "Segments" documents the language.
 */

export const CONTACT_OPERATORS = [
  'equals',
  'notEquals',
  'contains',
  'notContains',
  'startsWith',
  'endsWith',
  'gt',
  'gte',
  'lt',
  'lte',
  'exists',
  'notExists',
  'in',
  'notIn',
] as const;
export const EVENT_OPERATORS = ['triggered', 'notTriggered'] as const;
export type ContactOperator = (typeof CONTACT_OPERATORS)[number];
export type EventOperator = (typeof EVENT_OPERATORS)[number];
export type Scalar = string | number | boolean;

export interface ContactCondition {
  field: string;
  operator: ContactOperator;
  value?: unknown;
}

export interface EventCondition {
  field: 'event';
  operator: EventOperator;
  /** The event name. */
  value: string;
  /** Only events of the last N days count. */
  withinDays?: number;
}

export type Condition = ContactCondition | EventCondition;

export interface FilterGroup {
  operator: 'AND' | 'OR';
  conditions: (Condition | FilterGroup)[];
}

export const filterLimits = { maxDepth: 3, maxConditions: 50, maxInValues: 100, maxStringLength: 1000, maxWithinDays: 3650, maxDataPathSegments: 4 } as const;

const DAY_MS = 86_400_000;
const DATA_SEGMENT = /^[A-Za-z0-9_-]{1,64}$/;
const EVENT_NAME = /^[A-Za-z0-9][A-Za-z0-9 _.:/-]*$/;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

type FieldKind = 'email' | 'subscribed' | 'date' | 'data' | 'event';

function kindOf(field: string): FieldKind | undefined {
  if (field === 'email') return 'email';
  if (field === 'subscribed') return 'subscribed';
  if (field === 'createdAt' || field === 'updatedAt') return 'date';
  if (field === 'event') return 'event';
  if (field.startsWith('data.')) {
    const segments = field.slice(5).split('.');
    if (segments.length <= filterLimits.maxDataPathSegments && segments.every((segment) => DATA_SEGMENT.test(segment) && !['__proto__', 'constructor', 'prototype'].includes(segment))) {
      return 'data';
    }
  }
  return undefined;
}

/** Operators each kind of field accepts. */
const OPERATORS_BY_KIND: Record<FieldKind, readonly string[]> = {
  email: ['equals', 'notEquals', 'contains', 'notContains', 'startsWith', 'endsWith', 'in', 'notIn'],
  subscribed: ['equals', 'notEquals'],
  date: ['equals', 'notEquals', 'gt', 'gte', 'lt', 'lte'],
  data: CONTACT_OPERATORS,
  event: EVENT_OPERATORS,
};

// ---- Schema --------------------------------------------------------------------------------------

const conditionSchema = v.object({
  field: v.pipe(
    v.string('field must be a string'),
    v.check((field) => kindOf(field) !== undefined, 'field must be email, subscribed, createdAt, updatedAt, event or data.<key> (dotted path of up to 4 keys of letters, digits, _ or -)'),
  ),
  operator: v.picklist([...CONTACT_OPERATORS, ...EVENT_OPERATORS], `operator must be one of ${[...CONTACT_OPERATORS, ...EVENT_OPERATORS].join(', ')}`),
  value: v.optional(v.unknown()),
  withinDays: v.optional(
    v.pipe(
      v.number('withinDays must be a number'),
      v.integer('withinDays must be an integer'),
      v.minValue(1, `withinDays must be from 1 to ${filterLimits.maxWithinDays}`),
      v.maxValue(filterLimits.maxWithinDays, `withinDays must be from 1 to ${filterLimits.maxWithinDays}`),
    ),
  ),
});

const isGroupLike = (input: unknown) => typeof input === 'object' && input !== null && !Array.isArray(input) && 'conditions' in input;

const groupStructure: v.GenericSchema<unknown, FilterGroup> = v.object({
  operator: v.picklist(['AND', 'OR'], 'operator of a group must be AND or OR'),
  conditions: v.pipe(
    v.array(v.lazy((input) => (isGroupLike(input) ? groupStructure : conditionSchema)), 'conditions must be an array'),
    v.minLength(1, 'conditions must hold at least one condition'),
    v.maxLength(filterLimits.maxConditions, `a filter has at most ${filterLimits.maxConditions} conditions`),
  ),
}) as v.GenericSchema<unknown, FilterGroup>;

interface SemanticIssue {
  path: (string | number)[];
  message: string;
}

/** The filter schema: structure first, then depth, size and each condition's typed value. */
export const filtersSchema = v.pipe(
  v.custom<unknown>((input) => typeof input === 'object' && input !== null && !Array.isArray(input), 'filters must be an object'),
  groupStructure,
  v.rawCheck<FilterGroup>(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    for (const issue of semanticIssues(dataset.value)) {
      addIssue({
        message: issue.message,
        path: issue.path.map((key) => ({ type: typeof key === 'number' ? 'array' : 'object', origin: 'value', input: undefined, key, value: undefined })) as never,
      });
    }
  }),
);

function semanticIssues(root: FilterGroup): SemanticIssue[] {
  const issues: SemanticIssue[] = [];
  let total = 0;
  const walk = (group: FilterGroup, path: (string | number)[], depth: number) => {
    if (depth > filterLimits.maxDepth) {
      issues.push({ path, message: `groups nest at most ${filterLimits.maxDepth} levels deep` });
      return;
    }
    group.conditions.forEach((item, index) => {
      const at = [...path, 'conditions', index];
      if ('conditions' in item) return walk(item, at, depth + 1);
      total++;
      const problem = conditionProblem(item);
      if (problem) issues.push({ path: [...at, ...problem.path], message: problem.message });
    });
  };
  walk(root, [], 1);
  if (total > filterLimits.maxConditions) issues.push({ path: ['conditions'], message: `a filter has at most ${filterLimits.maxConditions} conditions` });
  return issues;
}

function conditionProblem(condition: Condition): { path: (string | number)[]; message: string } | undefined {
  const kind = kindOf(condition.field)!;
  const { operator, value } = condition;
  if (!OPERATORS_BY_KIND[kind].includes(operator)) {
    return { path: ['operator'], message: `${condition.field} accepts the operators ${OPERATORS_BY_KIND[kind].join(', ')}` };
  }
  const withinDays = (condition as EventCondition).withinDays;
  if (kind === 'event') {
    if (typeof value !== 'string' || value.length < 1 || value.length > 100 || !EVENT_NAME.test(value)) {
      return { path: ['value'], message: 'value must be an event name (1–100 letters, digits, spaces and _ . : - /)' };
    }
    if (value.toLowerCase().startsWith('segment.')) return { path: ['value'], message: 'segment.* events cannot be used in segment filters' };
    return undefined;
  }
  if (withinDays !== undefined) return { path: ['withinDays'], message: 'withinDays applies only to event conditions (triggered, notTriggered)' };
  if (operator === 'exists' || operator === 'notExists') {
    return value === undefined || value === null ? undefined : { path: ['value'], message: `${operator} takes no value` };
  }
  if (operator === 'in' || operator === 'notIn') {
    if (!Array.isArray(value) || value.length < 1 || value.length > filterLimits.maxInValues) {
      return { path: ['value'], message: `value must be an array of 1 to ${filterLimits.maxInValues} values` };
    }
    const bad = value.findIndex((item) => valueProblem(kind, 'equals', item));
    return bad === -1 ? undefined : { path: ['value', bad], message: valueProblem(kind, 'equals', value[bad])! };
  }
  const problem = valueProblem(kind, operator, value);
  return problem ? { path: ['value'], message: problem } : undefined;
}

function valueProblem(kind: FieldKind, operator: string, value: unknown): string | undefined {
  if (typeof value === 'string' && value.length > filterLimits.maxStringLength) return `strings are at most ${filterLimits.maxStringLength} characters`;
  if (typeof value === 'number' && !Number.isFinite(value)) return 'numbers must be finite';
  switch (kind) {
    case 'email':
      return typeof value === 'string' ? undefined : 'value must be a string';
    case 'subscribed':
      return typeof value === 'boolean' ? undefined : 'value must be true or false';
    case 'date':
      return typeof value === 'string' && dateRange(value) ? undefined : 'value must be an ISO 8601 date or date-time such as 2026-01-31 or 2026-01-31T12:00:00Z';
    default:
      if (operator === 'startsWith' || operator === 'endsWith') return typeof value === 'string' ? undefined : 'value must be a string';
      if (['gt', 'gte', 'lt', 'lte'].includes(operator)) {
        return typeof value === 'number' || (typeof value === 'string' && dateRange(value)) ? undefined : 'value must be a number or an ISO 8601 date';
      }
      return ['string', 'number', 'boolean'].includes(typeof value) ? undefined : 'value must be a string, number or boolean';
  }
}

/** A date-only value covers its UTC day; a date-time its millisecond. */
function dateRange(value: string): { start: number; end: number } | undefined {
  const match = ISO_DATE.exec(value);
  if (!match) return undefined;
  const start = Date.parse(match[4] === undefined ? `${value}T00:00:00Z` : value);
  if (!Number.isFinite(start)) return undefined;
  return { start, end: start + (match[4] === undefined ? DAY_MS : 1) };
}

function timestampOf(value: unknown): number | undefined {
  if (typeof value !== 'string' || !ISO_DATE.test(value)) return undefined;
  const parsed = Date.parse(/T/.test(value) ? value : `${value}T00:00:00Z`);
  return Number.isFinite(parsed) ? parsed : undefined;
}

// ---- What a filter needs ---------------------------------------------------------------------------

/** What a filter reads: the contact as the contacts module defines it. */
export type ContactView = Contact;

/** The time (ms) of the contact's latest event of that name, if any. */
export type LastEventAt = (name: string) => number | undefined;

export function* conditionsOf(group: FilterGroup): Generator<Condition> {
  for (const item of group.conditions) {
    if ('conditions' in item) yield* conditionsOf(item);
    else yield item;
  }
}

/**
 * For each event name the filter mentions, the earliest event time that can matter (0 when a
 * condition has no withinDays): the low bound of the name partition's query.
 */
export function eventWindows(group: FilterGroup, now: number): Map<string, number> {
  const windows = new Map<string, number>();
  for (const condition of conditionsOf(group)) {
    if (condition.field !== 'event') continue;
    const { value: name, withinDays } = condition as EventCondition;
    const from = withinDays ? now - withinDays * DAY_MS : 0;
    windows.set(name, Math.min(windows.get(name) ?? from, from));
  }
  return windows;
}

/** Whether membership can change with time alone: an event condition with withinDays. */
export function agesWithTime(group: FilterGroup): boolean {
  for (const condition of conditionsOf(group)) {
    if (condition.field === 'event' && (condition as EventCondition).withinDays !== undefined) return true;
  }
  return false;
}

/** The contact attributes a filter reads: top-level names and data paths (for a ProjectionExpression). */
export function contactPaths(group: FilterGroup): string[][] {
  const paths = new Map<string, string[]>();
  for (const condition of conditionsOf(group)) {
    if (condition.field === 'event') continue;
    const path = condition.field.split('.');
    paths.set(path.join('.'), path);
  }
  // DynamoDB rejects overlapping projection paths (data.a with data.a.b): keep the shorter.
  const keys = [...paths.keys()];
  return keys.filter((key) => !keys.some((other) => key.startsWith(`${other}.`))).map((key) => paths.get(key)!);
}

// ---- Evaluation ----------------------------------------------------------------------------------

export type Predicate = (contact: ContactView, lastEventAt: LastEventAt) => boolean;

type Expected =
  | { kind: 'string'; lower: string; range?: { start: number; end: number } }
  | { kind: 'number'; n: number }
  | { kind: 'boolean'; b: boolean };

function prepare(value: unknown): Expected {
  if (typeof value === 'number') return { kind: 'number', n: value };
  if (typeof value === 'boolean') return { kind: 'boolean', b: value };
  const text = String(value);
  return { kind: 'string', lower: text.toLowerCase(), range: dateRange(text) };
}

function equalsScalar(actual: unknown, expected: Expected): boolean {
  switch (expected.kind) {
    case 'number':
      return actual === expected.n;
    case 'boolean':
      return actual === expected.b;
    case 'string': {
      if (typeof actual !== 'string') return false;
      if (expected.range) {
        const at = timestampOf(actual);
        if (at !== undefined) return at >= expected.range.start && at < expected.range.end;
      }
      return actual.toLowerCase() === expected.lower;
    }
  }
}

function order(actual: unknown, expected: Expected, operator: 'gt' | 'gte' | 'lt' | 'lte'): boolean {
  if (expected.kind === 'number') {
    if (typeof actual !== 'number') return false;
    return operator === 'gt' ? actual > expected.n : operator === 'gte' ? actual >= expected.n : operator === 'lt' ? actual < expected.n : actual <= expected.n;
  }
  if (expected.kind !== 'string' || !expected.range) return false;
  const at = timestampOf(actual);
  if (at === undefined) return false;
  const { start, end } = expected.range;
  return operator === 'gt' ? at >= end : operator === 'gte' ? at >= start : operator === 'lt' ? at < start : at < end;
}

function read(contact: ContactView, path: string[]): unknown {
  let value: unknown = contact;
  for (const key of path) {
    if (typeof value !== 'object' || value === null || Array.isArray(value) || !Object.prototype.hasOwnProperty.call(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

function compileCondition(condition: Condition, now: number): Predicate {
  if (condition.field === 'event') {
    const { value: name, withinDays, operator } = condition as EventCondition;
    const from = withinDays ? now - withinDays * DAY_MS : -Infinity;
    const triggered: Predicate = (_, lastEventAt) => {
      const at = lastEventAt(name);
      return at !== undefined && at >= from;
    };
    return operator === 'triggered' ? triggered : (contact, lastEventAt) => !triggered(contact, lastEventAt);
  }
  const path = condition.field.split('.');
  const get = (contact: ContactView) => read(contact, path);
  const { operator, value } = condition as ContactCondition;
  const negate = (positive: Predicate): Predicate => (contact, facts) => !positive(contact, facts);
  switch (operator) {
    case 'exists':
      return (contact) => get(contact) !== undefined && get(contact) !== null;
    case 'notExists':
      return (contact) => get(contact) === undefined || get(contact) === null;
    case 'equals':
    case 'notEquals': {
      const expected = prepare(value);
      const positive: Predicate = (contact) => equalsScalar(get(contact), expected);
      return operator === 'equals' ? positive : negate(positive);
    }
    case 'in':
    case 'notIn': {
      const options = (value as unknown[]).map(prepare);
      const positive: Predicate = (contact) => {
        const actual = get(contact);
        return options.some((expected) => equalsScalar(actual, expected));
      };
      return operator === 'in' ? positive : negate(positive);
    }
    case 'contains':
    case 'notContains': {
      const expected = prepare(value);
      const positive: Predicate = (contact) => {
        const actual = get(contact);
        if (Array.isArray(actual)) return actual.some((item) => equalsScalar(item, expected));
        return typeof actual === 'string' && expected.kind === 'string' && actual.toLowerCase().includes(expected.lower);
      };
      return operator === 'contains' ? positive : negate(positive);
    }
    case 'startsWith':
    case 'endsWith': {
      const lower = String(value).toLowerCase();
      return (contact) => {
        const actual = get(contact);
        if (typeof actual !== 'string') return false;
        const text = actual.toLowerCase();
        return operator === 'startsWith' ? text.startsWith(lower) : text.endsWith(lower);
      };
    }
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte': {
      const expected = prepare(value);
      return (contact) => order(get(contact), expected, operator);
    }
  }
}

/** Compiles a (validated) filter once, to evaluate many contacts at the same `now`. */
export function compileFilter(group: FilterGroup, now = Date.now()): Predicate {
  const parts = group.conditions.map((item) => ('conditions' in item ? compileFilter(item, now) : compileCondition(item, now)));
  return group.operator === 'AND'
    ? (contact, facts) => parts.every((part) => part(contact, facts))
    : (contact, facts) => parts.some((part) => part(contact, facts));
}

/** Whether the contact belongs to the segment of this filter. */
export function matches(group: FilterGroup, contact: ContactView, lastEventAt: LastEventAt = () => undefined, now = Date.now()): boolean {
  return compileFilter(group, now)(contact, lastEventAt);
}
