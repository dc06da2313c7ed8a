import { Validator } from '@seriousme/openapi-schema-validator';
import * as v from 'valibot';
import { toOpenApiSchema } from '../../../../shared/contract/convert';
import { buildOpenApiDocument, documentationGaps, errorCases } from '../../../../shared/contract/document';
import { operations } from '../../../../shared/contract/operations';
import { registerOverride, schemaOverrides } from '../../../../shared/contract/overrides';
import type { OperationDoc } from '../../../../shared/http/operation-doc';
import { routeKey, routes, type Route } from '../../../../shared/http/routes';
import { createSegmentSchema } from '../../../../shared/segments/schemas';

const document = buildOpenApiDocument();
/** The drift test below fails on undocumented routes; the others check what is documented. */
const documentedRoutes = routes.filter((route) => operations[routeKey(route.method, route.path)]);
const operationOf = (route: Route) => document.paths[route.path]?.[route.method.toLowerCase()];

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    // Act
    const result = await new Validator().validate(structuredClone(document));

    // Assess
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(document.openapi).toBe('3.1.0');
  });

  it('introduces every tag of the document under its own heading, beside the conventions', () => {
    // Prepare
    const headings = [...document.info.description.matchAll(/^## (.+)$/gm)].map((match: RegExpMatchArray) => match[1]);
    const tags = document.tags.map((tag: { name: string }) => tag.name);

    // Assess
    expect(tags.length).toBeGreaterThanOrEqual(12);
    expect(headings).toEqual(expect.arrayContaining(tags));
    expect(headings).toEqual(expect.arrayContaining(['Authentication', 'Requests and responses']));
    for (const convention of ['Secret keys', 'Public keys', '**Pagination.**', '**Rate limit.**', 'VALIDATION_ERROR', 'requestId']) expect(document.info.description).toContain(convention);
  });

  it('documents every route of the route table, and no route that does not exist', () => {
    // Act
    const gaps = documentationGaps();

    // Assess
    expect(gaps).toEqual({ undocumented: [], unrouted: [] });
    for (const route of routes) expect(operationOf(route)).toBeDefined();
    const documented = Object.entries(document.paths).flatMap(([path, methods]) => Object.keys(methods as object).map((method) => routeKey(method.toUpperCase(), path)));
    expect(documented.sort()).toEqual(routes.map((route) => routeKey(route.method, route.path)).sort());
  });

  it('describes every operation in words, since /docs is the one reference of the API', () => {
    for (const route of documentedRoutes) {
      // Act
      const { description } = operationOf(route);

      // Assess
      expect({ route: routeKey(route.method, route.path), described: typeof description === 'string' && description.trim().length > 0 }).toEqual({ route: routeKey(route.method, route.path), described: true });
    }
  });

  it('gives every route a success response in the envelope and its error codes', () => {
    for (const route of documentedRoutes) {
      const operation = operationOf(route);
      const doc = operations[routeKey(route.method, route.path)]!;
      const success = operation.responses[String(doc.success.status)];
      expect(success).toBeDefined();
      if ('data' in doc.success) expect(success.content['application/json'].schema).toBeDefined();
      const documentedCodes = Object.entries<any>(operation.responses).filter(([status]) => Number(status) >= 400).flatMap(([, response]) => response['x-error-codes'] ?? []);
      expect(documentedCodes.sort()).toEqual(errorCases(route, doc).map((error) => error.code).sort());
      expect(documentedCodes).toContain('INTERNAL_ERROR');
    }
  });

  it('gives every route with a body or query its request schema, converted from valibot', () => {
    const send = document.paths['/v1/send'].post;
    const listContacts = document.paths['/contacts'].get;

    expect(send.requestBody.content['application/json'].schema.properties.type).toEqual({ enum: ['html', 'markdown'], type: 'string', default: 'html' });
    expect(send.requestBody.content['application/json'].schema.required).toEqual(['to']);
    expect(listContacts.parameters.map((parameter: any) => [parameter.name, parameter.in])).toEqual([
      ['limit', 'query'],
      ['cursor', 'query'],
      ['subscribed', 'query'],
      ['search', 'query'],
    ]);
    for (const route of documentedRoutes) {
      const doc = operations[routeKey(route.method, route.path)]!;
      if (doc.body) expect(operationOf(route).requestBody.content['application/json'].schema).toEqual(expect.any(Object));
      if (doc.query) expect(operationOf(route).parameters.some((parameter: any) => parameter.in === 'query')).toBe(true);
    }
  });

  it('marks public-key routes, secret-key routes and the routes dashboard sessions may call in security', () => {
    expect(document.paths['/v1/track'].post.security).toEqual([{ secretKey: [] }, { publicKey: [] }]);
    expect(document.paths['/v1/send'].post.security).toEqual([{ secretKey: [] }]);
    expect(document.paths['/contacts'].get.security).toEqual([{ secretKey: [] }, { accessToken: [] }]);
    expect(document.paths['/me'].get.security).toEqual([{ accessToken: [] }]);
    expect(document.paths['/dashboard/session'].post.security).toEqual([]);
  });

  it('names entity schemas as components and documents the error envelope with a top-level message', () => {
    const envelope = document.paths['/contacts/{id}'].get.responses['200'].content['application/json'].schema;

    expect(envelope.properties.data).toEqual({ $ref: '#/components/schemas/Contact' });
    expect(document.components.schemas.Contact.additionalProperties).toBe(false);
    expect(document.components.schemas.Error.required).toEqual(['success', 'message', 'error', 'timestamp']);
  });
});

