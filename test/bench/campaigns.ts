/**
 * Campaign benchmarks (issue "Campaigns"), reduced to what fits this run:
 * - fan-out of AUDIENCE recipients: recipients queued per second by campaign-dispatch's code
 *   (read the audience page, render, write the email records, queue the messages, checkpoint)
 *   against raw local SQS SendMessageBatch of as many messages, the same chunking, in this run —
 *   target ratio ≥ 0.5.
 * Not measured here (see the README): dispatch peak memory at 10k vs 50k, and /v1/send latency
 * while a campaign drains.
 *
 * The campaign's messages go to queues nobody polls, so the stack's campaign-sender does not take
 * them. Shared modules are imported lazily: the environment must point at the stack first.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CreateQueueCommand, SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { ulid } from 'ulid';
import type { LocalStack } from '../support/local-stack';
import { batchWriteAll, benchDocumentClient } from './dynamo';
import { format, heading, printTable, type Section, type SectionReport } from './report';

const AUDIENCE = 5_000;
const TARGET = { shareOfRaw: 0.5 };
const runId = Date.now().toString(36);
const projectId = `BENCHCAMPAIGN${runId.toUpperCase()}`.slice(0, 26);

const sqsOf = (stack: LocalStack) => new SQSClient({ endpoint: stack.sqsEndpoint, region: 'us-east-1', credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });

async function createQueue(stack: LocalStack, name: string): Promise<string> {
  const { QueueUrl } = await sqsOf(stack).send(new CreateQueueCommand({ QueueName: name }));
  return QueueUrl!;
}

/** Raw SendMessageBatch of `count` messages, 25 batches of 10 in flight at a time (a dispatch page's chunking). */
async function rawFanout(stack: LocalStack, queueUrl: string, count: number): Promise<number> {
  const sqs = sqsOf(stack);
  const started = performance.now();
  for (let page = 0; page < count; page += 250) {
    const size = Math.min(250, count - page);
    await Promise.all(
      Array.from({ length: Math.ceil(size / 10) }, (_, batch) =>
        sqs.send(new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: Array.from({ length: Math.min(10, size - batch * 10) }, (__, index) => ({ Id: String(index), MessageBody: JSON.stringify({ projectId, emailId: ulid() }) })) })),
      ),
    );
  }
  return count / ((performance.now() - started) / 1000);
}

export const campaignsSection: Section = {
  title: 'campaigns',
  async prepare({ stack }) {
    // The audience: AUDIENCE subscribed contacts of a project of their own, written directly.
    const { toItem } = await import('../../shared/contacts/contacts');
    const now = new Date().toISOString();
    const items = Array.from({ length: AUDIENCE }, (_, index) => toItem(projectId, { id: ulid(Date.now() - 60_000), email: `reader${index}-${runId}@example.com`, subscribed: true, data: { name: `Reader ${index}` }, createdAt: now, updatedAt: now }));
    await batchWriteAll(benchDocumentClient(stack), items, 8);
  },
  async run({ stack }): Promise<SectionReport> {
    heading(`campaigns: fan-out of ${AUDIENCE.toLocaleString()} recipients`);
    process.env.CAMPAIGN_SEND_QUEUE_URL = await createQueue(stack, `bench-campaign-send-${runId}`);
    process.env.CAMPAIGN_FANOUT_QUEUE_URL = await createQueue(stack, `bench-campaign-fanout-${runId}`);
    const rawQueue = await createQueue(stack, `bench-raw-${runId}`);
    // Links are signed with the stack's key, as its dispatcher would.
    process.env.UNSUBSCRIBE_SECRET = readFileSync(path.join(stack.dataDir, 'unsubscribe-secret.key'), 'utf8').trim();
    process.env.PUBLIC_API_URL = stack.baseUrl;
    const { processFanoutMessage } = await import('../../shared/campaigns/dispatch');
    const { toItem, startFields } = await import('../../shared/campaigns/store');
    const { documentClient } = await import('../../shared/aws/clients');
    const { PutCommand } = await import('@aws-sdk/lib-dynamodb');
    const { TABLE_NAME } = await import('./dynamo');

    const campaignId = ulid();
    const sentAt = new Date().toISOString();
    const campaign = {
      id: campaignId, name: 'bench', description: null, subject: 'Hello {{contact.data.name}}', body: '<p>Hi {{contact.data.name}} ({{contact.email}}) <a href="{{unsubscribeUrl}}">unsubscribe</a></p>',
      templateId: null, from: { email: 'news@example.com' }, replyTo: null, segmentId: null, status: 'SENDING' as const, scheduledFor: null,
      cancelledAt: null, pausedAt: null, pauseReason: null, createdAt: sentAt, updatedAt: sentAt, version: 1,
      ...startFields(sentAt, { subject: 'Hello {{contact.data.name}}', html: '<p>Hi {{contact.data.name}} ({{contact.email}}) <a href="{{unsubscribeUrl}}">unsubscribe</a></p>', from: { email: 'news@example.com' }, replyTo: null }),
    };
    await documentClient.send(new PutCommand({ TableName: TABLE_NAME, Item: toItem(projectId, campaign) }));

    const raw = await rawFanout(stack, rawQueue, AUDIENCE);
    const started = performance.now();
    // One invocation with time enough for the whole audience (no continuation).
    await processFanoutMessage({ kind: 'dispatch', projectId, campaignId }, undefined, { getRemainingTimeInMillis: () => 900_000 } as never);
    const seconds = (performance.now() - started) / 1000;
    const dispatched = AUDIENCE / seconds;
    const ratio = dispatched / raw;
    printTable(['figure', 'value'], [
      ['campaign fan-out (records + messages + checkpoints)', format.rate(dispatched)],
      ['raw SQS SendMessageBatch, same chunking', format.rate(raw)],
      ['ratio', format.ratio(ratio)],
    ]);
    return {
      rows: [{ figure: `campaign fan-out of ${AUDIENCE} recipients`, value: format.rate(dispatched), baseline: `${format.rate(raw)} raw SendMessageBatch`, ratio: format.ratio(ratio) }],
      verdicts: [{ target: `fan-out ≥ ${TARGET.shareOfRaw}× raw SendMessageBatch`, measured: format.ratio(ratio), pass: ratio >= TARGET.shareOfRaw }],
    };
  },
};
