import * as v from 'valibot';
import { pageQueryEntries } from '../http/pagination';
import { validationFailed, type FieldError } from '../http/errors';

/** The limits on contact data, documented in the README ("Contacts"). */
export const contactDataLimits = {
  maxKeys: 100,
  maxKeyLength: 64,
  maxValueBytes: 2048,
  maxDepth: 3,
} as const;

const KEY_PATTERN = /^[A-Za-z0-9_-]+$/;
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** Emails are trimmed and lower-cased before anything else looks at them. */
export const emailSchema = v.pipe(
  v.string('email must be a string'),
  v.trim(),
  v.toLowerCase(),
  v.nonEmpty('email is required'),
  v.maxLength(254, 'email must be at most 254 characters'),
  v.email('email must be a valid email address'),
);

export type ContactDataPatch = Record<string, unknown>;

const dataSchema = v.pipe(
  v.record(v.string(), v.unknown(), 'data must be an object'),
  v.check((data) => Object.keys(data).length <= contactDataLimits.maxKeys, `data may have at most ${contactDataLimits.maxKeys} keys`),
);

export const upsertContactSchema = v.object({
  email: emailSchema,
  subscribed: v.optional(v.boolean('subscribed must be a boolean')),
  data: v.optional(dataSchema),
});

export const patchContactSchema = v.object({
  email: v.optional(emailSchema),
  subscribed: v.optional(v.boolean('subscribed must be a boolean')),
  data: v.optional(dataSchema),
});

export const listContactsQuerySchema = v.object({
  ...pageQueryEntries,
  subscribed: v.optional(v.pipe(v.picklist(['true', 'false'], 'subscribed must be true or false'), v.transform((s) => s === 'true'))),
  search: v.optional(
    v.pipe(v.string(), v.trim(), v.toLowerCase(), v.minLength(1, 'search must not be empty'), v.maxLength(254, 'search must be at most 254 characters')),
  ),
});

/**
 * Keys of contact data become segment field paths (`data.plan`) and DynamoDB map keys, so they
 * are restricted to letters, digits, `_` and `-`; values are JSON of bounded size and depth.
 */
export function assertValidContactData(data: ContactDataPatch | undefined, field = 'data'): void {
  if (!data) return;
  const errors: FieldError[] = [];
  for (const [key, value] of Object.entries(data)) {
    const path = `${field}.${key}`;
    if (key.length > contactDataLimits.maxKeyLength || !KEY_PATTERN.test(key) || FORBIDDEN_KEYS.has(key)) {
      errors.push({ field: path, code: 'INVALID_KEY', message: `data keys are 1–${contactDataLimits.maxKeyLength} letters, digits, "_" or "-"` });
      continue;
    }
    const problem = valueProblem(value, 1);
    if (problem) {
      errors.push({ field: path, code: 'INVALID_VALUE', message: problem });
    } else if (Buffer.byteLength(JSON.stringify(value)) > contactDataLimits.maxValueBytes) {
      errors.push({ field: path, code: 'VALUE_TOO_LARGE', message: `each data value must be at most ${contactDataLimits.maxValueBytes} bytes as JSON` });
    }
  }
  if (errors.length) throw validationFailed(errors);
}

function valueProblem(value: unknown, depth: number): string | null {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return null;
  if (typeof value === 'number') return Number.isFinite(value) ? null : 'numbers must be finite';
  if (depth > contactDataLimits.maxDepth) return `data values may nest at most ${contactDataLimits.maxDepth} levels`;
  if (Array.isArray(value)) {
    for (const item of value) {
      if (item === null) return 'arrays may not contain null';
      const problem = valueProblem(item, depth + 1);
      if (problem) return problem;
    }
    return null;
  }
  if (typeof value === 'object') {
    for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
      if (key.length === 0 || key.length > contactDataLimits.maxKeyLength || FORBIDDEN_KEYS.has(key)) return 'nested keys must be 1–64 characters';
      if (item === null) continue;
      const problem = valueProblem(item, depth + 1);
      if (problem) return problem;
    }
    return null;
  }
  return 'unsupported value';
}
