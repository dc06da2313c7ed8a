/**
 * The local SES (aws-ses-v2-local behind the SES front) in a worker thread of its own, so that it
 * takes requests — and times their arrival — on its own event loop, as SES does, not behind
 * whatever keeps the stack's main loop busy. Events it publishes go to the main thread, which
 * applies them and answers.
 */
import type { Server } from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';
import type { SesEvent } from '../../../shared/delivery/ses-events';
import { freePort } from '../ports';
import type { SesFrontOptions } from './ses';

export type SesWorkerData = Omit<SesFrontOptions, 'emulatorPort' | 'publish'>;

export type SesWorkerMessage =
  | { type: 'ready' }
  | { type: 'failed'; message: string }
  | { type: 'publish'; id: number; event: SesEvent }
  | { type: 'stopped' };

export type SesParentMessage = { type: 'published'; id: number; error?: string } | { type: 'stop' };

const port = parentPort!;
const post = (message: SesWorkerMessage) => port.postMessage(message);
const pending = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
let nextId = 0;

function publish(event: SesEvent): Promise<void> {
  return new Promise((resolve, reject) => {
    const id = nextId++;
    pending.set(id, { resolve, reject });
    post({ type: 'publish', id, event });
  });
}

const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

async function main() {
  const module = await import('aws-ses-v2-local');
  const start = (module.default as unknown as { default?: typeof module.default }).default ?? module.default;
  const emulatorPort = await freePort();
  const emulator = (await start({ host: '127.0.0.1', port: emulatorPort })) as unknown as Server;
  const { startSesFront } = await import('./ses');
  const front = await startSesFront({ ...(workerData as SesWorkerData), emulatorPort, publish });
  port.on('message', (message: SesParentMessage) => {
    if (message.type === 'published') {
      const waiter = pending.get(message.id);
      pending.delete(message.id);
      if (message.error === undefined) waiter?.resolve();
      else waiter?.reject(new Error(message.error));
      return;
    }
    front.closeAllConnections();
    void Promise.allSettled([close(front), close(emulator)]).then(() => post({ type: 'stopped' }));
  });
  post({ type: 'ready' });
}

main().catch((error: Error) => post({ type: 'failed', message: error.stack ?? error.message }));
