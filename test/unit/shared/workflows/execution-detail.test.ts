import { DynamoDBDocumentClient, GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';

// The cancel path reaches the workflow queue's and the scheduler's modules, which read these at import.
process.env.WORKFLOW_QUEUE_URL = 'http://localhost:9324/000000000000/workflows-test';
process.env.WORKFLOW_QUEUE_ARN = 'arn:aws:sqs:us-east-1:000000000000:workflows-test';
const { cancelExecutionOnRequest, getExecutionDetail } = await import('../../../../shared/workflows/execution-detail');

const ddb = mockClient(DynamoDBDocumentClient);
const P = 'P1';
const W = '01JD000000000000000000WF01';
const E = '01JD000000000000000000EX01';

const executionItem = (fields: Record<string, unknown> = {}) => ({
  PK: `PROJECT#${P}#WORKFLOW#${W}`,
  SK: `EXECUTION#${E}`,
  executionId: E,
  workflowId: W,
  workflowVersion: 1,
  contactId: '01JD000000000000000000C0N1',
  status: 'WAITING',
  currentStepId: 'wait',
  startedAt: '2026-11-25T10:00:00.000Z',
  trigger: { type: 'EVENT', event: 'signed_up', data: {} },
  steps: {
    wait: { stepId: 'wait', type: 'WAIT_FOR_EVENT', status: 'RUNNING', startedAt: '2026-11-25T10:00:01.000Z', event: 'paid', waitUntil: '2026-11-25T11:00:01.000Z' },
    hello: { stepId: 'hello', type: 'SEND_EMAIL', status: 'COMPLETED', startedAt: '2026-11-25T10:00:00.000Z', completedAt: '2026-11-25T10:00:00.500Z', outcome: 'EMAIL_QUEUED', emailId: '01JD000000000000000000EM01' },
  },
  ...fields,
});

beforeEach(() => {
  ddb.reset();
});

describe('getExecutionDetail', () => {
  it('lists the steps in the order they were entered, the current one without leftAt', async () => {
    // Prepare
    ddb.on(GetCommand).resolves({ Item: executionItem() });

    // Act
    const detail = await getExecutionDetail(P, W, E);

    // Assess
    expect(detail.path).toEqual([
      { stepId: 'hello', type: 'SEND_EMAIL', enteredAt: '2026-11-25T10:00:00.000Z', leftAt: '2026-11-25T10:00:00.500Z', outcome: 'EMAIL_QUEUED', emailId: '01JD000000000000000000EM01', error: null },
      { stepId: 'wait', type: 'WAIT_FOR_EVENT', enteredAt: '2026-11-25T10:00:01.000Z', leftAt: null, outcome: null, emailId: null, error: null },
    ]);
    expect(detail).not.toHaveProperty('trigger');
  });

  it('answers 404 for an unknown execution and for an id that is not one, without reading the latter', async () => {
    // Prepare
    ddb.on(GetCommand).resolves({});

    // Act / Assess
    await expect(getExecutionDetail(P, W, E)).rejects.toMatchObject({ statusCode: 404 });
    await expect(getExecutionDetail(P, W, 'not-an-id')).rejects.toMatchObject({ statusCode: 404 });
    expect(ddb.commandCalls(GetCommand)).toHaveLength(1);
  });
});

describe('cancelExecutionOnRequest', () => {
  it('answers a cancelled execution again without writing anything', async () => {
    // Prepare
    ddb.on(GetCommand).resolves({ Item: executionItem({ status: 'CANCELLED', exitReason: 'CANCELLED_BY_REQUEST' }) });

    // Act
    const detail = await cancelExecutionOnRequest(P, W, E);

    // Assess
    expect(detail.status).toBe('CANCELLED');
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it.each(['COMPLETED', 'EXITED', 'FAILED'])('refuses a %s execution with 409 EXECUTION_FINISHED', async (status) => {
    // Prepare
    ddb.on(GetCommand).resolves({ Item: executionItem({ status }) });

    // Act / Assess
    await expect(cancelExecutionOnRequest(P, W, E)).rejects.toMatchObject({ statusCode: 409, code: 'EXECUTION_FINISHED' });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });
});
