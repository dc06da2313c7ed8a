import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, request, type IncomingMessage, type RequestOptions, type Server, type ServerResponse } from 'node:http';
import type { SesEvent } from '../../../shared/delivery/ses-events';
import { sesTagNames } from '../../../shared/delivery/ses-tags';
import { sesEvent, simulatedTypes, simulatorOutcome, type EventOptions, type SentMail, type SimulatedType } from './ses-events';

/**
 * The local SES endpoint on SES_PORT: a front for aws-ses-v2-local (which runs on an internal
 * port and keeps the mail viewer and GET /store). The front adds what the emulator lacks:
 * - fault injection for SendEmail — LOCAL_SES_THROTTLE_RATE and LOCAL_SES_FAILURE_RATE (0–1) answer
 *   that fraction of calls with the error shapes SES really returns (TooManyRequestsException 429,
 *   InternalServiceErrorException 500), so retries are exercised without a branch in the sender;
 *   POST /_local/faults { throttleRate?, failureRate?, fromDomain? } changes them while the stack
 *   runs, for every sender or (fromDomain; null: every one again) only for mail from that domain —
 *   a test holds its own project's sends back with throttleRate 1, then lets them go; GET reads them;
 * - GET /_local/arrivals: the millisecond arrival time of every accepted SendEmail, taken when the
 *   request came in, with its SES message id and Mailwright email id (for pacing and latency
 *   measurements; /store has only whole seconds);
 * - event publishing: every accepted email publishes SES's Send and Delivery events (the shape
 *   SES puts on EventBridge) to `publish`, which feeds the ses-events handler — like SES, after
 *   the SendEmail response (Send about 1 s later, Delivery about 1 s after that); SES's mailbox
 *   simulator addresses publish what SES does for them (ses-events.ts simulatorOutcome: bounce@,
 *   complaint@, ooto@ with its auto-reply in the mail viewer, suppressionlist@) — and
 *   POST /_local/simulate { emailId | messageId, type, bounceType?, link? } publishes a bounce,
 *   complaint, open, click, reject or delay for an email that was sent;
 * - email identities (CreateEmailIdentity, GetEmailIdentity, DeleteEmailIdentity) with Easy DKIM
 *   tokens; a domain verifies `verifySeconds` after creation (LOCAL_DOMAIN_VERIFY_SECONDS), or at
 *   once on POST /_local/identities/<domain>/verify (the admin CLI's verify-domain). Identities are
 *   kept in `identitiesFile` across restarts.
 */
export interface SesFrontOptions {
  port: number;
  emulatorPort: number;
  throttleRate: number;
  failureRate: number;
  publish: (event: SesEvent) => Promise<void>;
  verifySeconds: number;
  identitiesFile: string;
}

interface LocalIdentity {
  tokens: string[];
  createdAt: number;
  verified: boolean;
}

const IDENTITIES_PATH = '/v2/email/identities';

const SEND_EMAIL_PATH = '/v2/email/outbound-emails';

/** After an accepted SendEmail: its Send event, then (after that) its Delivery event. */
const SEND_EVENT_DELAY_MS = 1_000;
const DELIVERY_EVENT_DELAY_MS = 1_000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

