/**
 * Cost per email (issue 27 item 1: "≤ 1.10× SES, for 1M transactional emails (one recipient each,
 * 2 KB HTML, contacts that exist) and for a 100,000-recipient campaign"): what AWS bills besides SES,
 * from the calls the real handlers make in this process (test/bench/billing.ts):
 *
 * - Transactional, one email at a time as mail that arrives spread out does (SQS batches of one, no
 *   slot to wait for): POST /v1/send to a contact that exists (the public function, the authorizer's
 *   answer cached per key), the sender on the message the API queued (caught, never reaching the
 *   stack's sender), then ses-events on SES's Send and Delivery events of the email. Also for a
 *   20 KB email, informational.
 * - Campaign, as a backlog drains: the dispatch of a campaign to a fresh audience, every message it
 *   queued run through the campaign sender ten to an invocation (the event source's batch), each
 *   email's Send and Delivery events through ses-events. At full rate every campaign-sender
 *   instance holds a batch and sleeps for its slots, so its billed duration is its memory ×
 *   maxConcurrency ÷ the send rate per email, not the measured handler time.
 *
 * - Both: the emails' events through delivery-counters, which counts them from the table stream in
 *   batches of what its batching window gathers (infra/streams.ts) at the rate assumed: 1 million
 *   transactional emails spread over a month, a campaign at the send rate.
 *
 * Counted rather than measured: API Gateway requests (one per send) and the SQS requests Lambda's
 * poller makes (ReceiveMessage and DeleteMessageBatch per batch). Lambda duration is this process's
 * wall time per invocation at the template's memory size: on a loaded two-core machine beside the
 * emulators it over-states AWS.
 *
 * Verdicts: each total ÷ its SES charge ≤ 1.10.
 *
 * Imported only after pointServiceAtStack and pointQueuesAtStack.
 */
import path from 'node:path';
import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import { handler as campaignSenderHandler } from '../../functions/campaign-sender/handler';
import { handler as deliveryCountersHandler } from '../../functions/delivery-counters/handler';
import { handler as publicHandler } from '../../functions/public/handler';
import { handler as senderHandler } from '../../functions/sender/handler';
import { handler as sesEventsHandler } from '../../functions/ses-events/handler';
import { pascal } from '../../infra/names';
import { queues } from '../../infra/queues';
import { streamConsumers } from '../../infra/streams';
import { readCloudAssembly, resourcesOfType } from '../../infra/local/template/cloud-assembly';
import { localFunctionName } from '../../infra/local/template/resources';
import { campaignKeys } from '../../shared/campaigns/keys';
import { estimateCost, listPrices } from '../../shared/campaigns/cost';
import { processFanoutMessage } from '../../shared/campaigns/dispatch';
import { startFields, toItem } from '../../shared/campaigns/store';
import { toItem as contactItem } from '../../shared/contacts/contacts';
import { documentClient } from '../../shared/aws/clients';
import { tableName } from '../../shared/db/table';
import { eventIdsNamedBy, fromItem } from '../../shared/emails/emails';
import { emailKeys } from '../../shared/emails/keys';
import { eventKeys } from '../../shared/events/keys';
import type { LocalStack } from '../support/local-stack';
import { billed, emptyBill, invocation, perUnit, type Bill } from './billing';
import { authorize, invokeHandler } from './calls';
import { batchWriteAll, benchDocumentClient, unsubscribeSecret } from './dynamo';
import { lambdaContext, sesEvent, sqsEvent, streamInsert, type ApiRequest } from './events';
import { printTable, heading, type Section, type Verdict } from './report';

const TRANSACTIONAL_SAMPLES = 20;
const LARGE_SAMPLES = 5;
const CAMPAIGN_RECIPIENTS = 100;
const TARGET_RATIO = 1.1;
/** The send rate a deployment has unless told otherwise (shared/sending/sender.ts): the campaign's slot waits are billed at it. */
const DEFAULT_SEND_RATE = 14;
const FROM = `hello@${process.env.LOCAL_SENDER_DOMAIN || 'example.com'}`;
const runId = Date.now().toString(36);

const WORDS = 'account address after again answer began below between birthday building careful center change children company course delivery different during early enough example family finally friends garden group happened important instead invoice language letter listen minute morning mountain nothing number order others paper people picture plant problem question quickly receipt remember report river second several shipping should simple something sometimes special started story subscription summer through together tomorrow toward travel update usually village weather welcome without workshop'.split(' ');

