/**
 * What AWS would bill for the calls made in this process while a meter runs (the cost section,
 * test/bench/cost.ts): every DynamoDB call's capacity with index writes included
 * (ReturnConsumedCapacity INDEXES), SQS and SES requests, and the Lambda invocations the meter is
 * told of with their measured duration.
 *
 * DynamoDB Local bills a TransactWriteItems as if it held ONE item (2026-01-16: two 2.5 KB Puts with
 * two indexes report 18 units, one of them alone 18 too), where DynamoDB bills each item: 2 units
 * per KB for the table and for each index entry it writes (as DynamoDB Local itself does for a
 * one-item transaction). So a transaction's units are computed here from its items, read before and
 * after it by the harness's own client (their larger size is what a write is billed on), by the
 * same rule DynamoDB Local applies to single writes — checked by test/unit/test/bench/billing.test.ts.
 *
 * Messages for the queues named to the meter are caught (answered as SQS would, never sent), so
 * that their consumers can be run here on them rather than by the stack; so are SES's SendEmail
 * calls, whose Send and Delivery events the bench feeds to ses-events itself.
 *
 * Imported only after pointServiceAtStack and pointQueuesAtStack.
 */
import { createHash, randomUUID } from 'node:crypto';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { dynamoDb } from '../../shared/aws/clients';
import { tableSchema } from '../../shared/db/schema';
import { sqsClient } from '../../shared/queue/handler';
import { sesClient } from '../../shared/sending/ses';
import { TABLE_NAME } from './dynamo';

export interface Bill {
  /** DynamoDB calls by command. */
  dynamoCalls: Record<string, number>;
  /** Write and read request units, index writes included. */
  writeUnits: number;
  /** The write units by command. */
  writeUnitsBy: Record<string, number>;
  readUnits: number;
  /** Conditional writes DynamoDB refused: DynamoDB Local reports no units for them, DynamoDB bills at least one. */
  refusedWrites: number;
  sqsRequests: number;
  sesRequests: number;
  /** API Gateway requests (counted by the caller: the gateway runs in the stack's process). */
  apiRequests: number;
  lambdaInvocations: number;
  /** Memory × billed duration (rounded up to the millisecond) of the invocations, in GB-seconds. */
  lambdaGbSeconds: number;
  /** Messages caught for the named queues, in order. */
  caught: { queueUrl: string; body: string }[];
}

export const emptyBill = (): Bill => ({ dynamoCalls: {}, writeUnits: 0, writeUnitsBy: {}, readUnits: 0, refusedWrites: 0, sqsRequests: 0, sesRequests: 0, apiRequests: 0, lambdaInvocations: 0, lambdaGbSeconds: 0, caught: [] });

// ---------------------------------------------------------------------------------------------
// DynamoDB's size rules (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/CapacityUnitCalculations.html)

/** The size DynamoDB bills an item on: attribute names and values in bytes. */
export function itemSize(item: Record<string, unknown>): number {
  return Object.entries(item).reduce((sum, [name, value]) => sum + Buffer.byteLength(name) + valueSize(value), 0);
}

function valueSize(value: unknown): number {
  if (typeof value === 'string') return Buffer.byteLength(value);
  if (typeof value === 'number' || typeof value === 'bigint') return numberSize(String(value));
  if (typeof value === 'boolean' || value === null || value === undefined) return 1;
  if (value instanceof Uint8Array) return value.byteLength;
  if (value instanceof Set) return [...value].reduce((sum: number, element) => sum + valueSize(element), 0);
  // Lists and maps: 3 bytes, plus 1 per element (and a map element's name).
  if (Array.isArray(value)) return 3 + value.reduce((sum: number, element) => sum + 1 + valueSize(element), 0);
  if (typeof value === 'object') return 3 + Object.entries(value).reduce((sum, [name, element]) => sum + 1 + Buffer.byteLength(name) + valueSize(element), 0);
  return 0;
}

/** A number: about one byte per two significant digits, plus one. */
const numberSize = (text: string) => Math.ceil(text.replace(/^-/, '').replace(/[.e].*$/i, '').replace(/^0+/, '').length / 2) + 1;

