import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { carefulFetch } from '../../../support/careful-fetch';

/** A server that answers each request with the next of `answers` and keeps the requests' headers. */
async function serve(answers: { status: number; headers?: Record<string, string>; body?: unknown }[]) {
  const seen: IncomingHttpHeaders[] = [];
  const server: Server = createServer((request, response) => {
    seen.push(request.headers);
    const answer = answers[Math.min(seen.length - 1, answers.length - 1)]!;
    response.writeHead(answer.status, { 'Content-Type': 'application/json', ...answer.headers });
    response.end(JSON.stringify(answer.body ?? {}));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/send`, seen, close: () => new Promise((resolve) => server.close(resolve)) };
}

describe('carefulFetch', () => {
  it('tries a 503 again after its Retry-After with the same Idempotency-Key, and returns the answer that followed', async () => {
    // Prepare
    const server = await serve([{ status: 503, headers: { 'Retry-After': '0' }, body: { error: { code: 'SERVICE_UNAVAILABLE' } } }, { status: 200, body: { data: { ok: true } } }]);
    const answers: number[] = [];

    // Act
    const answer = await carefulFetch(server.url, { method: 'POST', headers: { 'Idempotency-Key': 'k1' }, body: '{}' }, { repeatable: true, onAnswer: ({ status }) => answers.push(status) });
    await server.close();

    // Assess
    expect(answer).toMatchObject({ status: 200, body: { data: { ok: true } } });
    expect(answers).toEqual([503, 200]);
    expect(server.seen.map((headers) => headers['idempotency-key'])).toEqual(['k1', 'k1']);
  });

  it('returns a gateway timeout at once for a call that is not safe to repeat', async () => {
    // Prepare
    const server = await serve([{ status: 504 }, { status: 200 }]);

    // Act
    const answer = await carefulFetch(server.url, { method: 'POST', body: '{}' });
    await server.close();

    // Assess
    expect(answer.status).toBe(504);
    expect(server.seen).toHaveLength(1);
  });

  it('gives up after its attempts', async () => {
    // Prepare
    const server = await serve([{ status: 503, headers: { 'Retry-After': '0' } }]);

    // Act
    const answer = await carefulFetch(server.url, { method: 'GET' }, { attempts: 3 });
    await server.close();

    // Assess
    expect(answer.status).toBe(503);
    expect(server.seen).toHaveLength(3);
  });
});
