/**
 * The event patterns of Lambda's event filtering, which are EventBridge's: the stream mappings
 * filter records with them and the local event bus (infra/local/emulators/event-bus.ts, which
 * builds on Lambda) matches its rules with them. Each pattern field
 * is either an object (matched against the event's object at that key) or an array of accepted
 * values — literals, or `{prefix}`, `{suffix}`, `{anything-but}`, `{exists}`, `{equals-ignore-case}`,
 * `{numeric}` — any of which may match the event's value (or any element of an array value).
 */
export type EventPattern = { [key: string]: EventPattern | readonly unknown[] };

export function matchesPattern(pattern: EventPattern, event: unknown): boolean {
  return Object.entries(pattern).every(([key, expected]) => {
    const actual = event !== null && typeof event === 'object' ? (event as Record<string, unknown>)[key] : undefined;
    if (Array.isArray(expected)) return matchesValues(expected, actual);
    return actual !== undefined && matchesPattern(expected as EventPattern, actual);
  });
}

function matchesValues(accepted: readonly unknown[], actual: unknown): boolean {
  const values = Array.isArray(actual) ? actual : [actual];
  return accepted.some((rule) => {
    if (rule !== null && typeof rule === 'object') {
      const matcher = rule as Record<string, unknown>;
      if ('exists' in matcher) return matcher.exists ? actual !== undefined : actual === undefined;
      return actual !== undefined && values.some((value) => matchesRule(matcher, value));
    }
    return values.some((value) => value === rule);
  });
}

function matchesRule(matcher: Record<string, unknown>, value: unknown): boolean {
  if ('prefix' in matcher) return typeof value === 'string' && value.startsWith(String(matcher.prefix));
  if ('suffix' in matcher) return typeof value === 'string' && value.endsWith(String(matcher.suffix));
  if ('equals-ignore-case' in matcher) return typeof value === 'string' && value.toLowerCase() === String(matcher['equals-ignore-case']).toLowerCase();
  if ('anything-but' in matcher) {
    const excluded = matcher['anything-but'];
    if (excluded !== null && typeof excluded === 'object' && !Array.isArray(excluded)) return !matchesRule(excluded as Record<string, unknown>, value);
    return ![excluded].flat().includes(value);
  }
  if ('numeric' in matcher) {
    if (typeof value !== 'number') return false;
    const conditions = matcher.numeric as (string | number)[];
    for (let index = 0; index < conditions.length; index += 2) {
      const operator = conditions[index] as string;
      const bound = Number(conditions[index + 1]);
      const holds = { '=': value === bound, '<': value < bound, '<=': value <= bound, '>': value > bound, '>=': value >= bound }[operator];
      if (!holds) return false;
    }
    return true;
  }
  throw new Error(`Unsupported event pattern rule ${JSON.stringify(matcher)}`);
}