/**
 * An HTML body of `bytes` (the issue's 2 KB email, and 20 KB) that compresses as prose does (to
 * about a third): words drawn by a fixed pseudo-random sequence, in paragraphs, with links. A
 * repeated sentence would compress fiftyfold and flatter the content item.
 */
function htmlOf(bytes: number): string {
  let seed = 1;
  const next = () => (seed = (seed * 48271) % 2147483647);
  let html = '<p>Hello {{email}},</p>';
  while (html.length < bytes) {
    const words = Array.from({ length: 12 + (next() % 30) }, () => WORDS[next() % WORDS.length]!);
    html += next() % 4 === 0 ? `<p>${words.join(' ')} <a href="https://example.com/${words[0]}?id=${next()}">${words[1]}</a></p>` : `<p>${words.join(' ')}.</p>`;
  }
  return html.slice(0, bytes);
}

interface FunctionSpec {
  memoryMb: number;
}

/** Every function's memory size by name, from the template the stack runs. */
function functionMemory(stack: LocalStack): Map<string, FunctionSpec> {
  const assembly = readCloudAssembly(path.join(stack.dataDir, 'cdk.out'));
  return new Map([...resourcesOfType(assembly.template, 'AWS::Lambda::Function')].map(([logicalId, resource]) => [localFunctionName(resource, logicalId), { memoryMb: Number(resource.Properties?.MemorySize ?? 128) }]));
}

function consumerOf(group: string) {
  const queue = queues.find((candidate) => candidate.consumer?.group === group);
  const url = queue && process.env[queue.envVar];
  if (!queue?.consumer || !url) throw new Error(`No queue URL for the ${group} consumer: run pointQueuesAtStack first`);
  return { url, name: queue.name, batchSize: queue.consumer.batchSize, maxConcurrency: queue.consumer.maxConcurrency };
}

function memoryOf(functions: Map<string, FunctionSpec>, group: string): number {
  const name = `Mailwright-${pascal(group)}Function`;
  const spec = functions.get(name);
  if (!spec) throw new Error(`The template has no function ${name} (it has ${[...functions.keys()].join(', ')})`);
  return spec.memoryMb;
}

/** One step of an email's life, billed per email. */
interface Step {
  label: string;
  bill: Bill;
}

const sendRequest = (secretKey: string, to: string, html: string): ApiRequest => ({ method: 'POST', resource: '/v1/send', secretKey, body: { from: FROM, to, subject: 'Cost {{email}}', body: html } });

async function emailOf(projectId: string, emailId: string) {
  const { Item } = await documentClient.send(new GetCommand({ TableName: tableName, Key: emailKeys.email(projectId, emailId), ConsistentRead: true }));
  if (!Item) throw new Error(`Email ${emailId} is not in the table`);
  return Item as { id: string; projectId: string; source: { type: string }; sesMessageId?: string; status: string };
}

/** SES's Send and Delivery events of each email through ses-events, one invocation each. */
async function deliver(bill: Bill, memoryMb: number, projectId: string, emailIds: string[]) {
  for (const emailId of emailIds) {
    const email = await emailOf(projectId, emailId);
    const messageId = email.sesMessageId ?? `cost-${email.id}`;
    for (const type of ['Send', 'Delivery'] as const) {
      await invocation(bill, memoryMb, () => sesEventsHandler(sesEvent(email, type, messageId), lambdaContext('mailwright-ses-events')));
    }
    const delivered = await emailOf(projectId, emailId);
    if (delivered.status !== 'DELIVERED') throw new Error(`Email ${emailId} ended ${delivered.status}, not DELIVERED`);
  }
}

/** The delivery-counters consumer's mapping (infra/streams.ts): its batch size and batching window. */
const countersConsumer = streamConsumers.find((spec) => spec.group === 'delivery-counters')!;

/**
 * How many email events the table stream hands delivery-counters at once when `emailsPerSecond`
 * arrive: what its batching window gathers, at most its batch size; each email has two (sent,
 * delivered).
 */
const countedPerBatch = (emailsPerSecond: number) => Math.max(1, Math.min(countersConsumer.batchSize, Math.round(emailsPerSecond * 2 * countersConsumer.batchingWindowSeconds!)));

