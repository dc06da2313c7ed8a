import { readFileSync } from 'node:fs';
import path from 'node:path';
import { referencedLogicalId, resourcesOfType, type CfnTemplate } from '../../infra/local/template/cloud-assembly';
import { localFunctionName } from '../../infra/local/template/resources';
import { stack } from '../support/api-client';

/**
 * What `cdk deploy` ships is what runs: every function of the synthesized template, loaded by the
 * local stack from its bundle with exactly its template environment and role, starts and handles
 * a representative event of its trigger — a function missing a variable crashes at cold start
 * here, as it would in AWS. Invoked through the local Lambda Invoke API.
 */
const template = JSON.parse(readFileSync(path.join(stack.dataDir, 'cdk.out', 'Mailwright.template.json'), 'utf8')) as CfnTemplate;

type Trigger =
  | { kind: 'api'; method: string; path: string }
  | { kind: 'authorizer' }
  | { kind: 'sqs'; queueArn: string }
  | { kind: 'stream' }
  | { kind: 'schedule' }
  | { kind: 'event-pattern'; source: string };

/** Each function's trigger, from the template: what feeds it in AWS. */
function triggers(): Map<string, Trigger> {
  const found = new Map<string, Trigger>();
  const resources = new Map(resourcesOfType(template, 'AWS::ApiGateway::Resource'));
  const pathOf = (resourceId: unknown): string => {
    const resource = resources.get(referencedLogicalId(resourceId) ?? '');
    return resource ? `${pathOf(resource.Properties!.ParentId)}/${resource.Properties!.PathPart}` : '';
  };
  for (const [, method] of resourcesOfType(template, 'AWS::ApiGateway::Method')) {
    const target = referencedLogicalId(method.Properties?.Integration?.Uri, 'Arn');
    // A route without path parameters, so a representative request needs no existing item.
    if (target && (!found.has(target) || (found.get(target) as { path: string }).path.includes('{'))) found.set(target, { kind: 'api', method: method.Properties!.HttpMethod, path: pathOf(method.Properties!.ResourceId) });
  }
  for (const [, authorizer] of resourcesOfType(template, 'AWS::ApiGateway::Authorizer')) found.set(referencedLogicalId(authorizer.Properties?.AuthorizerUri, 'Arn')!, { kind: 'authorizer' });
  for (const [, mapping] of resourcesOfType(template, 'AWS::Lambda::EventSourceMapping')) {
    const source = referencedLogicalId(mapping.Properties?.EventSourceArn)!;
    const functionId = referencedLogicalId(mapping.Properties?.FunctionName)!;
    found.set(functionId, template.Resources[source]!.Type === 'AWS::DynamoDB::Table' ? { kind: 'stream' } : { kind: 'sqs', queueArn: `arn:aws:sqs:us-east-1:000000000000:${source}` });
  }
  for (const [, rule] of resourcesOfType(template, 'AWS::Events::Rule')) {
    for (const target of rule.Properties?.Targets ?? []) {
      found.set(referencedLogicalId(target.Arn)!, rule.Properties?.ScheduleExpression ? { kind: 'schedule' } : { kind: 'event-pattern', source: rule.Properties!.EventPattern.source[0] });
    }
  }
  return found;
}

