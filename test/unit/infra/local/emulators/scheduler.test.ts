import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConflictException, CreateScheduleCommand, DeleteScheduleCommand, GetScheduleCommand, ResourceNotFoundException, SchedulerClient, UpdateScheduleCommand } from '@aws-sdk/client-scheduler';
import { GetQueueUrlCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { freePort } from '../../../../../infra/local/ports';
import { startScheduler } from '../../../../../infra/local/emulators/scheduler';

// The real Scheduler SDK talks HTTP to the emulator; the emulator's SQS deliveries are mocked.
const sqs = mockClient(SQSClient);
const TARGET = 'arn:aws:sqs:us-east-1:000000000000:campaign-fanout';
const QUEUE_URL = 'http://127.0.0.1:9324/000000000000/campaign-fanout';

let dir: string;
let stops: (() => Promise<void>)[] = [];

beforeEach(() => {
  sqs.reset();
  sqs.on(GetQueueUrlCommand).resolves({ QueueUrl: QUEUE_URL });
  sqs.on(SendMessageCommand).resolves({ MessageId: 'm1' });
  dir = mkdtempSync(path.join(tmpdir(), 'scheduler-'));
});

afterEach(async () => {
  await Promise.all(stops.map((stop) => stop()));
  stops = [];
  rmSync(dir, { recursive: true, force: true });
});

async function start(port?: number) {
  const chosen = port ?? (await freePort());
  stops.push(await startScheduler({ port: chosen, file: path.join(dir, 'scheduler.json'), tickMs: 50 }));
  return { port: chosen, client: new SchedulerClient({ endpoint: `http://127.0.0.1:${chosen}`, region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' }, maxAttempts: 1 }) };
}

const at = (date: Date) => `at(${date.toISOString().slice(0, 19)})`;
const createInput = (name: string, when: Date, input = '{"campaignId":"C1"}', extra: Record<string, unknown> = {}) => ({
  Name: name,
  GroupName: 'mailwright',
  ScheduleExpression: at(when),
  ScheduleExpressionTimezone: 'UTC',
  FlexibleTimeWindow: { Mode: 'OFF' as const },
  ActionAfterCompletion: 'DELETE' as const,
  Target: { Arn: TARGET, RoleArn: 'arn:aws:iam::000000000000:role/scheduler', Input: input },
  ...extra,
});

const waitFor = async (check: () => boolean, ms = 5000) => {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

/** The schedule once it is gone (deleted after it ran), or what GetSchedule last answered after 5 s. */
const goneAfterRun = async (client: SchedulerClient, Name: string) => {
  const deadline = Date.now() + 5000;
  for (;;) {
    const answer = await client.send(new GetScheduleCommand({ Name, GroupName: 'mailwright' })).catch((error: unknown) => error);
    if (answer instanceof ResourceNotFoundException || Date.now() > deadline) return answer;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

const sentBodies = () => sqs.commandCalls(SendMessageCommand).map((call) => call.args[0].input);

describe('local Scheduler emulator', () => {
  it('creates, reads, updates and deletes schedules with the SDK, answering AWS error shapes', async () => {
    // Prepare
    const { client } = await start();
    const later = new Date(Date.now() + 3_600_000);
    // Act
    const created = await client.send(new CreateScheduleCommand(createInput('c1', later)));
    const conflict = await client.send(new CreateScheduleCommand(createInput('c1', later, '{"other":1}'))).catch((error: unknown) => error);
    await client.send(new UpdateScheduleCommand(createInput('c1', later, '{"campaignId":"C2"}')));
    const read = await client.send(new GetScheduleCommand({ Name: 'c1', GroupName: 'mailwright' }));
    await client.send(new DeleteScheduleCommand({ Name: 'c1', GroupName: 'mailwright' }));
    const missing = await client.send(new GetScheduleCommand({ Name: 'c1', GroupName: 'mailwright' })).catch((error: unknown) => error);
    const updateMissing = await client.send(new UpdateScheduleCommand(createInput('c1', later))).catch((error: unknown) => error);
    // Assess
    expect(created.ScheduleArn).toBe('arn:aws:scheduler:us-east-1:000000000000:schedule/mailwright/c1');
    expect(conflict).toBeInstanceOf(ConflictException);
    expect(read).toMatchObject({ Name: 'c1', GroupName: 'mailwright', ScheduleExpression: at(later), ActionAfterCompletion: 'DELETE', State: 'ENABLED', Target: { Arn: TARGET, Input: '{"campaignId":"C2"}' } });
    expect(read.CreationDate).toBeInstanceOf(Date);
    expect(missing).toBeInstanceOf(ResourceNotFoundException);
    expect(updateMissing).toBeInstanceOf(ResourceNotFoundException);
    expect(sentBodies()).toHaveLength(0);
  });

  it('takes a retried create with the same client token as done', async () => {
    // Prepare
    const { client } = await start();
    const input = { ...createInput('c1', new Date(Date.now() + 3_600_000)), ClientToken: 'token-1' };
    // Act
    await client.send(new CreateScheduleCommand(input));
    const retried = await client.send(new CreateScheduleCommand(input));
    // Assess
    expect(retried.ScheduleArn).toContain('schedule/mailwright/c1');
  });

  it('refuses schedules it cannot run (recurring, another time zone) with ValidationException', async () => {
    // Prepare
    const { client } = await start();
    // Act
    const rate = await client.send(new CreateScheduleCommand({ ...createInput('r', new Date()), ScheduleExpression: 'rate(5 minutes)' })).catch((error: unknown) => error);
    const zone = await client.send(new CreateScheduleCommand({ ...createInput('z', new Date()), ScheduleExpressionTimezone: 'Europe/Paris' })).catch((error: unknown) => error);
    // Assess
    expect((rate as Error).name).toBe('ValidationException');
    expect((zone as Error).name).toBe('ValidationException');
  });

  it('fires a due schedule once into the target queue by its ARN name, then deletes it (ActionAfterCompletion DELETE)', async () => {
    // Prepare
    const { client } = await start();
    // Act
    await client.send(new CreateScheduleCommand(createInput('due', new Date(Date.now() + 1000))));
    await waitFor(() => sentBodies().length > 0);
    const after = await goneAfterRun(client, 'due');
    // Assess
    expect(sqs.commandCalls(GetQueueUrlCommand)[0]!.args[0].input).toEqual({ QueueName: 'campaign-fanout', QueueOwnerAWSAccountId: '000000000000' });
    expect(sentBodies()).toEqual([{ QueueUrl: QUEUE_URL, MessageBody: '{"campaignId":"C1"}' }]);
    expect(after).toBeInstanceOf(ResourceNotFoundException);
  });

  it('keeps a schedule without ActionAfterCompletion DELETE after it ran, and does not fire it again', async () => {
    // Prepare
    const { client } = await start();
    // Act
    await client.send(new CreateScheduleCommand(createInput('keep', new Date(Date.now() - 1000), '{}', { ActionAfterCompletion: 'NONE' })));
    await waitFor(() => sentBodies().length > 0);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const after = await client.send(new GetScheduleCommand({ Name: 'keep', GroupName: 'mailwright' }));
    // Assess
    expect(sentBodies()).toHaveLength(1);
    expect(after.Name).toBe('keep');
  });

  it('does not fire a schedule deleted before its time', async () => {
    // Prepare
    const { client } = await start();
    await client.send(new CreateScheduleCommand(createInput('gone', new Date(Date.now() + 1000))));
    // Act
    await client.send(new DeleteScheduleCommand({ Name: 'gone', GroupName: 'mailwright' }));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    // Assess
    expect(sentBodies()).toHaveLength(0);
  });

  it('persists schedules in its file and fires, after a restart, those that fell due while it was stopped', async () => {
    // Prepare
    const first = await start();
    await first.client.send(new CreateScheduleCommand(createInput('missed', new Date(Date.now() + 1000))));
    await stops.pop()!();
    const stored = JSON.parse(readFileSync(path.join(dir, 'scheduler.json'), 'utf8')) as { Name: string }[];
    // Act
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(sentBodies()).toHaveLength(0);
    await start(first.port);
    await waitFor(() => sentBodies().length > 0);
    // Assess
    expect(stored.map((schedule) => schedule.Name)).toEqual(['missed']);
    expect(sentBodies()).toEqual([{ QueueUrl: QUEUE_URL, MessageBody: '{"campaignId":"C1"}' }]);
    expect(JSON.parse(readFileSync(path.join(dir, 'scheduler.json'), 'utf8'))).toEqual([]);
  });

  it('retries a delivery the queue refused, and fires it once it is taken', async () => {
    // Prepare
    sqs.on(SendMessageCommand).rejectsOnce(new Error('queue down')).resolves({ MessageId: 'm2' });
    const { client } = await start();
    // Act
    await client.send(new CreateScheduleCommand(createInput('retry', new Date(Date.now() - 1000))));
    await waitFor(() => sentBodies().length >= 2);
    const after = await goneAfterRun(client, 'retry');
    // Assess
    expect(sentBodies()).toHaveLength(2);
    expect(after).toBeInstanceOf(ResourceNotFoundException);
  });
});
