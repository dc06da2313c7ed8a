import { DynamoDBDocumentClient, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';

const { namesWrite, readWorkflowNames } = await import('../../../../shared/workflows/names');

const ddb = mockClient(DynamoDBDocumentClient);
const P = 'P1';
const W = '01JWA000000000000000000000';

const workflow = (enabled: boolean, waitsFor: string[], event = 'signed_up') => ({
  id: W,
  enabled,
  trigger: { type: 'EVENT' as const, event },
  steps: [...waitsFor.map((name, index) => ({ id: `wait${index}`, type: 'WAIT_FOR_EVENT' as const, event: name, timeoutSeconds: 60 })), { id: 'end', type: 'EXIT' as const }] as never[],
});

/** The attributes a names write adds the workflow's id to and deletes it from. */
function setChanges(write: ReturnType<typeof namesWrite>) {
  const update = write.Update!;
  const names = update.ExpressionAttributeNames ?? {};
  const clause = (kind: string) => (new RegExp(`${kind} ([^A-Z]+?)(?= [A-Z]+ |$)`).exec(update.UpdateExpression!)?.[1] ?? '').split(', ').filter(Boolean).map((part) => names[part.split(' ')[0]!]);
  expect(update.Key).toEqual({ PK: `PROJECT#${P}`, SK: 'WORKFLOW_NAMES' });
  if (names && Object.keys(names).length > 0) expect(update.ExpressionAttributeValues![':workflow']).toEqual(new Set([W]));
  return { add: clause('ADD').sort(), delete: clause('DELETE').sort() };
}

beforeEach(() => {
  ddb.reset();
});

describe('namesWrite', () => {
  it('lists an enabled workflow\'s trigger and the names it waits for', () => {
    expect(setChanges(namesWrite(P, undefined, workflow(true, ['confirmed', 'paid'])))).toEqual({ add: ['trigger#EVENT#signed_up', 'wait#confirmed', 'wait#paid'], delete: [] });
  });

  it('takes a disabled workflow\'s trigger away but keeps its waits (its executions may still wait)', () => {
    expect(setChanges(namesWrite(P, workflow(true, ['confirmed']), workflow(false, ['confirmed'])))).toEqual({ add: ['wait#confirmed'], delete: ['trigger#EVENT#signed_up'] });
  });

  it('keeps the names an edit no longer waits for, and moves the trigger an edit changes', () => {
    expect(setChanges(namesWrite(P, workflow(true, ['confirmed']), workflow(true, ['paid'], 'trial_started')))).toEqual({ add: ['trigger#EVENT#trial_started', 'wait#paid'], delete: ['trigger#EVENT#signed_up'] });
  });

  it('takes everything of a deleted workflow away', () => {
    expect(setChanges(namesWrite(P, workflow(true, ['confirmed']), undefined))).toEqual({ add: [], delete: ['trigger#EVENT#signed_up', 'wait#confirmed'] });
  });

  it('a disabled workflow that waits for nothing changes no set, in a write DynamoDB accepts', () => {
    const write = namesWrite(P, workflow(false, []), undefined).Update!;

    expect(write.ExpressionAttributeNames).toBeUndefined();
    expect(Object.keys(write.ExpressionAttributeValues!)).toEqual([':now']);
  });
});

describe('readWorkflowNames', () => {
  it('answers from the names item', async () => {
    // Prepare
    ddb.on(GetCommand).resolves({ Item: { updatedAt: 'x', 'trigger#EVENT#paid': new Set([W]), 'wait#confirmed': new Set([W]) } });

    // Act
    const names = await readWorkflowNames(P);

    // Assess
    expect([names.hasTrigger('EVENT', 'paid'), names.hasTrigger('EVENT', 'confirmed'), names.hasTrigger('CONTACT_CREATED', '-')]).toEqual([true, false, false]);
    expect([names.isAwaited('confirmed'), names.isAwaited('paid')]).toEqual([true, false]);
    expect(ddb.commandCalls(QueryCommand)).toHaveLength(0);
  });

  it('without the item, everything is looked for when the project has workflows, nothing when it has none', async () => {
    // Prepare
    ddb.on(GetCommand).resolves({});
    ddb.on(QueryCommand).resolvesOnce({ Items: [{ PK: `PROJECT#${P}` }] }).resolves({ Items: [] });

    // Act
    const withWorkflows = await readWorkflowNames(P);
    const without = await readWorkflowNames(P);

    // Assess
    expect([withWorkflows.hasTrigger('EVENT', 'anything'), withWorkflows.isAwaited('anything')]).toEqual([true, true]);
    expect([without.hasTrigger('EVENT', 'anything'), without.isAwaited('anything')]).toEqual([false, false]);
  });
});