function representativeEvent(trigger: Trigger): unknown {
  const now = new Date();
  switch (trigger.kind) {
    case 'api':
      return {
        resource: trigger.path,
        path: trigger.path,
        httpMethod: trigger.method,
        headers: { 'Content-Type': 'application/json', Host: 'localhost' },
        multiValueHeaders: {},
        queryStringParameters: null,
        multiValueQueryStringParameters: null,
        pathParameters: null,
        stageVariables: null,
        body: trigger.method === 'GET' ? null : '{}',
        isBase64Encoded: false,
        requestContext: {
          requestId: crypto.randomUUID(),
          resourcePath: trigger.path,
          httpMethod: trigger.method,
          stage: 'api',
          identity: { sourceIp: '127.0.0.1' },
          authorizer: { projectId: stack.projectId, keyKind: 'secret', principalId: stack.projectId },
        },
      };
    case 'authorizer':
      return {
        type: 'REQUEST',
        methodArn: 'arn:aws:execute-api:us-east-1:000000000000:local/api/GET/contacts',
        resource: '/contacts',
        path: '/contacts',
        httpMethod: 'GET',
        headers: { Authorization: `Bearer ${stack.secretKey}` },
        requestContext: { requestId: crypto.randomUUID() },
      };
    case 'sqs':
      return {
        Records: [
          {
            messageId: crypto.randomUUID(),
            receiptHandle: 'local',
            body: '{}',
            attributes: { ApproximateReceiveCount: '1', SentTimestamp: String(now.getTime()), SenderId: 'local', ApproximateFirstReceiveTimestamp: String(now.getTime()) },
            messageAttributes: {},
            md5OfBody: '',
            eventSource: 'aws:sqs',
            eventSourceARN: trigger.queueArn,
            awsRegion: 'us-east-1',
          },
        ],
      };
    case 'stream':
      return {
        Records: [
          {
            eventID: '1',
            eventName: 'MODIFY',
            eventVersion: '1.1',
            eventSource: 'aws:dynamodb',
            awsRegion: 'us-east-1',
            dynamodb: { Keys: { PK: { S: 'DEPLOYMENT#TEST' }, SK: { S: 'NOTHING' } }, NewImage: { PK: { S: 'DEPLOYMENT#TEST' }, SK: { S: 'NOTHING' } }, SequenceNumber: '1', SizeBytes: 10, StreamViewType: 'NEW_AND_OLD_IMAGES' },
          },
        ],
      };
    case 'schedule':
      return { version: '0', id: crypto.randomUUID(), 'detail-type': 'Scheduled Event', source: 'aws.events', account: '000000000000', time: now.toISOString(), region: 'us-east-1', resources: [], detail: {} };
    case 'event-pattern':
      return {
        version: '0',
        id: crypto.randomUUID(),
        'detail-type': 'Email Delivered',
        source: trigger.source,
        account: '000000000000',
        time: now.toISOString(),
        region: 'us-east-1',
        resources: [],
        detail: { eventType: 'Delivery', mail: { messageId: `deployment-test-${crypto.randomUUID()}`, timestamp: now.toISOString(), tags: {} }, delivery: { timestamp: now.toISOString() } },
      };
  }
}

async function invoke(functionName: string, event: unknown) {
  const response = await fetch(`${stack.baseUrl}/2015-03-31/functions/${encodeURIComponent(functionName)}/invocations`, { method: 'POST', body: JSON.stringify(event) });
  return { status: response.status, functionError: response.headers.get('x-amz-function-error'), atInit: response.headers.get('x-mailwright-init-error') === 'true', payload: (await response.json()) as Record<string, any> };
}

describe('the deployment, run locally', () => {
  const byLogicalId = triggers();
  const functions = resourcesOfType(template, 'AWS::Lambda::Function').map(([logicalId]) => logicalId);

  it('runs every function of the synthesized template, each with a trigger', async () => {
    const response = await fetch(`${stack.baseUrl}/2015-03-31/functions/`);
    const listed = ((await response.json()) as { Functions: { FunctionName: string }[] }).Functions;
    expect(listed).toHaveLength(functions.length);
    expect(functions.filter((logicalId) => !byLogicalId.has(logicalId))).toEqual([]);
  });

  it.each(functions)('%s starts with its template environment and handles a representative event of its trigger', async (logicalId) => {
    // Prepare
    const trigger = byLogicalId.get(logicalId)!;
    const name = localFunctionName(template.Resources[logicalId]!, logicalId);
    // Act
    const result = await invoke(name, representativeEvent(trigger));
    // Assess: never a cold-start failure; requests and events it understands succeed
    expect(result.status).toBe(200);
    expect({ atInit: result.atInit, error: result.atInit ? result.payload : undefined }).toEqual({ atInit: false, error: undefined });
    if (trigger.kind === 'api') {
      expect(result.functionError).toBeNull();
      expect(result.payload.statusCode).toBeLessThan(500);
    }
    if (trigger.kind === 'authorizer') expect(result.payload.policyDocument.Statement[0].Effect).toBe('Allow');
    if (trigger.kind === 'schedule' || trigger.kind === 'event-pattern' || trigger.kind === 'stream') expect({ error: result.functionError, payload: result.functionError ? result.payload : null }).toEqual({ error: null, payload: null });
  });
});
