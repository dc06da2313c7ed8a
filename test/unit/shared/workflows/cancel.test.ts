import { DeleteScheduleCommand, SchedulerClient } from '@aws-sdk/client-scheduler';
import { DynamoDBDocumentClient, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';

process.env.WORKFLOW_QUEUE_URL = 'http://localhost:9324/000000000000/workflows-test';
process.env.WORKFLOW_QUEUE_ARN = 'arn:aws:sqs:us-east-1:000000000000:workflows-test';
const { cancelActiveExecutions } = await import('../../../../shared/workflows/cancel');
const { timerName } = await import('../../../../shared/workflows/timers');

const ddb = mockClient(DynamoDBDocumentClient);
const scheduler = mockClient(SchedulerClient);
const P = 'P1';
const W = '01JWRKFW0000000000000000AA';
const C = '01JC0NTACT0000000000000000';

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

describe('cancelActiveExecutions (DELETE /workflows/{id})', () => {
  it('cancels every RUNNING and WAITING execution: the step and execution CANCELLED, the waiting entry and the wake-up schedule gone', async () => {
    // Prepare: one running, one waiting 2 days for an event
    const running = execution('X1', 'RUNNING', { stepId: 'mail', type: 'SEND_EMAIL', status: 'RUNNING', startedAt: '2026-11-23T10:00:00.000Z' });
    const waiting = execution('X2', 'WAITING', { stepId: 'wait', type: 'WAIT_FOR_EVENT', status: 'RUNNING', startedAt: '2026-11-23T10:00:00.000Z', waitUntil: '2026-11-25T10:00:00.000Z', event: 'confirmed' });
    ddb.on(QueryCommand, { ExpressionAttributeValues: { ':pk': `PROJECT#${P}#WORKFLOW_EXECUTIONS#${W}#STATUS#RUNNING` } }).resolves({ Items: [running] });
    ddb.on(QueryCommand, { ExpressionAttributeValues: { ':pk': `PROJECT#${P}#WORKFLOW_EXECUTIONS#${W}#STATUS#WAITING` } }).resolves({ Items: [waiting] });
    ddb.on(TransactWriteCommand).resolves({});
    scheduler.on(DeleteScheduleCommand).resolves({});

    // Act
    const cancelled = await cancelActiveExecutions(P, W);

    // Assess
    expect(cancelled).toBe(2);
    expect(ddb.commandCalls(QueryCommand).map((call) => call.args[0].input.IndexName)).toEqual(['GSI1', 'GSI1']);
    const [first, second] = ddb.commandCalls(TransactWriteCommand).map((call) => call.args[0].input.TransactItems!);
    expect(first![0]!.Update).toMatchObject({
      Key: { PK: `PROJECT#${P}`, SK: `WORKFLOW_EXECUTION#${W}#X1` },
      ConditionExpression: '#status IN (:running, :waiting)',
      ExpressionAttributeValues: expect.objectContaining({ ':final': 'CANCELLED', ':reason': 'WORKFLOW_DELETED', ':byStatus': `PROJECT#${P}#WORKFLOW_EXECUTIONS#${W}#STATUS#CANCELLED` }),
    });
    expect(first).toHaveLength(2); // execution and entry guard; no notification for CANCELLED
    expect(second![2]!.Delete).toEqual({ TableName: process.env.TABLE_NAME, Key: { PK: `PROJECT#${P}`, SK: `WORKFLOW_WAIT#${C}#confirmed#X2` } });
    expect(scheduler.commandCalls(DeleteScheduleCommand).map((call) => call.args[0].input.Name)).toEqual([timerName('X2', 'wait')]);
  });

  it('an execution that ended meanwhile is left alone', async () => {
    // Prepare
    ddb.on(QueryCommand).resolves({ Items: [execution('X1', 'RUNNING', { stepId: 'mail', type: 'SEND_EMAIL', status: 'RUNNING', startedAt: '2026-11-23T10:00:00.000Z', waitUntil: '2026-11-25T10:00:00.000Z' })] });
    ddb.on(TransactWriteCommand).rejects(Object.assign(new Error('cancelled'), { name: 'TransactionCanceledException', CancellationReasons: [{ Code: 'ConditionalCheckFailed' }, { Code: 'None' }] }));

    // Act
    const cancelled = await cancelActiveExecutions(P, W);

    // Assess
    expect(cancelled).toBe(0);
    expect(scheduler.commandCalls(DeleteScheduleCommand)).toHaveLength(0);
  });
});