export function startSesFront(options: SesFrontOptions): Promise<Server> {
  const arrivals: { at: number; messageId: string; emailId?: string }[] = [];
  const sent = new Map<string, SentMail>();
  const faults: { throttleRate: number; failureRate: number; fromDomain: string | null } = { throttleRate: options.throttleRate, failureRate: options.failureRate, fromDomain: null };
  const identities = new Map<string, LocalIdentity>(existsSync(options.identitiesFile) ? Object.entries(JSON.parse(readFileSync(options.identitiesFile, 'utf8'))) : []);
  const saveIdentities = () => writeFileSync(options.identitiesFile, JSON.stringify(Object.fromEntries(identities), null, 2));

  /** Like SES, publishing never fails the send: errors are logged. */
  const publish = (mail: SentMail, type: SimulatedType, extra: EventOptions = {}) =>
    options.publish(sesEvent(mail, type, extra)).catch((error) => console.error(`Publishing the SES ${type} event failed`, error));
  /**
   * Like SES, the events come after SendEmail has answered — the sender has recorded SENT by
   * then, as it normally has in AWS — and in order, about a second apart (each is applied before
   * the next is published): Send, then Delivery, or what the mailbox simulator's address yields.
   */
  const publishLater = (mail: SentMail) => {
    const outcome = simulatorOutcome(mail.destination[0] ?? '');
    void (async () => {
      for (const [index, event] of outcome.events.entries()) {
        await sleep(index === 0 ? SEND_EVENT_DELAY_MS : DELIVERY_EVENT_DELAY_MS);
        await publish(mail, event.type, event.options);
      }
      if (outcome.autoReply) await autoReply(mail).catch((error) => console.error('The simulator\'s auto-reply failed', error));
    })();
  };
  /** ooto@'s out-of-office answer to the sender, into the mail viewer (sent to the emulator directly: no events of its own). */
  const autoReply = async (mail: SentMail) => {
    const reply = {
      FromEmailAddress: mail.destination[0],
      Destination: { ToAddresses: [mail.from] },
      Content: { Simple: { Subject: { Data: `Out of the office: ${mail.subject}` }, Body: { Text: { Data: 'I am out of the office and will reply when I am back.' } } } },
    };
    const answer = await post(options.emulatorPort, SEND_EMAIL_PATH, Buffer.from(JSON.stringify(reply)));
    if (answer.status !== 200) throw new Error(`The emulator answered ${answer.status}: ${answer.body.toString('utf8')}`);
  };
  const server = createServer((req, res) => {
    void handle(req, res).catch((error) => {
      console.error('Local SES front failed', error);
      if (!res.headersSent) res.writeHead(502).end();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse) {
    // When SES would count the request: on arrival, not when the emulator behind has answered.
    const receivedAt = Date.now();
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (req.method === 'GET' && url.pathname === '/_local/arrivals') {
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ arrivals }));
      return;
    }
    if (req.method === 'POST' && url.pathname === '/_local/arrivals/clear') {
      arrivals.length = 0;
      res.writeHead(204).end();
      return;
    }
    if (req.method === 'GET' && url.pathname === '/_local/faults') {
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(faults));
      return;
    }
    const body = await readAll(req);
    if (req.method === 'POST' && url.pathname === '/_local/simulate') return simulate(body, res);
    if (req.method === 'POST' && url.pathname === '/_local/faults') return setFaults(body, res);
    if (url.pathname.startsWith(IDENTITIES_PATH)) return identity(req.method ?? 'GET', decodeURIComponent(url.pathname.slice(IDENTITIES_PATH.length + 1)), body, res);
    const verify = /^\/_local\/identities\/([^/]+)\/verify$/.exec(url.pathname);
    if (req.method === 'POST' && verify) {
      const found = identities.get(decodeURIComponent(verify[1]!).toLowerCase());
      if (!found) return res.writeHead(404, { 'Content-Type': 'application/json' }).end(JSON.stringify({ message: 'No such identity' }));
      found.verified = true;
      saveIdentities();
      return res.writeHead(204).end();
    }
    const isSend = req.method === 'POST' && url.pathname === SEND_EMAIL_PATH;
    if (isSend && (faults.fromDomain === null || senderDomain(body) === faults.fromDomain)) {
      const roll = Math.random();
      if (roll < faults.throttleRate) return sesError(res, 429, 'TooManyRequestsException', 'Maximum sending rate exceeded.');
      if (roll < faults.throttleRate + faults.failureRate) return sesError(res, 500, 'InternalServiceErrorException', 'Internal service error.');
    }
    const upstream = await forward(req, body, options.emulatorPort);
    if (isSend && upstream.status === 200) {
      const { MessageId } = JSON.parse(upstream.body.toString('utf8')) as { MessageId: string };
      const mail = sentMail(MessageId, JSON.parse(body.toString('utf8')));
      const emailId = mail.tags[sesTagNames.email]?.[0];
      arrivals.push({ at: receivedAt, messageId: MessageId, emailId });
      sent.set(MessageId, mail);
      if (emailId) sent.set(emailId, mail);
      res.writeHead(upstream.status, upstream.headers).end(upstream.body);
      publishLater(mail);
      return;
    }
    res.writeHead(upstream.status, upstream.headers).end(upstream.body);
  }

  function identity(method: string, name: string, body: Buffer, res: ServerResponse) {
    const json = (status: number, value: unknown) => res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(value));
    if (method === 'POST' && name === '') {
      const identityName = String((JSON.parse(body.toString('utf8') || '{}') as { EmailIdentity?: string }).EmailIdentity ?? '').toLowerCase();
      if (!identityName) return sesError(res, 400, 'BadRequestException', 'EmailIdentity is required');
      if (identities.has(identityName)) return sesError(res, 400, 'AlreadyExistsException', `Email identity ${identityName} already exist.`);
      const created = { tokens: [0, 1, 2].map(() => randomBytes(16).toString('hex')), createdAt: Date.now(), verified: false };
      identities.set(identityName, created);
      saveIdentities();
      return json(200, describe(identityName, created));
    }
    const found = identities.get(name.toLowerCase());
    if (!found) return sesError(res, 404, 'NotFoundException', `Email identity ${name} does not exist.`);
    if (method === 'GET') return json(200, describe(name, found));
    if (method === 'DELETE') {
      identities.delete(name.toLowerCase());
      saveIdentities();
      return json(200, {});
    }
    return sesError(res, 400, 'BadRequestException', 'Unsupported identity operation');
  }

  function describe(name: string, found: LocalIdentity) {
    const verified = found.verified || Date.now() - found.createdAt >= options.verifySeconds * 1000;
    return {
      IdentityType: name.includes('@') ? 'EMAIL_ADDRESS' : 'DOMAIN',
      VerifiedForSendingStatus: verified,
      VerificationStatus: verified ? 'SUCCESS' : 'PENDING',
      DkimAttributes: { SigningEnabled: true, Status: verified ? 'SUCCESS' : 'PENDING', Tokens: found.tokens, SigningAttributesOrigin: 'AWS_SES' },
    };
  }

  /** POST /_local/faults: the SendEmail fault rates from now on (each 0–1, together at most 1); answers the rates in force. */
  function setFaults(body: Buffer, res: ServerResponse) {
    const refuse = (message: string) => res.writeHead(400, { 'Content-Type': 'application/json' }).end(JSON.stringify({ message }));
    let request: { throttleRate?: unknown; failureRate?: unknown; fromDomain?: unknown };
    try {
      request = JSON.parse(body.toString('utf8') || '{}');
    } catch {
      return refuse('Body must be JSON');
    }
    const next = { ...faults };
    for (const name of ['throttleRate', 'failureRate'] as const) {
      const value = request[name];
      if (value === undefined) continue;
      if (typeof value !== 'number' || !(value >= 0 && value <= 1)) return refuse(`${name} must be a number from 0 to 1`);
      next[name] = value;
    }
    if (request.fromDomain !== undefined) {
      if (request.fromDomain !== null && (typeof request.fromDomain !== 'string' || !request.fromDomain.includes('.'))) return refuse('fromDomain must be a domain name, or null for every sender');
      next.fromDomain = request.fromDomain === null ? null : request.fromDomain.toLowerCase();
    }
    if (next.throttleRate + next.failureRate > 1) return refuse('throttleRate and failureRate add up to more than 1');
    Object.assign(faults, next);
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(faults));
  }

  async function simulate(body: Buffer, res: ServerResponse) {
    let request: { emailId?: string; messageId?: string; type?: string; bounceType?: string; link?: string };
    try {
      request = JSON.parse(body.toString('utf8'));
    } catch {
      return res.writeHead(400, { 'Content-Type': 'application/json' }).end(JSON.stringify({ message: 'Body must be JSON' }));
    }
    const mail = sent.get(request.emailId ?? request.messageId ?? '');
    if (!mail) return res.writeHead(404, { 'Content-Type': 'application/json' }).end(JSON.stringify({ message: 'No email with that emailId or messageId was sent since the stack started' }));
    if (!simulatedTypes.includes(request.type as SimulatedType)) {
      return res.writeHead(400, { 'Content-Type': 'application/json' }).end(JSON.stringify({ message: `type must be one of ${simulatedTypes.join(', ')}` }));
    }
    const event = sesEvent(mail, request.type as SimulatedType, { bounceType: request.bounceType, link: request.link });
    await options.publish(event);
    res.writeHead(202, { 'Content-Type': 'application/json' }).end(JSON.stringify({ published: event }));
  }

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => resolve(server));
  });
}

