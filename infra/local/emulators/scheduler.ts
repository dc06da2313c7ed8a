import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { GetQueueUrlCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';

/**
 * The local EventBridge Scheduler: a server speaking the Scheduler REST-JSON API the unchanged
 * SDK uses (through AWS_ENDPOINT_URL_SCHEDULER) — CreateSchedule (POST /schedules/{Name}),
 * GetSchedule (GET), UpdateSchedule (PUT), DeleteSchedule (DELETE), with `groupName` in the query
 * where AWS puts it and AWS's error shapes (ConflictException 409, ResourceNotFoundException 404,
 * ValidationException 400). Schedules live in one JSON file in the data folder, so a schedule that
 * fell due while `npm start` was stopped fires right after the next start.
 *
 * It runs one-time `at(yyyy-mm-ddThh:mm:ss)` schedules in UTC with an SQS queue target, which is
 * what Mailwright schedules: at its time the target queue (found by the name in its ARN) receives
 * Target.Input. A failed delivery is retried with backoff until the target's
 * RetryPolicy.MaximumEventAgeInSeconds (default 24 h, counted from the first attempt) has passed.
 * After it ran, a schedule with ActionAfterCompletion DELETE is deleted; any other stays, done.
 */
export interface SchedulerOptions {
  port: number;
  /** The JSON file that keeps the schedules across restarts. */
  file: string;
  /** How often due schedules are looked for (default every second). */
  tickMs?: number;
  region?: string;
  account?: string;
  /**
   * How a schedule reaches its target: an SQS client acting as the schedule's role (the role
   * EventBridge Scheduler assumes; throws when the role does not trust scheduler.amazonaws.com), and
   * the queue URL of a target ARN. Without these, the process's own credentials and GetQueueUrl.
   */
  deliverAs?: (roleArn: string) => SQSClient;
  queueUrlByArn?: ReadonlyMap<string, string>;
}

interface StoredSchedule {
  Name: string;
  GroupName: string;
  Arn: string;
  ScheduleExpression: string;
  ScheduleExpressionTimezone?: string;
  FlexibleTimeWindow: { Mode: string; MaximumWindowInMinutes?: number };
  Target: { Arn: string; RoleArn: string; Input?: string; RetryPolicy?: { MaximumEventAgeInSeconds?: number; MaximumRetryAttempts?: number }; SqsParameters?: { MessageGroupId?: string } };
  State: string;
  ActionAfterCompletion: string;
  Description?: string;
  StartDate?: number;
  EndDate?: number;
  KmsKeyArn?: string;
  ClientToken?: string;
  CreationDate: number;
  LastModificationDate: number;
  /** Emulator bookkeeping: when it is due (epoch ms), delivery attempts, and whether it ran. */
  dueAt: number;
  firstAttemptAt?: number;
  nextAttemptAt?: number;
  attempts?: number;
  completed?: boolean;
}

type Body = Record<string, unknown>;

class SchedulerError extends Error {
  constructor(
    readonly statusCode: number,
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

const DEFAULT_MAX_EVENT_AGE_SECONDS = 86_400;
const MAX_BACKOFF_MS = 60_000;
const AT_EXPRESSION = /^at\((\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})\)$/;

export function startScheduler(options: SchedulerOptions): Promise<() => Promise<void>> {
  const region = options.region ?? process.env.AWS_REGION ?? 'us-east-1';
  const account = options.account ?? '000000000000';
  const schedules = new Map<string, StoredSchedule>(load(options.file).map((schedule) => [keyOf(schedule.GroupName, schedule.Name), schedule]));
  const sqs = new SQSClient({});
  const queueUrls = new Map<string, string>();

  const save = () => {
    const temporary = `${options.file}.tmp`;
    writeFileSync(temporary, JSON.stringify([...schedules.values()], null, 2));
    renameSync(temporary, options.file);
  };

  const server: Server = createServer((req, res) => {
    handle(req)
      .then(({ status, body }) => reply(res, status, body))
      .catch((error: unknown) => {
        const failure = error instanceof SchedulerError ? error : new SchedulerError(500, 'InternalServerException', String((error as Error)?.message ?? error));
        res.writeHead(failure.statusCode, { 'Content-Type': 'application/json', 'x-amzn-ErrorType': failure.type }).end(JSON.stringify({ Message: failure.message }));
      });
  });

  async function handle(req: IncomingMessage): Promise<{ status: number; body: Body }> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const match = /^\/schedules\/([^/]+)$/.exec(url.pathname);
    if (!match) throw new SchedulerError(404, 'UnknownOperationException', `The local Scheduler does not serve ${req.method} ${url.pathname}`);
    const name = decodeURIComponent(match[1]!);
    const body = await readJson(req);
    const group = (req.method === 'POST' || req.method === 'PUT' ? (body.GroupName as string | undefined) : url.searchParams.get('groupName')) || 'default';
    const key = keyOf(group, name);
    const existing = schedules.get(key);
    switch (req.method) {
      case 'POST': {
        if (existing) {
          if (body.ClientToken && existing.ClientToken === body.ClientToken) return { status: 200, body: { ScheduleArn: existing.Arn } };
          throw new SchedulerError(409, 'ConflictException', `Schedule ${name} already exists.`);
        }
        const schedule = toSchedule(name, group, body);
        schedules.set(key, schedule);
        save();
        return { status: 200, body: { ScheduleArn: schedule.Arn } };
      }
      case 'PUT': {
        if (!existing) throw notFound(name);
        const schedule = { ...toSchedule(name, group, body), CreationDate: existing.CreationDate };
        schedules.set(key, schedule);
        save();
        return { status: 200, body: { ScheduleArn: schedule.Arn } };
      }
      case 'GET': {
        if (!existing) throw notFound(name);
        const { dueAt: _dueAt, firstAttemptAt: _first, nextAttemptAt: _next, attempts: _attempts, completed: _completed, ClientToken: _token, ...visible } = existing;
        return { status: 200, body: visible };
      }
      case 'DELETE': {
        if (!existing) throw notFound(name);
        schedules.delete(key);
        save();
        return { status: 200, body: {} };
      }
      default:
        throw new SchedulerError(404, 'UnknownOperationException', `The local Scheduler does not serve ${req.method} ${url.pathname}`);
    }
  }

  function toSchedule(name: string, group: string, body: Body): StoredSchedule {
    const expression = body.ScheduleExpression;
    const target = body.Target as StoredSchedule['Target'] | undefined;
    const window = body.FlexibleTimeWindow as StoredSchedule['FlexibleTimeWindow'] | undefined;
    if (!/^[0-9a-zA-Z-_.]{1,64}$/.test(name)) throw validation('Name must be 1-64 characters of [0-9a-zA-Z-_.]');
    if (typeof expression !== 'string') throw validation('ScheduleExpression is required');
    if (!window?.Mode) throw validation('FlexibleTimeWindow is required');
    if (!target?.Arn || !target.RoleArn) throw validation('Target.Arn and Target.RoleArn are required');
    const at = AT_EXPRESSION.exec(expression);
    if (!at) throw validation(`The local Scheduler runs one-time at(yyyy-mm-ddThh:mm:ss) schedules only, not "${expression}"`);
    const timezone = body.ScheduleExpressionTimezone as string | undefined;
    if (timezone && timezone !== 'UTC') throw validation('The local Scheduler takes at(...) times in UTC only');
    if (!target.Arn.startsWith('arn:aws:sqs:')) throw validation('The local Scheduler delivers to SQS queue targets only');
    const now = Math.floor(Date.now() / 1000);
    return {
      Name: name,
      GroupName: group,
      Arn: `arn:aws:scheduler:${region}:${account}:schedule/${group}/${name}`,
      ScheduleExpression: expression,
      ...(timezone ? { ScheduleExpressionTimezone: timezone } : {}),
      FlexibleTimeWindow: window,
      Target: target,
      State: (body.State as string | undefined) ?? 'ENABLED',
      ActionAfterCompletion: (body.ActionAfterCompletion as string | undefined) ?? 'NONE',
      ...pick(body, ['Description', 'StartDate', 'EndDate', 'KmsKeyArn', 'ClientToken']),
      CreationDate: now,
      LastModificationDate: now,
      dueAt: Date.parse(`${at[1]}Z`),
    };
  }

  let ticking = false;
  async function tick(): Promise<void> {
    if (ticking) return;
    ticking = true;
    try {
      const now = Date.now();
      const due = [...schedules.values()].filter((schedule) => !schedule.completed && schedule.State === 'ENABLED' && schedule.dueAt <= now && (schedule.nextAttemptAt ?? 0) <= now);
      for (const schedule of due) await fire(schedule, now);
    } finally {
      ticking = false;
    }
  }

  async function fire(schedule: StoredSchedule, now: number): Promise<void> {
    const key = keyOf(schedule.GroupName, schedule.Name);
    try {
      await (options.deliverAs?.(schedule.Target.RoleArn) ?? sqs).send(
        new SendMessageCommand({
          QueueUrl: await queueUrlOf(schedule.Target.Arn),
          MessageBody: schedule.Target.Input ?? '{}',
          ...(schedule.Target.SqsParameters?.MessageGroupId ? { MessageGroupId: schedule.Target.SqsParameters.MessageGroupId } : {}),
        }),
      );
    } catch (error) {
      const firstAttemptAt = schedule.firstAttemptAt ?? now;
      const attempts = (schedule.attempts ?? 0) + 1;
      const maxAgeMs = (schedule.Target.RetryPolicy?.MaximumEventAgeInSeconds ?? DEFAULT_MAX_EVENT_AGE_SECONDS) * 1000;
      if (schedules.get(key) !== schedule) return;
      if (now - firstAttemptAt >= maxAgeMs) {
        console.error(`Scheduler: schedule ${schedule.GroupName}/${schedule.Name} could not reach its target for ${maxAgeMs / 1000} s; dropped`, error);
        complete(schedule);
      } else {
        console.error(`Scheduler: schedule ${schedule.GroupName}/${schedule.Name} failed to deliver (attempt ${attempts}); retrying`, (error as Error).message);
        schedules.set(key, { ...schedule, firstAttemptAt, attempts, nextAttemptAt: now + Math.min(MAX_BACKOFF_MS, 1000 * 2 ** (attempts - 1)) });
      }
      save();
      return;
    }
    // Deleted or replaced while its message was being sent: a replaced one stays for its new time.
    if (schedules.get(key) !== schedule) return;
    complete(schedule);
    save();
  }

  function complete(schedule: StoredSchedule): void {
    const key = keyOf(schedule.GroupName, schedule.Name);
    if (schedule.ActionAfterCompletion === 'DELETE') schedules.delete(key);
    else schedules.set(key, { ...schedule, completed: true });
  }

  async function queueUrlOf(arn: string): Promise<string> {
    const known = options.queueUrlByArn?.get(arn) ?? queueUrls.get(arn);
    if (known) return known;
    const [, , , , owner, name] = arn.split(':');
    const { QueueUrl } = await sqs.send(new GetQueueUrlCommand({ QueueName: name, QueueOwnerAWSAccountId: owner || undefined }));
    queueUrls.set(arn, QueueUrl!);
    return QueueUrl!;
  }

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => {
      const timer = setInterval(() => void tick().catch((error) => console.error('Scheduler tick failed', error)), options.tickMs ?? 1000);
      void tick();
      resolve(async () => {
        clearInterval(timer);
        while (ticking) await new Promise((done) => setTimeout(done, 10));
        server.closeAllConnections();
        await new Promise<void>((done) => server.close(() => done()));
      });
    });
  });
}

const keyOf = (group: string, name: string) => `${group}/${name}`;

const notFound = (name: string) => new SchedulerError(404, 'ResourceNotFoundException', `Schedule ${name} does not exist.`);
const validation = (message: string) => new SchedulerError(400, 'ValidationException', message);

function load(file: string): StoredSchedule[] {
  if (!existsSync(file)) return [];
  return JSON.parse(readFileSync(file, 'utf8')) as StoredSchedule[];
}

function pick(body: Body, names: string[]): Body {
  return Object.fromEntries(names.filter((name) => body[name] !== undefined).map((name) => [name, body[name]]));
}

function reply(res: ServerResponse, status: number, body: Body): void {
  res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
}

async function readJson(req: IncomingMessage): Promise<Body> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  if (chunks.length === 0) return {};
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as Body;
  } catch {
    throw validation('The request body is not JSON');
  }
}
