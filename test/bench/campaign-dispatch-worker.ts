/**
 * One campaign's fan-out run to the end by campaign-dispatch's code in a fresh process, for the
 * campaigns bench: `tsx test/bench/campaign-dispatch-worker.ts <projectId> <campaignId>`. The
 * parent gives it the stack's environment (its queues are ones nobody polls). Each invocation has
 * the dispatch Lambda's 120 s; out of time, the dispatcher queues its continuation and returns,
 * and the next invocation here takes over, as the queue would. Prints one JSON line: recipients/s
 * and the process's peak memory.
 */
const [projectId, campaignId] = process.argv.slice(2) as [string, string];

const { GetCommand } = await import('@aws-sdk/lib-dynamodb');
const { documentClient } = await import('../../shared/aws/clients');
const { tableName } = await import('../../shared/db/table');
const { campaignKeys } = await import('../../shared/campaigns/keys');
const { processFanoutMessage } = await import('../../shared/campaigns/dispatch');

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
  await processFanoutMessage({ kind: 'dispatch', projectId, campaignId }, undefined, { getRemainingTimeInMillis: () => deadline - Date.now() } as never);
  state = await dispatchState();
} while (!state.done && invocations < 100);
const seconds = (performance.now() - started) / 1000;
clearInterval(sampler);
// What the run left behind once garbage is collected (the parent starts this process with --expose-gc):
// equal at 10k and 50k means RSS growth is garbage V8 had not yet collected, not memory held.
(globalThis as { gc?: () => void }).gc?.();
const retainedHeapMb = process.memoryUsage().heapUsed / 2 ** 20;
console.log(JSON.stringify({ recipients: state.recipients, done: state.done, seconds, retainedHeapMb, startHeapMb: startHeap / 2 ** 20, peakRssMb: peakRss / 2 ** 20, baselineRssMb: baseline / 2 ** 20, invocations }));
process.exit(0);

export {};
