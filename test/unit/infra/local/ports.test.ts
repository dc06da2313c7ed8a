import { jest } from '@jest/globals';
import { createServer, type Server } from 'node:net';
import { freePort } from '../../../../infra/local/ports';

const listen = (port: number) =>
  new Promise<Server>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, () => resolve(server));
  });

describe('freePort', () => {
  it('hands out ports below the ephemeral range that a server can listen on', async () => {
    // Prepare
    const ports: number[] = [];

    // Act
    for (let i = 0; i < 20; i++) ports.push(await freePort());
    const servers = await Promise.all(ports.slice(0, 3).map(listen));
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));

    // Assess: Linux hands out 32768–60999 to outgoing connections, macOS and Windows 49152–65535
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(20_000);
      expect(port).toBeLessThan(32_768);
    }
    expect(servers).toHaveLength(3);
  });

  it('passes over a port a server already listens on', async () => {
    // Prepare: a server on one port of the range (not one freePort handed out), and the draws steered to it first, then next to it
    let held: Server | undefined;
    for (let port = 20_000 + Math.floor(Math.random() * 12_000); !held; port++) held = await listen(port).catch(() => undefined);
    const heldPort = (held.address() as { port: number }).port;
    const draw = (port: number) => (port - 20_000 + 0.5) / (32_767 - 20_000 + 1);
    const random = jest.spyOn(Math, 'random').mockReturnValueOnce(draw(heldPort)).mockReturnValueOnce(draw(heldPort === 32_767 ? heldPort - 1 : heldPort + 1));

    // Act
    const port = await freePort();
    random.mockRestore();
    await new Promise((resolve) => held.close(resolve));

    // Assess
    expect(port).toBe(heldPort === 32_767 ? heldPort - 1 : heldPort + 1);
  });
});

describe('freePort, beside other processes', () => {
  const draw = (port: number) => (port - 20_000 + 0.5) / (32_767 - 20_000 + 1);

  afterEach(() => {
    jest.restoreAllMocks();
    delete process.env.MAILWRIGHT_PORT_RANGE;
  });

  it('never hands out a port twice, even before anything listens on it', async () => {
    // Prepare: the first two draws steered to the same port, the third next to it
    const port = 27_000 + Math.floor(Math.random() * 1_000);
    jest.spyOn(Math, 'random').mockReturnValueOnce(draw(port)).mockReturnValueOnce(draw(port)).mockReturnValueOnce(draw(port + 1));

    // Act
    const first = await freePort();
    const second = await freePort();

    // Assess
    expect([first, second]).toEqual([port, port + 1]);
  });

  it('draws from MAILWRIGHT_PORT_RANGE, the range a process starting stacks beside another is given', async () => {
    // Prepare
    process.env.MAILWRIGHT_PORT_RANGE = '30000-30099';

    // Act
    const ports = await Promise.all(Array.from({ length: 10 }, () => freePort()));

    // Assess
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(30_000);
      expect(port).toBeLessThanOrEqual(30_099);
    }
    expect(new Set(ports).size).toBe(10);
  });
});