/** The domain of a SendEmail's FromEmailAddress ("Name <a@b.c>" or a@b.c), lower-cased; '' when it has none. */
function senderDomain(body: Buffer): string {
  try {
    const from = String((JSON.parse(body.toString('utf8')) as { FromEmailAddress?: unknown }).FromEmailAddress ?? '');
    return (/@([^>\s]+)>?\s*$/.exec(from)?.[1] ?? '').toLowerCase();
  } catch {
    return '';
  }
}

function sentMail(messageId: string, input: { FromEmailAddress?: string; Destination?: { ToAddresses?: string[] }; Content?: { Simple?: { Subject?: { Data?: string } } }; EmailTags?: { Name: string; Value: string }[] }): SentMail {
  return {
    messageId,
    from: input.FromEmailAddress ?? '',
    destination: input.Destination?.ToAddresses ?? [],
    subject: input.Content?.Simple?.Subject?.Data ?? '',
    tags: Object.fromEntries((input.EmailTags ?? []).map((tag) => [tag.Name, [tag.Value]])),
    sentAt: new Date().toISOString(),
  };
}

/** SES v2 (restJson1) errors: the type in x-amzn-ErrorType, the message in the body. */
function sesError(res: ServerResponse, status: number, type: string, message: string) {
  res
    .writeHead(status, { 'Content-Type': 'application/json', 'x-amzn-ErrorType': type, 'x-amzn-RequestId': crypto.randomUUID() })
    .end(JSON.stringify({ message }));
}

