import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { ApiError } from '../../../../shared/http/errors';
import { blockedReason } from '../../../../shared/outbound/addresses';
import { assertPublicDestination, createOutbound, parseAllowedHosts, signPayload, type AddressResolver } from '../../../../shared/outbound/outbound';
import { DnsError } from '../../../../shared/verification/dns';

/** A resolver answering from a table, counting lookups; absent names are NXDOMAIN. */
function fakeResolver(table: Record<string, string[] | (() => string[])>) {
  const calls: string[] = [];
  const answer = (host: string, family: 4 | 6) => {
    calls.push(host);
    const entry = table[host];
    const all = typeof entry === 'function' ? entry() : entry;
    if (!all) return Promise.reject(new DnsError('ENOTFOUND', `ENOTFOUND ${host}`));
    const matching = all.filter((address) => address.includes(':') === (family === 6));
    return matching.length ? Promise.resolve(matching) : Promise.reject(new DnsError('ENODATA', `ENODATA ${host}`));
  };
  const resolver: AddressResolver = { resolve4: (host) => answer(host, 4), resolve6: (host) => answer(host, 6) };
  return { resolver, calls };
}

async function refusal(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    return error as ApiError;
  }
  throw new Error('expected a refusal');
}

describe('blockedReason', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['100.127.255.254', 'carrier-grade NAT'],
    ['169.254.169.254', 'link-local (cloud metadata)'],
    ['0.0.0.0', 'this network'],
    ['224.0.0.251', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
    ['::1', 'unspecified, loopback or IPv4-compatible'],
    ['::', 'unspecified, loopback or IPv4-compatible'],
    ['::ffff:127.0.0.1', 'IPv4-mapped'],
    ['::ffff:8.8.8.8', 'IPv4-mapped'],
    ['fd00::1', 'unique local'],
    ['fc00::1', 'unique local'],
    ['fe80::1', 'link-local'],
    ['ff02::1', 'multicast'],
    ['64:ff9b::a00:1', 'NAT64'],
    ['not-an-ip', 'not an IP address'],
  ])('refuses %s (%s)', (address, reason) => {
    expect(blockedReason(address)).toBe(reason);
  });

  it.each(['8.8.8.8', '93.184.216.34', '172.32.0.1', '100.128.0.1', '11.0.0.1', '2606:4700:4700::1111', '2001:4860:4860::8888'])('lets public %s through', (address) => {
    expect(blockedReason(address)).toBeUndefined();
  });
});

