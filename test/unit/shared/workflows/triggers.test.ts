import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { BatchGetCommand, DynamoDBDocumentClient, GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { decodeTime, ulid } from 'ulid';

process.env.WORKFLOW_QUEUE_URL = 'http://localhost:9324/000000000000/workflows-test';
const { batchLoaders, handleOccurrence, occurrenceOf, startExecutions, wakeWaiting } = await import('../../../../shared/workflows/triggers');
const { executionIdFor } = await import('../../../../shared/workflows/executions');

const ddb = mockClient(DynamoDBDocumentClient);
const sqs = mockClient(SQSClient);

const P = 'P1';
const C = '01JC0NTACT0000000000000000';
const E = '01JEVENT0000000000000000AB';
const [WA, WB, WC, WD] = ['01JWA000000000000000000000', '01JWB000000000000000000000', '01JWC000000000000000000000', '01JWD000000000000000000000'];
const table = process.env.TABLE_NAME!;

const eventInsert = (name: string, data: Record<string, unknown> = {}) => ({
  eventName: 'INSERT' as const,
  keys: { PK: `PROJECT#${P}`, SK: `EVENT#${E}` },
  newImage: { eventId: E, name, contactId: C, data, createdAt: new Date(decodeTime(E)).toISOString() },
});

/** The step messages queued, in order; each call a SendMessageBatch of up to ten. */
const sent = () => sqs.commandCalls(SendMessageBatchCommand).flatMap((call) => call.args[0].input.Entries!.map((entry) => JSON.parse(entry.MessageBody!)));

beforeEach(() => {
  ddb.reset();
  sqs.reset();
  sqs.on(SendMessageBatchCommand).resolves({ Failed: [] });
});

describe('occurrenceOf', () => {
  it('reads custom events, segment events and contact creations; ignores the rest', () => {
    expect(occurrenceOf(eventInsert('signed_up', { plan: 'pro' }))).toMatchObject({ projectId: P, contactId: C, kind: 'EVENT', target: 'signed_up', seed: E, trigger: { type: 'EVENT', event: 'signed_up', eventId: E, data: { plan: 'pro' } } });
    expect(occurrenceOf(eventInsert('segment.entered', { segmentId: 'S1', segmentName: 'Pro' }))).toMatchObject({ kind: 'SEGMENT_ENTERED', target: 'S1' });
    expect(occurrenceOf(eventInsert('segment.exited', { segmentId: 'S1' }))).toMatchObject({ kind: 'SEGMENT_EXITED', target: 'S1' });
    expect(occurrenceOf({ eventName: 'INSERT', keys: { PK: `PROJECT#${P}`, SK: `CONTACT#${C}` }, newImage: { contactId: C } })).toMatchObject({ kind: 'CONTACT_CREATED', target: '-', seed: C });
    expect(occurrenceOf({ ...eventInsert('x'), eventName: 'MODIFY' })).toBeUndefined();
    expect(occurrenceOf({ eventName: 'INSERT', keys: { PK: `PROJECT#${P}`, SK: 'CONTACT_EMAIL#a@b.c' }, newImage: {} })).toBeUndefined();
  });

  it('ignores items in partitions that extend the project\'s (a campaign\'s recipients), whatever their sort key', () => {
    const recipient = { eventName: 'INSERT' as const, keys: { PK: `PROJECT#${P}#CAMPAIGN#X#ABREST`, SK: `CONTACT#${C}` }, newImage: { recipient: { id: C } } };

    expect(occurrenceOf(recipient)).toBeUndefined();
  });
});

describe('startExecutions', () => {
  const occurrence = occurrenceOf(eventInsert('signed_up'))!;
  const executionOf = (workflowId: string) => executionIdFor(workflowId, E, decodeTime(E));

  function given(guards: Record<string, unknown>[]) {
    ddb.on(GetCommand, { Key: { PK: `PROJECT#${P}`, SK: 'WORKFLOW_TRIGGER#EVENT#signed_up' } }).resolves({
      Item: {
        PK: `PROJECT#${P}`,
        SK: 'WORKFLOW_TRIGGER#EVENT#signed_up',
        [`w_${WA}`]: { version: 1, allowReentry: false },
        [`w_${WB}`]: { version: 2, allowReentry: false },
        [`w_${WC}`]: { version: 1, allowReentry: true },
        [`w_${WD}`]: { version: 4, allowReentry: true },
      },
    });
    for (const [workflowId, version] of [[WA, 1], [WB, 2], [WC, 1], [WD, 4]] as const) {
      ddb.on(GetCommand, { Key: { PK: `PROJECT#${P}`, SK: `WORKFLOW_VERSION#${workflowId}#${String(version).padStart(6, '0')}` } }).resolves({ Item: { steps: [{ id: `first-${workflowId}`, type: 'EXIT' }] } });
    }
    ddb.on(BatchGetCommand).resolves({ Responses: { [table]: guards } });
    ddb.on(TransactWriteCommand).resolves({});
    ddb.on(UpdateCommand).resolves({});
  }

  it('reads the trigger index once and the guards in one batch; enters only who may, all in one transaction', async () => {
    // Prepare: B was entered before (no reentry); C has an execution running; D ended its previous one (reentry allowed)
    given([
      { workflowId: WB },
      { workflowId: WC, activeExecutionId: 'OTHER' },
      { workflowId: WD },
    ]);

    // Act
    const entered = await startExecutions(occurrence);

    // Assess
    expect(entered).toBe(2);
    expect(ddb.commandCalls(GetCommand).filter((call) => String(call.args[0].input.Key!.SK).startsWith('WORKFLOW_TRIGGER#'))).toHaveLength(1);
    expect(ddb.commandCalls(BatchGetCommand)[0]!.args[0].input.RequestItems![table]!.Keys).toHaveLength(4);
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(1);
    const items = ddb.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!;
    expect(items.filter((item) => item.Put).map((item) => item.Put!.Item!.workflowId)).toEqual([WA, WD]);
    expect(items[0]!.Put).toMatchObject({
      ConditionExpression: 'attribute_not_exists(PK)',
      Item: { PK: `PROJECT#${P}#WORKFLOW#${WA}`, SK: `EXECUTION#${executionOf(WA)}`, executionId: executionOf(WA), workflowVersion: 1, contactId: C, status: 'RUNNING', currentStepId: `first-${WA}`, steps: { [`first-${WA}`]: { stepId: `first-${WA}`, type: 'EXIT', status: 'RUNNING', startedAt: new Date(decodeTime(E)).toISOString() } }, GSI1PK: `PROJECT#${P}#WORKFLOW_EXECUTIONS#${WA}#STATUS#RUNNING` },
    });
    expect(items[1]!.Update).toMatchObject({ Key: { PK: `PROJECT#${P}#WORKFLOW#${WA}`, SK: `ENTRY#${C}` }, ConditionExpression: 'attribute_not_exists(PK)' });
    expect(items[3]!.Update).toMatchObject({ Key: { PK: `PROJECT#${P}#WORKFLOW#${WD}`, SK: `ENTRY#${C}` }, ConditionExpression: 'attribute_not_exists(activeExecutionId)' });
    expect(sent()).toEqual([
      { projectId: P, workflowId: WA, executionId: executionOf(WA), stepId: `first-${WA}` },
      { projectId: P, workflowId: WD, executionId: executionOf(WD), stepId: `first-${WD}` },
    ]);
    // One SendMessageBatch for the occurrence's first steps, after the entries.
    expect(sqs.commandCalls(SendMessageBatchCommand)).toHaveLength(1);
    // Execution ids carry the trigger's time.
    expect(decodeTime(executionOf(WA))).toBe(decodeTime(E));
  });

  it('an entry whose condition fails is answered, and the others are written again without it', async () => {
    // Prepare: no guards read; B's guard is taken by another event between the read and the write,
    // and C's execution exists already (a redelivery whose guard read came first).
    given([]);
    const conditionFailed = (codes: string[]) => Object.assign(new Error('cancelled'), { name: 'TransactionCanceledException', CancellationReasons: codes.map((Code) => ({ Code })) });
    ddb.on(TransactWriteCommand)
      .rejectsOnce(conditionFailed(['None', 'None', 'None', 'ConditionalCheckFailed', 'ConditionalCheckFailed', 'None', 'None', 'None']))
      .resolves({});

    // Act
    const entered = await startExecutions(occurrence);

    // Assess
    const writes = ddb.commandCalls(TransactWriteCommand).map((call) => call.args[0].input.TransactItems!.filter((item) => item.Put).map((item) => item.Put!.Item!.workflowId));
    expect(writes).toEqual([
      [WA, WB, WC, WD],
      [WA, WD],
    ]);
    expect(entered).toBe(2);
    expect(sent().map((message) => message.workflowId)).toEqual([WA, WC, WD]);
  });

  it('splits the entries of an event with large data into transactions DynamoDB takes (4 MB at most)', async () => {
    // Prepare: every execution carries the event's data, here about 1 MB
    given([]);
    const large = occurrenceOf(eventInsert('signed_up', { notes: 'x'.repeat(1_000_000) }))!;

    // Act
    const entered = await startExecutions(large);

    // Assess
    const transactions = ddb.commandCalls(TransactWriteCommand).map((call) => call.args[0].input.TransactItems!);
    expect(entered).toBe(4);
    expect(transactions.length).toBeGreaterThan(1);
    for (const items of transactions) expect(Buffer.byteLength(JSON.stringify(items))).toBeLessThan(4_000_000);
    expect(transactions.flat().filter((item) => item.Put).map((item) => item.Put!.Item!.workflowId)).toEqual([WA, WB, WC, WD]);
  });

  it('a redelivered record re-sends the first step of the execution it made, and makes no second one', async () => {
    // Prepare: A's guard is held by the execution this very event made
    given([{ workflowId: WA, activeExecutionId: executionOf(WA) }, { workflowId: WB }, { workflowId: WC, activeExecutionId: 'OTHER' }, { workflowId: WD, activeExecutionId: executionOf(WD) }]);

    // Act
    const entered = await startExecutions(occurrence);

    // Assess
    expect(entered).toBe(0);
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
    expect(sent().map((message) => message.workflowId)).toEqual([WA, WD]);
  });

  it('an occurrence from before a workflow was listed (enabled) under its trigger starts nothing in it', async () => {
    // Prepare: A was enabled a millisecond after the event; B when it happened
    given([]);
    ddb.on(GetCommand, { Key: { PK: `PROJECT#${P}`, SK: 'WORKFLOW_TRIGGER#EVENT#signed_up' } }).resolves({
      Item: { [`w_${WA}`]: { version: 1, allowReentry: false, since: decodeTime(E) + 1 }, [`w_${WB}`]: { version: 2, allowReentry: false, since: decodeTime(E) } },
    });

    // Act
    const entered = await startExecutions(occurrence);

    // Assess
    expect(entered).toBe(1);
    expect(ddb.commandCalls(TransactWriteCommand).map((call) => call.args[0].input.TransactItems!.filter((item) => item.Put).map((item) => item.Put!.Item!.workflowId))).toEqual([[WB]]);
    expect(sent().map((message) => message.workflowId)).toEqual([WB]);
  });

  it('a lost race for the guard (another event entered first) starts nothing', async () => {
    // Prepare
    given([]);
    const refusedAll = ['None', 'ConditionalCheckFailed', 'None', 'ConditionalCheckFailed', 'None', 'ConditionalCheckFailed', 'None', 'ConditionalCheckFailed'].map((Code) => ({ Code }));
    ddb.on(TransactWriteCommand).rejects(Object.assign(new Error('cancelled'), { name: 'TransactionCanceledException', CancellationReasons: refusedAll }));

    // Act
    const entered = await startExecutions(occurrence);

    // Assess
    expect(entered).toBe(0);
    expect(sent()).toEqual([]);
  });
});

describe('batchLoaders', () => {
  it('reads a trigger\'s index item once for a batch\'s events of that name, and again after a failed read', async () => {
    // Prepare: two contacts' "signed_up" in one batch, then a "paid"; the first read of "paid" fails
    const index = { PK: `PROJECT#${P}`, SK: 'WORKFLOW_TRIGGER#EVENT#signed_up' };
    ddb.on(GetCommand).resolves({});
    ddb.on(GetCommand, { Key: index }).resolves({ Item: { ...index, [`w_${WA}`]: { version: 1, allowReentry: false } } });
    ddb.on(GetCommand, { Key: { PK: `PROJECT#${P}`, SK: 'WORKFLOW_TRIGGER#EVENT#paid' } }).rejectsOnce(new Error('throttled')).resolves({});
    const { triggersOf } = batchLoaders();

    // Act
    const [first, second] = await Promise.all([triggersOf(P, 'EVENT', 'signed_up'), triggersOf(P, 'EVENT', 'signed_up')]);
    const failed = await triggersOf(P, 'EVENT', 'paid').catch((error: Error) => error.message);
    const retried = await triggersOf(P, 'EVENT', 'paid');

    // Assess
    expect(first).toEqual([{ workflowId: WA, version: 1, allowReentry: false }]);
    expect(second).toBe(first);
    expect(failed).toBe('throttled');
    expect(retried).toEqual([]);
    const reads = ddb.commandCalls(GetCommand).map((call) => call.args[0].input.Key!.SK);
    expect(reads).toEqual(['WORKFLOW_TRIGGER#EVENT#signed_up', 'WORKFLOW_TRIGGER#EVENT#paid', 'WORKFLOW_TRIGGER#EVENT#paid']);
  });
});

describe('startExecutions, a first step that waits', () => {
  /** An event of a moment ago, and workflows whose versions (numbered apart from the other tests': versions are cached) start with these steps. */
  function givenFirstSteps(firsts: { workflowId: string; version: number; steps: Record<string, unknown>[] }[]) {
    const eventId = ulid();
    const occurrence = occurrenceOf({
      eventName: 'INSERT',
      keys: { PK: `PROJECT#${P}`, SK: `EVENT#${eventId}` },
      newImage: { eventId, name: 'trial_started', contactId: C, data: {}, createdAt: new Date(decodeTime(eventId)).toISOString() },
    })!;
    ddb.on(GetCommand, { Key: { PK: `PROJECT#${P}`, SK: 'WORKFLOW_TRIGGER#EVENT#trial_started' } }).resolves({
      Item: Object.fromEntries(firsts.map(({ workflowId, version }) => [`w_${workflowId}`, { version, allowReentry: false }])),
    });
    for (const { workflowId, version, steps } of firsts) {
      ddb.on(GetCommand, { Key: { PK: `PROJECT#${P}`, SK: `WORKFLOW_VERSION#${workflowId}#${String(version).padStart(6, '0')}` } }).resolves({ Item: { steps } });
    }
    ddb.on(BatchGetCommand).resolves({ Responses: { [table]: [] } });
    ddb.on(TransactWriteCommand).resolves({});
    ddb.on(UpdateCommand).resolves({});
    return { occurrence, at: decodeTime(eventId), executionOf: (workflowId: string) => executionIdFor(workflowId, eventId, decodeTime(eventId)) };
  }
  const delayFirst = [
    { id: 'pause', type: 'DELAY', amount: 5, unit: 'minutes', next: 'end' },
    { id: 'end', type: 'EXIT' },
  ];
  const waitFirst = [
    { id: 'listen', type: 'WAIT_FOR_EVENT', event: 'confirmed', timeoutSeconds: 600, next: 'end' },
    { id: 'end', type: 'EXIT' },
  ];

  it('enters a first DELAY already waiting from the trigger\'s time: no runner call until its wake, which SQS delays to the wait\'s end', async () => {
    // Prepare
    const { occurrence, at, executionOf } = givenFirstSteps([{ workflowId: WA, version: 101, steps: delayFirst }]);

    // Act
    const entered = await startExecutions(occurrence);

    // Assess: the execution WAITING at its first step, started and ending as the trigger's time says
    expect(entered).toBe(1);
    const execution = ddb.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems![0]!.Put!.Item!;
    expect(execution).toMatchObject({ status: 'WAITING', currentStepId: 'pause', GSI1PK: `PROJECT#${P}#WORKFLOW_EXECUTIONS#${WA}#STATUS#WAITING` });
    expect(execution.steps).toEqual({ pause: { stepId: 'pause', type: 'DELAY', status: 'RUNNING', startedAt: new Date(at).toISOString(), waitUntil: new Date(at + 300_000).toISOString() } });
    // its one message is the wake, about five minutes on
    const entries = sqs.commandCalls(SendMessageBatchCommand).flatMap((call) => call.args[0].input.Entries!);
    expect(entries.map((entry) => JSON.parse(entry.MessageBody!))).toEqual([{ projectId: P, workflowId: WA, executionId: executionOf(WA), stepId: 'pause' }]);
    expect(entries[0]!.DelaySeconds).toBeGreaterThanOrEqual(298);
    expect(entries[0]!.DelaySeconds).toBeLessThanOrEqual(300);
    // the step's entry is counted with the workflow's, from the table stream: the execution carries both, and no figure is updated here
    expect(execution.tally).toEqual({ entered: 1, 'step#pause#entered': 1 });
    expect(ddb.commandCalls(UpdateCommand).map((call) => call.args[0].input.Key)).not.toContainEqual({ PK: `PROJECT#${P}#WORKFLOW#${WA}`, SK: 'FIGURES' });
  });

  it('enters a first WAIT_FOR_EVENT listening (its waiting item in the transaction) and answers each entry by its own items', async () => {
    // Prepare: B (an EXIT first, two items) is taken by another event between the read and the write, after A's three items
    const { occurrence, executionOf } = givenFirstSteps([
      { workflowId: WA, version: 102, steps: waitFirst },
      { workflowId: WB, version: 102, steps: [{ id: 'end', type: 'EXIT' }] },
    ]);
    const refused = Object.assign(new Error('cancelled'), { name: 'TransactionCanceledException', CancellationReasons: ['None', 'None', 'None', 'None', 'ConditionalCheckFailed'].map((Code) => ({ Code })) });
    ddb.on(TransactWriteCommand).rejectsOnce(refused).resolves({});

    // Act
    const entered = await startExecutions(occurrence);

    // Assess: A written again alone, with its listening item; B not entered and not queued
    const [first, again] = ddb.commandCalls(TransactWriteCommand).map((call) => call.args[0].input.TransactItems!);
    expect(first).toHaveLength(5);
    expect(again).toHaveLength(3);
    expect(again![0]!.Put!.Item).toMatchObject({ workflowId: WA, status: 'WAITING', steps: { listen: { status: 'RUNNING', event: 'confirmed' } } });
    expect(again![2]!.Put!.Item).toMatchObject({ PK: `PROJECT#${P}#WORKFLOW_WAITS#${C}`, SK: `WAIT#confirmed#${executionOf(WA)}`, workflowId: WA, executionId: executionOf(WA), stepId: 'listen' });
    expect(entered).toBe(1);
    expect(sent().map((message) => message.workflowId)).toEqual([WA]);
  });
});

describe('wakeWaiting', () => {
  it('does not wake an execution with the very event that started it', async () => {
    // Prepare: A waits for "confirmed" since that event entered it; B has waited since before
    const occurrence = occurrenceOf(eventInsert('confirmed'))!;
    ddb.on(QueryCommand).resolves({ Items: [{ workflowId: WA, executionId: executionIdFor(WA, E, decodeTime(E)), stepId: 'listen' }, { workflowId: WB, executionId: 'X1', stepId: 'listen' }] });

    // Act
    const woken = await wakeWaiting(occurrence);

    // Assess
    expect(woken).toBe(1);
    expect(sent().map((message) => message.executionId)).toEqual(['X1']);
  });

  it('queries the waiting index by contact and event name and wakes each with the event', async () => {
    // Prepare
    ddb.on(QueryCommand).resolves({ Items: [{ workflowId: WA, executionId: 'X1', stepId: 'wait' }] });
    const occurrence = occurrenceOf(eventInsert('confirmed'))!;

    // Act
    const woken = await wakeWaiting(occurrence);

    // Assess
    expect(woken).toBe(1);
    expect(ddb.commandCalls(QueryCommand)[0]!.args[0].input).toMatchObject({
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': `PROJECT#${P}#WORKFLOW_WAITS#${C}`, ':prefix': 'WAIT#confirmed#' },
      ConsistentRead: true,
    });
    expect(sent()).toEqual([{ projectId: P, workflowId: WA, executionId: 'X1', stepId: 'wait', event: { id: E, name: 'confirmed', createdAt: occurrence.event!.createdAt } }]);
  });
});

describe('handleOccurrence', () => {
  const names = { PK: `PROJECT#${P}`, SK: 'WORKFLOW_NAMES' };
  const lookups = () => ({
    indexReads: ddb.commandCalls(GetCommand).filter((call) => String(call.args[0].input.Key!.SK).startsWith('WORKFLOW_TRIGGER#')).length,
    waitQueries: ddb.commandCalls(QueryCommand).filter((call) => String(call.args[0].input.ExpressionAttributeValues![':pk']).includes('#WORKFLOW_WAITS#')).length,
  });

  beforeEach(() => {
    ddb.on(GetCommand).resolves({});
    ddb.on(QueryCommand).resolves({ Items: [] });
  });

  it('looks for nothing of an event no workflow is about, and reads the names once for the batch', async () => {
    // Prepare: workflows start on "paid" and wait for "confirmed"
    ddb.on(GetCommand, { Key: names }).resolves({ Item: { ...names, updatedAt: 'x', 'trigger#EVENT#paid': new Set([WA]), 'wait#confirmed': new Set([WB]) } });
    const loaders = batchLoaders();

    // Act: three events of other names in one batch
    for (const name of ['page_viewed', 'signed_up', 'page_viewed']) await handleOccurrence(occurrenceOf(eventInsert(name))!, loaders);

    // Assess
    expect(lookups()).toEqual({ indexReads: 0, waitQueries: 0 });
    expect(ddb.commandCalls(GetCommand).filter((call) => call.args[0].input.Key!.SK === 'WORKFLOW_NAMES')).toHaveLength(1);
  });

  it('reads the trigger index of a listed trigger and queries the waits of an awaited name', async () => {
    // Prepare
    ddb.on(GetCommand, { Key: names }).resolves({ Item: { ...names, updatedAt: 'x', 'trigger#EVENT#paid': new Set([WA]), 'wait#confirmed': new Set([WB]) } });
    const loaders = batchLoaders();

    // Act
    await handleOccurrence(occurrenceOf(eventInsert('paid'))!, loaders);
    const afterPaid = lookups();
    await handleOccurrence(occurrenceOf(eventInsert('confirmed'))!, loaders);

    // Assess
    expect(afterPaid).toEqual({ indexReads: 1, waitQueries: 0 });
    expect(lookups()).toEqual({ indexReads: 1, waitQueries: 1 });
  });

  it('a project without the names item and without workflows is looked into once per batch, and nothing is looked for', async () => {
    // Prepare
    const loaders = batchLoaders();

    // Act
    for (const name of ['paid', 'confirmed']) await handleOccurrence(occurrenceOf(eventInsert(name))!, loaders);

    // Assess: its names item and its workflows read once, nothing written
    expect(lookups()).toEqual({ indexReads: 0, waitQueries: 0 });
    expect(ddb.commandCalls(GetCommand)).toHaveLength(1);
    expect(ddb.commandCalls(QueryCommand)).toHaveLength(1);
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
    expect(ddb.commandCalls(UpdateCommand)).toHaveLength(0);
  });
});
