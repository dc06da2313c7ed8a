import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FunctionRunner } from './runner';

/**
 * Lambda's own API for the local functions, on the local gateway's port (the Lambda endpoint,
 * AWS_ENDPOINT_URL_LAMBDA=http://localhost:3000): ListFunctions (GET /2015-03-31/functions/) and
 * Invoke (POST /2015-03-31/functions/{name}/invocations, RequestResponse), answered as Lambda
 * answers — a function error is a 200 with `X-Amz-Function-Error: Unhandled` and the error as the
 * payload. Locally the answer also says whether the error happened at cold start
 * (`X-Mailwright-Init-Error: true`), which the deployment test checks for every function.
 */
export function lambdaInvokeApi(runners: () => Iterable<FunctionRunner>) {
  const byName = (name: string) => [...runners()].find((runner) => runner.definition.name === name || runner.definition.arn === name);
  return async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> => {
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) => res.writeHead(status, { 'Content-Type': 'application/json', ...headers }).end(JSON.stringify(body));
    if (req.method === 'GET' && /^\/2015-03-31\/functions\/?$/.test(url.pathname)) {
      json(200, {
        Functions: [...runners()].map(({ definition }) => ({
          FunctionName: definition.name,
          FunctionArn: definition.arn,
          Handler: definition.handler,
          Timeout: definition.timeoutSeconds,
          MemorySize: definition.memoryMb,
          Role: definition.roleArn,
        })),
      });
      return true;
    }
    const invoke = /^\/2015-03-31\/functions\/([^/]+)\/invocations$/.exec(url.pathname);
    if (req.method !== 'POST' || !invoke) return false;
    const runner = byName(decodeURIComponent(invoke[1]!));
    if (!runner) {
      json(404, { Type: 'User', message: `Function not found: ${invoke[1]}` }, { 'x-amzn-ErrorType': 'ResourceNotFoundException' });
      return true;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    let event: unknown;
    try {
      event = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : {};
    } catch {
      json(400, { Type: 'User', message: 'Could not parse request body into json' }, { 'x-amzn-ErrorType': 'InvalidRequestContentException' });
      return true;
    }
    const outcome = await runner.invoke(event);
    if (outcome.ok) json(200, outcome.result);
    else json(200, outcome.error, { 'X-Amz-Function-Error': 'Unhandled', ...(outcome.atInit ? { 'X-Mailwright-Init-Error': 'true' } : {}) });
    return true;
  };
}
