/**
 * The workflow engine's AWS work for one tracked event, counted in this process with the real
 * handlers (issue 27 item 3: "engine work per event (calls, WRU) printed"):
 *
 * 1. the trigger consumer (functions/workflow-triggers/handler.ts) is fed the event's table-stream
 *    record, as the stream poller hands it over;
 * 2. whatever it queues for the workflow-runner is caught (never reaches the stack's queue) and fed
 *    to the runner (functions/workflow-runner/handler.ts) as SQS events of the event source
 *    mapping's batch size (infra/queues.ts); what the runner queues for immediate work (no
 *    DelaySeconds) is fed to it again, round after round, until nothing is left. Delayed messages
 *    (a DELAY step's wake) are counted, not run: the executions stop at their DELAY step.
 *
 * Nothing here knows the message kinds: a consumer that queues "enter" jobs for the runner, or
 * first steps, or both, is measured the same way.
 *
 * The event item is the one POST /v1/track writes (shared/events/events.ts builds it), for a
 * contact created beforehand, but it is never written: a written event would reach the stack's own
 * trigger consumer too, which would enter the same executions at the same moment. The engine never
 * reads the event item back, so its work is the same.
 *
 * DynamoDB capacity is what DynamoDB Local reports with ReturnConsumedCapacity INDEXES (the table
 * and every index write); a call that fails (a condition) reports none, so those are counted apart.
 * A TransactWriteItems of several items is under-reported by DynamoDB Local (2026-01-16): ten 1.5 KB
 * Puts report 4 units, as one item would, where DynamoDB bills 40 (2 per KB per item). The WCU of
 * a run whose transactions carry several items are therefore a floor, not the bill.
 *
 * Imported only after pointServiceAtStack and pointQueuesAtStack.
 */
import { createHash, randomUUID } from 'node:crypto';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord, DynamoDBStreamEvent, SQSEvent } from 'aws-lambda';
import { handler as runnerHandler } from '../../functions/workflow-runner/handler';
import { handler as triggersHandler } from '../../functions/workflow-triggers/handler';
import { queues } from '../../infra/queues';
import { dynamoDb } from '../../shared/aws/clients';
import { upsertContact } from '../../shared/contacts/contacts';
import { eventWriteItems, newEvent } from '../../shared/events/events';
import { sqsClient } from '../../shared/queue/handler';
import { schedulerClient } from '../../shared/scheduler/schedules';
import { consumedUnits, type Middleware, type WithMiddleware } from './billing';
import { lambdaContext } from './events';

/** One stage's work: calls by service, DynamoDB capacity units, messages queued. */
export interface StageWork {
  invocations: number;
  /** Wall-clock time of its invocations in this process, one after another. */
  elapsedMs: number;
  dynamoCalls: number;
  /** DynamoDB calls that failed (a condition, a cancelled transaction): DynamoDB reports no capacity for them. */
  failedDynamoCalls: number;
  readUnits: number;
  writeUnits: number;
  sqsCalls: number;
  /** Any other service's calls (EventBridge Scheduler for long waits). */
  otherCalls: number;
  /** Calls by "Service Command", e.g. { 'DynamoDB TransactWriteItems': 20 }. */
  commands: Record<string, number>;
  /** Messages queued for the runner to do now, and delayed ones (wakes). */
  immediateMessages: number;
  delayedMessages: number;
}

export interface EngineWork {
  consumer: StageWork;
  runner: StageWork;
  /** Runner invocations in each round (a round runs what the previous one queued). */
  rounds: number[];
}

const emptyWork = (): StageWork => ({ invocations: 0, elapsedMs: 0, dynamoCalls: 0, failedDynamoCalls: 0, readUnits: 0, writeUnits: 0, sqsCalls: 0, otherCalls: 0, commands: {}, immediateMessages: 0, delayedMessages: 0 });

