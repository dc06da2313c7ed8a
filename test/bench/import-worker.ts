/**
 * One queued contact import run to the end by the contact-imports worker's code in a fresh
 * process, for the imports bench: `tsx test/bench/import-worker.ts <projectId> <jobId>`. The parent
 * gives it the stack's environment. Prints one JSON line: rows/s and the process's peak memory.
 */
const [projectId, jobId] = process.argv.slice(2) as [string, string];

const { readImport } = await import('../../shared/imports/jobs');
const { runImport } = await import('../../shared/imports/worker');

const baseline = process.memoryUsage().rss;
let peakRss = baseline;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 20);
const started = performance.now();
let invocations = 1;
// Invocations of the worker's Lambda budget (its 5 minutes less the 10 s reserve).
while ((await runImport(projectId, jobId, Date.now() + 290_000)) === 'CONTINUE') invocations++;
const seconds = (performance.now() - started) / 1000;
clearInterval(sampler);
const job = await readImport(projectId, jobId);
console.log(JSON.stringify({ rows: job.processed, seconds, rowsPerSecond: job.processed / seconds, peakRssMb: peakRss / 2 ** 20, baselineRssMb: baseline / 2 ** 20, invocations, status: job.status, created: job.created, failed: job.failed }));
process.exit(0);

export {};
