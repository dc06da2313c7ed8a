import { randomUUID } from 'node:crypto';
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { drawFault, LOCAL_SERVICE_USER_AGENT, type ServiceFaults } from '../faults';
import { roleSessionArn, type Authorizer } from './evaluate';
import { accessKeyIdOf, authorizationRequests, UnmappedRequestError, type AuthorizationRequest, type IamService, type ServiceRequest } from './requests';

/**
 * An HTTP proxy in front of one emulator that enforces IAM: it names the caller by the access key
 * id of its SigV4 credential, maps that to the caller's role, authorizes every action and resource
 * the request touches, and either answers the denial as the real service does or forwards the
 * request unchanged (headers, body streamed, status and response headers back). The signature
 * itself is not verified: the key id names the role, as the emulators accept any signature.
 */

export type IamProxyOptions = {
  service: IamService;
  /** The emulator's base URL, e.g. `http://127.0.0.1:8000`. */
  target: string;
  /** The role ARN an access key id stands for; undefined for a key the stack did not hand out. */
  principals: (accessKeyId: string) => string | undefined;
  authorizer: Authorizer;
  region: string;
  account: string;
  /** Where refusals of requests the module cannot map are reported (default console.warn). */
  log?: (message: string) => void;
  /** LOCAL_FAULTS for this service (infra/local/faults.ts): injected into the calls the front allows. */
  faults?: ServiceFaults;
  /** The draw that picks the calls that fail (default Math.random). */
  random?: () => number;
};

export type IamProxy = { url: string; stop(): Promise<void> };

/** s3rver knows one access key; requests reach it under that key once the proxy has authorized them. */
export const S3RVER_ACCESS_KEY_ID = 'S3RVER';

/** The JSON services' bodies are read to find the resources; S3's are streamed through unread. */
const READS_BODY: Record<IamService, boolean> = { dynamodb: true, sqs: true, ses: true, scheduler: true, s3: false };