describe('assertPublicDestination', () => {
  const { resolver } = fakeResolver({
    'hooks.example.com': ['93.184.216.34', '2606:2800:220:1::1'],
    'internal.test': ['10.1.2.3'],
    'mixed.test': ['93.184.216.34', '192.168.0.10'],
    'ula.test': ['fd12::7'],
  });
  const outbound = createOutbound({ allowedHosts: parseAllowedHosts('localhost, 127.0.0.1'), resolver });

  it('accepts an https URL whose every address is public', async () => {
    await expect(outbound.assertPublicDestination('https://hooks.example.com/mailwright')).resolves.toBeUndefined();
  });

  it.each([
    ['http://hooks.example.com/', 'INSECURE_URL'],
    ['ftp://hooks.example.com/', 'INSECURE_URL'],
    ['not a url', 'INVALID_URL'],
    ['https://user:pass@hooks.example.com/', 'INVALID_URL'],
    ['https://169.254.169.254/latest/meta-data/', 'PRIVATE_ADDRESS'],
    ['https://10.0.0.1/', 'PRIVATE_ADDRESS'],
    ['https://0xa.1/', 'PRIVATE_ADDRESS'],
    ['https://167772161/', 'PRIVATE_ADDRESS'],
    ['https://[::1]/', 'PRIVATE_ADDRESS'],
    ['https://[::ffff:7f00:1]/', 'PRIVATE_ADDRESS'],
    ['https://[fe80::1]/', 'PRIVATE_ADDRESS'],
    ['https://internal.test/', 'PRIVATE_ADDRESS'],
    ['https://mixed.test/', 'PRIVATE_ADDRESS'],
    ['https://ula.test/', 'PRIVATE_ADDRESS'],
    ['https://nowhere.test/', 'UNRESOLVABLE_HOST'],
  ])('refuses %s with 422 %s on the url field', async (url, code) => {
    const error = await refusal(outbound.assertPublicDestination(url));
    expect(error).toBeInstanceOf(ApiError);
    expect(error.statusCode).toBe(422);
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(error.errors).toEqual([expect.objectContaining({ field: 'url', code })]);
  });

  it('says which address a name resolved to', async () => {
    const error = await refusal(outbound.assertPublicDestination('https://internal.test/'));
    expect(error.errors![0]!.message).toBe('url must point to a public address; internal.test resolves to 10.1.2.3 is private');
  });

  it('lets allowed hosts through, http included, without resolving them', async () => {
    await expect(outbound.assertPublicDestination('http://127.0.0.1:8080/hook')).resolves.toBeUndefined();
    await expect(outbound.assertPublicDestination('http://LOCALHOST:8080/hook')).resolves.toBeUndefined();
  });

  it('refuses loopback when WEBHOOK_ALLOWED_HOSTS is empty (the default)', async () => {
    expect(process.env.WEBHOOK_ALLOWED_HOSTS).toBeUndefined();
    const error = await refusal(assertPublicDestination('http://127.0.0.1/'));
    expect(error.errors).toEqual([expect.objectContaining({ field: 'url', code: 'INSECURE_URL' })]);
    const https = await refusal(assertPublicDestination('https://127.0.0.1/'));
    expect(https.errors).toEqual([expect.objectContaining({ field: 'url', code: 'PRIVATE_ADDRESS' })]);
  });
});

