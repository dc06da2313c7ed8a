/** A JSON Schema 2020-12 node as the OpenAPI 3.1 document holds it (converted, or written by hand in overrides.ts). */
// Any JSON value may sit under a keyword; the document is built, not read, so no narrowing is needed.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type JsonSchema = Record<string, any>;