/** Units of one transactional write of an item (before and after, either may be absent): 2 per KB for the table and for each index it is in. */
export function transactionalWriteUnits(before: Record<string, unknown> | undefined, after: Record<string, unknown> | undefined, { checkOnly = false } = {}): number {
  const kilobytes = Math.max(1, Math.ceil(Math.max(before ? itemSize(before) : 0, after ? itemSize(after) : 0) / 1024));
  if (checkOnly) return 2 * kilobytes;
  const indexes = tableSchema.globalSecondaryIndexes.filter((index) => [before, after].some((image) => image?.[index.partitionKey] !== undefined && image?.[index.sortKey] !== undefined));
  return 2 * kilobytes * (1 + indexes.length);
}

// ---------------------------------------------------------------------------------------------
// The meter

/** An SDK middleware at the `initialize` step, as the bench's meters add them. */
export type Middleware = (
  next: (args: { input: Record<string, unknown> }) => Promise<{ output: Record<string, unknown> }>,
  context: { commandName?: string },
) => (args: { input: Record<string, unknown> }) => Promise<{ output: Record<string, unknown>; response?: unknown }>;

export interface WithMiddleware {
  middlewareStack: { add: (middleware: never, options: { step: 'initialize'; name: string }) => void };
}

const READS = /^(GetItem|BatchGetItem|Query|Scan|TransactGetItems|Get|BatchGet|TransactGet)$/;
const commandName = (context: { commandName?: string }) => (context.commandName ?? 'Unknown').replace(/Command$/, '');
const md5 = (text: string) => createHash('md5').update(text).digest('hex');

/** A key or item as the document client or the base client carries it: plain values either way. */
function plain(record: Record<string, unknown>): Record<string, unknown> {
  const first = Object.values(record)[0];
  const marshalled = typeof first === 'object' && first !== null && Object.keys(first).length === 1 && ['S', 'N', 'B'].includes(Object.keys(first)[0]!);
  return marshalled ? unmarshall(record as never) : record;
}

interface TransactionAction {
  key: Record<string, unknown>;
  put?: Record<string, unknown>;
  checkOnly: boolean;
}

function transactionActions(input: Record<string, unknown>): TransactionAction[] {
  return ((input.TransactItems ?? []) as Record<string, { Key?: Record<string, unknown>; Item?: Record<string, unknown> }>[]).map((entry) => {
    const [kind, action] = Object.entries(entry)[0]!;
    const item = action.Item ? plain(action.Item) : undefined;
    const key = item ? { PK: item.PK, SK: item.SK } : plain(action.Key ?? {});
    return { key, ...(item ? { put: item } : {}), checkOnly: kind === 'ConditionCheck' };
  });
}

/** The read and write units a call's ConsumedCapacity reports (asked for with ReturnConsumedCapacity). */
export function consumedUnits(command: string, output: Record<string, unknown>): { read: number; write: number } {
  const units = { read: 0, write: 0 };
  const consumed = output.ConsumedCapacity as { CapacityUnits?: number; ReadCapacityUnits?: number; WriteCapacityUnits?: number }[] | { CapacityUnits?: number } | undefined;
  for (const entry of [consumed ?? []].flat() as { CapacityUnits?: number; ReadCapacityUnits?: number; WriteCapacityUnits?: number }[]) {
    // DynamoDB Local reports CapacityUnits only (table and indexes together): a read command's are read units.
    if (entry.ReadCapacityUnits !== undefined || entry.WriteCapacityUnits !== undefined) {
      units.read += entry.ReadCapacityUnits ?? 0;
      units.write += entry.WriteCapacityUnits ?? 0;
    } else if (READS.test(command)) units.read += entry.CapacityUnits ?? 0;
    else units.write += entry.CapacityUnits ?? 0;
  }
  return units;
}

let bill: Bill | null = null;
let caughtQueues = new Set<string>();
let installed = false;

