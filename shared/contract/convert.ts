import { toJsonSchema, type ConversionConfig } from '@valibot/to-json-schema';
import type * as v from 'valibot';
import type { JsonSchema } from './json-schema';
import { schemaOverrides } from './overrides';

/** Actions that normalize a string (trim, lower-case…): the accepted input type is unchanged. */
const NORMALIZING_ACTIONS = new Set(['trim', 'trim_start', 'trim_end', 'to_lower_case', 'to_upper_case', 'normalize']);

/**
 * valibot → JSON Schema 2020-12 (OpenAPI 3.1). Requests are described by their input type
 * (before transforms), responses by their output. What JSON Schema cannot express is handled
 * explicitly, never dropped: normalizing actions keep the type; a `check` adds its rule to the
 * description; a schema listed in schemaOverrides gets its JSON Schema from there; anything else
 * the converter cannot express throws, so the generator and its tests fail instead of lying.
 */
export function toOpenApiSchema(schema: v.GenericSchema, direction: 'request' | 'response'): JsonSchema {
  const config: ConversionConfig = {
    target: 'draft-2020-12',
    typeMode: direction === 'request' ? 'input' : 'output',
    errorMode: 'throw',
    overrideSchema: ({ valibotSchema }) => schemaOverrides.get(valibotSchema)?.jsonSchema,
    overrideAction: ({ valibotAction, jsonSchema }) => {
      if (NORMALIZING_ACTIONS.has(valibotAction.type)) return jsonSchema;
      if (valibotAction.type === 'check' || valibotAction.type === 'raw_check') {
        const rule = 'message' in valibotAction && typeof valibotAction.message === 'string' ? valibotAction.message : 'further rules checked by the service (422 with field errors)';
        return { ...jsonSchema, description: [jsonSchema.description, `Rule: ${rule}.`].filter(Boolean).join(' ') };
      }
      return undefined;
    },
  };
  const { $schema: _dialect, ...converted } = toJsonSchema(schema as never, config) as JsonSchema;
  return converted;
}
