import { DeleteScheduleCommand, SchedulerClient } from '@aws-sdk/client-scheduler';
import { DynamoDBDocumentClient, GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';

process.env.WORKFLOW_QUEUE_URL = 'http://localhost:9324/000000000000/workflows-test';
process.env.WORKFLOW_QUEUE_ARN = 'arn:aws:sqs:us-east-1:000000000000:workflows-test';
const { CANCEL_PAGE_SIZE, cancelDeletedWorkflowExecutions } = await import('../../../../shared/workflows/cancel');
const { parseCancelExecutionsJob } = await import('../../../../shared/workflows/cancel-job');
const { removedWorkflow } = await import('../../../../shared/workflows/removals');
const { timerName } = await import('../../../../shared/workflows/timers');

const ddb = mockClient(DynamoDBDocumentClient);
const scheduler = mockClient(SchedulerClient);
const P = 'P1';
const W = '01JWRKFW0000000000000000AA';
const C = '01JC0NTACT0000000000000000';
const job = { kind: 'cancel-executions' as const, projectId: P, workflowId: W };
const later = () => Date.now() + 60_000;
const byStatus = (status: string) => `PROJECT#${P}#WORKFLOW_EXECUTIONS#${W}#STATUS#${status}`;

const execution = (id: string, status: string, step: Record<string, unknown>) => ({
  executionId: id,
  workflowId: W,
  workflowVersion: 1,
  contactId: C,
  status,
  currentStepId: step.stepId,
  startedAt: '2026-11-23T10:00:00.000Z',
  trigger: { type: 'EVENT', data: {} },
  steps: { [step.stepId as string]: step },
});

beforeEach(() => {
  ddb.reset();
  scheduler.reset();
});

describe('cancelDeletedWorkflowExecutions (after DELETE /workflows/{id}, in the background)', () => {
  it('cancels every RUNNING and WAITING execution: the step and execution CANCELLED, the waiting entry and the wake-up schedule gone', async () => {
    // Prepare: one running, one waiting 2 days for an event
    const running = execution('X1', 'RUNNING', { stepId: 'mail', type: 'SEND_EMAIL', status: 'RUNNING', startedAt: '2026-11-23T10:00:00.000Z' });
    const waiting = execution('X2', 'WAITING', { stepId: 'wait', type: 'WAIT_FOR_EVENT', status: 'RUNNING', startedAt: '2026-11-23T10:00:00.000Z', waitUntil: '2026-11-25T10:00:00.000Z', event: 'confirmed' });
    ddb.on(QueryCommand, { ExpressionAttributeValues: { ':pk': `PROJECT#${P}#WORKFLOW_EXECUTIONS#${W}#STATUS#RUNNING` } }).resolves({ Items: [running] });
    ddb.on(QueryCommand, { ExpressionAttributeValues: { ':pk': `PROJECT#${P}#WORKFLOW_EXECUTIONS#${W}#STATUS#WAITING` } }).resolves({ Items: [waiting] });
    ddb.on(TransactWriteCommand).resolves({});
    ddb.on(GetCommand).resolves({});
    scheduler.on(DeleteScheduleCommand).resolves({});

    // Act
    const outcome = await cancelDeletedWorkflowExecutions(job, later());

    // Assess
    expect(outcome).toEqual({ status: 'DONE', cancelled: 2 });
    expect(ddb.commandCalls(QueryCommand).map((call) => call.args[0].input.IndexName)).toEqual(['GSI1', 'GSI1']);
    const [first, second] = ddb.commandCalls(TransactWriteCommand).map((call) => call.args[0].input.TransactItems!);
    expect(first![0]!.Update).toMatchObject({
      Key: { PK: `PROJECT#${P}#WORKFLOW#${W}`, SK: 'EXECUTION#X1' },
      ConditionExpression: '#status IN (:running, :waiting)',
      ExpressionAttributeValues: expect.objectContaining({ ':final': 'CANCELLED', ':reason': 'WORKFLOW_DELETED', ':byStatus': `PROJECT#${P}#WORKFLOW_EXECUTIONS#${W}#STATUS#CANCELLED` }),
    });
    expect(first).toHaveLength(2); // execution and entry guard; no notification for CANCELLED
    expect(second![2]!.Delete).toEqual({ TableName: process.env.TABLE_NAME, Key: { PK: `PROJECT#${P}#WORKFLOW_WAITS#${C}`, SK: 'WAIT#confirmed#X2' } });
    expect(scheduler.commandCalls(DeleteScheduleCommand).map((call) => call.args[0].input.Name)).toEqual([timerName('X2', 'wait')]);
  });

  it('an execution that ended meanwhile is left alone', async () => {
    // Prepare
    ddb.on(QueryCommand).resolves({ Items: [execution('X1', 'RUNNING', { stepId: 'mail', type: 'SEND_EMAIL', status: 'RUNNING', startedAt: '2026-11-23T10:00:00.000Z', waitUntil: '2026-11-25T10:00:00.000Z' })] });
    ddb.on(TransactWriteCommand).rejects(Object.assign(new Error('cancelled'), { name: 'TransactionCanceledException', CancellationReasons: [{ Code: 'ConditionalCheckFailed' }, { Code: 'None' }] }));
    ddb.on(GetCommand).resolves({});

    // Act
    const outcome = await cancelDeletedWorkflowExecutions(job, later());

    // Assess
    expect(outcome).toEqual({ status: 'DONE', cancelled: 0 });
    expect(scheduler.commandCalls(DeleteScheduleCommand)).toHaveLength(0);
  });

  it('reads a page at a time and, once its time is up, stops with the position of the next page; run again from there, it goes on where it stopped', async () => {
    // Prepare: two pages of RUNNING executions, then one WAITING; the deadline is already past
    const page1 = [execution('X1', 'RUNNING', { stepId: 'mail', type: 'SEND_EMAIL', status: 'RUNNING', startedAt: '2026-11-23T10:00:00.000Z' })];
    const page2 = [execution('X2', 'RUNNING', { stepId: 'mail', type: 'SEND_EMAIL', status: 'RUNNING', startedAt: '2026-11-23T10:00:00.000Z' })];
    const waiting = [execution('X3', 'WAITING', { stepId: 'mail', type: 'SEND_EMAIL', status: 'RUNNING', startedAt: '2026-11-23T10:00:00.000Z' })];
    const cursor = { PK: `PROJECT#${P}`, SK: `WORKFLOW_EXECUTION#${W}#X1`, GSI1PK: byStatus('RUNNING'), GSI1SK: 'X1' };
    ddb.on(GetCommand).resolves({});
    ddb.on(QueryCommand, { ExpressionAttributeValues: { ':pk': byStatus('RUNNING') } }).callsFake((input) => (input.ExclusiveStartKey ? { Items: page2 } : { Items: page1, LastEvaluatedKey: cursor }));
    ddb.on(QueryCommand, { ExpressionAttributeValues: { ':pk': byStatus('WAITING') } }).resolves({ Items: waiting });
    ddb.on(TransactWriteCommand).resolves({});

    // Act: a first run out of time after its first page, then the continuation
    const first = await cancelDeletedWorkflowExecutions(job, Date.now() - 1);
    const second = first.status === 'CONTINUE' ? await cancelDeletedWorkflowExecutions(parseCancelExecutionsJob(JSON.parse(JSON.stringify(first.next))), later()) : undefined;

    // Assess
    expect(first).toEqual({ status: 'CONTINUE', cancelled: 1, next: { ...job, status: 'RUNNING', cursor } });
    expect(second).toEqual({ status: 'DONE', cancelled: 2 });
    const queries = ddb.commandCalls(QueryCommand).map((call) => call.args[0].input);
    expect(queries.map((input) => [input.ExpressionAttributeValues![':pk'], input.ExclusiveStartKey])).toEqual([
      [byStatus('RUNNING'), undefined],
      [byStatus('RUNNING'), cursor],
      [byStatus('WAITING'), undefined],
    ]);
    for (const input of queries) expect(input.Limit).toBe(CANCEL_PAGE_SIZE);
    const cancelledKeys = ddb.commandCalls(TransactWriteCommand).map((call) => call.args[0].input.TransactItems![0]!.Update!.Key!.SK);
    expect(cancelledKeys).toEqual(['EXECUTION#X1', 'EXECUTION#X2', 'EXECUTION#X3']);
  });

  it('a job for a workflow that still exists cancels nothing (a stray or forged message)', async () => {
    // Prepare
    ddb.on(GetCommand).resolves({ Item: { workflowId: W, name: 'still here' } });

    // Act
    const outcome = await cancelDeletedWorkflowExecutions(job, later());

    // Assess
    expect(outcome).toEqual({ status: 'DONE', cancelled: 0 });
    expect(ddb.commandCalls(QueryCommand)).toHaveLength(0);
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });
});

describe('removedWorkflow (the trigger consumer: a REMOVE of a workflow item queues the job)', () => {
  it('names the workflow of a REMOVE of WORKFLOW#<id> and nothing else', () => {
    expect(removedWorkflow({ eventName: 'REMOVE', keys: { PK: `PROJECT#${P}`, SK: `WORKFLOW#${W}` } })).toEqual({ projectId: P, workflowId: W });
    expect(removedWorkflow({ eventName: 'MODIFY', keys: { PK: `PROJECT#${P}`, SK: `WORKFLOW#${W}` } })).toBeUndefined();
    expect(removedWorkflow({ eventName: 'REMOVE', keys: { PK: `PROJECT#${P}`, SK: `WORKFLOW_EXECUTION#${W}#X1` } })).toBeUndefined();
    expect(removedWorkflow({ eventName: 'REMOVE', keys: { PK: `PROJECT#${P}`, SK: `WORKFLOW_VERSION#${W}#000001` } })).toBeUndefined();
  });
});