function readAll(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** A request of the front's own to the emulator, which wants some credential (any will do). */
const post = (port: number, path: string, body: Buffer) =>
  send(
    {
      host: '127.0.0.1',
      port,
      method: 'POST',
      path,
      headers: {
        host: `127.0.0.1:${port}`,
        'content-type': 'application/json',
        'content-length': String(body.length),
        authorization: 'AWS4-HMAC-SHA256 Credential=LOCAL/20260101/us-east-1/ses/aws4_request, SignedHeaders=host, Signature=0',
      },
    },
    body,
  );

const forward = (req: IncomingMessage, body: Buffer, port: number) =>
  send({ host: '127.0.0.1', port, method: req.method, path: req.url, headers: { ...req.headers, host: `127.0.0.1:${port}` } }, body);

function send(target: RequestOptions, body: Buffer): Promise<{ status: number; headers: Record<string, string | string[]>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const upstream = request(
      target,
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const headers = Object.fromEntries(Object.entries(response.headers).filter((entry): entry is [string, string | string[]] => entry[1] !== undefined));
          delete headers['transfer-encoding'];
          resolve({ status: response.statusCode ?? 502, headers, body: Buffer.concat(chunks) });
        });
        response.on('error', reject);
      },
    );
    upstream.on('error', reject);
    upstream.end(body);
  });
}
