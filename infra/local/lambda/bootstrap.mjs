// The Lambda runtime of one local execution environment (a worker thread): loads the function's
// bundle from its asset folder as Lambda loads it (Handler `file.export`, relative to the task
// root), reports the cold start's outcome, then runs one invocation at a time. Plain JavaScript
// on purpose: the bundle is what runs, not the TypeScript source.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';

const { taskRoot, handler } = workerData;

if ((process.env.NODE_OPTIONS ?? '').includes('--enable-source-maps')) process.setSourceMapsEnabled(true);
// Lambda's runtime is Node 24; this machine's older Node makes the SDK warn on every cold start.
const emitWarning = process.emitWarning.bind(process);
process.emitWarning = (warning, ...rest) => {
  if (String(warning?.message ?? warning).includes('will require node >=22')) return;
  emitWarning(warning, ...rest);
};

const serialize = (error) => ({
  errorType: error?.name ?? 'Error',
  errorMessage: error?.message ?? String(error),
  stack: typeof error?.stack === 'string' ? error.stack.split('\n') : [],
});

async function load() {
  const separator = handler.lastIndexOf('.');
  const modulePath = handler.slice(0, separator);
  const exportName = handler.slice(separator + 1);
  const file = ['.mjs', '.js', '.cjs'].map((extension) => path.join(taskRoot, modulePath + extension)).find((candidate) => existsSync(candidate));
  if (!file) throw Object.assign(new Error(`Cannot find module '${modulePath}'`), { name: 'Runtime.ImportModuleError' });
  const module = await import(pathToFileURL(file).href);
  const fn = module[exportName];
  if (typeof fn !== 'function') throw Object.assign(new Error(`${handler} is undefined or not exported`), { name: 'Runtime.HandlerNotFound' });
  return fn;
}

let fn;
try {
  fn = await load();
  parentPort.postMessage({ type: 'ready' });
} catch (error) {
  parentPort.postMessage({ type: 'init-error', error: serialize(error) });
}

parentPort.on('message', async ({ requestId, event, context }) => {
  const { deadlineMs: deadline, ...fields } = context;
  const lambdaContext = {
    ...fields,
    awsRequestId: requestId,
    callbackWaitsForEmptyEventLoop: true,
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
  try {
    const result = await fn(event, lambdaContext);
    // Lambda returns the result as JSON: undefined values disappear, dates become strings.
    parentPort.postMessage({ type: 'result', requestId, result: result === undefined ? null : JSON.parse(JSON.stringify(result)) });
  } catch (error) {
    parentPort.postMessage({ type: 'error', requestId, error: serialize(error) });
  }
});
