import { createServer } from 'node:net';

/**
 * Ports are drawn below the operating systems' ephemeral ranges (Linux 32768–60999, macOS and
 * Windows 49152–65535): a port the OS hands out for `listen(0)` can meanwhile become the source
 * port of one of the stack's own outgoing connections (to DynamoDB Local, say), and the server
 * that later listens on it fails with EADDRINUSE.
 */
const RANGE = { from: 20_000, to: 32_767 };
const ATTEMPTS = 100;

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    // All interfaces, as the stack's servers listen.
    server.listen(port, () => server.close(() => resolve(true)));
  });
}

/** A port nothing listens on right now, outside the ephemeral range. */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const port = RANGE.from + Math.floor(Math.random() * (RANGE.to - RANGE.from + 1));
    if (await isFree(port)) return port;
  }
  throw new Error(`No free port between ${RANGE.from} and ${RANGE.to} after ${ATTEMPTS} tries`);
}