/** The queues the workflow-runner consumes (the workflow queue today), by URL. */
function runnerQueueUrls(): Set<string> {
  const urls = queues.filter((queue) => queue.consumer?.group === 'workflow-runner').map((queue) => process.env[queue.envVar]);
  if (urls.length === 0 || urls.some((url) => !url)) throw new Error('The workflow-runner queue URLs are not set: run pointQueuesAtStack first');
  return new Set(urls as string[]);
}

interface CaughtMessage {
  body: string;
  delaySeconds: number;
}

/** The meter: installed once on the service's clients, counting into `stage` while one is set. */
let stage: StageWork | null = null;
let caught: CaughtMessage[] = [];
let installed = false;

const md5 = (text: string) => createHash('md5').update(text).digest('hex');

function install() {
  if (installed) return;
  installed = true;
  const runnerQueues = runnerQueueUrls();
  const name = (context: { commandName?: string }) => (context.commandName ?? 'Unknown').replace(/Command$/, '');
  const count = (work: StageWork, key: string) => {
    work.commands[key] = (work.commands[key] ?? 0) + 1;
  };

  const dynamo: Middleware = (next, context) => async (args) => {
    const work = stage;
    if (!work) return next(args);
    const command = name(context);
    work.dynamoCalls++;
    count(work, `DynamoDB ${command}`);
    args.input.ReturnConsumedCapacity = 'INDEXES';
    let result;
    try {
      result = await next(args);
    } catch (error) {
      work.failedDynamoCalls++;
      throw error;
    }
    const units = consumedUnits(command, result.output);
    work.readUnits += units.read;
    work.writeUnits += units.write;
    return result;
  };

  // Messages for the runner are caught and answered as SQS would; any other call goes through.
  const sqs: Middleware = (next, context) => async (args) => {
    const work = stage;
    if (!work) return next(args);
    const command = name(context);
    work.sqsCalls++;
    count(work, `SQS ${command}`);
    if (!runnerQueues.has(String(args.input.QueueUrl))) return next(args);
    const catchOne = (body: string, delaySeconds: unknown) => {
      const delay = Number(delaySeconds ?? 0) || 0;
      caught.push({ body, delaySeconds: delay });
      if (delay > 0) work.delayedMessages++;
      else work.immediateMessages++;
    };
    if (command === 'SendMessage') {
      const body = String(args.input.MessageBody);
      catchOne(body, args.input.DelaySeconds);
      return { output: { MessageId: randomUUID(), MD5OfMessageBody: md5(body), $metadata: {} }, response: {} };
    }
    if (command === 'SendMessageBatch') {
      const entries = args.input.Entries as { Id: string; MessageBody: string; DelaySeconds?: number }[];
      for (const entry of entries) catchOne(entry.MessageBody, entry.DelaySeconds ?? args.input.DelaySeconds);
      return { output: { Successful: entries.map((entry) => ({ Id: entry.Id, MessageId: randomUUID(), MD5OfMessageBody: md5(entry.MessageBody) })), Failed: [], $metadata: {} }, response: {} };
    }
    return next(args);
  };

  const other = (service: string): Middleware => (next, context) => async (args) => {
    const work = stage;
    if (work) {
      work.otherCalls++;
      count(work, `${service} ${name(context)}`);
    }
    return next(args);
  };

  (dynamoDb as WithMiddleware).middlewareStack.add(dynamo as never, { step: 'initialize', name: 'benchEngineWork' });
  (sqsClient as WithMiddleware).middlewareStack.add(sqs as never, { step: 'initialize', name: 'benchEngineWork' });
  (schedulerClient as WithMiddleware).middlewareStack.add(other('Scheduler') as never, { step: 'initialize', name: 'benchEngineWork' });
}

async function metered<T>(work: StageWork, run: () => Promise<T>): Promise<T> {
  if (stage) throw new Error('Engine work: measurements may not overlap');
  stage = work;
  work.invocations++;
  const started = performance.now();
  try {
    return await run();
  } finally {
    work.elapsedMs += performance.now() - started;
    stage = null;
  }
}

