import * as v from 'valibot';
import { resourceIdSchema } from '../http/ids';
import type { ErrorCase, OperationDoc } from '../http/operation-doc';
import { errorEnvelopeSchema, successEnvelope } from '../http/responses';
import { routeKey, routes as routeTable, sessionAccess, type Route } from '../http/routes';
import { toOpenApiSchema } from './convert';
import { introduction } from './introduction';
import type { JsonSchema } from './json-schema';
import { operations as operationDocs } from './operations';
import { schemaOverrides } from './overrides';

export type OpenApiDocument = JsonSchema;

const authNone = (route: Route) => (route as Route & { auth?: string }).auth === 'none';

/** Routes without docs, and docs without a route: the contract test requires both to be empty. */
export function documentationGaps(routes: readonly Route[] = routeTable, operations: Record<string, OperationDoc> = operationDocs) {
  const keys = new Set(routes.map((route) => routeKey(route.method, route.path)));
  return { undocumented: [...keys].filter((key) => !operations[key]), unrouted: Object.keys(operations).filter((key) => !keys.has(key)) };
}

/**
 * The OpenAPI 3.1 document, generated from the route table (paths, methods, keys), the
 * operations registry (docs, errors) and the valibot schemas (requests and responses). Routes
 * without docs are left out (documentationGaps reports them, and the contract test fails on them).
 */
export function buildOpenApiDocument(routes: readonly Route[] = routeTable, operations: Record<string, OperationDoc> = operationDocs): OpenApiDocument {
  const documented = routes.filter((route) => operations[routeKey(route.method, route.path)]);
  const components = new Components();
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of documented) {
    const key = routeKey(route.method, route.path);
    try {
      (paths[route.path] ??= {})[route.method.toLowerCase()] = operation(route, operations[key]!, components);
    } catch (error) {
      throw new Error(`Cannot document ${key}: ${(error as Error).message}`);
    }
  }
  const tags = [...new Set(documented.map((route) => operations[routeKey(route.method, route.path)]!.tag))];

  return {
    openapi: '3.1.0',
    info: {
      title: 'Mailwright API',
      version: '1.0.0',
      description: introduction,
    },
    servers: [{ url: '.', description: 'Where this document is served from' }],
    tags: tags.map((name) => ({ name })),
    security: [{ secretKey: [] }],
    paths,
    components: {
      securitySchemes: {
        secretKey: { type: 'http', scheme: 'bearer', description: 'A secret key (sk_…): every route' },
        publicKey: { type: 'http', scheme: 'bearer', description: 'A public key (pk_…): POST /v1/track only, safe in browsers' },
        accessToken: { type: 'http', scheme: 'bearer', description: 'A dashboard access token (mwa_…, 5 minutes, from the session routes): every route but /v1/*; owners only on keys, members, audit, webhooks and domain changes' },
      },
      schemas: components.schemas,
    },
  };
}

function operation(route: Route, doc: OperationDoc, components: Components): JsonSchema {
  const parameters: JsonSchema[] = [...route.path.matchAll(/\{([^}]+)\}/g)].map((match) => ({
    name: match[1],
    in: 'path',
    required: true,
    schema: match[1] === 'id' ? toOpenApiSchema(resourceIdSchema, 'request') : { type: 'string' },
  }));
  if (doc.query) {
    const query = components.hoist(toOpenApiSchema(doc.query, 'request'));
    const required = new Set<string>(query.required ?? []);
    for (const [name, schema] of Object.entries<JsonSchema>(query.properties ?? {})) {
      parameters.push({ name, in: 'query', required: required.has(name), ...(schema.description ? { description: schema.description } : {}), schema });
    }
  }
  for (const header of doc.headers ?? []) parameters.push({ name: header.name, in: 'header', required: false, description: header.description, schema: header.schema });

  const none = authNone(route);
  return {
    operationId: doc.operationId,
    tags: [doc.tag],
    summary: doc.summary,
    ...(doc.description ? { description: doc.description } : {}),
    security: none ? [] : securityOf(route),
    ...(parameters.length ? { parameters } : {}),
    ...(doc.body
      ? {
          requestBody: {
            // A body wrapped in v.optional may be left out (POST /campaigns/{id}/send).
            required: doc.body.type !== 'optional',
            content: { 'application/json': { schema: components.hoist(toOpenApiSchema(doc.body, 'request')), ...(doc.bodyExample !== undefined ? { example: doc.bodyExample } : {}) } },
          },
        }
      : {}),
    responses: { ...successResponses(doc, components), ...errorResponses(route, doc, components), ...rawResponses(doc) },
  };
}

function securityOf(route: Route): JsonSchema[] {
  return [
    ...(route.keys.includes('secret') ? [{ secretKey: [] }] : []),
    ...(route.keys.includes('public') ? [{ publicKey: [] }] : []),
    ...(sessionAccess(route) !== 'none' ? [{ accessToken: [] }] : []),
  ];
}