/** 1 million emails in a 30-day month, spread out: the rate the transactional figures assume. */
const MILLION_A_MONTH_PER_SECOND = 1_000_000 / (30 * 86_400);

let streamSequence = 10n ** 20n;

/** The emails' events that carry a tally, read unbilled (in the email index, or named by the record): the stream hands them to delivery-counters. */
async function countedEvents(projectId: string, emailIds: string[]): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  for (const emailId of emailIds) {
    const { Items = [] } = await documentClient.send(
      new QueryCommand({ TableName: tableName, IndexName: 'GSI3', KeyConditionExpression: 'GSI3PK = :pk', ExpressionAttributeValues: { ':pk': eventKeys.byEmailPartition(projectId, emailId) } }),
    );
    const { Item: record } = await documentClient.send(new GetCommand({ TableName: tableName, Key: emailKeys.email(projectId, emailId) }));
    const named = await Promise.all(eventIdsNamedBy(fromItem(record!)).map((id) => documentClient.send(new GetCommand({ TableName: tableName, Key: eventKeys.event(projectId, id) }))));
    items.push(...[...Items, ...named.flatMap(({ Item }) => (Item ? [Item] : []))].filter((item) => item.tally !== undefined));
  }
  if (items.length !== 2 * emailIds.length) throw new Error(`${items.length} counted events for ${emailIds.length} emails, not 2 each`);
  return items;
}

/** The events through delivery-counters as the table stream hands them over, `perBatch` to an invocation, in a stream order of their own. */
async function count(bill: Bill, memoryMb: number, items: Record<string, unknown>[], perBatch: number) {
  for (let start = 0; start < items.length; start += perBatch) {
    const records = items.slice(start, start + perBatch).map((item) => streamInsert(item, ++streamSequence, `cost-${runId}-${streamSequence}`));
    await invocation(bill, memoryMb, async () => {
      const result = await deliveryCountersHandler({ Records: records }, lambdaContext('mailwright-delivery-counters'));
      if (result.batchItemFailures.length > 0) throw new Error('The in-process delivery-counters failed a batch (its log says why)');
    });
  }
}

/** `samples` transactional emails of `htmlBytes` to one existing contact, end to end, per email. */
async function billTransactional(stack: LocalStack, functions: Map<string, FunctionSpec>, samples: number, htmlBytes: number): Promise<Step[]> {
  const harness = benchDocumentClient(stack);
  const sendQueue = consumerOf('sender');
  const html = htmlOf(htmlBytes);
  const to = `cost-${runId}-${htmlBytes}@bench.example.com`;
  const request = sendRequest(stack.secretKey, to, html);
  const authorization = await authorize(request);
  // Unbilled: the contact exists afterwards, and module caches are warm.
  await billed(emptyBill(), harness, [sendQueue.url], () => invokeHandler(publicHandler, 'mailwright-public', request, authorization, 200));

  const api = emptyBill();
  const sender = emptyBill();
  const sesEvents = emptyBill();
  const emailIds: string[] = [];
  for (let n = 0; n < samples; n++) {
    await billed(api, harness, [sendQueue.url], () => invocation(api, memoryOf(functions, 'public'), () => invokeHandler(publicHandler, 'mailwright-public', request, authorization, 200)));
    api.apiRequests++;
    const message = api.caught.splice(0).map((caught) => caught.body);
    if (message.length !== 1) throw new Error(`POST /v1/send queued ${message.length} messages, not 1`);
    const { emailId } = JSON.parse(message[0]!) as { emailId: string };
    await billed(sender, harness, [], () =>
      invocation(sender, memoryOf(functions, 'sender'), async () => {
        const result = await senderHandler(sqsEvent(message, sendQueue.name), lambdaContext('mailwright-sender'));
        if (result.batchItemFailures.length > 0) throw new Error('The in-process sender failed the email (its log says why)');
      }),
    );
    await billed(sesEvents, harness, [], () => deliver(sesEvents, memoryOf(functions, 'ses-events'), stack.projectId, [emailId]));
    emailIds.push(emailId);
  }
  // Lambda's poller: one ReceiveMessage and one DeleteMessageBatch per batch, here of one.
  sender.sqsRequests += 2 * samples;
  const counters = emptyBill();
  const perBatch = countedPerBatch(MILLION_A_MONTH_PER_SECOND);
  const events = await countedEvents(stack.projectId, emailIds);
  await billed(counters, harness, [], () => count(counters, memoryOf(functions, 'delivery-counters'), events, perBatch));
  return [
    { label: 'API: POST /v1/send, existing contact', bill: perUnit(api, samples) },
    { label: 'sender: a batch of one', bill: perUnit(sender, samples) },
    { label: 'ses-events: Send + Delivery', bill: perUnit(sesEvents, samples) },
    { label: `delivery-counters: ${perBatch} events a batch (1 M a month)`, bill: perUnit(counters, samples) },
  ];
}

