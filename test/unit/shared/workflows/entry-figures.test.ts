import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import type { StreamChange } from '../../../../shared/streams/handler';
import { countEntries, isEntry } from '../../../../shared/workflows/entry-figures';
import { FakeTable } from '../../../support/fake-table';

const ddb = mockClient(DynamoDBDocumentClient);
let table: FakeTable;

const sequenceOf = (n: number) => (200_000_000_000_000_000_000n + BigInt(n)).toString();

/** The stream record of execution n's INSERT into workflow `workflowId`'s runtime partition, entered at step `first`. */
function entered(n: number, workflowId: string, first = 'hello', eventName: StreamChange['eventName'] = 'INSERT'): StreamChange {
  const keys = { PK: `PROJECT#P1#WORKFLOW#${workflowId}`, SK: `EXECUTION#X${n}` };
  const newImage = { ...keys, executionId: `X${n}`, workflowId, status: 'RUNNING', tally: { entered: 1, [`step#${first}#entered`]: 1 } };
  return { eventName, keys, newImage, sequenceNumber: sequenceOf(n), record: { eventID: `entry-${n}`, eventName, dynamodb: { SequenceNumber: sequenceOf(n) } } };
}

const figures = (workflowId: string) => {
  const { PK: _pk, SK: _sk, ...counts } = table.get({ PK: `PROJECT#P1#WORKFLOW#${workflowId}`, SK: 'FIGURES' }) ?? {};
  return counts;
};

describe('countEntries (the workflow-figures stream consumer)', () => {
  beforeEach(() => {
    ddb.reset();
    table = new FakeTable(ddb);
  });

  it("adds a batch's new executions to their workflows' figures, once, and not their later changes", async () => {
    // Prepare: three entries of two workflows, and a later change of one of them
    table.put({ PK: 'PROJECT#P1#WORKFLOW#W1', SK: 'FIGURES', entered: 5, completed: 4 });
    const batch = [entered(1, 'W1'), entered(2, 'W2', 'wait'), entered(3, 'W1'), entered(4, 'W1', 'hello', 'MODIFY')];

    // Act
    await countEntries(batch);
    await countEntries(batch);

    // Assess: the runner's figures are left as they were; no UpdateItem of its own
    expect(figures('W1')).toEqual({ entered: 7, completed: 4, 'step#hello#entered': 2 });
    expect(figures('W2')).toEqual({ entered: 1, 'step#wait#entered': 1 });
    expect(ddb.commandCalls(UpdateCommand)).toHaveLength(0);
  });

  it('skips what is not a number in a tally rather than failing its batch for ever', async () => {
    // Prepare
    const malformed = entered(7, 'W3');
    malformed.newImage!.tally = { entered: 'one' };

    // Act
    await countEntries([malformed, entered(8, 'W3')]);

    // Assess
    expect(figures('W3')).toEqual({ entered: 1, 'step#hello#entered': 1 });
  });

  it('counts only new executions that carry an entry, in their runtime partition', () => {
    // Prepare
    const legacy = entered(5, 'W1');
    delete legacy.newImage!.tally;
    const elsewhere = { ...entered(6, 'W1'), newImage: { ...entered(6, 'W1').newImage, PK: 'PROJECT#P1' } };

    // Assess
    expect([entered(1, 'W1'), entered(2, 'W1', 'hello', 'MODIFY'), legacy, elsewhere].map(isEntry)).toEqual([true, false, false, false]);
  });
});