function install(harness: DynamoDBDocumentClient) {
  if (installed) return;
  installed = true;
  const read = async (key: Record<string, unknown>) => (await harness.send(new GetCommand({ TableName: TABLE_NAME, Key: key, ConsistentRead: true }))).Item;

  const dynamo: Middleware = (next, context) => async (args) => {
    const current = bill;
    if (!current) return next(args);
    const command = commandName(context);
    current.dynamoCalls[command] = (current.dynamoCalls[command] ?? 0) + 1;
    args.input.ReturnConsumedCapacity = 'INDEXES';
    const actions = command === 'TransactWriteItems' ? transactionActions(args.input) : [];
    const before = await Promise.all(actions.map((action) => read(action.key)));
    let result;
    try {
      result = await next(args);
    } catch (error) {
      if (!READS.test(command)) current.refusedWrites++;
      throw error;
    }
    const addWrites = (units: number) => {
      current.writeUnits += units;
      current.writeUnitsBy[command] = (current.writeUnitsBy[command] ?? 0) + units;
    };
    if (command === 'TransactWriteItems') {
      const after = await Promise.all(actions.map((action) => (action.checkOnly ? undefined : read(action.key))));
      addWrites(actions.reduce((sum, action, index) => sum + transactionalWriteUnits(before[index], after[index] ?? action.put, { checkOnly: action.checkOnly }), 0));
      return result;
    }
    const units = consumedUnits(command, result.output);
    current.readUnits += units.read;
    addWrites(units.write);
    return result;
  };

  const sqs: Middleware = (next, context) => async (args) => {
    const current = bill;
    if (!current) return next(args);
    current.sqsRequests++;
    const queueUrl = String(args.input.QueueUrl);
    if (!caughtQueues.has(queueUrl)) return next(args);
    const command = commandName(context);
    if (command === 'SendMessage') {
      const body = String(args.input.MessageBody);
      current.caught.push({ queueUrl, body });
      return { output: { MessageId: randomUUID(), MD5OfMessageBody: md5(body), $metadata: {} }, response: {} };
    }
    if (command === 'SendMessageBatch') {
      const entries = args.input.Entries as { Id: string; MessageBody: string }[];
      for (const entry of entries) current.caught.push({ queueUrl, body: entry.MessageBody });
      return { output: { Successful: entries.map((entry) => ({ Id: entry.Id, MessageId: randomUUID(), MD5OfMessageBody: md5(entry.MessageBody) })), Failed: [], $metadata: {} }, response: {} };
    }
    return next(args);
  };

  // SES is answered here too: the stack's SES would publish its own Send and Delivery of each
  // mail to the stack's ses-events, beside the ones the bench feeds its in-process handler.
  const ses: Middleware = (next, context) => async (args) => {
    if (!bill) return next(args);
    bill.sesRequests++;
    if (commandName(context) !== 'SendEmail') return next(args);
    return { output: { MessageId: `bench-${randomUUID()}`, $metadata: {} }, response: {} };
  };

  (dynamoDb as WithMiddleware).middlewareStack.add(dynamo as never, { step: 'initialize', name: 'benchBilling' });
  (sqsClient as WithMiddleware).middlewareStack.add(sqs as never, { step: 'initialize', name: 'benchBilling' });
  (sesClient as WithMiddleware).middlewareStack.add(ses as never, { step: 'initialize', name: 'benchBilling' });
}

/**
 * Bills what `work` does into `into`. `harness` reads transactions' items (its calls are not
 * billed); messages to `catchQueues` (URLs) are caught into `into.caught`.
 */
export async function billed<T>(into: Bill, harness: DynamoDBDocumentClient, catchQueues: string[], work: () => Promise<T>): Promise<T> {
  install(harness);
  if (bill) throw new Error('billed: meters may not overlap');
  bill = into;
  caughtQueues = new Set(catchQueues);
  try {
    return await work();
  } finally {
    bill = null;
  }
}

/** Runs a handler as one Lambda invocation of `memoryMb`, billing its measured duration. */
export async function invocation<T>(into: Bill, memoryMb: number, handler: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await handler();
  } finally {
    into.lambdaInvocations++;
    into.lambdaGbSeconds += (Math.ceil(performance.now() - started) / 1000) * (memoryMb / 1024);
  }
}

/** `bill` divided by `count` (per email). */
export function perUnit(source: Bill, count: number): Bill {
  const divide = (value: number) => value / count;
  return {
    dynamoCalls: Object.fromEntries(Object.entries(source.dynamoCalls).map(([command, calls]) => [command, divide(calls)])),
    writeUnits: divide(source.writeUnits),
    writeUnitsBy: Object.fromEntries(Object.entries(source.writeUnitsBy).map(([command, units]) => [command, divide(units)])),
    readUnits: divide(source.readUnits),
    refusedWrites: divide(source.refusedWrites),
    sqsRequests: divide(source.sqsRequests),
    sesRequests: divide(source.sesRequests),
    apiRequests: divide(source.apiRequests),
    lambdaInvocations: divide(source.lambdaInvocations),
    lambdaGbSeconds: divide(source.lambdaGbSeconds),
    caught: [],
  };
}
