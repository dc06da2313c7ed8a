import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { FakeTable } from '../../../support/fake-table';

process.env.WORKFLOW_QUEUE_URL = 'http://localhost:9324/000000000000/workflows-test';
const { upgradeRuntimeLayout } = await import('../../../../shared/workflows/layout-upgrade');
const { projectWorkflowNames } = await import('../../../../shared/workflows/triggers');

const ddb = mockClient(DynamoDBDocumentClient);
let table: FakeTable;

const P = 'P1';
const W = '01JWA000000000000000000000';
const C = '01JC0NTACT0000000000000000';
const X = '01JX0000000000000000000000';
const project = `PROJECT#${P}`;
const runs = `PROJECT#${P}#WORKFLOW#${W}`;

/** A project whose workflow ran before its runs had partitions of their own: the items as that layout wrote them. */
function givenLegacyProject() {
  const put = (item: Record<string, unknown>) => table.items.set(`${String(item.PK)}|${String(item.SK)}`, item);
  put({
    PK: project,
    SK: `WORKFLOW#${W}`,
    workflowId: W,
    name: 'Onboarding',
    enabled: true,
    trigger: { type: 'EVENT', event: 'signed_up' },
    allowReentry: false,
    version: 2,
    // The current version waits for "activated"; the running execution (version 1) for "confirmed".
    steps: [{ id: 'wait', type: 'WAIT_FOR_EVENT', event: 'activated', timeoutSeconds: 600 }],
  });
  put({ PK: project, SK: `WORKFLOW_VERSION#${W}#000001`, workflowId: W, version: 1, steps: [{ id: 'wait', type: 'WAIT_FOR_EVENT', event: 'confirmed', timeoutSeconds: 600 }] });
  put({ PK: project, SK: `WORKFLOW_VERSION#${W}#000002`, workflowId: W, version: 2, steps: [{ id: 'wait', type: 'WAIT_FOR_EVENT', event: 'activated', timeoutSeconds: 600 }] });
  // A deleted workflow's version stays, and names nothing.
  put({ PK: project, SK: 'WORKFLOW_VERSION#GONE#000001', workflowId: 'GONE', version: 1, steps: [{ id: 'wait', type: 'WAIT_FOR_EVENT', event: 'deleted_wait', timeoutSeconds: 600 }] });
  put({ PK: project, SK: `WORKFLOW_ENTRY#${W}#${C}`, workflowId: W, contactId: C, activeExecutionId: X, entries: 1 });
  put({ PK: project, SK: `WORKFLOW_EXECUTION#${W}#${X}`, executionId: X, workflowId: W, contactId: C, status: 'WAITING', GSI1PK: `${project}#WORKFLOW_EXECUTIONS#${W}#STATUS#WAITING`, GSI1SK: X });
  put({ PK: project, SK: `WORKFLOW_WAIT#${C}#confirmed#${X}`, workflowId: W, executionId: X, contactId: C, stepId: 'wait', event: 'confirmed' });
  put({ PK: project, SK: `STATS#workflow#${W}`, entered: 3, completed: 2, 'step#wait#entered': 3, sent: 5 });
}

beforeEach(() => {
  ddb.reset();
  table = new FakeTable(ddb);
});

describe('upgradeRuntimeLayout', () => {
  it('moves a project\'s entries, executions, waits and figures to their partitions, then writes its names item', async () => {
    // Prepare
    givenLegacyProject();

    // Act
    const upgraded = await upgradeRuntimeLayout(P);

    // Assess: every item at its new key with its attributes, none at the old
    expect(upgraded).toBe(true);
    const item = (pk: string, sk: string) => table.items.get(`${pk}|${sk}`);
    expect(item(runs, `ENTRY#${C}`)).toMatchObject({ activeExecutionId: X, entries: 1 });
    expect(item(runs, `EXECUTION#${X}`)).toMatchObject({ status: 'WAITING', GSI1PK: `${project}#WORKFLOW_EXECUTIONS#${W}#STATUS#WAITING` });
    expect(item(`${project}#WORKFLOW_WAITS#${C}`, `WAIT#confirmed#${X}`)).toMatchObject({ workflowId: W, stepId: 'wait' });
    expect([...table.items.keys()].filter((key) => /\|WORKFLOW_(ENTRY|EXECUTION|WAIT)#/.test(key))).toEqual([]);
    // the engine's figures move; the delivery stats stay the source's
    expect(item(runs, 'FIGURES')).toMatchObject({ entered: 3, completed: 2, 'step#wait#entered': 3 });
    expect(item(project, `STATS#workflow#${W}`)).toEqual({ PK: project, SK: `STATS#workflow#${W}`, sent: 5 });
    // the names: the trigger, and what every version of the workflow there is waits for
    const names = (await projectWorkflowNames(P))!;
    expect([names.hasTrigger('EVENT', 'signed_up'), names.isAwaited('activated'), names.isAwaited('confirmed'), names.isAwaited('deleted_wait')]).toEqual([true, true, true, false]);
  });

  it('moves every item once when run again, or by two at once', async () => {
    // Prepare
    givenLegacyProject();

    // Act
    await Promise.all([upgradeRuntimeLayout(P), upgradeRuntimeLayout(P)]);
    const again = await upgradeRuntimeLayout(P);

    // Assess
    expect(again).toBe(false);
    expect(table.items.get(`${runs}|FIGURES`)).toMatchObject({ entered: 3, completed: 2 });
    expect(table.items.get(`${runs}|ENTRY#${C}`)).toMatchObject({ entries: 1 });
  });

  it('leaves a project without workflows as it is', async () => {
    // Act
    const upgraded = await upgradeRuntimeLayout(P);
    const names = await projectWorkflowNames(P);

    // Assess
    expect(upgraded).toBe(false);
    expect(table.items.size).toBe(0);
    expect([names.hasTrigger('EVENT', 'signed_up'), names.isAwaited('confirmed')]).toEqual([false, false]);
  });
});
