/**
 * DynamoDB calls of one request, counted in this process: the real authorizer and the route's
 * real handler invoked with API Gateway's event shapes (events.ts), the commands they send through
 * the service's shared DynamoDB client recorded by recordCommands. The gateway cannot be counted
 * from outside (it runs in the stack's process); the handlers are the same code.
 *
 * Imported only after pointServiceAtStack (and pointQueuesAtStack for handlers that queue).
 */
import type { APIGatewayAuthorizerResult, APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { handler as authorizer } from '../../functions/authorizer/handler';
import { dynamoDb } from '../../shared/aws/clients';
import { recordCommands } from './dynamo';
import { authorizerEvent, lambdaContext, proxyEvent, type ApiRequest } from './events';

export interface CallCount {
  /** The authorizer on a cache miss (the gateway caches it per key afterwards). */
  authorizer: string[];
  /** The most frequent command list over the samples (the route handler, authorizer excluded). */
  typical: string[];
  /** Every sample's count, e.g. [5, 5, 5, 5, 5]. */
  counts: number[];
}

/** A function's handler as API Gateway calls it (the middy handlers of shared/http/handler.ts). */
export type ProxyHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<unknown>;

/** The function as the gateway invokes it once the authorizer allowed the request. */
export async function invokeHandler(handler: ProxyHandler, functionName: string, request: ApiRequest, authorization: APIGatewayAuthorizerResult, expectedStatus: number, context?: Context) {
  const result = (await handler(proxyEvent(request, authorization), context ?? lambdaContext(functionName))) as APIGatewayProxyResult;
  if (result.statusCode !== expectedStatus) {
    throw new Error(`In-process ${request.method} ${request.resource} answered ${result.statusCode} (expected ${expectedStatus}): ${result.body}`);
  }
  return result;
}

export async function authorize(request: ApiRequest): Promise<APIGatewayAuthorizerResult> {
  return (await authorizer(authorizerEvent(request))) as APIGatewayAuthorizerResult;
}

/**
 * One untimed request first (it opens the project's rate-limit window and warms module caches),
 * then `samples` requests one at a time, each counted.
 */
export async function countCalls(options: {
  handler: ProxyHandler;
  functionName: string;
  request: (n: number) => ApiRequest;
  expectedStatus: number;
  samples?: number;
}): Promise<CallCount> {
  const record = recordCommands(dynamoDb);
  const { result: authorization, commands: authorizerCommands } = await record(() => authorize(options.request(0)));
  await invokeHandler(options.handler, options.functionName, options.request(0), authorization, options.expectedStatus);
  const samples: string[][] = [];
  for (let n = 1; n <= (options.samples ?? 5); n++) {
    samples.push((await record(() => invokeHandler(options.handler, options.functionName, options.request(n), authorization, options.expectedStatus))).commands);
  }
  const byShape = new Map<string, { commands: string[]; seen: number }>();
  for (const sample of samples) {
    const key = sample.join('+');
    const entry = byShape.get(key) ?? { commands: sample, seen: 0 };
    entry.seen++;
    byShape.set(key, entry);
  }
  const typical = [...byShape.values()].sort((a, b) => b.seen - a.seen)[0]!.commands;
  return { authorizer: authorizerCommands, typical, counts: samples.map((sample) => sample.length) };
}

export function describeCalls(label: string, count: CallCount) {
  const varies = new Set(count.counts).size > 1 ? `  [varied between samples: ${count.counts.join(', ')}]` : '';
  console.log(`  ${label.padEnd(44)} ${count.typical.length}  (${count.typical.join(' + ')})${varies}`);
  console.log(`  ${'authorizer, cache miss'.padEnd(44)} ${count.authorizer.length}  (${count.authorizer.join(' + ')})`);
}