function successResponses(doc: OperationDoc, components: Components): Record<string, JsonSchema> {
  const success = doc.success;
  if ('mediaType' in success) return { [String(success.status)]: { description: success.description, content: { [success.mediaType]: { schema: success.schema } } } };
  const content = {
    'application/json': { schema: components.hoist(toOpenApiSchema(successEnvelope(success.data), 'response')), ...(success.example !== undefined ? { example: { success: true, data: success.example } } : {}) },
  };
  return {
    [String(success.status)]: { description: success.description, content },
    ...(success.alsoStatus ? { [String(success.alsoStatus.status)]: { description: success.alsoStatus.description, content } } : {}),
  };
}

/** Raw answers by status; one status may come in several media types (its descriptions joined). */
function rawResponses(doc: OperationDoc): Record<string, JsonSchema> {
  const responses: Record<string, JsonSchema> = {};
  for (const raw of doc.rawResponses ?? []) {
    const response = (responses[String(raw.status)] ??= { description: '', content: {} });
    response.description = response.description ? `${response.description}; ${raw.description}` : raw.description;
    response.content[raw.mediaType] = { schema: { type: 'string' } };
  }
  return responses;
}

/** The errors a route answers: its own, plus those its shape implies (keys, body, query, cursor). */
export function errorCases(route: Route, doc: OperationDoc): ErrorCase[] {
  const cases: ErrorCase[] = [];
  if (!authNone(route)) {
    cases.push(
      { status: 401, code: 'UNAUTHORIZED', when: 'The Authorization header is missing or the key is unknown' },
      { status: 403, code: 'FORBIDDEN', when: route.keys.includes('public') ? 'The project is disabled' : 'A public key (pk_) was used, or the project is disabled' },
      { status: 403, code: 'PROJECT_DISABLED', when: 'The project is disabled' },
      { status: 429, code: 'RATE_LIMITED', when: 'Over the project\'s requests per minute (Retry-After says when to retry)' },
    );
  }
  if (doc.body) {
    cases.push(
      { status: 400, code: 'INVALID_JSON', when: 'The body is not JSON' },
      { status: 413, code: 'PAYLOAD_TOO_LARGE', when: 'The body is over the route\'s limit' },
    );
  }
  if (doc.body || doc.query) cases.push({ status: 422, code: 'VALIDATION_ERROR', when: 'Fields fail validation: see error.errors[].field' });
  if (doc.query && 'properties' in toOpenApiSchema(doc.query, 'request') && toOpenApiSchema(doc.query, 'request').properties.cursor) {
    cases.push({ status: 400, code: 'INVALID_CURSOR', when: 'The cursor is malformed or belongs to another query' });
  }
  for (const own of doc.errors ?? []) if (!cases.some((known) => known.status === own.status && known.code === own.code)) cases.push(own);
  cases.push({ status: 500, code: 'INTERNAL_ERROR', when: 'An unexpected failure (retry; report the requestId)' });
  return cases;
}

function errorResponses(route: Route, doc: OperationDoc, components: Components): Record<string, JsonSchema> {
  const envelope = components.hoist(toOpenApiSchema(v.pipe(errorEnvelopeSchema, v.title('Error')), 'response'));
  const byStatus = new Map<number, ErrorCase[]>();
  for (const error of errorCases(route, doc)) byStatus.set(error.status, [...(byStatus.get(error.status) ?? []), error]);
  const listed = Object.fromEntries(
    [...byStatus].sort(([a], [b]) => a - b).map(([status, cases]) => [
      String(status),
      {
        description: cases.map((error) => `\`${error.code}\`: ${error.when}`).join('; '),
        'x-error-codes': cases.map((error) => error.code),
        content: {
          'application/json': {
            schema: envelope,
            examples: Object.fromEntries(cases.map((error) => [error.code, { summary: error.when, value: errorExample(status, error) }])),
          },
        },
      },
    ]),
  );
  // API Gateway's own answers (502 from a crashed function, 504 after 29 s…) share the envelope.
  return { ...listed, default: { description: 'Any other error, in the same envelope', content: { 'application/json': { schema: envelope } } } };
}

function errorExample(status: number, error: ErrorCase) {
  return {
    success: false,
    message: error.when,
    error: { code: error.code, message: error.when, statusCode: status, requestId: 'c6af9ac6-7b61-11e6-9a41-93e8deadbeef' },
    timestamp: '2026-11-23T09:30:00.000Z',
  };
}

/**
 * components.schemas: every converted schema with a title (v.title) becomes a named component and
 * a $ref; overrides bring their own components. Two different schemas under one title throw.
 */
class Components {
  readonly schemas: Record<string, JsonSchema> = {};

  constructor() {
    for (const override of new Set(schemaOverrides.values())) Object.assign(this.schemas, override.components);
  }

  hoist(schema: JsonSchema): JsonSchema {
    const walk = (node: unknown): unknown => {
      if (Array.isArray(node)) return node.map(walk);
      if (!node || typeof node !== 'object') return node;
      const converted = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, key === 'examples' || key === 'example' || key === 'default' || key === 'const' || key === 'enum' ? value : walk(value)]));
      const { title } = converted as { title?: unknown };
      if (typeof title !== 'string') return converted;
      const existing = this.schemas[title];
      if (existing && JSON.stringify(existing) !== JSON.stringify(converted)) throw new Error(`Two different schemas are titled ${title}`);
      this.schemas[title] = converted;
      return { $ref: `#/components/schemas/${title}` };
    };
    return walk(schema) as JsonSchema;
  }
}