/** A campaign to `recipients` fresh contacts: its dispatch, its mail through the campaign sender in full batches, its SES events; per email. */
async function billCampaign(stack: LocalStack, functions: Map<string, FunctionSpec>, recipients: number, ratePerSecond: number): Promise<Step[]> {
  const harness = benchDocumentClient(stack);
  const campaignQueue = consumerOf('campaign-sender');
  // A project of its own: a segment-less campaign's audience is every subscribed contact of its
  // project created before it was sent, and other sections seed the stack's project with thousands.
  const projectId = `bench-cost-${runId}`;
  process.env.UNSUBSCRIBE_SECRET ??= unsubscribeSecret(stack);
  // Unbilled seeding, ids from a minute ago: created before the campaign was sent.
  const now = new Date().toISOString();
  await batchWriteAll(
    harness,
    Array.from({ length: recipients }, (_, index) => contactItem(projectId, { id: ulid(Date.now() - 60_000), email: `cost-${runId}-${index}@campaign.example.com`, subscribed: true, data: {}, createdAt: now, updatedAt: now })),
  );
  const campaignId = ulid();
  const html = htmlOf(2048);
  const from = { email: FROM };
  const subject = 'Cost {{contact.email}}';
  await documentClient.send(
    new PutCommand({
      TableName: tableName,
      Item: toItem(projectId, {
        id: campaignId, name: 'cost bench', description: null, subject, body: html, text: null, templateId: null, from, replyTo: null, segmentId: null, status: 'SENDING',
        scheduledFor: null, cancelledAt: null, pausedAt: null, pauseReason: null, createdAt: now, updatedAt: now, version: 1, ...startFields(now, { subject, html, from, replyTo: null }),
      } as never),
    }),
  );

  const dispatch = emptyBill();
  const dispatchMemory = memoryOf(functions, 'campaign-dispatch');
  for (let round = 0; round < 20; round++) {
    await billed(dispatch, harness, [campaignQueue.url], () => invocation(dispatch, dispatchMemory, () => processFanoutMessage({ kind: 'dispatch', projectId, campaignId }, undefined, lambdaContext('mailwright-campaign-dispatch'))));
    const { Item } = await documentClient.send(new GetCommand({ TableName: tableName, Key: campaignKeys.campaign(projectId, campaignId), ConsistentRead: true }));
    if ((Item?.dispatch as { done?: boolean } | undefined)?.done) break;
  }
  const messages = dispatch.caught.splice(0).map((caught) => caught.body);
  const emailIds = messages.map((body) => (JSON.parse(body) as { emailId: string }).emailId);
  if (messages.length < recipients) throw new Error(`The dispatch queued ${messages.length} messages for at least ${recipients} recipients`);

  const sender = emptyBill();
  const senderMemory = memoryOf(functions, 'campaign-sender');
  for (let start = 0; start < messages.length; start += campaignQueue.batchSize) {
    const batch = messages.slice(start, start + campaignQueue.batchSize);
    await billed(sender, harness, [], () =>
      invocation(sender, senderMemory, async () => {
        const result = await campaignSenderHandler(sqsEvent(batch, campaignQueue.name), lambdaContext('mailwright-campaign-sender'));
        if (result.batchItemFailures.length > 0) throw new Error('The in-process campaign sender failed mail (its log says why)');
      }),
    );
    sender.sqsRequests += 2; // the poller's ReceiveMessage and DeleteMessageBatch
  }
  const sesEvents = emptyBill();
  await billed(sesEvents, harness, [], () => deliver(sesEvents, memoryOf(functions, 'ses-events'), projectId, emailIds));

  const counters = emptyBill();
  const perBatch = countedPerBatch(ratePerSecond);
  const events = await countedEvents(projectId, emailIds);
  await billed(counters, harness, [], () => count(counters, memoryOf(functions, 'delivery-counters'), events, perBatch));

  const emails = messages.length;
  const senderPerEmail = perUnit(sender, emails);
  const measuredGbSeconds = senderPerEmail.lambdaGbSeconds;
  // At full rate the instances sleep for their slots while billed: memory × instances ÷ rate.
  senderPerEmail.lambdaGbSeconds = Math.max(measuredGbSeconds, ((senderMemory / 1024) * campaignQueue.maxConcurrency) / ratePerSecond);
  console.log(
    `  campaign sender duration: measured ${(measuredGbSeconds * 1000).toFixed(1)} mGB-s per email; at full rate ${campaignQueue.maxConcurrency} instances × ${senderMemory} MB ÷ ${ratePerSecond}/s = ${(senderPerEmail.lambdaGbSeconds * 1000).toFixed(1)} mGB-s`,
  );
  return [
    { label: `dispatch (${emails} recipients)`, bill: perUnit(dispatch, emails) },
    { label: `campaign sender: batches of ${campaignQueue.batchSize}`, bill: senderPerEmail },
    { label: 'ses-events: Send + Delivery', bill: perUnit(sesEvents, emails) },
    { label: `delivery-counters: ${perBatch} events a batch`, bill: perUnit(counters, emails) },
  ];
}

