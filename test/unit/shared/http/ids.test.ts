import { jest } from '@jest/globals';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';

// The workflows function's queue, which test/support/unit-env.ts does not set (as in test/unit/shared/workflows).
process.env.WORKFLOW_QUEUE_URL = 'http://localhost:9324/000000000000/workflows-test';
process.env.WORKFLOW_QUEUE_ARN = 'arn:aws:sqs:us-east-1:000000000000:workflows-test';
const admitRequest = jest.fn(async () => undefined);
jest.unstable_mockModule('../../../../shared/access/admission', () => ({ admitRequest }));
const { routes } = await import('../../../../shared/http/routes');
const { pathId, resourceIdSchema } = await import('../../../../shared/http/ids');
const { buildOpenApiDocument } = await import('../../../../shared/contract/document');

const documents = mockClient(DynamoDBDocumentClient);
const dynamo = mockClient(DynamoDBClient);

type Handler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;
const idRoutes = routes.filter((route) => route.path.includes('{id}'));

function event(method: string, resource: string, id: string): APIGatewayProxyEvent {
  return {
    resource,
    path: resource.replace('{id}', id),
    httpMethod: method,
    headers: { 'content-type': 'application/json' },
    multiValueHeaders: {},
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: { id },
    stageVariables: null,
    body: method === 'GET' || method === 'DELETE' ? null : '{}',
    isBase64Encoded: false,
    requestContext: { requestId: 'r1', authorizer: { projectId: '01KAQ5VZ3N4G8T2M6P0R9S7W1X', keyId: 'k1', keyKind: 'secret' } } as never,
  };
}

beforeEach(() => {
  documents.reset();
  dynamo.reset();
  admitRequest.mockClear();
});

describe('pathId', () => {
  it('returns a ULID and answers anything else with the 404 of the resource', () => {
    // Act / Assess
    expect(pathId({ id: '01KAQ5VZ3N4G8T2M6P0R9S7W1X' }, 'Workflow')).toBe('01KAQ5VZ3N4G8T2M6P0R9S7W1X');
    for (const id of [undefined, '', 'x'.repeat(2000), '01KAQ5VZ3N4G8T2M6P0R9S7W1XX', '01kaq5vz3n4g8t2m6p0r9s7w1x', '01KAQ5VZ3N4G8T2M6P0R9S7W1U']) {
      expect(() => pathId({ id }, 'Workflow')).toThrow(expect.objectContaining({ statusCode: 404, code: 'NOT_FOUND', message: 'Workflow not found' }));
    }
  });

  it('documents every {id} path parameter with the same schema', () => {
    // Act
    const document = buildOpenApiDocument();
    // Assess
    expect(idRoutes.length).toBeGreaterThan(30);
    for (const route of idRoutes) {
      const parameter = document.paths[route.path][route.method.toLowerCase()].parameters.find((candidate: { name: string }) => candidate.name === 'id');
      expect(parameter).toEqual({ name: 'id', in: 'path', required: true, schema: { type: 'string', pattern: resourceIdSchema.pipe[1].requirement.source, description: 'A resource id: a ULID, 26 characters' } });
    }
  });
});

/** Routes for a signed-in user only (their own sessions): an API key never reaches their id. */
const sessionOnly = (route: (typeof idRoutes)[number]) => route.keys.length === 0 && route.auth !== 'none';

describe('every route with an {id}', () => {
  it.each(idRoutes.filter((route) => !sessionOnly(route)).map((route) => [`${route.method} ${route.path}`, route] as const))('%s answers an over-long id with 404 before touching the table', async (_key, route) => {
    // Prepare
    const { handler } = (await import(`../../../../functions/${route.group}/handler`)) as { handler: Handler };
    // Act
    const response = await handler(event(route.method, route.path, 'A'.repeat(2000)), {} as Context);
    // Assess
    expect(response.statusCode).toBe(404);
    expect(JSON.parse(response.body)).toMatchObject({ success: false, error: { code: 'NOT_FOUND', statusCode: 404, requestId: 'r1' } });
    expect(documents.calls()).toHaveLength(0);
    expect(dynamo.calls()).toHaveLength(0);
    expect(admitRequest).toHaveBeenCalledTimes(1);
  });

  it.each(idRoutes.filter(sessionOnly).map((route) => [`${route.method} ${route.path}`, route] as const))('%s answers an API key with 403 whatever the id, before touching the table', async (_key, route) => {
    // Prepare
    const { handler } = (await import(`../../../../functions/${route.group}/handler`)) as { handler: Handler };
    // Act
    const response = await handler(event(route.method, route.path, 'A'.repeat(2000)), {} as Context);
    // Assess
    expect(response.statusCode).toBe(403);
    expect(documents.calls()).toHaveLength(0);
    expect(dynamo.calls()).toHaveLength(0);
  });
});