function streamRecord(item: Record<string, unknown>): DynamoDBStreamEvent {
  const sequenceNumber = `${Date.now()}${Math.floor(Math.random() * 1e6)}`;
  const record: DynamoDBRecord = {
    eventID: randomUUID(),
    eventName: 'INSERT',
    eventVersion: '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: 'us-east-1',
    eventSourceARN: 'arn:aws:dynamodb:us-east-1:000000000000:table/mailwright/stream/bench',
    dynamodb: {
      ApproximateCreationDateTime: Math.floor(Date.now() / 1000),
      Keys: marshall({ PK: item.PK, SK: item.SK }) as never,
      NewImage: marshall(item, { removeUndefinedValues: true }) as never,
      SequenceNumber: sequenceNumber,
      SizeBytes: JSON.stringify(item).length,
      StreamViewType: 'NEW_AND_OLD_IMAGES',
    },
  };
  return { Records: [record] };
}

function sqsEvent(messages: CaughtMessage[]): SQSEvent {
  return {
    Records: messages.map((message) => ({
      messageId: randomUUID(),
      receiptHandle: `bench-${randomUUID()}`,
      body: message.body,
      attributes: { ApproximateReceiveCount: '1', SentTimestamp: String(Date.now()), SenderId: 'bench', ApproximateFirstReceiveTimestamp: String(Date.now()) },
      messageAttributes: {},
      md5OfBody: md5(message.body),
      eventSource: 'aws:sqs',
      eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:workflows',
      awsRegion: 'us-east-1',
    })),
  };
}

/** Runner invocations one round may take before the bench gives up on an engine that keeps queueing. */
const MAX_ROUNDS = 20;

/**
 * One event `eventName` of a new contact on the project, through the trigger consumer and the
 * runner as described at the top of this file.
 */
export async function measureEngineWork(projectId: string, eventName: string, email: string): Promise<EngineWork> {
  install();
  const { contact } = await upsertContact(projectId, email, {}, true);
  const item = eventWriteItems(projectId, newEvent({ name: eventName, contactId: contact.id, data: {} }))[0]!.Put!.Item as Record<string, unknown>;
  const work: EngineWork = { consumer: emptyWork(), runner: emptyWork(), rounds: [] };
  caught = [];

  const consumed = await metered(work.consumer, () => triggersHandler(streamRecord(item), lambdaContext('mailwright-workflow-triggers')));
  if (consumed.batchItemFailures.length > 0) throw new Error('The in-process trigger consumer failed the event (its log says why)');

  const batchSize = queues.find((queue) => queue.consumer?.group === 'workflow-runner')?.consumer?.batchSize ?? 10;
  let due = caught.filter((message) => message.delaySeconds === 0);
  while (due.length > 0) {
    if (work.rounds.length >= MAX_ROUNDS) throw new Error(`The runner still queued immediate work after ${MAX_ROUNDS} rounds`);
    caught = [];
    let invocations = 0;
    for (let start = 0; start < due.length; start += batchSize) {
      invocations++;
      const result = await metered(work.runner, () => runnerHandler(sqsEvent(due.slice(start, start + batchSize)), lambdaContext('mailwright-workflow-runner')));
      if (result.batchItemFailures.length > 0) throw new Error(`The in-process runner failed ${result.batchItemFailures.length} messages (its log says why)`);
    }
    work.rounds.push(invocations);
    due = caught.filter((message) => message.delaySeconds === 0);
  }
  return work;
}

/** The two stages together. */
export function totalWork(work: EngineWork): StageWork {
  const total = emptyWork();
  for (const part of [work.consumer, work.runner]) {
    for (const key of ['invocations', 'elapsedMs', 'dynamoCalls', 'failedDynamoCalls', 'readUnits', 'writeUnits', 'sqsCalls', 'otherCalls', 'immediateMessages', 'delayedMessages'] as const) total[key] += part[key];
    for (const [command, calls] of Object.entries(part.commands)) total.commands[command] = (total.commands[command] ?? 0) + calls;
  }
  return total;
}