describe('schemas the converter cannot express', () => {
  it('throws on an unconvertible schema that has no override, instead of dropping it', () => {
    const unknown = v.object({ when: v.date() });

    expect(() => toOpenApiSchema(unknown, 'request')).toThrow('"date" schema cannot be converted');
  });

  it('uses the registered override for a custom schema, in requests and responses', () => {
    // Prepare
    const postcode = v.pipe(v.custom<string>((input) => typeof input === 'string' && /^\d{5}$/.test(input)), v.transform((input) => input.trim()));
    registerOverride(postcode, { reason: 'custom check', jsonSchema: { type: 'string', pattern: '^\\d{5}$' } });

    try {
      // Act
      const request = toOpenApiSchema(v.object({ postcode }), 'request');

      // Assess
      expect(request.properties.postcode).toEqual({ type: 'string', pattern: '^\\d{5}$' });
    } finally {
      schemaOverrides.delete(postcode);
      schemaOverrides.delete(postcode.pipe[0]);
    }
  });

  it('describes the segment filter (custom, lazy, checked in code) through its override', () => {
    const schema = toOpenApiSchema(createSegmentSchema, 'request');

    expect(schema.properties.filters).toEqual({ $ref: '#/components/schemas/SegmentFilter' });
    expect(document.components.schemas.SegmentFilter.properties.conditions.items.anyOf).toContainEqual({ $ref: '#/components/schemas/SegmentFilter' });
  });

  it('keeps a check as a rule in the description and normalizing actions as the plain type', () => {
    const schema = toOpenApiSchema(v.object({ name: v.pipe(v.string(), v.trim(), v.check((name) => name !== 'admin', 'name must not be admin')) }), 'request');

    expect(schema.properties.name).toEqual({ type: 'string', description: 'Rule: name must not be admin.' });
  });
});

describe('documentationGaps', () => {
  it('reports a route without docs and docs without a route', () => {
    const route: Route = { method: 'GET', path: '/nowhere', group: 'contacts', keys: ['secret'] };
    const stray: Record<string, OperationDoc> = { ...operations, 'GET /gone': operations['GET /contacts']! };

    expect(documentationGaps([...documentedRoutes, route], stray)).toEqual({ undocumented: ['GET /nowhere'], unrouted: ['GET /gone'] });
  });
});
