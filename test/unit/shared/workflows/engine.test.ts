import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { CreateScheduleCommand, DeleteScheduleCommand, SchedulerClient } from '@aws-sdk/client-scheduler';
import { SendMessageBatchCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { BatchGetCommand, BatchWriteCommand, DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';

process.env.WORKFLOW_QUEUE_URL = 'http://localhost:9324/000000000000/workflows-test';
process.env.WORKFLOW_QUEUE_ARN = 'arn:aws:sqs:us-east-1:000000000000:workflows-test';
process.env.SEND_QUEUE_URL = 'http://localhost:9324/000000000000/send-test';
const { runStep, MAX_STEP_ATTEMPTS } = await import('../../../../shared/workflows/engine');
const { RetryLater } = await import('../../../../shared/queue/errors');
const { timerName } = await import('../../../../shared/workflows/timers');
const { verifyUnsubscribeToken } = await import('../../../../shared/unsubscribe/token');
const { contentOf } = await import('../../../../shared/emails/emails');

const ddb = mockClient(DynamoDBDocumentClient);
const sqs = mockClient(SQSClient);
const scheduler = mockClient(SchedulerClient);

const P = 'P1';
const W = '01JWRKFW0000000000000000AA';
const X = '01JEXEC0000000000000000ABC';
const C = '01JC0NTACT0000000000000000';
const T = '01JTEMP0000000000000000ABC';
const table = process.env.TABLE_NAME!;
const executionKey = { PK: `PROJECT#${P}#WORKFLOW#${W}`, SK: `EXECUTION#${X}` };
const message = (stepId: string, extra: Record<string, unknown> = {}) => ({ projectId: P, workflowId: W, executionId: X, stepId, ...extra });

type Steps = Record<string, unknown>[];
/** Versions are cached for good once read (they never change): each test gets its own. */
let version = 0;

/** The table as the runner reads it: the execution, the workflow, its version, the contact and template. */
function given({ steps, execution = {}, contact = { subscribed: true, data: { plan: 'pro' } }, template = {}, workflow = true }: { steps: Steps; execution?: Record<string, unknown>; contact?: Record<string, unknown> | null; template?: Record<string, unknown>; workflow?: boolean }) {
  version++;
  ddb.on(GetCommand).resolves({});
  ddb.on(GetCommand, { Key: executionKey }).resolves({
    Item: { ...executionKey, executionId: X, workflowId: W, workflowVersion: version, contactId: C, status: 'RUNNING', currentStepId: steps[0]!.id, startedAt: '2026-11-23T10:00:00.000Z', trigger: { type: 'EVENT', event: 'signed_up', data: { plan: 'pro' } }, steps: {}, ...execution },
  });
  if (workflow) ddb.on(GetCommand, { Key: { PK: `PROJECT#${P}`, SK: `WORKFLOW#${W}` } }).resolves({ Item: { workflowId: W, version, enabled: true, webhookSecret: 'whsec_dGVzdHNlY3JldHRlc3RzZWNyZXR0ZXN0', steps } });
  ddb.on(GetCommand, { Key: { PK: `PROJECT#${P}`, SK: `WORKFLOW_VERSION#${W}#${String(version).padStart(6, '0')}` } }).resolves({ Item: { workflowId: W, version, trigger: { type: 'EVENT', event: 'signed_up' }, allowReentry: false, steps } });
  if (contact) ddb.on(GetCommand, { Key: { PK: `PROJECT#${P}`, SK: `CONTACT#${C}` } }).resolves({ Item: { contactId: C, email: 'jane@example.com', createdAt: '2026-11-01T00:00:00Z', updatedAt: '2026-11-01T00:00:00Z', ...contact } });
  ddb.on(GetCommand, { Key: { PK: `PROJECT#${P}`, SK: `TEMPLATE#${T}` } }).resolves({
    Item: { templateId: T, name: 'Welcome', subject: 'Hi {{contact.email}}', body: '<p>Plan {{event.plan}}</p>', type: 'TRANSACTIONAL', from: { email: 'hello@acme.test' }, replyTo: null, ...template },
  });
  ddb.on(BatchGetCommand).resolves({ Responses: { [table]: [{ domain: 'acme.test', status: 'VERIFIED' }] } });
  ddb.on(UpdateCommand).resolves({});
  ddb.on(PutCommand).resolves({});
  ddb.on(BatchWriteCommand).resolves({});
  ddb.on(TransactWriteCommand).resolves({});
  ddb.on(QueryCommand).resolves({ Items: [] });
  sqs.on(SendMessageCommand).resolves({});
  sqs.on(SendMessageBatchCommand).resolves({ Failed: [] });
  scheduler.on(CreateScheduleCommand).resolves({});
  scheduler.on(DeleteScheduleCommand).resolves({});
}

const updates = () => ddb.commandCalls(UpdateCommand).map((call) => call.args[0].input);
const transactions = () => ddb.commandCalls(TransactWriteCommand).map((call) => call.args[0].input.TransactItems!);
const sentMessages = () => sqs.commandCalls(SendMessageCommand).map((call) => ({ body: JSON.parse(call.args[0].input.MessageBody!), delay: call.args[0].input.DelaySeconds }));
const conditionFailed = () => new TransactionCanceledException({ message: 'cancelled', $metadata: {}, CancellationReasons: [{ Code: 'ConditionalCheckFailed' }, { Code: 'None' }] });
/** The PutItem inputs, in the order sent. */
const puts = () => ddb.commandCalls(PutCommand).map((call) => call.args[0].input);
/** The email records written (conditional Puts on the project partition, SK `EMAIL#`). */
const recordPuts = () => puts().filter((put) => put.Item!.PK === `PROJECT#${P}` && String(put.Item!.SK).startsWith('EMAIL#'));
/** The first email record written, and its content decoded from its content item (a Put of its own, SK `EMAIL_CONTENT#`). */
const storedEmail = () => {
  const record = recordPuts()[0]!.Item!;
  const contentItem = puts().find((put) => put.Item!.SK === `EMAIL_CONTENT#${record.id}`)?.Item;
  return { record, content: contentOf(contentItem)! };
};
const running = (stepId: string, fields: Record<string, unknown> = {}) => ({ [stepId]: { stepId, type: 'X', status: 'RUNNING', startedAt: '2026-11-23T10:00:00.000Z', ...fields } });

beforeEach(() => {
  ddb.reset();
  sqs.reset();
  scheduler.reset();
});

describe('DELAY', () => {
  const steps = [
    { id: 'pause', type: 'DELAY', amount: 3, unit: 'seconds', next: 'end' },
    { id: 'end', type: 'EXIT' },
  ];

  it('starts the step (keyed: only if absent), marks the execution WAITING and wakes it with an SQS delay', async () => {
    // Prepare
    given({ steps });

    // Act
    await runStep(message('pause'));

    // Assess
    const [start] = updates();
    expect(start).toMatchObject({
      Key: executionKey,
      UpdateExpression: 'SET steps.#step = :record, #status = :status, GSI1PK = :byStatus',
      ConditionExpression: 'attribute_not_exists(steps.#step) AND currentStepId = :step AND #status IN (:running, :waiting)',
      ExpressionAttributeNames: { '#step': 'pause', '#status': 'status' },
      ExpressionAttributeValues: expect.objectContaining({ ':status': 'WAITING', ':byStatus': `PROJECT#${P}#WORKFLOW_EXECUTIONS#${W}#STATUS#WAITING`, ':record': expect.objectContaining({ stepId: 'pause', status: 'RUNNING', waitUntil: expect.any(String) }) }),
    });
    expect(sentMessages()).toEqual([{ body: message('pause'), delay: 3 }]);
    expect(scheduler.commandCalls(CreateScheduleCommand)).toHaveLength(0);
  });

  it('waits longer than 15 minutes with a one-time schedule into the workflow queue, rounded up to the second', async () => {
    // Prepare
    given({ steps: [{ ...steps[0], amount: 2, unit: 'days' }, steps[1]!] });
    const before = Date.now();

    // Act
    await runStep(message('pause'));

    // Assess
    const [schedule] = scheduler.commandCalls(CreateScheduleCommand).map((call) => call.args[0].input);
    expect(schedule).toMatchObject({
      Name: timerName(X, 'pause'),
      GroupName: 'mailwright-test',
      FlexibleTimeWindow: { Mode: 'OFF' },
      ActionAfterCompletion: 'DELETE',
      Target: { Arn: process.env.WORKFLOW_QUEUE_ARN, RoleArn: process.env.SCHEDULER_ROLE_ARN, Input: JSON.stringify(message('pause')) },
    });
    const at = Date.parse(`${/^at\((.*)\)$/.exec(schedule!.ScheduleExpression!)![1]}Z`);
    expect(at).toBeGreaterThanOrEqual(before + 2 * 86_400_000);
    expect(timerName(X, 'pause')).toMatch(/^[0-9a-zA-Z-_.]{1,64}$/);
    expect(sentMessages()).toEqual([]);
  });

  it('on its wake-up moves to the next step and queues it; an early message only arms the wake again', async () => {
    // Prepare: due
    given({ steps, execution: { status: 'WAITING', steps: running('pause', { waitUntil: new Date(Date.now() - 10).toISOString() }) } });

    // Act
    await runStep(message('pause'));

    // Assess
    expect(updates()[0]).toMatchObject({
      ConditionExpression: 'steps.#step.#status = :stepRunning AND currentStepId = :step AND #status IN (:running, :waiting)',
      ExpressionAttributeValues: expect.objectContaining({ ':next': 'end', ':runningNow': 'RUNNING', ':step': 'pause' }),
    });
    expect(sentMessages()).toEqual([{ body: message('end'), delay: undefined }]);

    // Prepare: not due yet (a redelivered first message)
    ddb.reset();
    sqs.reset();
    given({ steps, execution: { status: 'WAITING', steps: running('pause', { waitUntil: new Date(Date.now() + 5_000).toISOString() }) } });

    // Act
    await runStep(message('pause'));

    // Assess
    expect(updates()).toEqual([]);
    expect(sentMessages()).toEqual([{ body: message('pause'), delay: expect.any(Number) }]);
  });
});

describe('idempotency under redelivery', () => {
  const steps = [
    { id: 'first', type: 'SEND_EMAIL', templateId: T, next: 'second' },
    { id: 'second', type: 'EXIT' },
  ];

  it('a repeat of a completed step whose next step has started changes and sends nothing', async () => {
    // Prepare
    given({ steps, execution: { currentStepId: 'second', steps: { first: { stepId: 'first', status: 'COMPLETED' }, ...running('second') } } });

    // Act
    await runStep(message('first'));

    // Assess
    expect(updates()).toEqual([]);
    expect(transactions()).toEqual([]);
    expect(sentMessages()).toEqual([]);
  });

  it('a repeat of a completed step whose next step never started sends that step again (lost to a crash)', async () => {
    // Prepare
    given({ steps, execution: { currentStepId: 'second', steps: { first: { stepId: 'first', status: 'COMPLETED' } } } });

    // Act
    await runStep(message('first'));

    // Assess
    expect(sentMessages()).toEqual([{ body: message('second'), delay: undefined }]);
    expect(updates()).toEqual([]);
  });

  it('a step another message started just now is left to it', async () => {
    // Prepare
    given({ steps });
    ddb.on(UpdateCommand).rejects(Object.assign(new Error('failed'), { name: 'ConditionalCheckFailedException' }));

    // Act
    await runStep(message('first'));

    // Assess
    expect(ddb.commandCalls(PutCommand)).toHaveLength(0);
    expect(sqs.commandCalls(SendMessageBatchCommand)).toHaveLength(0);
  });

  it('an ended execution ignores every message', async () => {
    // Prepare
    given({ steps, execution: { status: 'CANCELLED' } });

    // Act
    await runStep(message('first'));

    // Assess
    expect(updates()).toEqual([]);
    expect(sentMessages()).toEqual([]);
  });
});

describe('SEND_EMAIL', () => {
  const steps = [{ id: 'welcome', type: 'SEND_EMAIL', templateId: T }];

  it('stores the email rendered for the contact with the event data, from a conditional Put, as workflow mail', async () => {
    // Prepare
    given({ steps });

    // Act
    await runStep(message('welcome'));
    const firstPut = ddb.commandCalls(PutCommand)[0]!.args[0].input;

    // Assess
    expect(firstPut).toMatchObject({
      TableName: table,
      ConditionExpression: 'attribute_not_exists(PK)',
      Item: {
        PK: `PROJECT#${P}`,
        contactId: C,
        to: { email: 'jane@example.com' },
        from: { email: 'hello@acme.test' },
        subject: 'Hi jane@example.com',
        source: { type: 'workflow', id: W },
        marketing: false,
        status: 'QUEUED',
      },
    });
    expect(firstPut.Item!.SK).toBe(`EMAIL#${firstPut.Item!.id}`);
    expect(firstPut.Item).not.toHaveProperty('html');
    expect(firstPut.Item).not.toHaveProperty('text');
    // Then its content item, only where there is none (a retry that renders differently never changes it), and its
    // recipient reference, unconditional (a retry writes the same item); no BatchWriteItem
    expect(ddb.commandCalls(BatchWriteCommand)).toHaveLength(0);
    const [, ...companions] = puts();
    expect(companions).toHaveLength(2);
    expect(companions).toEqual(
      expect.arrayContaining([
        { TableName: table, Item: { PK: `PROJECT#${P}`, SK: `EMAIL_CONTENT#${firstPut.Item!.id}`, brotli: expect.anything() }, ConditionExpression: 'attribute_not_exists(PK)' },
        { TableName: table, Item: { PK: `PROJECT#${P}#EMAILS_TO#jane@example.com`, SK: `EMAIL#${firstPut.Item!.id}`, emailId: firstPut.Item!.id, sourceType: 'workflow', sourceId: W } },
      ]),
    );
    expect(storedEmail().content).toEqual({ html: '<p>Plan pro</p>', text: 'Plan pro' });
  });

  it('runs a first step its execution\'s entry started: no second start, no second count of the step\'s entry', async () => {
    // Prepare: as the trigger consumer enters it (shared/workflows/executions.ts enterWorkflows)
    given({ steps, execution: { steps: running('welcome', { type: 'SEND_EMAIL' }) } });

    // Act
    await runStep(message('welcome'));

    // Assess: the email stored and queued, the step completed; nothing started or counted it again
    expect(recordPuts()).toHaveLength(1);
    expect(updates().filter((update) => update.UpdateExpression?.startsWith('SET steps.#step = :record'))).toEqual([]);
    expect(updates().filter((update) => Object.values(update.ExpressionAttributeNames ?? {}).includes('step#welcome#entered'))).toEqual([]);
    expect(updates().some((update) => Object.values(update.ExpressionAttributeNames ?? {}).includes('step#welcome#completed'))).toBe(true);
  });

  it('derives the same email id when the step is retried', async () => {
    // Prepare: the step started before (a retry)
    const record = { welcome: { stepId: 'welcome', type: 'SEND_EMAIL', status: 'RUNNING', startedAt: '2026-11-23T10:00:01.000Z' } };
    given({ steps, execution: { steps: record } });

    // Act
    await runStep(message('welcome'));
    await runStep(message('welcome'));

    // Assess
    const ids = recordPuts().map((put) => put.Item!.id);
    expect(ids).toHaveLength(2);
    expect(ids[0]).toBe(ids[1]);
    const [queued] = sqs.commandCalls(SendMessageBatchCommand).map((call) => call.args[0].input);
    expect(JSON.parse(queued!.Entries![0]!.MessageBody!)).toEqual({ projectId: P, emailId: ids[0] });
    const [ending] = transactions();
    expect(ending![0]!.Update).toMatchObject({ Key: executionKey, ExpressionAttributeValues: expect.objectContaining({ ':final': 'COMPLETED' }) });
    expect(ending![1]!.Update).toMatchObject({ Key: { PK: `PROJECT#${P}#WORKFLOW#${W}`, SK: `ENTRY#${C}` }, UpdateExpression: 'REMOVE activeExecutionId' });
    expect(ending![2]!.Put!.Item).toMatchObject({ type: 'workflow.execution.completed', data: expect.objectContaining({ id: X, status: 'COMPLETED' }) });
  });

  it('gives MARKETING mail the one-click unsubscribe headers and {{unsubscribeUrl}} for this contact', async () => {
    // Prepare
    given({ steps, template: { type: 'MARKETING', body: '<a href="{{unsubscribeUrl}}">Unsubscribe</a>' } });

    // Act
    await runStep(message('welcome'));
    const { record: email, content } = storedEmail();

    // Assess
    const [listUnsubscribe, listUnsubscribePost] = email.headers as { name: string; value: string }[];
    expect(listUnsubscribePost).toEqual({ name: 'List-Unsubscribe-Post', value: 'List-Unsubscribe=One-Click' });
    expect(listUnsubscribe!.name).toBe('List-Unsubscribe');
    const url = listUnsubscribe!.value.slice(1, -1);
    expect(content.html).toBe(`<a href="${url.replaceAll('/', '&#x2F;')}">Unsubscribe</a>`); // mustache escapes '/' in HTML
    expect(verifyUnsubscribeToken(url.split('/unsubscribe/')[1]!)).toEqual({ projectId: P, contactId: C });
    expect(content.text).toBe(`Unsubscribe\n[${url}]`); // wrapped at 78 characters, the URL kept whole
    expect(email.marketing).toBe(true);
  });

  it('renders the template\'s text part, and adds the unsubscribe link to MARKETING mail whose text lacks it', async () => {
    // Prepare
    given({ steps, template: { type: 'MARKETING', text: 'Plan {{event.plan}} for {{contact.email}}' } });

    // Act
    await runStep(message('welcome'));
    const { record: email, content } = storedEmail();

    // Assess
    const url = (email.headers as { name: string; value: string }[])[0]!.value.slice(1, -1);
    expect(content.html).toBe('<p>Plan pro</p>');
    expect(content.text).toBe(`Plan pro for jane@example.com\n\nUnsubscribe: ${url}\n`);
  });

  it('sends TRANSACTIONAL mail without unsubscribe headers', async () => {
    // Prepare
    given({ steps });

    // Act
    await runStep(message('welcome'));

    // Assess
    expect(ddb.commandCalls(PutCommand)[0]!.args[0].input.Item!.headers).toEqual([]);
  });

  it('skips a MARKETING template for an unsubscribed contact, with the reason as outcome', async () => {
    // Prepare
    given({ steps, contact: { subscribed: false, data: {} }, template: { type: 'MARKETING' } });

    // Act
    await runStep(message('welcome'));

    // Assess
    expect(ddb.commandCalls(PutCommand)).toHaveLength(0);
    expect(JSON.stringify(transactions()[0]![0]!.Update!.ExpressionAttributeValues)).toContain('SKIPPED_UNSUBSCRIBED');
  });

  it('exits the execution when the contact was deleted', async () => {
    // Prepare
    given({ steps, contact: null });

    // Act
    await runStep(message('welcome'));

    // Assess
    const [ending] = transactions();
    expect(ending![0]!.Update!.ExpressionAttributeValues).toMatchObject({ ':final': 'EXITED', ':reason': 'CONTACT_DELETED' });
    expect(ending).toHaveLength(2); // no notification for EXITED
  });
});

describe('failures', () => {
  const steps = [{ id: 'hook', type: 'UPDATE_CONTACT', data: { stage: 'x' } }];

  it('retries a failing step with backoff, noting the error on the step', async () => {
    // Prepare
    given({ steps, execution: { steps: running('hook') } });
    ddb.on(GetCommand, { Key: { PK: `PROJECT#${P}`, SK: `CONTACT#${C}` } }).rejects(new Error('DynamoDB is down'));

    // Act
    const attempt = runStep(message('hook'), 2);

    // Assess
    await expect(attempt).rejects.toEqual(expect.objectContaining({ name: 'RetryLater', delaySeconds: 4 }));
    await expect(attempt).rejects.toBeInstanceOf(RetryLater);
    expect(updates().at(-1)).toMatchObject({ UpdateExpression: 'SET steps.#step.#error = :error, steps.#step.attempts = :attempt', ExpressionAttributeValues: expect.objectContaining({ ':error': 'DynamoDB is down', ':attempt': 2 }) });
  });

  it(`fails the execution with the reason after ${MAX_STEP_ATTEMPTS} attempts, with its notification in the same transaction`, async () => {
    // Prepare
    given({ steps, execution: { steps: running('hook') } });
    ddb.on(GetCommand, { Key: { PK: `PROJECT#${P}`, SK: `CONTACT#${C}` } }).rejects(new Error('DynamoDB is down'));

    // Act
    await runStep(message('hook'), MAX_STEP_ATTEMPTS);

    // Assess
    const [ending] = transactions();
    expect(ending![0]!.Update!.ExpressionAttributeValues).toMatchObject({ ':final': 'FAILED', ':reason': 'Step hook failed: DynamoDB is down' });
    expect(ending![2]!.Put!.Item).toMatchObject({ SK: expect.stringMatching(/^NOTIFICATION#/), type: 'workflow.execution.failed' });
  });

  it('cancels the execution when its workflow was deleted', async () => {
    // Prepare
    given({ steps, workflow: false });

    // Act
    await runStep(message('hook'));

    // Assess
    const [ending] = transactions();
    expect(ending![0]!.Update!.ExpressionAttributeValues).toMatchObject({ ':final': 'CANCELLED', ':reason': 'WORKFLOW_DELETED' });
  });
});

describe('CONDITION', () => {
  it('takes then or else from the segment filter language, events included', async () => {
    // Prepare
    const steps = [
      { id: 'check', type: 'CONDITION', filters: { operator: 'AND', conditions: [{ field: 'data.plan', operator: 'equals', value: 'pro' }, { field: 'event', operator: 'triggered', value: 'purchase' }] }, then: 'yes', else: 'no' },
      { id: 'yes', type: 'EXIT' },
      { id: 'no', type: 'EXIT' },
    ];
    given({ steps });
    ddb.on(QueryCommand).resolves({ Items: [{ name: 'purchase', eventId: '01JEVENT000000000000000000' }] });

    // Act
    await runStep(message('check'));

    // Assess
    const query = ddb.commandCalls(QueryCommand)[0]!.args[0].input;
    expect(query).toMatchObject({ IndexName: 'GSI1', ExpressionAttributeValues: expect.objectContaining({ ':pk': `PROJECT#${P}#CONTACT_EVENTS#${C}`, ':n0': 'purchase' }) });
    const executionUpdates = updates().filter((update) => String(update.Key!.SK).startsWith('EXECUTION#'));
    expect(executionUpdates.at(-1)!.ExpressionAttributeValues).toMatchObject({ ':next': 'yes' });
    expect(sentMessages()).toEqual([{ body: message('yes'), delay: undefined }]);
    // The step's figures (GET /workflows/{id}/stats): it went on, by its then branch.
    const counted = updates().filter((update) => update.Key!.SK === 'FIGURES');
    expect(counted.flatMap((update) => Object.values(update.ExpressionAttributeNames!)).sort()).toEqual(expect.arrayContaining(['step#check#completed', 'step#check#then']));
  });
});

describe('WAIT_FOR_EVENT: the event and the timeout race, one wins once', () => {
  const steps = [
    { id: 'wait', type: 'WAIT_FOR_EVENT', event: 'confirmed', timeoutSeconds: 60, next: 'thanks', timeoutNext: 'reminder' },
    { id: 'thanks', type: 'EXIT' },
    { id: 'reminder', type: 'EXIT' },
  ];
  const waitKey = { PK: `PROJECT#${P}#WORKFLOW_WAITS#${C}`, SK: `WAIT#confirmed#${X}` };
  const waiting = (waitUntil: number) => ({ status: 'WAITING', steps: running('wait', { waitUntil: new Date(waitUntil).toISOString(), event: 'confirmed' }) });
  const event = (at: number) => ({ id: '01JEVENT000000000000000000', name: 'confirmed', createdAt: new Date(at).toISOString() });

  it('starts listening: the step and the waiting index in one transaction, then the timeout', async () => {
    // Prepare
    given({ steps });

    // Act
    await runStep(message('wait'));

    // Assess
    const [start] = transactions();
    expect(start![0]!.Update).toMatchObject({ ExpressionAttributeValues: expect.objectContaining({ ':status': 'WAITING', ':record': expect.objectContaining({ event: 'confirmed' }) }) });
    expect(start![1]!.Put).toMatchObject({ Item: { ...waitKey, workflowId: W, executionId: X, stepId: 'wait' } });
    expect(sentMessages()).toEqual([{ body: message('wait'), delay: 60 }]);
  });

  it('the event in time takes the event branch, removing the waiting entry in the same transaction', async () => {
    // Prepare
    const now = Date.now();
    given({ steps, execution: waiting(now + 60_000) });

    // Act
    await runStep(message('wait', { event: event(now) }));

    // Assess
    const [win] = transactions();
    expect(win![0]!.Update).toMatchObject({ ConditionExpression: expect.stringContaining('steps.#step.#status = :stepRunning'), ExpressionAttributeValues: expect.objectContaining({ ':next': 'thanks' }) });
    expect(JSON.stringify(win![0]!.Update!.ExpressionAttributeValues)).toContain('"EVENT"');
    expect(win![1]!.Delete).toEqual({ TableName: table, Key: waitKey });
    expect(sentMessages()).toEqual([{ body: message('thanks'), delay: undefined }]);
  });

  it('the timeout takes the timeout branch', async () => {
    // Prepare
    given({ steps, execution: waiting(Date.now() - 1) });

    // Act
    await runStep(message('wait'));

    // Assess
    expect(transactions()[0]![0]!.Update!.ExpressionAttributeValues).toMatchObject({ ':next': 'reminder' });
    expect(sentMessages()).toEqual([{ body: message('reminder'), delay: undefined }]);
  });

  it('the loser of a simultaneous race finds its condition failed and queues nothing', async () => {
    // Prepare: the timeout completed the step between our read and our write
    given({ steps, execution: waiting(Date.now() + 60_000) });
    ddb.on(TransactWriteCommand).rejects(conditionFailed());

    // Act
    await runStep(message('wait', { event: event(Date.now()) }));

    // Assess
    expect(transactions()).toHaveLength(1);
    expect(sentMessages()).toEqual([]);
  });

  it('an event after the timeout, or a timeout after the event won, changes nothing', async () => {
    // Prepare: the event happened after the deadline
    const now = Date.now();
    given({ steps, execution: waiting(now - 5_000) });

    // Act
    await runStep(message('wait', { event: event(now) }));

    // Assess
    expect(transactions()).toEqual([]);
    expect(sentMessages()).toEqual([]);

    // Prepare: the event won; the timer's message arrives for a step that is done
    ddb.reset();
    sqs.reset();
    given({ steps, execution: { currentStepId: 'thanks', steps: { wait: { stepId: 'wait', status: 'COMPLETED', outcome: 'EVENT' }, ...running('thanks') } } });

    // Act
    await runStep(message('wait'));

    // Assess
    expect(transactions()).toEqual([]);
    expect(updates()).toEqual([]);
    expect(sentMessages()).toEqual([]);
  });
});

describe('WEBHOOK', () => {
  it('refuses a destination that is private when the step runs (checked again at run time), retrying and then failing with the reason', async () => {
    // Prepare: a definition stored with a URL that is refused now
    const steps = [{ id: 'notify', type: 'WEBHOOK', url: 'https://10.0.0.1/hook' }];
    given({ steps, execution: { steps: running('notify') } });

    // Act
    const retried = runStep(message('notify'), 1);

    // Assess
    await expect(retried).rejects.toBeInstanceOf(RetryLater);
    await runStep(message('notify'), MAX_STEP_ATTEMPTS);
    const [ending] = transactions();
    expect(ending![0]!.Update!.ExpressionAttributeValues).toMatchObject({ ':final': 'FAILED', ':reason': expect.stringContaining('public address') });
  });
});

describe('an execution of the layout before the runs had partitions of their own', () => {
  it('is moved with its project\'s other runs when its message comes, then its step runs', async () => {
    // Prepare: the execution is not at its key yet, but at the old one; the project has no names item
    const steps = [{ id: 'end', type: 'EXIT' }];
    given({ steps });
    const legacyKey = { PK: `PROJECT#${P}`, SK: `WORKFLOW_EXECUTION#${W}#${X}` };
    const stored = { executionId: X, workflowId: W, workflowVersion: version, contactId: C, status: 'RUNNING', currentStepId: 'end', startedAt: '2026-11-23T10:00:00.000Z', trigger: { type: 'EVENT', data: {} }, steps: {} };
    ddb.on(GetCommand, { Key: executionKey }).resolvesOnce({}).resolves({ Item: { ...executionKey, ...stored } });
    ddb.on(QueryCommand, { ExpressionAttributeValues: { ':pk': `PROJECT#${P}`, ':prefix': 'WORKFLOW#' } }).resolves({ Items: [{ PK: `PROJECT#${P}`, SK: `WORKFLOW#${W}`, workflowId: W, enabled: true, trigger: { type: 'EVENT', event: 'signed_up' }, steps }] });
    ddb.on(QueryCommand, { ExpressionAttributeValues: { ':pk': `PROJECT#${P}`, ':prefix': 'WORKFLOW_EXECUTION#' } }).resolves({ Items: [{ ...legacyKey, ...stored }] });

    // Act
    await runStep(message('end'));

    // Assess: moved (put at its key, deleted at the old one), then ended by its EXIT step
    const [move, end] = transactions();
    expect(move).toEqual([
      expect.objectContaining({ Put: expect.objectContaining({ Item: expect.objectContaining({ ...executionKey, executionId: X }) }) }),
      expect.objectContaining({ Delete: expect.objectContaining({ Key: legacyKey }) }),
    ]);
    expect(end![0]!.Update).toMatchObject({ Key: executionKey, ExpressionAttributeValues: expect.objectContaining({ ':final': 'EXITED' }) });
  });
});