// ---------------------------------------------------------------------------------------------
// Dollars

interface Dollars {
  ses: number;
  dynamoWrites: number;
  dynamoReads: number;
  lambdaRequests: number;
  lambdaDuration: number;
  sqs: number;
  apiGateway: number;
}

/** What `emails` emails cost, each billed as the steps together. */
function dollarsFor(steps: Step[], emails: number): Dollars {
  const sum = (pick: (bill: Bill) => number) => steps.reduce((total, step) => total + pick(step.bill), 0) * emails;
  return {
    ses: (sum((bill) => bill.sesRequests) * listPrices.sesPer1000) / 1000,
    dynamoWrites: (sum((bill) => bill.writeUnits + bill.refusedWrites) * listPrices.dynamoWritePerMillion) / 1e6,
    dynamoReads: (sum((bill) => bill.readUnits) * listPrices.dynamoReadPerMillion) / 1e6,
    lambdaRequests: (sum((bill) => bill.lambdaInvocations) * listPrices.lambdaRequestsPerMillion) / 1e6,
    lambdaDuration: sum((bill) => bill.lambdaGbSeconds) * listPrices.lambdaGbSecond,
    sqs: (sum((bill) => bill.sqsRequests) * listPrices.sqsPerMillion) / 1e6,
    apiGateway: (sum((bill) => bill.apiRequests) * listPrices.apiRequestsPerMillion) / 1e6,
  };
}

const total = (dollars: Dollars) => Object.values(dollars).reduce((sum, value) => sum + value, 0);
const usd = (value: number) => `$${value.toFixed(2)}`;
const figure = (value: number) => (value === 0 ? '0' : value < 0.1 ? value.toFixed(3) : value.toFixed(2));

function printSteps(steps: Step[]) {
  printTable(
    ['per email', 'invocations', 'DynamoDB calls', 'WRU', 'RRU', 'refused writes', 'SQS', 'SES', 'API', 'GB-s'],
    steps.map(({ label, bill }) => [
      label,
      figure(bill.lambdaInvocations),
      `${figure(Object.values(bill.dynamoCalls).reduce((sum, calls) => sum + calls, 0))} (${Object.entries(bill.dynamoCalls).map(([command, calls]) => `${command} ${figure(calls)}`).join(', ')})`,
      `${figure(bill.writeUnits)} (${Object.entries(bill.writeUnitsBy).filter(([, units]) => units > 0).map(([command, units]) => `${command} ${figure(units)}`).join(', ')})`,
      figure(bill.readUnits),
      figure(bill.refusedWrites),
      figure(bill.sqsRequests),
      figure(bill.sesRequests),
      figure(bill.apiRequests),
      figure(bill.lambdaGbSeconds),
    ]),
  );
}

