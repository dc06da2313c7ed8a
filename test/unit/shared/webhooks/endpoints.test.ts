import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { ApiError } from '../../../../shared/http/errors';

process.env.WEBHOOK_ALLOWED_HOSTS = 'receiver.local';
const { createEndpoint, deleteEndpoint, patchEndpoint, rotateSecret, loadDeliveryTarget } = await import('../../../../shared/webhooks/endpoints');
const { decryptSecret, encryptSecret } = await import('../../../../shared/webhooks/secrets');

const ddb = mockClient(DynamoDBDocumentClient);
const P = 'P1';
const W = '01JD000000000000000000WEB1';
const cancelled = (codes: string[]) => new TransactionCanceledException({ message: 'cancelled', $metadata: {}, CancellationReasons: codes.map((Code) => ({ Code })) });
const stored = (fields: Record<string, unknown> = {}) => ({
  PK: `PROJECT#${P}`,
  SK: `WEBHOOK#${W}`,
  endpointId: W,
  url: 'http://receiver.local/hook',
  events: ['email.sent'],
  description: null,
  enabled: true,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  secret: encryptSecret('whsec_old', `${P}/${W}`),
  ...fields,
});

async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    return error as ApiError;
  }
  throw new Error('expected an error');
}

beforeEach(() => ddb.reset());

describe('webhook endpoints', () => {
  it('creates the endpoint with its secret encrypted and its kinds in the subscription index, in one transaction', async () => {
    // Prepare
    ddb.on(TransactWriteCommand).resolves({});
    // Act
    const created = await createEndpoint(P, { url: 'http://receiver.local/hook', events: ['email.sent', '*'], description: 'mine' });
    // Assess
    expect(created).toMatchObject({ url: 'http://receiver.local/hook', events: ['email.sent', '*'], description: 'mine', enabled: true, secret: expect.stringMatching(/^whsec_/) });
    const [put, index] = ddb.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!;
    expect(put!.Put!.Item).toMatchObject({ PK: `PROJECT#${P}`, SK: `WEBHOOK#${created.id}`, endpointId: created.id });
    expect(JSON.stringify(put!.Put!.Item)).not.toContain(created.secret);
    expect(decryptSecret(put!.Put!.Item!.secret as string, `${P}/${created.id}`)).toBe(created.secret);
    expect(() => decryptSecret(put!.Put!.Item!.secret as string, `P2/${created.id}`)).toThrow();
    expect(index!.Update).toEqual({
      TableName: 'mailwright-test',
      Key: { PK: `PROJECT#${P}`, SK: 'WEBHOOKS' },
      UpdateExpression: 'SET #endpoint = :events ADD #count :change',
      ConditionExpression: 'attribute_not_exists(#count) OR #count < :max',
      ExpressionAttributeNames: { '#endpoint': `endpoint_${created.id}`, '#count': 'endpointCount' },
      ExpressionAttributeValues: { ':events': ['email.sent', '*'], ':change': 1, ':max': 20 },
    });
  });

  it('refuses a 21st endpoint with 409 and a private destination with 422 before writing', async () => {
    ddb.on(TransactWriteCommand).rejects(cancelled(['None', 'ConditionalCheckFailed']));
    const full = await rejection(createEndpoint(P, { url: 'http://receiver.local/hook', events: ['*'] }));
    expect([full.statusCode, full.code]).toEqual([409, 'WEBHOOK_LIMIT_REACHED']);

    ddb.reset();
    const privateUrl = await rejection(createEndpoint(P, { url: 'https://10.0.0.8/hook', events: ['*'] }));
    expect([privateUrl.statusCode, privateUrl.errors?.[0]?.field]).toEqual([422, 'url']);
    expect(ddb.calls()).toHaveLength(0);
  });

  it('re-enabling clears the reason and the failing streak and puts the kinds back in the index', async () => {
    ddb.on(GetCommand).resolves({ Item: stored({ enabled: false, disabledReason: 'failing', failingSince: '2026-01-01T00:00:00.000Z' }) });
    ddb.on(TransactWriteCommand).resolves({});
    const patched = await patchEndpoint(P, W, { enabled: true });
    expect(patched).toMatchObject({ enabled: true, disabledReason: null, failingSince: null });
    const [update, index] = ddb.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!;
    expect(update!.Update!.UpdateExpression).toContain('REMOVE #disabledReason, #failingSince');
    expect(index!.Update).toMatchObject({ UpdateExpression: 'SET #endpoint = :events', ExpressionAttributeValues: { ':events': ['email.sent'] } });
  });

  it('disabling removes the endpoint from the index; deleting also counts it out', async () => {
    ddb.on(GetCommand).resolves({ Item: stored() });
    ddb.on(TransactWriteCommand).resolves({});
    await patchEndpoint(P, W, { enabled: false });
    await deleteEndpoint(P, W);
    const [disable, remove] = ddb.commandCalls(TransactWriteCommand).map((call) => call.args[0].input.TransactItems![1]!.Update!);
    expect(disable).toMatchObject({ UpdateExpression: 'REMOVE #endpoint' });
    expect(remove).toMatchObject({ UpdateExpression: 'REMOVE #endpoint ADD #count :change', ExpressionAttributeValues: { ':change': -1 } });
  });

  it('answers 404 for an endpoint that is not there', async () => {
    ddb.on(TransactWriteCommand).rejects(cancelled(['ConditionalCheckFailed', 'None']));
    expect((await rejection(deleteEndpoint(P, W))).statusCode).toBe(404);
    expect((await rejection(deleteEndpoint(P, 'nope'))).statusCode).toBe(404);
    ddb.on(GetCommand).resolves({});
    expect((await rejection(rotateSecret(P, W))).statusCode).toBe(404);
  });

  it('rotates the secret, keeping the old one for 24 hours, then signs with the new one only', async () => {
    // Prepare
    const item = stored();
    ddb.on(GetCommand).resolves({ Item: item });
    ddb.on(UpdateCommand).resolves({});
    const now = new Date('2026-02-01T00:00:00.000Z');
    // Act
    const rotated = await rotateSecret(P, W, now);
    // Assess
    const update = ddb.commandCalls(UpdateCommand)[0]!.args[0].input;
    expect(update.ConditionExpression).toBe('#secret = :current');
    expect(update.ExpressionAttributeValues).toMatchObject({ ':previous': item.secret, ':current': item.secret, ':expires': '2026-02-02T00:00:00.000Z' });
    expect(decryptSecret(update.ExpressionAttributeValues![':secret'] as string, `${P}/${W}`)).toBe(rotated.secret);

    ddb.on(GetCommand).resolves({ Item: { ...item, secret: update.ExpressionAttributeValues![':secret'], previousSecret: item.secret, previousSecretExpiresAt: '2026-02-02T00:00:00.000Z' } });
    expect((await loadDeliveryTarget(P, W, new Date('2026-02-01T23:00:00.000Z')))!.secrets).toEqual([rotated.secret, 'whsec_old']);
    expect((await loadDeliveryTarget(P, W, new Date('2026-02-02T00:00:01.000Z')))!.secrets).toEqual([rotated.secret]);
  });
});
