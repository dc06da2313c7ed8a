/**
 * One campaign's fan-out run to the end by campaign-dispatch's code in a fresh process, for the
 * campaigns bench: `tsx test/bench/campaign-dispatch-worker.ts <projectId> <campaignId>`. The
 * parent gives it the stack's environment (its queues are ones nobody polls). Each invocation has
 * the dispatch Lambda's 120 s; out of time, the dispatcher queues its continuation and returns,
 * and the next invocation here takes over, as the queue would. Prints one JSON line: recipients/s,
 * the process's peak memory, and the AWS calls the dispatch made (for the README's cost page),
 * each DynamoDB call with the capacity units DynamoDB Local reports for it.
 */
const [projectId, campaignId] = process.argv.slice(2) as [string, string];

const { GetCommand } = await import('@aws-sdk/lib-dynamodb');
const { documentClient } = await import('../../shared/aws/clients');
const { tableName } = await import('../../shared/db/table');
const { campaignKeys } = await import('../../shared/campaigns/keys');
const { processFanoutMessage } = await import('../../shared/campaigns/dispatch');
const { dynamoDb } = await import('../../shared/aws/clients');
const { sqsClient } = await import('../../shared/queue/handler');

/** Calls by command name, and the DynamoDB capacity units they consumed, while `counting`. */
const calls: Record<string, number> = {};
const units = { read: 0, write: 0 };
let counting = false;
type Middleware = (next: (args: { input: Record<string, unknown> }) => Promise<{ output: Record<string, unknown> }>, context: { commandName?: string }) => (args: { input: Record<string, unknown> }) => Promise<{ output: Record<string, unknown> }>;
const counter =
  (service: string, capacity: boolean): Middleware =>
  (next, context) =>
  async (args) => {
    if (!counting) return next(args);
    const name = `${service} ${(context.commandName ?? 'Unknown').replace(/Command$/, '')}`;
    calls[name] = (calls[name] ?? 0) + 1;
    if (capacity) args.input.ReturnConsumedCapacity = 'TOTAL';
    const result = await next(args);
    const consumed = result.output.ConsumedCapacity as { ReadCapacityUnits?: number; WriteCapacityUnits?: number; CapacityUnits?: number } | { ReadCapacityUnits?: number; WriteCapacityUnits?: number; CapacityUnits?: number }[] | undefined;
    for (const entry of [consumed ?? []].flat()) {
      // Local reports CapacityUnits alone for some calls: a read command's are read units.
      const read = entry.ReadCapacityUnits ?? (/Get|Query|Scan/.test(name) ? entry.CapacityUnits ?? 0 : 0);
      units.read += read;
      units.write += entry.WriteCapacityUnits ?? (read === 0 ? entry.CapacityUnits ?? 0 : 0);
    }
    return result;
  };
dynamoDb.middlewareStack.add(counter('DynamoDB', true) as never, { step: 'initialize', name: 'benchCallCounter' });
sqsClient.middlewareStack.add(counter('SQS', false) as never, { step: 'initialize', name: 'benchCallCounter' });

const DISPATCH_TIMEOUT_MS = 120_000;

const dispatchState = async () => {
  const { Item } = await documentClient.send(new GetCommand({ TableName: tableName, Key: campaignKeys.campaign(projectId, campaignId), ConsistentRead: true }));
  return { done: Boolean((Item?.dispatch as { done?: boolean } | undefined)?.done), recipients: (Item?.totalRecipients as number | undefined) ?? 0 };
};

const baseline = process.memoryUsage().rss;
const startHeap = process.memoryUsage().heapUsed;
let peakRss = baseline;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 20);
const started = performance.now();
let invocations = 0;
let state: Awaited<ReturnType<typeof dispatchState>>;
do {
  invocations++;
  const deadline = Date.now() + DISPATCH_TIMEOUT_MS;
  counting = true;
  await processFanoutMessage({ kind: 'dispatch', projectId, campaignId }, undefined, { getRemainingTimeInMillis: () => deadline - Date.now() } as never);
  counting = false;
  state = await dispatchState();
} while (!state.done && invocations < 100);
const seconds = (performance.now() - started) / 1000;
clearInterval(sampler);
// What the run left behind once garbage is collected (the parent starts this process with --expose-gc):
// equal at 10k and 50k means RSS growth is garbage V8 had not yet collected, not memory held.
(globalThis as { gc?: () => void }).gc?.();
const retainedHeapMb = process.memoryUsage().heapUsed / 2 ** 20;
console.log(JSON.stringify({ recipients: state.recipients, done: state.done, seconds, retainedHeapMb, startHeapMb: startHeap / 2 ** 20, peakRssMb: peakRss / 2 ** 20, baselineRssMb: baseline / 2 ** 20, invocations, calls, units }));
process.exit(0);

export {};
