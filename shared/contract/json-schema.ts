/** A JSON Schema 2020-12 node as the OpenAPI 3.1 document holds it (converted, or written by hand in overrides.ts). */
export type JsonSchema = Record<string, any>;
