import Mustache from 'mustache';
import { validationFailed, type FieldError } from '../http/errors';
import { markdownToHtml } from './markdown';
import { plainTextOf } from './plain-text';
import type { TemplateFormat } from './schemas';

/**
 * Mustache rendering of template subjects and bodies, shared by the templates API (which only
 * checks that they parse) and the sending pipeline (which renders them).
 *
 * - body (HTML): `{{var}}` is HTML-escaped, `{{{var}}}` is inserted raw, dotted paths
 *   (`{{contact.data.plan}}`) and sections work; a missing variable renders empty.
 * - subject and text (the plain-text part): the same, but nothing is HTML-escaped (they are not
 *   HTML: "Tom & Jerry" stays). Without a text, the text part is made from the rendered HTML.
 * - No partials (`{{> name}}` renders empty).
 *
 * A private Writer is used, so the global Mustache state (escape, cache) is neither read nor
 * changed; its parse cache is bounded so a long-lived sender does not grow without limit.
 */

export type TemplateField = 'subject' | 'body' | 'text';

/** A field that does not parse: where (`line`, 1-based, in the field as written) and why. */
export interface TemplateError extends FieldError {
  field: TemplateField;
  code: 'INVALID_TEMPLATE';
  line: number;
}

const CACHE_SIZE = 100;
const writer = new Mustache.Writer();
(writer as unknown as { templateCache: Mustache.TemplateCache }).templateCache = boundedCache(CACHE_SIZE);

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '/': '&#x2F;',
  '`': '&#x60;',
  '=': '&#x3D;',
};
const escapeHtml = (value: unknown) => String(value).replace(/[&<>"'`=/]/g, (char) => HTML_ESCAPES[char]!);
const noEscape = (value: unknown) => String(value);

/**
 * Throws 422 VALIDATION_ERROR with code INVALID_TEMPLATE (and the line) on the first field that
 * does not parse. A Markdown body is checked as written and as the HTML it becomes.
 */
export function assertTemplateParses(fields: { subject?: string; body?: string; text?: string }, format: TemplateFormat = 'html'): void {
  const [first] = templateErrors(fields, format);
  if (first) throw validationFailed([first]);
}

/** Every field of the three that does not parse, in the order subject, body, text. */
export function templateErrors(fields: { subject?: string; body?: string; text?: string | null }, format: TemplateFormat = 'html'): TemplateError[] {
  const errors: TemplateError[] = [];
  for (const field of ['subject', 'body', 'text'] as const) {
    const source = fields[field];
    if (source === undefined || source === null) continue;
    const error = fieldError(source, field) ?? (field === 'body' && format === 'markdown' ? fieldError(markdownToHtml(source), field, 'in the HTML the Markdown becomes: ') : undefined);
    if (error) errors.push(error);
  }
  return errors;
}

/** A template's body as the HTML every sender renders: Markdown converted, HTML as it is. */
export const templateHtml = (template: { body: string; format: TemplateFormat }): string => (template.format === 'markdown' ? markdownToHtml(template.body) : template.body);

/**
 * Renders a subject (not escaped), an HTML body (escaped) and a plain-text part (not escaped)
 * with the same variables; without a text template, the text part is the rendered HTML as text.
 */
export function renderMessage(
  template: { subject: string; html: string; text?: string | null },
  view: Record<string, unknown>,
): { subject: string; html: string; text: string } {
  const safeView = toSafeView(view) as Record<string, unknown>;
  parseField(template.subject, 'subject');
  parseField(template.html, 'body');
  if (template.text) parseField(template.text, 'text');
  const html = writer.render(template.html, safeView, undefined, { escape: escapeHtml });
  return {
    subject: writer.render(template.subject, safeView, undefined, { escape: noEscape }),
    html,
    text: template.text ? writer.render(template.text, safeView, undefined, { escape: noEscape }) : plainTextOf(html),
  };
}

/**
 * The variables of a send: every top-level key of `data`; `contact` = { id, email, data } (always
 * the recipient, overriding a data key named contact); `email` = the recipient's email unless
 * `data` has its own `email`.
 */
export function templateView(
  data: Record<string, unknown>,
  contact: { id: string; email: string; data: Record<string, unknown> },
): Record<string, unknown> {
  const view: Record<string, unknown> = { email: contact.email };
  for (const [key, value] of Object.entries(data)) view[key] = value;
  view.contact = { id: contact.id, email: contact.email, data: contact.data };
  return view;
}

function parseField(template: string, field: TemplateField): void {
  const error = fieldError(template, field);
  if (error) throw validationFailed([error]);
}

function fieldError(template: string, field: TemplateField, prefix = ''): TemplateError | undefined {
  let tokens: Token[];
  try {
    tokens = writer.parse(template) as Token[];
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { field, code: 'INVALID_TEMPLATE', message: `${prefix}${message}`, line: prefix ? 1 : lineOf(template, message) };
  }
  const reserved = findReservedName(tokens);
  if (!reserved) return undefined;
  return { field, code: 'INVALID_TEMPLATE', message: `${reserved.name} may not be used as a variable name`, line: lineAt(template, reserved.start) };
}

/** Mustache's parse errors end "at <index>": the line of that index (1 when there is none). */
function lineOf(template: string, message: string): number {
  const index = /at (\d+)$/.exec(message);
  return index ? lineAt(template, Number(index[1])) : 1;
}

const lineAt = (template: string, index: number): number => template.slice(0, Math.max(0, index)).split('\n').length;

/** [type, value, start, end, children?]; names are in name, &, # and ^ tokens. */
type Token = [string, string, number, number, Token[]?];
const NAME_TOKENS = new Set(['name', '&', '#', '^']);
/** Mustache caches lookups on a plain object keyed by the name: this one would break its lookups (a 500). */
const RESERVED_NAMES = new Set(['hasOwnProperty']);

function findReservedName(tokens: Token[]): { name: string; start: number } | undefined {
  for (const [type, value, start, , children] of tokens) {
    if (NAME_TOKENS.has(type) && RESERVED_NAMES.has(value)) return { name: value, start };
    const nested = children ? findReservedName(children) : undefined;
    if (nested) return nested;
  }
  return undefined;
}

/**
 * Mustache resolves names with `in` and calls any function it finds, so `{{constructor}}` or
 * `{{#toString}}` would reach Object.prototype. The view is copied into prototype-less objects and
 * arrays holding only JSON values (functions and symbols dropped), so only the caller's own keys
 * resolve; each copy converts to a string as a plain object or array would.
 */
function toSafeView(value: unknown): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) {
    const items = value.map(toSafeView);
    const text = () => items.map((item) => (item == null ? '' : String(item))).join(',');
    const copy = [...items];
    Object.setPrototypeOf(copy, null);
    Object.defineProperty(copy, Symbol.toPrimitive, { value: text });
    return copy;
  }
  if (typeof value === 'object') {
    const copy = Object.create(null) as Record<string, unknown>;
    for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
      if (key === '__proto__') continue; // mustache would assign it to its lookup cache's prototype
      const safe = toSafeView(item);
      if (safe !== undefined) copy[key] = safe;
    }
    Object.defineProperty(copy, Symbol.toPrimitive, { value: () => '[object Object]' });
    return copy;
  }
  return undefined;
}

function boundedCache(size: number): Mustache.TemplateCache {
  const entries = new Map<string, string>();
  return {
    get: (key) => {
      const hit = entries.get(key);
      if (hit !== undefined) {
        entries.delete(key);
        entries.set(key, hit);
      }
      return hit;
    },
    set: (key, value) => {
      entries.set(key, value);
      if (entries.size > size) entries.delete(entries.keys().next().value!);
    },
    clear: () => entries.clear(),
  };
}