export async function startIamProxy(options: IamProxyOptions): Promise<IamProxy> {
  const { service, principals, authorizer, region, account } = options;
  const log = options.log ?? ((message: string) => console.warn(message));
  const target = new URL(options.target);

  const server = createServer((req, res) => {
    handle(req, res).catch((error: Error) => {
      log(`IAM proxy (${service}) failed on ${req.method} ${req.url}: ${error.message}`);
      // A 5xx the SDK retries, as it would a service fault.
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`The local IAM proxy for ${service} failed: ${error.message}`);
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    const url = req.url ?? '/';
    const accessKeyId = accessKeyIdOf({ url, headers: req.headers });
    const roleArn = accessKeyId === undefined ? undefined : principals(accessKeyId);
    if (accessKeyId === undefined || roleArn === undefined) {
      // Drain what the client sends so it reads the answer instead of a reset.
      req.resume();
      return send(res, invalidCredential(service, accessKeyId ?? '', method));
    }
    const body = READS_BODY[service] ? await readBody(req) : undefined;
    const serviceRequest: ServiceRequest = { method, url, headers: req.headers, ...(body ? { body } : {}) };
    const sessionArn = roleSessionArn(roleArn, accessKeyId);

    let requests: AuthorizationRequest[];
    try {
      requests = authorizationRequests(service, serviceRequest, { region, account });
    } catch (error) {
      if (!(error instanceof UnmappedRequestError)) throw error;
      log(`IAM proxy (${service}) refused ${method} ${url}: ${error.message}`);
      req.resume();
      return send(res, accessDenied(service, method, `User: ${sessionArn} is not authorized to perform this request locally: ${error.message}`));
    }
    const decision = await authorizer.authorize(roleArn, requests);
    if (!decision.allowed) {
      req.resume();
      const { action, resource } = decision.request;
      const on = service === 's3' ? `"${resource}"` : resource;
      return send(res, accessDenied(service, method, `User: ${sessionArn} is not authorized to perform: ${action} on resource: ${on} ${decision.reason}`));
    }
    if (options.faults && !isLocalService(req)) {
      if (options.faults.latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, options.faults!.latencyMs));
      const fault = drawFault(options.faults, options.random);
      if (fault) {
        req.resume();
        return send(res, injectedFault(service, method, fault, requests));
      }
    }
    await forward(req, res, body, service === 's3');
  }

  function forward(req: IncomingMessage, res: ServerResponse, body: Buffer | undefined, asS3rver: boolean): Promise<void> {
    return new Promise((resolve, reject) => {
      const headers = { ...req.headers };
      let path = req.url ?? '/';
      if (asS3rver) {
        if (typeof headers.authorization === 'string') headers.authorization = headers.authorization.replace(/Credential=[^/,\s]+\//, `Credential=${S3RVER_ACCESS_KEY_ID}/`);
        path = path.replace(/([?&]X-Amz-Credential=)[^&]*?(%2F|\/)/i, `$1${S3RVER_ACCESS_KEY_ID}$2`);
      }
      const upstream = httpRequest({ protocol: target.protocol, hostname: target.hostname, port: target.port, method: req.method, path, headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.statusMessage, answer.rawHeaders);
        answer.pipe(res);
        answer.on('end', resolve);
        answer.on('error', reject);
      });
      upstream.on('error', reject);
      // A client that goes away takes its upstream request with it.
      res.on('close', () => {
        if (!res.writableFinished) upstream.destroy();
      });
      if (body) upstream.end(body);
      else req.pipe(upstream);
    });
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

type Answer = { status: number; headers: Record<string, string>; body: string };

function send(res: ServerResponse, answer: Answer): void {
  res.writeHead(answer.status, { ...answer.headers, 'content-length': String(Buffer.byteLength(answer.body)) });
  res.end(answer.body);
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** The local stack's own service calls (event source mappings, deliveries): never faulted. */
function isLocalService(req: IncomingMessage): boolean {
  return [req.headers['user-agent'], req.headers['x-amz-user-agent']].some((agent) => String(agent ?? '').includes(LOCAL_SERVICE_USER_AGENT));
}

const xmlEscape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * An error as each service's protocol carries it:
 * - DynamoDB (awsJson1_0): 400, `__type` `com.amazon.coral.service#<Code>`, `Message`;
 * - SQS (awsJson1_0, query-compatible): `__type` plus `x-amzn-query-error: <query code>;Sender`,
 *   from which the SDK takes the error code the Query protocol had (AccessDenied), and whose
 *   fault the error is (Sender, or Receiver for the service's own);
 * - S3 (REST-XML): `<Error><Code>…`, no body on HEAD;
 * - SES v2 and the Scheduler (REST-JSON): `x-amzn-ErrorType: <Code>` and `{ "message" }`.
 */
function serviceError(service: IamService, method: string, error: { status: number; code: string; queryCode: string; message: string; s3Extra?: string; party?: 'Sender' | 'Receiver' }): Answer {
  const requestId = randomUUID();
  switch (service) {
    case 'dynamodb':
      return {
        status: error.status,
        headers: { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': requestId },
        body: JSON.stringify({ __type: `com.amazon.coral.service#${error.code}`, Message: error.message }),
      };
    case 'sqs':
      return {
        status: error.status,
        headers: { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': requestId, 'x-amzn-query-error': `${error.queryCode};${error.party ?? 'Sender'}` },
        body: JSON.stringify({ __type: `com.amazon.coral.service#${error.code}`, message: error.message }),
      };
    case 's3':
      return {
        status: error.status,
        headers: { 'content-type': 'application/xml', 'x-amz-request-id': requestId },
        body:
          method.toUpperCase() === 'HEAD'
            ? ''
            : `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${error.queryCode}</Code><Message>${xmlEscape(error.message)}</Message>${error.s3Extra ?? ''}<RequestId>${requestId}</RequestId><HostId>${requestId}</HostId></Error>`,
      };
    case 'ses':
    case 'scheduler':
      return {
        status: error.status,
        headers: { 'content-type': 'application/json', 'x-amzn-requestid': requestId, 'x-amzn-errortype': error.code },
        body: JSON.stringify({ message: error.message }),
      };
  }
}

/**
 * A failure as the service answers it under load or in a bad minute (LOCAL_FAULTS):
 * - DynamoDB: 400 ProvisionedThroughputExceededException (table and index operations) or
 *   ThrottlingException (the others), 500 InternalServerError;
 * - SQS: 400 RequestThrottled (query code), 500 InternalError;
 * - S3: 503 SlowDown, 500 InternalError;
 * - SES v2: 429 TooManyRequestsException, 500 InternalServiceErrorException;
 * - the Scheduler: 429 ThrottlingException, 500 InternalServerException.
 * The SDK retries every one of them (throttling by name or 429, the others by their 5xx status).
 */
function injectedFault(service: IamService, method: string, fault: 'throttle' | 'error', requests: AuthorizationRequest[]): Answer {
  const throttled = fault === 'throttle';
  switch (service) {
    case 'dynamodb': {
      if (!throttled) return serviceError(service, method, { status: 500, code: 'InternalServerError', queryCode: 'InternalServerError', message: 'Internal server error' });
      const onTable = requests.some((request) => request.resource.includes(':table/'));
      return onTable
        ? serviceError(service, method, { status: 400, code: 'ProvisionedThroughputExceededException', queryCode: 'ProvisionedThroughputExceededException', message: 'The level of configured provisioned throughput for the table was exceeded. Consider increasing your provisioning level with the UpdateTable API.' })
        : serviceError(service, method, { status: 400, code: 'ThrottlingException', queryCode: 'ThrottlingException', message: 'Rate of requests exceeds the allowed throughput.' });
    }
    case 'sqs':
      return throttled
        ? serviceError(service, method, { status: 400, code: 'RequestThrottled', queryCode: 'RequestThrottled', message: 'Request is throttled.' })
        : serviceError(service, method, { status: 500, code: 'InternalError', queryCode: 'InternalError', message: 'We encountered an internal error. Please try again.', party: 'Receiver' });
    case 's3':
      return throttled
        ? serviceError(service, method, { status: 503, code: 'SlowDown', queryCode: 'SlowDown', message: 'Please reduce your request rate.' })
        : serviceError(service, method, { status: 500, code: 'InternalError', queryCode: 'InternalError', message: 'We encountered an internal error. Please try again.' });
    case 'ses':
      return throttled
        ? serviceError(service, method, { status: 429, code: 'TooManyRequestsException', queryCode: 'TooManyRequestsException', message: 'Maximum sending rate exceeded.' })
        : serviceError(service, method, { status: 500, code: 'InternalServiceErrorException', queryCode: 'InternalServiceErrorException', message: 'Internal service error.' });
    case 'scheduler':
      return throttled
        ? serviceError(service, method, { status: 429, code: 'ThrottlingException', queryCode: 'ThrottlingException', message: 'Rate exceeded.' })
        : serviceError(service, method, { status: 500, code: 'InternalServerException', queryCode: 'InternalServerException', message: 'Unexpected error occurred while processing the request.' });
  }
}

function accessDenied(service: IamService, method: string, message: string): Answer {
  return serviceError(service, method, { status: service === 'dynamodb' ? 400 : 403, code: 'AccessDeniedException', queryCode: 'AccessDenied', message });
}

function invalidCredential(service: IamService, accessKeyId: string, method: string): Answer {
  if (service === 's3') {
    return serviceError(service, method, {
      status: 403,
      code: 'InvalidAccessKeyId',
      queryCode: 'InvalidAccessKeyId',
      message: 'The AWS Access Key Id you provided does not exist in our records.',
      s3Extra: `<AWSAccessKeyId>${xmlEscape(accessKeyId)}</AWSAccessKeyId>`,
    });
  }
  const message = 'The security token included in the request is invalid.';
  if (service === 'sqs') return serviceError(service, method, { status: 403, code: 'InvalidClientTokenId', queryCode: 'InvalidClientTokenId', message });
  return serviceError(service, method, { status: service === 'dynamodb' ? 400 : 403, code: 'UnrecognizedClientException', queryCode: 'UnrecognizedClientException', message });
}
