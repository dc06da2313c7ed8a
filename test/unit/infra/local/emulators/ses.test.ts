import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../../../../../infra/local/ports';
import { startSesFront } from '../../../../../infra/local/emulators/ses';

// The front's SendEmail fault rates, changed while it runs (POST /_local/faults); behind it, a
// stand-in for aws-ses-v2-local that accepts every SendEmail.
let dir: string;
let servers: Server[] = [];
let front: string;
let accepted: number;

beforeEach(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'ses-front-'));
  accepted = 0;
  const emulator = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      accepted++;
      response.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ MessageId: `m${accepted}` }));
    });
  });
  const emulatorPort = await freePort();
  await new Promise<void>((resolve) => emulator.listen(emulatorPort, '127.0.0.1', resolve));
  const port = await freePort();
  servers = [emulator, await startSesFront({ port, emulatorPort, throttleRate: 0, failureRate: 0, publish: async () => {}, verifySeconds: 0, identitiesFile: path.join(dir, 'identities.json') })];
  front = `http://127.0.0.1:${port}`;
});

afterEach(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  rmSync(dir, { recursive: true, force: true });
});

const sendEmail = (from = 'a@example.com') =>
  fetch(`${front}/v2/email/outbound-emails`, { method: 'POST', body: JSON.stringify({ FromEmailAddress: from, Destination: { ToAddresses: ['b@example.com'] }, Content: { Simple: { Subject: { Data: 's' } } } }) });
const setFaults = (body: unknown) => fetch(`${front}/_local/faults`, { method: 'POST', body: JSON.stringify(body) });

it('throttles every SendEmail with throttleRate 1, as SES does (429 TooManyRequestsException), and lets them through again at 0', async () => {
  // Act
  const held = await setFaults({ throttleRate: 1 });
  const throttled = await sendEmail();
  const read = await (await fetch(`${front}/_local/faults`)).json();
  await setFaults({ throttleRate: 0 });
  const through = await sendEmail();

  // Assess
  expect(held.status).toBe(200);
  expect(await held.json()).toEqual({ throttleRate: 1, failureRate: 0, fromDomain: null });
  expect(throttled.status).toBe(429);
  expect(throttled.headers.get('x-amzn-errortype')).toBe('TooManyRequestsException');
  expect(read).toEqual({ throttleRate: 1, failureRate: 0, fromDomain: null });
  expect(through.status).toBe(200);
  expect(accepted).toBe(1);
});

it('answers failureRate 1 with SES\'s internal error (500)', async () => {
  // Act
  await setFaults({ failureRate: 1 });
  const failed = await sendEmail();

  // Assess
  expect(failed.status).toBe(500);
  expect(failed.headers.get('x-amzn-errortype')).toBe('InternalServiceErrorException');
  expect(accepted).toBe(0);
});

it('with fromDomain, throttles only the mail from that domain', async () => {
  // Act
  await setFaults({ throttleRate: 1, fromDomain: 'Held.test' });
  const held = await sendEmail('Acme News <news@held.test>');
  const other = await sendEmail('news@other.test');
  await setFaults({ throttleRate: 0, fromDomain: null });
  const released = await sendEmail('news@held.test');

  // Assess
  expect(held.status).toBe(429);
  expect(other.status).toBe(200);
  expect(released.status).toBe(200);
  expect(accepted).toBe(2);
});

it.each([[{ throttleRate: 2 }], [{ fromDomain: 'nodot' }], [{ failureRate: -0.1 }], [{ throttleRate: '1' }], [{ throttleRate: 0.6, failureRate: 0.5 }]])('refuses %j with a 400 and keeps the rates', async (body) => {
  // Act
  const refused = await setFaults(body);
  const read = await (await fetch(`${front}/_local/faults`)).json();

  // Assess
  expect(refused.status).toBe(400);
  expect(read).toEqual({ throttleRate: 0, failureRate: 0, fromDomain: null });
});
