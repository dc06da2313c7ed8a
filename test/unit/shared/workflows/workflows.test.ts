import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';

process.env.WORKFLOW_QUEUE_URL = 'http://localhost:9324/000000000000/workflows-test';
process.env.WORKFLOW_QUEUE_ARN = 'arn:aws:sqs:us-east-1:000000000000:workflows-test';
const { workflowStepStats } = await import('../../../../shared/workflows/workflows');

const ddb = mockClient(DynamoDBDocumentClient);
const P = 'P1';
const W = '01JD000000000000000000WF01';

const workflowItem = {
  PK: `PROJECT#${P}`,
  SK: `WORKFLOW#${W}`,
  workflowId: W,
  name: 'Onboarding',
  enabled: true,
  trigger: { type: 'EVENT', event: 'signed_up' },
  allowReentry: false,
  version: 2,
  steps: [
    { id: 'wait', type: 'WAIT_FOR_EVENT', event: 'paid', timeoutSeconds: 60, next: 'plan', timeoutNext: 'plan' },
    { id: 'plan', type: 'CONDITION', filters: { operator: 'AND', conditions: [] }, then: 'bye', else: 'bye' },
    { id: 'bye', type: 'SEND_EMAIL', templateId: '01JD000000000000000000TPL1' },
  ],
  createdAt: '2026-11-25T10:00:00.000Z',
  updatedAt: '2026-11-25T10:00:00.000Z',
};

beforeEach(() => {
  ddb.reset();
});

describe('workflowStepStats', () => {
  it('gives each step of the current version its figures, active as entered less those that left, and the branches of conditions and waits', async () => {
    // Prepare
    ddb.on(GetCommand, { Key: { PK: `PROJECT#${P}`, SK: `WORKFLOW#${W}` } }).resolves({ Item: workflowItem });
    ddb.on(GetCommand, { Key: { PK: `PROJECT#${P}#WORKFLOW#${W}`, SK: 'FIGURES' } }).resolves({
      Item: {
        entered: 10, completed: 4, failed: 1, cancelled: 1,
        'step#wait#entered': 10, 'step#wait#completed': 7, 'step#wait#cancelled': 1, 'step#wait#event': 5, 'step#wait#timeout': 2,
        'step#plan#entered': 7, 'step#plan#completed': 6, 'step#plan#then': 6,
        'step#bye#entered': 6, 'step#bye#completed': 4, 'step#bye#failed': 1,
      },
    });

    // Act
    const stats = await workflowStepStats(P, W);

    // Assess
    expect(stats).toEqual({
      entered: 10, active: 4, completed: 4, exited: 0, failed: 1, cancelled: 1,
      steps: [
        { stepId: 'wait', type: 'WAIT_FOR_EVENT', entered: 10, active: 2, completed: 7, failed: 0, cancelled: 1, branches: { event: 5, timeout: 2 } },
        { stepId: 'plan', type: 'CONDITION', entered: 7, active: 1, completed: 6, failed: 0, cancelled: 0, branches: { then: 6, else: 0 } },
        { stepId: 'bye', type: 'SEND_EMAIL', entered: 6, active: 1, completed: 4, failed: 1, cancelled: 0, branches: null },
      ],
    });
  });

  it('answers 404 for a workflow that does not exist', async () => {
    // Prepare
    ddb.on(GetCommand).resolves({});

    // Act / Assess
    await expect(workflowStepStats(P, W)).rejects.toMatchObject({ statusCode: 404 });
  });
});
