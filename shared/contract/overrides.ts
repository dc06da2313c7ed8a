import type * as v from 'valibot';
import { CONTACT_OPERATORS, EVENT_OPERATORS, filterLimits, filtersSchema } from '../segments/filter';
import type { JsonSchema } from './json-schema';

export interface SchemaOverride {
  /** Why the converter cannot express this schema. */
  reason: string;
  jsonSchema: JsonSchema;
  /** Components the JSON Schema refers to. */
  components?: Record<string, JsonSchema>;
}

/**
 * A segment filter is a recursive group of conditions checked by code (`custom` + `rawCheck` +
 * `lazy` in shared/segments/filter.ts), which the converter cannot express; its JSON Schema is
 * built here from the same constants, so operators and limits cannot drift.
 */
const segmentFilter: SchemaOverride = {
  reason: 'a custom schema and a lazy recursive group, with rules checked in code',
  jsonSchema: { $ref: '#/components/schemas/SegmentFilter' },
  components: {
    SegmentFilter: {
      type: 'object',
      description: `A group of conditions joined by AND or OR; groups nest at most ${filterLimits.maxDepth} levels deep, with at most ${filterLimits.maxConditions} conditions in all (see Segments in the introduction).`,
      required: ['operator', 'conditions'],
      properties: {
        operator: { type: 'string', enum: ['AND', 'OR'] },
        conditions: {
          type: 'array',
          minItems: 1,
          maxItems: filterLimits.maxConditions,
          items: { anyOf: [{ $ref: '#/components/schemas/SegmentCondition' }, { $ref: '#/components/schemas/SegmentFilter' }] },
        },
      },
      examples: [{ operator: 'AND', conditions: [{ field: 'data.plan', operator: 'equals', value: 'pro' }, { field: 'event', operator: 'triggered', value: 'signed-up', withinDays: 30 }] }],
    },
    SegmentCondition: {
      type: 'object',
      required: ['field', 'operator'],
      properties: {
        field: {
          type: 'string',
          description: `email, subscribed, createdAt, updatedAt, event, or data.<key> (a dotted path of up to ${filterLimits.maxDataPathSegments} keys)`,
          examples: ['data.plan'],
        },
        operator: { type: 'string', enum: [...CONTACT_OPERATORS, ...EVENT_OPERATORS] },
        value: { description: `Typed by field and operator: an event name for triggered/notTriggered, an array of at most ${filterLimits.maxInValues} values for in/notIn, none for exists/notExists` },
        withinDays: { type: 'integer', minimum: 1, maximum: filterLimits.maxWithinDays, description: 'Event conditions only: events of the last N days' },
      },
    },
  },
};

/**
 * Overrides by schema identity. The converter offers a pipe's schemas one by one (the first in
 * input mode, the last in output mode), so a piped schema is registered with each of them.
 */
export const schemaOverrides = new Map<unknown, SchemaOverride>();

export function registerOverride(schema: v.GenericSchema, override: SchemaOverride): void {
  schemaOverrides.set(schema, override);
  if ('pipe' in schema) for (const item of schema.pipe as { kind: string }[]) if (item.kind === 'schema') schemaOverrides.set(item, override);
}

registerOverride(filtersSchema, segmentFilter);