function printDollars(title: string, dollars: Dollars) {
  const all = total(dollars);
  console.log(`  ${title}`);
  printTable(
    ['', 'USD', 'share'],
    [
      ['SES', usd(dollars.ses), `${((dollars.ses / all) * 100).toFixed(0)} %`],
      ['DynamoDB writes', usd(dollars.dynamoWrites), `${((dollars.dynamoWrites / all) * 100).toFixed(0)} %`],
      ['DynamoDB reads', usd(dollars.dynamoReads), `${((dollars.dynamoReads / all) * 100).toFixed(0)} %`],
      ['Lambda requests', usd(dollars.lambdaRequests), `${((dollars.lambdaRequests / all) * 100).toFixed(0)} %`],
      ['Lambda duration', usd(dollars.lambdaDuration), `${((dollars.lambdaDuration / all) * 100).toFixed(0)} %`],
      ['SQS', usd(dollars.sqs), `${((dollars.sqs / all) * 100).toFixed(0)} %`],
      ['API Gateway', usd(dollars.apiGateway), `${((dollars.apiGateway / all) * 100).toFixed(0)} %`],
      ['total', usd(all), `${(all / dollars.ses).toFixed(3)}× SES`],
    ],
  );
}

/** The README's cost model (shared/campaigns/cost.ts) beside this measurement: they should agree. */
function printModel(kind: 'transactional' | 'campaign', emails: number, measured: Dollars) {
  const model = estimateCost(emails, kind, listPrices);
  console.log(`  the cost model (shared/campaigns/cost.ts, the README's page) says ${usd(model.total)} (${(model.total / model.ses).toFixed(3)}× SES); measured here ${usd(total(measured))}`);
}

function verdict(target: string, dollars: Dollars): Verdict {
  const ratio = total(dollars) / dollars.ses;
  return { target: `cost: ${target} ≤ ${TARGET_RATIO.toFixed(2)}× SES`, measured: `${ratio.toFixed(3)}× (${usd(total(dollars))} for ${usd(dollars.ses)} of SES)`, pass: ratio <= TARGET_RATIO };
}

export const costSection: Section = {
  title: 'Cost',

  async run({ stack }) {
    const functions = functionMemory(stack);
    const rate = DEFAULT_SEND_RATE;

    heading(`Cost: 1 million transactional emails (2 KB HTML, contacts that exist), ${TRANSACTIONAL_SAMPLES} sent through the real handlers`);
    const transactional = await billTransactional(stack, functions, TRANSACTIONAL_SAMPLES, 2048);
    printSteps(transactional);
    const transactionalDollars = dollarsFor(transactional, 1_000_000);
    printDollars('1,000,000 emails:', transactionalDollars);
    printModel('transactional', 1_000_000, transactionalDollars);

    heading(`Cost: the same with 20 KB of HTML (${LARGE_SAMPLES} emails, informational)`);
    const large = await billTransactional(stack, functions, LARGE_SAMPLES, 20 * 1024);
    printSteps(large);
    const largeDollars = dollarsFor(large, 1_000_000);
    printDollars('1,000,000 emails of 20 KB:', largeDollars);

    heading(`Cost: a 100,000-recipient campaign (2 KB HTML), ${CAMPAIGN_RECIPIENTS} recipients through the real handlers, slot waits billed at the default ${rate}/s`);
    const campaign = await billCampaign(stack, functions, CAMPAIGN_RECIPIENTS, rate);
    printSteps(campaign);
    const campaignDollars = dollarsFor(campaign, 100_000);
    printDollars('100,000 recipients:', campaignDollars);
    printModel('campaign', 100_000, campaignDollars);

    return {
      rows: [
        { figure: 'transactional email, total ÷ SES', value: `${(total(transactionalDollars) / transactionalDollars.ses).toFixed(3)}×`, baseline: 'SES alone', ratio: `${(total(transactionalDollars) / transactionalDollars.ses).toFixed(3)}×` },
        { figure: 'transactional 20 KB email, total ÷ SES', value: `${(total(largeDollars) / largeDollars.ses).toFixed(3)}×`, baseline: 'SES alone', ratio: `${(total(largeDollars) / largeDollars.ses).toFixed(3)}×` },
        { figure: 'campaign recipient, total ÷ SES', value: `${(total(campaignDollars) / campaignDollars.ses).toFixed(3)}×`, baseline: 'SES alone', ratio: `${(total(campaignDollars) / campaignDollars.ses).toFixed(3)}×` },
      ],
      verdicts: [verdict('1M transactional emails', transactionalDollars), verdict('a 100,000-recipient campaign', campaignDollars)],
    };
  },
};
