import * as v from 'valibot';
import { validationFailed, type FieldError } from './errors';

/** The single entry point from untrusted input to typed values: valibot issues become a 422. */
export function parseInput<TSchema extends v.GenericSchema>(
  schema: TSchema,
  input: unknown,
  prefix?: string,
): v.InferOutput<TSchema> {
  const result = v.safeParse(schema, input, { abortPipeEarly: true });
  if (result.success) return result.output;
  throw validationFailed(result.issues.map((issue) => toFieldError(issue, prefix)));
}

function toFieldError(issue: v.BaseIssue<unknown>, prefix?: string): FieldError {
  const path = (issue.path ?? [])
    .map((item) => item.key)
    .reduce<string>((acc, key) => {
      if (typeof key === 'number') return `${acc}[${key}]`;
      return acc ? `${acc}.${String(key)}` : String(key);
    }, '');
  const field = [prefix, path].filter(Boolean).join('.') || prefix || 'body';
  const missing = issue.kind === 'schema' && issue.received === 'undefined';
  return {
    field,
    message: missing ? `${field} is required` : issue.message,
    code: missing ? 'REQUIRED' : `INVALID_${issue.type.toUpperCase()}`,
  };
}
