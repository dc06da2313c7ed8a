import { jest } from '@jest/globals';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { SendMessageBatchCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { DeleteCommand, DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { Webhook } from 'standardwebhooks';
import type { StreamChange } from '../../../../shared/streams/handler';
import { useWebhookReceiver } from '../../../support/webhook-receiver';

// The outbound client reads WEBHOOK_ALLOWED_HOSTS once, when first imported: the receiver below is local.
process.env.WEBHOOK_ALLOWED_HOSTS = '127.0.0.1';
const { attemptDelivery, describeSeconds, DISABLE_AFTER_SECONDS, replayDelivery } = await import('../../../../shared/webhooks/deliveries');
const { queueDeliveries } = await import('../../../../shared/webhooks/delivery-queue');
const { encryptSecret, generateSecret } = await import('../../../../shared/webhooks/secrets');
const { fanOut, subscriptionLoader } = await import('../../../../shared/webhooks/fanout');

const ddb = mockClient(DynamoDBDocumentClient);
const sqs = mockClient(SQSClient);
const P = 'P1';
const W = '01JD000000000000000000WEB1';
const D = '01JD000000000000000000DE11';
const QUEUE = 'http://localhost:9324/000000000000/webhook-deliveries-test';
const SECRET = generateSecret();
const BODY = JSON.stringify({ type: 'email.delivered', timestamp: '2026-01-01T00:00:00.000Z', data: { id: 'E1' } });

let status = 200;
const receiver = useWebhookReceiver(() => ({ status, body: status === 200 ? 'ok' : 'down' }));
const received = receiver.received;
const hookUrl = () => `${receiver.url}/hook`;

beforeEach(() => {
  ddb.reset();
  sqs.reset();
  jest.restoreAllMocks();
  received.length = 0;
  status = 200;
});

const deliveryKey = { PK: `PROJECT#${P}#WEBHOOK#${W}`, SK: `DELIVERY#${D}` };
const deliveryItem = (fields: Record<string, unknown> = {}) => ({ ...deliveryKey, deliveryId: D, endpointId: W, eventId: 'E1', type: 'email.delivered', body: BODY, status: 'pending', attempts: 0, nextAttemptAt: '2026-01-01T00:00:00.000Z', createdAt: '2026-01-01T00:00:00.000Z', ...fields });
const endpointItem = (fields: Record<string, unknown> = {}) => ({
  PK: `PROJECT#${P}`,
  SK: `WEBHOOK#${W}`,
  endpointId: W,
  url: hookUrl(),
  events: ['*'],
  description: null,
  enabled: true,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  secret: encryptSecret(SECRET, `${P}/${W}`),
  ...fields,
});

function given(delivery: Record<string, unknown> | undefined, endpoint: Record<string, unknown> | undefined) {
  ddb.on(GetCommand, { Key: deliveryKey }).resolves({ Item: delivery });
  ddb.on(GetCommand, { Key: { PK: `PROJECT#${P}`, SK: `WEBHOOK#${W}` } }).resolves({ Item: endpoint });
  ddb.on(PutCommand).resolves({});
  ddb.on(DeleteCommand).resolves({});
  ddb.on(UpdateCommand).resolves({ Attributes: { failingSince: new Date().toISOString() } });
  sqs.on(SendMessageCommand).resolves({});
}

const message = { projectId: P, endpointId: W, deliveryId: D };
const deliveryUpdate = () => ddb.commandCalls(UpdateCommand).find((call) => call.args[0].input.Key?.SK === deliveryKey.SK)!.args[0].input;

describe('attemptDelivery', () => {
  it('POSTs the stored body signed with the endpoint secret and records the success', async () => {
    // Prepare
    given(deliveryItem(), endpointItem());
    // Act
    await attemptDelivery(message, new Date());
    // Assess
    expect(received).toHaveLength(1);
    expect(received[0]!.body).toBe(BODY);
    expect(received[0]!.headers['webhook-id']).toBe(`msg_${D}`);
    expect(new Webhook(SECRET).verify(BODY, received[0]!.headers as Record<string, string>)).toEqual(JSON.parse(BODY));
    const update = deliveryUpdate();
    expect(update.ConditionExpression).toBe('#status = :pending AND #attempts = :previous');
    expect(update.ExpressionAttributeValues).toMatchObject({ ':status': 'delivered', ':attempts': 1, ':previous': 0, ':lastStatusCode': 200, ':deliveredAt': expect.any(String) });
    expect(update.UpdateExpression).toContain('REMOVE #lastError, #nextAttemptAt');
    // The concurrency slot was taken, then freed with its own token.
    const slotPut = ddb.commandCalls(PutCommand)[0]!.args[0].input;
    expect(slotPut.Item).toMatchObject({ PK: `PROJECT#${P}#WEBHOOK#${W}`, SK: expect.stringMatching(/^SLOT#[0-4]$/), token: expect.any(String) });
    expect(slotPut.ConditionExpression).toBe('attribute_not_exists(PK) OR heldUntil < :now');
    expect(ddb.commandCalls(DeleteCommand)[0]!.args[0].input).toMatchObject({ Key: { PK: slotPut.Item!.PK, SK: slotPut.Item!.SK }, ExpressionAttributeValues: { ':token': slotPut.Item!.token } });
    expect(sqs.commandCalls(SendMessageCommand)).toHaveLength(0);
  });

  it('signs with the rotated-out secret too while its overlap lasts', async () => {
    const previous = generateSecret();
    given(deliveryItem(), endpointItem({ previousSecret: encryptSecret(previous, `${P}/${W}`), previousSecretExpiresAt: new Date(Date.now() + 3600_000).toISOString() }));
    await attemptDelivery(message, new Date());
    const headers = received[0]!.headers as Record<string, string>;
    expect(headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(new Webhook(previous).verify(BODY, headers)).toEqual(JSON.parse(BODY));
  });

  it('records a failure, starts the failing streak and queues the retry after the first wait (5 s ± 20 %)', async () => {
    status = 500;
    given(deliveryItem(), endpointItem());
    const before = Date.now();
    await attemptDelivery(message, new Date());
    const update = deliveryUpdate();
    expect(update.ExpressionAttributeValues).toMatchObject({ ':status': 'pending', ':attempts': 1, ':lastStatusCode': 500, ':lastError': 'HTTP 500 Internal Server Error: down' });
    const next = Date.parse(update.ExpressionAttributeValues![':nextAttemptAt'] as string) - before;
    expect(next).toBeGreaterThanOrEqual(3_500);
    expect(next).toBeLessThanOrEqual(7_000);
    const failing = ddb.commandCalls(UpdateCommand).find((call) => call.args[0].input.Key?.SK === `WEBHOOK#${W}`)!.args[0].input;
    expect(failing.UpdateExpression).toBe('SET #failingSince = if_not_exists(#failingSince, :at)');
    const requeued = sqs.commandCalls(SendMessageCommand)[0]!.args[0].input;
    expect(requeued).toMatchObject({ QueueUrl: QUEUE, MessageBody: JSON.stringify(message) });
    expect(requeued.DelaySeconds).toBeGreaterThanOrEqual(4);
    expect(requeued.DelaySeconds).toBeLessThanOrEqual(6);
  });

  it('fails the delivery after the last scheduled retry and queues nothing', async () => {
    status = 503;
    given(deliveryItem({ attempts: 7 }), endpointItem());
    await attemptDelivery(message, new Date());
    expect(deliveryUpdate().ExpressionAttributeValues).toMatchObject({ ':status': 'failed', ':attempts': 8, ':previous': 7 });
    expect(deliveryUpdate().UpdateExpression).toContain('#nextAttemptAt');
    expect(deliveryUpdate().ExpressionAttributeValues).not.toHaveProperty(':nextAttemptAt');
    expect(sqs.commandCalls(SendMessageCommand)).toHaveLength(0);
  });

  it('disables an endpoint whose deliveries have failed for a day (the default period), saying why, and records webhook.disabled in the same write', async () => {
    // Prepare
    status = 500;
    const since = new Date(Date.now() - DISABLE_AFTER_SECONDS * 1000 - 1000).toISOString();
    given(deliveryItem({ attempts: 2 }), endpointItem({ failingSince: since }));
    ddb.on(UpdateCommand, { Key: { PK: `PROJECT#${P}`, SK: `WEBHOOK#${W}` } }).resolves({ Attributes: { failingSince: since } });
    ddb.on(TransactWriteCommand).resolves({});

    // Act
    await attemptDelivery(message, new Date());

    // Assess
    const [disable, index, notification] = ddb.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!;
    expect(DISABLE_AFTER_SECONDS).toBe(86_400);
    expect(disable!.Update).toMatchObject({
      Key: { PK: `PROJECT#${P}`, SK: `WEBHOOK#${W}` },
      ConditionExpression: '#enabled = :true AND #failingSince = :since',
      ExpressionAttributeValues: expect.objectContaining({ ':false': false, ':since': since, ':reason': `Every delivery failed for 1 day (since ${since}); the last: HTTP 500 Internal Server Error: down` }),
    });
    expect(index!.Update).toMatchObject({ Key: { PK: `PROJECT#${P}`, SK: 'WEBHOOKS' }, UpdateExpression: 'REMOVE #endpoint', ExpressionAttributeNames: { '#endpoint': `endpoint_${W}` } });
    expect(notification!.Put).toMatchObject({
      Item: { PK: `PROJECT#${P}`, type: 'webhook.disabled', data: { id: W, status: 'DISABLED', enabled: false, failingSince: since, disabledReason: expect.stringContaining('1 day') } },
      ConditionExpression: 'attribute_not_exists(PK)',
    });
  });

  it.each([
    [86_400, '1 day'],
    [7_200, '2 hours'],
    [60, '1 minute'],
    [90, '90 seconds'],
  ])('says a period of %i seconds as "%s"', (seconds, words) => {
    expect(describeSeconds(seconds)).toBe(words);
  });

  it('ends a replayed delivery failed after its one attempt, without new retries', async () => {
    // Prepare
    status = 503;
    given(deliveryItem({ attempts: 8, status: 'pending', replay: true }), endpointItem());

    // Act
    await attemptDelivery(message, new Date());

    // Assess
    expect(received).toHaveLength(1);
    expect(deliveryUpdate().ExpressionAttributeValues).toMatchObject({ ':status': 'failed', ':attempts': 9 });
    expect(deliveryUpdate().UpdateExpression).toMatch(/REMOVE .*#replay/);
    expect(sqs.commandCalls(SendMessageCommand)).toHaveLength(0);
  });

  it('waits on in the queue, at most 15 minutes a hop, when the delivery is not due', async () => {
    const now = new Date('2026-01-01T00:00:00.000Z');
    given(deliveryItem({ attempts: 3, nextAttemptAt: '2026-01-01T02:00:00.000Z' }), endpointItem());
    await attemptDelivery(message, now);
    expect(sqs.commandCalls(SendMessageCommand)[0]!.args[0].input.DelaySeconds).toBe(900);
    expect(received).toHaveLength(0);
    expect(ddb.commandCalls(UpdateCommand)).toHaveLength(0);
  });

  it('goes back to the queue for a few seconds when every slot of the endpoint is held, after one write and one read', async () => {
    // Prepare: every slot held for 10 s more
    const now = new Date();
    given(deliveryItem(), endpointItem());
    ddb.on(PutCommand).rejects(new ConditionalCheckFailedException({ message: 'held', $metadata: {} }));
    ddb.on(QueryCommand).resolves({ Items: Array.from({ length: 5 }, (_, index) => ({ SK: `SLOT#${index}`, heldUntil: now.getTime() + 10_000 })) });

    // Act
    await attemptDelivery(message, now);

    // Assess
    expect(ddb.commandCalls(PutCommand)).toHaveLength(1);
    expect(ddb.commandCalls(QueryCommand).map((call) => call.args[0].input)).toEqual([
      {
        TableName: 'mailwright-test',
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :slot)',
        ExpressionAttributeValues: { ':pk': `PROJECT#${P}#WEBHOOK#${W}`, ':slot': 'SLOT#' },
        ProjectionExpression: 'SK, heldUntil',
        ConsistentRead: true,
      },
    ]);
    const delay = sqs.commandCalls(SendMessageCommand)[0]!.args[0].input.DelaySeconds!;
    expect(delay).toBeGreaterThanOrEqual(1);
    expect(delay).toBeLessThanOrEqual(5);
    expect(received).toHaveLength(0);
  });

  it('takes a free slot the read finds when the one tried first is held, and POSTs once', async () => {
    // Prepare: SLOT#0 tried first (Math.random 0) and held; the read shows SLOT#1 held, SLOT#2's lease run out, 3 and 4 never taken
    const now = new Date();
    jest.spyOn(Math, 'random').mockReturnValue(0);
    given(deliveryItem(), endpointItem());
    ddb.on(PutCommand).rejectsOnce(new ConditionalCheckFailedException({ message: 'held', $metadata: {} })).resolves({});
    ddb.on(QueryCommand).resolves({ Items: [{ SK: 'SLOT#0', heldUntil: now.getTime() + 10_000 }, { SK: 'SLOT#1', heldUntil: now.getTime() + 10_000 }, { SK: 'SLOT#2', heldUntil: now.getTime() - 1 }] });

    // Act
    await attemptDelivery(message, now);

    // Assess
    expect(ddb.commandCalls(PutCommand).map((call) => call.args[0].input.Item!.SK)).toEqual(['SLOT#0', 'SLOT#2']);
    expect(received).toHaveLength(1);
  });

  it('fails a delivery whose endpoint was deleted or disabled, without a POST', async () => {
    given(deliveryItem(), undefined);
    await attemptDelivery(message, new Date());
    expect(deliveryUpdate().ExpressionAttributeValues).toMatchObject({ ':status': 'failed', ':attempts': 0, ':lastError': 'The endpoint was deleted' });

    ddb.reset();
    given(deliveryItem(), endpointItem({ enabled: false, disabledReason: 'Every delivery failed for 5 days' }));
    await attemptDelivery(message, new Date());
    expect(deliveryUpdate().ExpressionAttributeValues).toMatchObject({ ':status': 'failed', ':lastError': 'The endpoint is disabled: Every delivery failed for 5 days' });
    expect(received).toHaveLength(0);
  });

  it('does nothing for a delivery that is done, and stops when another copy recorded its attempt first', async () => {
    given(deliveryItem({ status: 'delivered' }), endpointItem());
    await attemptDelivery(message, new Date());
    expect(received).toHaveLength(0);

    status = 500;
    given(deliveryItem(), endpointItem());
    ddb.on(UpdateCommand, { Key: deliveryKey }).rejects(new ConditionalCheckFailedException({ message: 'moved on', $metadata: {} }));
    await attemptDelivery(message, new Date());
    expect(received).toHaveLength(1);
    expect(sqs.commandCalls(SendMessageCommand)).toHaveLength(0);
  });
});

describe('queueDeliveries', () => {
  const event = { id: 'E1', type: 'email.delivered', timestamp: '2026-01-01T00:00:00.000Z', data: { id: 'E1' } };

  it('writes one delivery per endpoint with ids derived from event and endpoint, then queues them', async () => {
    ddb.on(PutCommand).resolves({});
    sqs.on(SendMessageBatchCommand).resolves({});
    const first = await queueDeliveries(P, event, ['W1', 'W2'], { now: new Date('2026-01-01T00:00:01.000Z') });
    const again = await queueDeliveries(P, event, ['W1', 'W2'], { now: new Date('2026-01-01T00:00:05.000Z') });
    expect(first.map((delivery) => delivery.id)).toEqual(again.map((delivery) => delivery.id));
    expect(new Set(first.map((delivery) => delivery.id)).size).toBe(2);
    const put = ddb.commandCalls(PutCommand)[0]!.args[0].input;
    expect(put).toMatchObject({ ConditionExpression: 'attribute_not_exists(PK)', Item: { PK: `PROJECT#${P}#WEBHOOK#W1`, type: 'email.delivered', status: 'pending', attempts: 0, body: JSON.stringify({ type: event.type, timestamp: event.timestamp, data: event.data }) } });
    expect(put.Item!.SK).toBe(`DELIVERY#${first[0]!.id.slice(4)}`);
    expect(JSON.parse(sqs.commandCalls(SendMessageBatchCommand)[0]!.args[0].input.Entries![1]!.MessageBody!)).toEqual({ projectId: P, endpointId: 'W2', deliveryId: first[1]!.id.slice(4) });
  });

  // A failed condition's item comes in DynamoDB's wire format, even through the document client.
  const existingDelivery = (attempts: number) => Object.assign(new ConditionalCheckFailedException({ message: 'exists', $metadata: {} }), { Item: { attempts: { N: String(attempts) }, status: { S: 'pending' } } });

  it('does not queue again a delivery that was already attempted (a retried stream batch)', async () => {
    ddb.on(PutCommand).rejects(existingDelivery(2));
    sqs.on(SendMessageBatchCommand).resolves({});
    await queueDeliveries(P, event, ['W1']);
    expect(sqs.commandCalls(SendMessageBatchCommand)).toHaveLength(0);
  });

  it('queues again a delivery written but never attempted (the first call died before queueing it)', async () => {
    ddb.on(PutCommand).rejects(existingDelivery(0));
    sqs.on(SendMessageBatchCommand).resolves({});
    const [delivery] = await queueDeliveries(P, event, ['W1']);
    expect(JSON.parse(sqs.commandCalls(SendMessageBatchCommand)[0]!.args[0].input.Entries![0]!.MessageBody!)).toEqual({ projectId: P, endpointId: 'W1', deliveryId: delivery!.id.slice(4) });
  });
});

describe('fanOut', () => {
  const change = (sk: string, image: Record<string, unknown>): StreamChange => ({
    eventName: 'INSERT',
    keys: { PK: `PROJECT#${P}`, SK: sk },
    newImage: image,
    sequenceNumber: '1',
    record: { eventID: 'r1' },
  });
  const event = (name: string) => change('EVENT#E1', { eventId: 'E1', name, contactId: 'C1', data: {}, createdAt: '2026-01-01T00:00:00.000Z' });

  it('costs a project without endpoints one GetItem per batch, and nothing else', async () => {
    ddb.on(GetCommand).resolves({});
    const subscriptionsOf = subscriptionLoader();
    await fanOut(P, [event('email.sent'), event('email.opened')], subscriptionsOf);
    await fanOut(P, [event('email.clicked')], subscriptionsOf);
    expect(ddb.calls()).toHaveLength(1);
    expect(ddb.commandCalls(GetCommand)[0]!.args[0].input).toEqual({ TableName: 'mailwright-test', Key: { PK: `PROJECT#${P}`, SK: 'WEBHOOKS' }, ConsistentRead: true });
    expect(sqs.calls()).toHaveLength(0);
  });

  it('queues each event for the endpoints subscribed to its kind', async () => {
    ddb.on(GetCommand).resolves({ Item: { PK: `PROJECT#${P}`, SK: 'WEBHOOKS', endpointCount: 3, endpoint_A: ['*'], endpoint_B: ['email.opened'], endpoint_C: ['event:signup'] } });
    ddb.on(PutCommand).resolves({});
    sqs.on(SendMessageBatchCommand).resolves({});
    await fanOut(P, [event('email.sent'), event('email.opened'), event('signup')], subscriptionLoader());
    const endpoints = sqs.commandCalls(SendMessageBatchCommand).map((call) => call.args[0].input.Entries!.map((entry) => JSON.parse(entry.MessageBody!).endpointId));
    expect(endpoints).toEqual([['A'], ['A', 'B'], ['A', 'C']]);
  });
});

describe('replayDelivery', () => {
  it('turns a finished delivery pending as a replay, conditionally on what was read, and queues it at once', async () => {
    // Prepare
    given(deliveryItem({ status: 'failed', attempts: 8, lastStatusCode: 500 }), endpointItem());

    // Act
    const delivery = await replayDelivery(P, W, `msg_${D}`, new Date('2026-11-25T10:00:00.000Z'));

    // Assess
    expect(delivery).toMatchObject({ id: `msg_${D}`, status: 'pending', attempts: 8, nextAttemptAt: '2026-11-25T10:00:00.000Z' });
    expect(deliveryUpdate()).toMatchObject({
      ConditionExpression: '#status = :status AND #attempts = :attempts',
      ExpressionAttributeValues: { ':pending': 'pending', ':true': true, ':status': 'failed', ':attempts': 8 },
    });
    const queued = sqs.commandCalls(SendMessageCommand)[0]!.args[0].input;
    expect(JSON.parse(queued.MessageBody!)).toEqual(message);
    expect(queued.DelaySeconds).toBe(0);
  });

  it('queues a replay again when the request is retried before its attempt, and refuses one while the delivery is still retried', async () => {
    // Prepare
    given(deliveryItem({ status: 'pending', attempts: 1, replay: true }), endpointItem());

    // Act
    await replayDelivery(P, W, D);

    // Assess
    expect(sqs.commandCalls(SendMessageCommand)).toHaveLength(1);
    expect(ddb.commandCalls(UpdateCommand)).toHaveLength(0);
    given(deliveryItem({ status: 'pending', attempts: 1 }), endpointItem());
    await expect(replayDelivery(P, W, D)).rejects.toMatchObject({ statusCode: 409, code: 'DELIVERY_PENDING' });
  });

  it('answers 409 WEBHOOK_DISABLED for a disabled endpoint and 404 for a delivery it does not have', async () => {
    // Prepare
    given(deliveryItem({ status: 'failed' }), endpointItem({ enabled: false }));

    // Act / Assess
    await expect(replayDelivery(P, W, D)).rejects.toMatchObject({ statusCode: 409, code: 'WEBHOOK_DISABLED' });
    given(undefined, endpointItem());
    await expect(replayDelivery(P, W, D)).rejects.toMatchObject({ statusCode: 404 });
    await expect(replayDelivery(P, W, 'msg_not-an-id')).rejects.toMatchObject({ statusCode: 404 });
    expect(sqs.commandCalls(SendMessageCommand)).toHaveLength(0);
  });
});
