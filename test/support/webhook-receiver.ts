import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedPost {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * A receiver on 127.0.0.1 (a webhook destination the test stacks allow) for the tests of the file
 * or block that calls this: started before them, closed after. It records every request and
 * answers what `answer` says for its path. `url` is the receiver's origin once it listens.
 */
export function useWebhookReceiver(answer: (path: string) => { status: number; body?: string } = () => ({ status: 200 })) {
  const receiver = { url: '', received: [] as ReceivedPost[] };
  let server: Server;
  beforeAll(async () => {
    server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        const path = request.url ?? '/';
        receiver.received.push({ path, headers: request.headers, body });
        const reply = answer(path);
        response.writeHead(reply.status, { 'content-type': 'text/plain' }).end(reply.body ?? '');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return receiver;
}
