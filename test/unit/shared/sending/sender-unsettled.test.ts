import { jest } from '@jest/globals';
import { SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { ChangeMessageVisibilityCommand, GetQueueUrlCommand, SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Context, SQSEvent } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { handler } from '../../../../functions/sender/handler';
import { sesEventApplier, type SesEvent } from '../../../../shared/delivery/ses-events';
import { sesTagNames } from '../../../../shared/delivery/ses-tags';
import { resetPacerMemory } from '../../../../shared/sending/pacer';
import { sendingEmailRecord } from '../../../support/email-fixtures';
import { FakeTable } from '../../../support/fake-table';
import { sqsRecord } from '../../../support/sqs-records';

/**
 * A claim that ran out unfinished (its sender timed out after SES accepted the mail, before it
 * recorded SENT) is not taken over until 10 minutes after its lease ended: SES's events record
 * the email meanwhile. Against an in-memory table, so the claim's condition is evaluated as
 * DynamoDB evaluates it.
 */

const ddb = mockClient(DynamoDBDocumentClient);
const ses = mockClient(SESv2Client);
const sqs = mockClient(SQSClient);
let table: FakeTable;

const QUEUE_ARN = 'arn:aws:sqs:us-east-1:123456789012:send';
const QUEUE_URL = 'https://sqs.us-east-1.amazonaws.com/123456789012/send';
const NOW = 1_795_000_000_000;
const emailKey = { PK: 'PROJECT#P1', SK: 'EMAIL#E1' };

const email = sendingEmailRecord({ from: { email: 'hello@acme.test' }, createdAt: '2026-11-18T20:00:00.000Z', updatedAt: '2026-11-18T20:00:00.000Z' });

const record = (receiveCount: number) => sqsRecord({ body: { projectId: 'P1', emailId: 'E1' }, receiveCount, queueArn: QUEUE_ARN });
const event = (receiveCount: number): SQSEvent => ({ Records: [record(receiveCount)] });

/** SES's Send event for the email, as EventBridge hands it to functions/ses-events/handler.ts. */
const sendEvent: SesEvent = {
  id: 'ev-send-1',
  'detail-type': 'Email Sent',
  source: 'aws.ses',
  time: '2026-11-18T20:00:05.000Z',
  detail: {
    eventType: 'Send',
    mail: { messageId: 'ses-1', timestamp: '2026-11-18T20:00:04.000Z', tags: { [sesTagNames.project]: ['P1'], [sesTagNames.email]: ['E1'], [sesTagNames.source]: ['transactional'] } },
  },
} as unknown as SesEvent;

let clock = NOW;
const stored = () => table.get(emailKey)!;
const visibilityTimeouts = () => sqs.commandCalls(ChangeMessageVisibilityCommand).map((call) => call.args[0].input.VisibilityTimeout);
const sentEvents = () => table.history.filter((item) => String(item.SK).startsWith('EVENT#') && item.name === 'email.sent');

describe('sender: a claim that ran out unfinished', () => {
  beforeEach(() => {
    ddb.reset();
    ses.reset();
    sqs.reset();
    table = new FakeTable(ddb);
    resetPacerMemory();
    jest.restoreAllMocks();
    clock = NOW;
    jest.spyOn(Date, 'now').mockImplementation(() => clock);
    ses.on(SendEmailCommand).resolves({ MessageId: 'ses-2' });
    sqs.on(GetQueueUrlCommand).resolves({ QueueUrl: QUEUE_URL });
    sqs.on(ChangeMessageVisibilityCommand).resolves({});
  });

  it('is not sent again within the grace: the email stays as it is and its message comes back when the grace ends', async () => {
    // Prepare: claimed 3 minutes ago (the message came back after its 180-s visibility timeout); the lease ended 2 minutes ago
    table.put({ ...emailKey, ...email, leaseUntil: NOW - 120_000, claimToken: 'dead-sender' });

    // Act
    const response = await handler(event(2));

    // Assess: back 10 minutes after the lease's end (8 min + 1 s from now), nothing sent or written
    expect(response).toEqual({ batchItemFailures: [{ itemIdentifier: 'm1' }] });
    expect(visibilityTimeouts()).toEqual([481]);
    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(0);
    expect(stored()).toMatchObject({ status: 'SENDING', leaseUntil: NOW - 120_000, claimToken: 'dead-sender' });
  });

  it('is claimed and sent once the grace has passed (SES never got it)', async () => {
    // Prepare: the lease ended 10 minutes and 1 ms ago, and no SES event came
    table.put({ ...emailKey, ...email, leaseUntil: NOW - 600_001, claimToken: 'dead-sender' });

    // Act
    const response = await handler(event(3));

    // Assess
    expect(response).toEqual({ batchItemFailures: [] });
    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(1);
    expect(stored()).toMatchObject({ status: 'SENT', sesMessageId: 'ses-2' });
    expect(stored().leaseUntil).toBeUndefined();
    expect(sentEvents()).toHaveLength(1);
  });

  it('is not sent again when SES’s Send event recorded it SENT during the grace', async () => {
    // Prepare: the sender timed out after SES accepted the mail; its message is back within the grace
    table.put({ ...emailKey, ...email, leaseUntil: NOW - 120_000, claimToken: 'dead-sender' });
    const held = await handler(event(2));
    const applySesEvent = sesEventApplier([]);

    // Act: SES's Send event arrives, minutes late; the message comes back when the grace ends
    clock = NOW + 60_000;
    await applySesEvent(sendEvent);
    clock = NOW + 481_000;
    const redelivered = await handler(event(3));

    // Assess: held, then done without a send; the email SENT once, by the event
    expect(held).toEqual({ batchItemFailures: [{ itemIdentifier: 'm1' }] });
    expect(redelivered).toEqual({ batchItemFailures: [] });
    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(0);
    expect(stored()).toMatchObject({ status: 'SENT', sesMessageId: 'ses-1' });
    expect(sentEvents()).toHaveLength(1);
  });

  it('gives the claim back rather than call SES when its slot came too close to the lease’s end', async () => {
    // Prepare: a queued email; its pacer write waits until 56 s after the claim (8 s are kept for the call)
    table.put({ ...emailKey, ...email, status: 'QUEUED' });
    table.hold('pacer', (command, input) => command === 'Update' && input.Key.PK !== 'PROJECT#P1');
    jest.spyOn(Math, 'random').mockReturnValue(0);
    const running = handler(event(1));
    while (!table.arrived('pacer')) await new Promise((resolve) => setImmediate(resolve));

    // Act
    clock = NOW + 56_000;
    table.release('pacer');
    const response = await running;

    // Assess: not sent, QUEUED again and back after the first backoff
    expect(response).toEqual({ batchItemFailures: [{ itemIdentifier: 'm1' }] });
    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(0);
    expect(stored().status).toBe('QUEUED');
    expect(visibilityTimeouts()).toEqual([1]);
  });

  it('gives the claim back while still waiting for a slot when the invocation is about to time out, so no grace is needed', async () => {
    // Prepare: 9 s left of the invocation (8 s are kept for the call); the pacer does not answer
    table.put({ ...emailKey, ...email, status: 'QUEUED' });
    table.hold('pacer', (command, input) => command === 'Update' && input.Key.PK !== 'PROJECT#P1');
    jest.spyOn(Math, 'random').mockReturnValue(0);
    const context = { getRemainingTimeInMillis: () => 9_000 } as Context;

    // Act
    const response = await handler(event(1), context);
    table.release('pacer');

    // Assess: given back within the invocation, not left SENDING
    expect(response).toEqual({ batchItemFailures: [{ itemIdentifier: 'm1' }] });
    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(0);
    expect(stored().status).toBe('QUEUED');
    expect(stored().leaseUntil).toBeUndefined();
    expect(visibilityTimeouts()).toEqual([1]);
  });
});