describe('postJson', () => {
  let server: Server;
  let port: number;
  const received: { request: IncomingMessage; body: string }[] = [];
  let answer: (request: IncomingMessage) => { status: number; headers?: Record<string, string>; body?: string; delayMs?: number };

  beforeAll(async () => {
    server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        received.push({ request, body });
        const reply = answer(request);
        setTimeout(() => {
          response.writeHead(reply.status, reply.headers);
          response.end(reply.body ?? '');
        }, reply.delayMs ?? 0);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => {
    received.length = 0;
    answer = () => ({ status: 200 });
  });

  const allowedLoopback = () => createOutbound({ allowedHosts: parseAllowedHosts('127.0.0.1'), resolver: fakeResolver({}).resolver });

  it('POSTs the body with the given headers and reports a 2xx', async () => {
    // Prepare
    const outbound = allowedLoopback();
    // Act
    const result = await outbound.postJson({ url: `http://127.0.0.1:${port}/hook?x=1`, headers: { 'webhook-id': 'msg_1' }, body: '{"a":1}' });
    // Assess
    expect(result).toEqual({ status: 200 });
    expect(received).toHaveLength(1);
    expect(received[0]!.request.method).toBe('POST');
    expect(received[0]!.request.url).toBe('/hook?x=1');
    expect(received[0]!.request.headers).toMatchObject({ 'content-type': 'application/json', 'webhook-id': 'msg_1', 'content-length': '7' });
    expect(received[0]!.body).toBe('{"a":1}');
  });

  it('reports a non-2xx answer with its status and the start of its body, without throwing', async () => {
    answer = () => ({ status: 500, body: 'boom' });
    const result = await allowedLoopback().postJson({ url: `http://127.0.0.1:${port}/`, headers: {}, body: '{}' });
    expect(result).toEqual({ status: 500, error: 'HTTP 500 Internal Server Error: boom' });
  });

  it('never follows a redirect', async () => {
    answer = (request) => (request.url === '/moved' ? { status: 200 } : { status: 302, headers: { location: `http://127.0.0.1:${port}/moved` } });
    const result = await allowedLoopback().postJson({ url: `http://127.0.0.1:${port}/`, headers: {}, body: '{}' });
    expect(result.status).toBe(302);
    expect(received.map((entry) => entry.request.url)).toEqual(['/']);
  });

  it('gives up after the timeout', async () => {
    answer = () => ({ status: 200, delayMs: 2_000 });
    const result = await allowedLoopback().postJson({ url: `http://127.0.0.1:${port}/`, headers: {}, body: '{}', timeoutMs: 200 });
    expect(result).toEqual({ status: 0, error: 'No response within 0.2 s' });
  });

  it('reports a connection error as status 0', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const result = await allowedLoopback().postJson({ url: `http://127.0.0.1:${closedPort}/`, headers: {}, body: '{}' });
    expect(result.status).toBe(0);
    expect(result.error).toMatch(/ECONNREFUSED/);
  });

  it('refuses at connect time a name that resolves to a private address (no request is made)', async () => {
    // Prepare: the name is public when the URL is accepted, then rebinds to loopback.
    let lookups = 0;
    const { resolver, calls } = fakeResolver({ 'rebind.test': () => (lookups++ < 2 ? ['93.184.216.34'] : ['127.0.0.1']) });
    const outbound = createOutbound({ allowedHosts: new Set(), resolver });
    await outbound.assertPublicDestination(`https://rebind.test:${port}/`);
    // Act
    const result = await outbound.postJson({ url: `https://rebind.test:${port}/`, headers: {}, body: '{}' });
    // Assess
    expect(result.status).toBe(0);
    expect(result.error).toBe('PRIVATE_ADDRESS: url must point to a public address; rebind.test resolves to 127.0.0.1 is loopback');
    expect(calls.filter((host) => host === 'rebind.test')).toHaveLength(4);
    expect(received).toHaveLength(0);
  });

  it('refuses at run time a name resolving to 10.x', async () => {
    const outbound = createOutbound({ allowedHosts: new Set(), resolver: fakeResolver({ 'internal.test': ['10.9.8.7'] }).resolver });
    const result = await outbound.postJson({ url: 'https://internal.test/hook', headers: {}, body: '{}' });
    expect(result).toEqual({ status: 0, error: 'PRIVATE_ADDRESS: url must point to a public address; internal.test resolves to 10.9.8.7 is private' });
  });

  it('refuses a literal private address and plain http without connecting', async () => {
    const outbound = createOutbound({ allowedHosts: new Set(), resolver: fakeResolver({}).resolver });
    expect(await outbound.postJson({ url: `https://127.0.0.1:${port}/`, headers: {}, body: '{}' })).toEqual({
      status: 0,
      error: 'url must point to a public address; 127.0.0.1 is loopback',
    });
    expect(await outbound.postJson({ url: `http://127.0.0.1:${port}/`, headers: {}, body: '{}' })).toEqual({ status: 0, error: 'url must use https' });
    expect(received).toHaveLength(0);
  });
});

describe('signPayload', () => {
  const oldSecret = `whsec_${Buffer.from('o'.repeat(32)).toString('base64')}`;
  const newSecret = `whsec_${Buffer.from('n'.repeat(32)).toString('base64')}`;

  it('signs with every secret, so receivers holding either one verify', () => {
    // Prepare
    const timestamp = new Date();
    const body = JSON.stringify({ type: 'email.delivered', timestamp: timestamp.toISOString(), data: { id: 'x' } });
    // Act
    const headers = signPayload({ secrets: [newSecret, oldSecret], id: 'msg_abc', timestamp, body });
    // Assess
    expect(headers['webhook-id']).toBe('msg_abc');
    expect(headers['webhook-timestamp']).toBe(String(Math.floor(timestamp.getTime() / 1000)));
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/=]+ v1,[A-Za-z0-9+/=]+$/);
    expect(new Webhook(newSecret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(new Webhook(oldSecret).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it('does not verify with another secret or another body', () => {
    const timestamp = new Date();
    const headers = signPayload({ secrets: [newSecret], id: 'msg_abc', timestamp, body: '{"a":1}' });
    expect(() => new Webhook(oldSecret).verify('{"a":1}', headers)).toThrow();
    expect(() => new Webhook(newSecret).verify('{"a":2}', headers)).toThrow();
  });
});
