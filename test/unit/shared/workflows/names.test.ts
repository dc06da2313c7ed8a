import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';

const { namesOfWorkflows, namesRemoval, namesWrite, readWorkflowNames } = await import('../../../../shared/workflows/names');

const ddb = mockClient(DynamoDBDocumentClient);
const P = 'P1';
const W = '01JWA000000000000000000000';

const workflow = (enabled: boolean, waitsFor: string[], event = 'signed_up') => ({
  id: W,
  enabled,
  trigger: { type: 'EVENT' as const, event },
  steps: [...waitsFor.map((name, index) => ({ id: `wait${index}`, type: 'WAIT_FOR_EVENT' as const, event: name, timeoutSeconds: 60 })), { id: 'end', type: 'EXIT' as const }] as never[],
});

/** The attributes an update of the names item adds workflow ids to and deletes them from, each with its ids. */
function setChanges(update: { UpdateExpression?: string; ExpressionAttributeNames?: Record<string, string>; ExpressionAttributeValues?: Record<string, unknown>; Key?: unknown }) {
  const names = update.ExpressionAttributeNames ?? {};
  const values = update.ExpressionAttributeValues ?? {};
  const clause = (kind: string) =>
    Object.fromEntries(
      (new RegExp(`${kind} ([^A-Z]+?)(?= [A-Z]+ |$)`).exec(update.UpdateExpression!)?.[1] ?? '')
        .split(', ')
        .filter(Boolean)
        .map((part) => part.split(' ') as [string, string])
        .map(([name, value]) => [names[name]!, [...(values[value] as Set<string>)].sort()]),
    );
  expect(update.Key).toEqual({ PK: `PROJECT#${P}`, SK: 'WORKFLOW_NAMES' });
  return { add: clause('ADD'), delete: clause('DELETE') };
}

/** The attributes a names write adds this workflow's id to and deletes it from. */
function attributesChanged(write: ReturnType<typeof namesWrite>) {
  const { add, delete: deleted } = setChanges(write.Update!);
  for (const ids of [...Object.values(add), ...Object.values(deleted)]) expect(ids).toEqual([W]);
  return { add: Object.keys(add).sort(), delete: Object.keys(deleted).sort() };
}

beforeEach(() => {
  ddb.reset();
});

describe('namesWrite', () => {
  it('lists an enabled workflow\'s trigger and the names it waits for', () => {
    expect(attributesChanged(namesWrite(P, undefined, workflow(true, ['confirmed', 'paid'])))).toEqual({ add: ['trigger#EVENT#signed_up', 'wait#confirmed', 'wait#paid'], delete: [] });
  });

  it('takes a disabled workflow\'s trigger away but keeps its waits (its executions may still wait)', () => {
    expect(attributesChanged(namesWrite(P, workflow(true, ['confirmed']), workflow(false, ['confirmed'])))).toEqual({ add: ['wait#confirmed'], delete: ['trigger#EVENT#signed_up'] });
  });

  it('keeps the names an edit no longer waits for, and moves the trigger an edit changes', () => {
    expect(attributesChanged(namesWrite(P, workflow(true, ['confirmed']), workflow(true, ['paid'], 'trial_started')))).toEqual({ add: ['trigger#EVENT#trial_started', 'wait#paid'], delete: ['trigger#EVENT#signed_up'] });
  });

  it('takes a deleted workflow from every attribute that lists it, its earlier versions\' waits too, and nothing else', async () => {
    // Prepare: its trigger, its current wait, a wait of an earlier version; another workflow's wait
    ddb.on(GetCommand).resolves({ Item: { updatedAt: 'x', 'trigger#EVENT#signed_up': new Set([W, 'OTHER']), 'wait#confirmed': new Set([W]), 'wait#earlier': new Set([W]), 'wait#paid': new Set(['OTHER']) } });

    // Act
    const removal = await namesRemoval(P, W);

    // Assess
    expect(attributesChanged(removal)).toEqual({ add: [], delete: ['trigger#EVENT#signed_up', 'wait#confirmed', 'wait#earlier'] });
  });

  it('lists several workflows at once, each attribute with every workflow on it', () => {
    const other = { ...workflow(true, ['paid']), id: 'OTHER' };

    expect(setChanges(namesOfWorkflows(P, [workflow(true, ['confirmed']), other, { ...workflow(false, ['paid']), id: 'OFF' }]))).toEqual({
      add: { 'trigger#EVENT#signed_up': ['OTHER', W].sort(), 'wait#confirmed': [W], 'wait#paid': ['OFF', 'OTHER'] },
      delete: {},
    });
  });

  it('a new disabled workflow that waits for nothing changes no set, in a write DynamoDB accepts', () => {
    const write = namesWrite(P, undefined, workflow(false, [])).Update!;

    expect(write.ExpressionAttributeNames).toBeUndefined();
    expect(Object.keys(write.ExpressionAttributeValues!)).toEqual([':now']);
  });
});

describe('readWorkflowNames', () => {
  it('answers from the names item, and undefined for a project without one', async () => {
    // Prepare
    ddb.on(GetCommand).resolvesOnce({ Item: { updatedAt: 'x', 'trigger#EVENT#paid': new Set([W]), 'wait#confirmed': new Set([W]) } }).resolves({});

    // Act
    const names = (await readWorkflowNames(P))!;
    const none = await readWorkflowNames(P);

    // Assess
    expect([names.hasTrigger('EVENT', 'paid'), names.hasTrigger('EVENT', 'confirmed'), names.hasTrigger('CONTACT_CREATED', '-')]).toEqual([true, false, false]);
    expect([names.isAwaited('confirmed'), names.isAwaited('paid')]).toEqual([true, false]);
    expect(none).toBeUndefined();
  });
});
