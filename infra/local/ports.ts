import { createServer } from 'node:net';

/**
 * Ports are drawn below the operating systems' ephemeral ranges (Linux 32768–60999, macOS and
 * Windows 49152–65535): a port the OS hands out for `listen(0)` can meanwhile become the source
 * port of one of the stack's own outgoing connections (to DynamoDB Local, say), and the server
 * that later listens on it fails with EADDRINUSE.
 */
const RANGE = { from: 20_000, to: 32_767 };
const ATTEMPTS = 100;

/**
 * The range this process draws from: MAILWRIGHT_PORT_RANGE (`from-to`, inside RANGE) gives
 * processes that start stacks side by side ranges of their own (the integration lanes,
 * test/support/run-integration.ts): a port one has drawn but not yet listened on is then never
 * drawn by another. Stacks inherit it, so their own draws (the SES emulator's) stay in it too.
 */
function drawRange(): { from: number; to: number } {
  const [from, to] = (process.env.MAILWRIGHT_PORT_RANGE ?? '').split('-').map(Number);
  return from && to && RANGE.from <= from && from < to && to <= RANGE.to ? { from, to } : RANGE;
}

/** Ports this process has handed out: a port is drawn once, even before anything listens on it. */
const handedOut = new Set<number>();

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    // All interfaces, as the stack's servers listen.
    server.listen(port, () => server.close(() => resolve(true)));
  });
}

/** A port nothing listens on right now and this process has not handed out, outside the ephemeral range. */
export async function freePort(): Promise<number> {
  const range = drawRange();
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const port = range.from + Math.floor(Math.random() * (range.to - range.from + 1));
    if (handedOut.has(port)) continue;
    handedOut.add(port);
    if (await isFree(port)) return port;
  }
  throw new Error(`No free port between ${range.from} and ${range.to} after ${ATTEMPTS} tries`);
}
