/**
 * Contact import benchmarks (issue "Bulk contact import and export"):
 * - rows/s of a 100,000-row CSV import by the contact-imports worker's code, against the raw
 *   DynamoDB writes the same upserts need (per new contact: the consistent GetItem of its email
 *   lookup and the TransactWriteItems of contact, lookup and counters), made in this run at the
 *   worker's concurrency (IMPORT_ROW_CONCURRENCY, 16) — target ratio ≥ 0.5;
 * - the worker's peak memory (RSS of a fresh process running only the import) at 10,000 and at
 *   100,000 rows — target within 10 %.
 *
 * The job is created here (its message goes to a queue nobody polls, so the stack's own worker does
 * not take it) and run in a child process (test/bench/import-worker.ts), so that its memory is its own.
 * Shared modules are imported lazily: the environment must point at the stack first.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { CreateQueueCommand, SQSClient } from '@aws-sdk/client-sqs';
import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import type { LocalStack } from '../support/local-stack';
import { benchDocumentClient, TABLE_NAME } from './dynamo';
import { closedLoop } from './measure';
import { format, heading, printTable, type Section, type SectionReport } from './report';

const SIZES = { small: 10_000, large: 100_000 } as const;
const ROW_CONCURRENCY = 16;
const TARGET = { shareOfRaw: 0.5, memoryGrowth: 0.1 };
const runId = Date.now().toString(36);

interface WorkerRun {
  rows: number;
  seconds: number;
  rowsPerSecond: number;
  peakRssMb: number;
  baselineRssMb: number;
  invocations: number;
  status: string;
  created: number;
  failed: number;
}

async function sinkQueueUrl(stack: LocalStack): Promise<string> {
  const sqs = new SQSClient({ endpoint: stack.sqsEndpoint, region: 'us-east-1', credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
  try {
    return (await sqs.send(new CreateQueueCommand({ QueueName: `bench-imports-sink-${runId}` }))).QueueUrl!;
  } finally {
    sqs.destroy();
  }
}

function csvOf(label: string, count: number): Buffer {
  const lines = ['email,subscribed,data.plan,company,city'];
  for (let index = 0; index < count; index++) lines.push(`${label}-${index}@bench.example.com,${index % 3 ? 'yes' : 'no'},${index % 2 ? 'pro' : 'free'},"Company ${index % 500}, Inc.",City ${index % 97}`);
  return Buffer.from(`${lines.join('\r\n')}\r\n`);
}

/** Queues an import of `rows` new contacts (to a queue nobody polls) and runs it in a child process. */
async function runWorker(rows: number, queueUrl: string): Promise<WorkerRun> {
  process.env.IMPORT_QUEUE_URL = queueUrl;
  const { createImport } = await import('../../shared/imports/jobs');
  const projectId = `bench-import-${rows}-${runId}`;
  const { job } = await createImport(projectId, { kind: 'csv', body: csvOf(projectId, rows) }, {});
  const { stdout } = await promisify(execFile)(process.execPath, [path.resolve('node_modules/tsx/dist/cli.mjs'), 'test/bench/import-worker.ts', projectId, job.id], {
    env: process.env,
    maxBuffer: 16 * 1024 * 1024,
    timeout: 3_600_000,
  });
  const run = JSON.parse(stdout.trim().split('\n').pop()!) as WorkerRun;
  if (run.status !== 'COMPLETED' || run.created !== rows) throw new Error(`The ${rows}-row import ended ${run.status} with ${run.created} created`);
  console.log(`  ${rows.toLocaleString('en')} rows: ${format.rate(run.rowsPerSecond)} rows (${run.seconds.toFixed(1)} s, ${run.invocations} invocation(s)), peak RSS ${run.peakRssMb.toFixed(1)} MB (${run.baselineRssMb.toFixed(1)} MB at start)`);
  return run;
}

let rawRuns = 0;

/** The DynamoDB calls of `count` new-contact upserts, made directly, ROW_CONCURRENCY at a time. */
async function rawUpsertRate(stack: LocalStack, seconds: number): Promise<number> {
  // Each run its own addresses: a second run on the first one's would fail every conditional Put.
  const run = ++rawRuns;
  const client = benchDocumentClient(stack);
  const projectId = `bench-import-raw-${runId}`;
  const now = new Date().toISOString();
  try {
    const result = await closedLoop({
      concurrency: ROW_CONCURRENCY,
      seconds,
      warmupSeconds: 1,
      operation: async (n) => {
        const email = `raw-${run}-${n}@bench.example.com`;
        const id = ulid();
        await client.send(new GetCommand({ TableName: TABLE_NAME, Key: { PK: `PROJECT#${projectId}`, SK: `CONTACT_EMAIL#${email}` }, ConsistentRead: true }));
        await client.send(
          new TransactWriteCommand({
            TransactItems: [
              { Put: { TableName: TABLE_NAME, Item: { PK: `PROJECT#${projectId}`, SK: `CONTACT_EMAIL#${email}`, contactId: id }, ConditionExpression: 'attribute_not_exists(PK)' } },
              {
                Put: {
                  TableName: TABLE_NAME,
                  Item: { PK: `PROJECT#${projectId}`, SK: `CONTACT#${id}`, GSI1PK: `PROJECT#${projectId}#CONTACT_EMAILS`, GSI1SK: email, GSI2PK: `PROJECT#${projectId}#CONTACT_DOMAIN#bench.example.com`, GSI2SK: email, GSI3PK: `PROJECT#${projectId}#CONTACT_SUBSCRIBED#true`, GSI3SK: id, contactId: id, email, subscribed: true, data: { plan: 'pro', company: 'Company 1, Inc.', city: 'City 1' }, createdAt: now, updatedAt: now, lastImport: `J#${n}#created` },
                  ConditionExpression: 'attribute_not_exists(PK)',
                },
              },
              { Update: { TableName: TABLE_NAME, Key: { PK: `PROJECT#${projectId}`, SK: 'COUNTER#CONTACTS' }, UpdateExpression: 'ADD #total :one, #subscribed :one', ExpressionAttributeNames: { '#total': 'total', '#subscribed': 'subscribed' }, ExpressionAttributeValues: { ':one': 1 } } },
            ],
          }),
        );
      },
    });
    console.log(`  raw: ${format.rate(result.perSecond)} upserts (${result.completed} in ${seconds} s, ${result.errors} errors), p50 ${format.ms(result.p50Ms)}`);
    return result.perSecond;
  } finally {
    client.destroy();
  }
}

export const importsSection: Section = {
  title: 'Imports',

  async run({ stack, seconds }): Promise<SectionReport> {
    heading('Imports: the worker at 10,000 and 100,000 rows, raw upserts between');
    const queueUrl = await sinkQueueUrl(stack);
    const small = await runWorker(SIZES.small, queueUrl);
    const rawBefore = await rawUpsertRate(stack, seconds);
    const large = await runWorker(SIZES.large, queueUrl);
    const rawAfter = await rawUpsertRate(stack, seconds);
    const raw = (rawBefore + rawAfter) / 2;
    const ratio = large.rowsPerSecond / raw;
    const memoryGrowth = large.peakRssMb / small.peakRssMb - 1;
    printTable(
      ['Figure', 'Value', 'Baseline', 'Ratio'],
      [
        [`import rows/s, ${SIZES.large.toLocaleString('en')} rows`, format.rate(large.rowsPerSecond), `raw upserts ${format.rate(raw)}`, format.ratio(ratio)],
        ['worker peak RSS, 100k vs 10k rows', `${large.peakRssMb.toFixed(1)} MB`, `${small.peakRssMb.toFixed(1)} MB`, format.ratio(large.peakRssMb / small.peakRssMb)],
      ],
    );
    return {
      rows: [
        { figure: `Import rows/s (${SIZES.large.toLocaleString('en')}-row CSV, worker)`, value: format.rate(large.rowsPerSecond), baseline: `raw upserts ${format.rate(raw)} (c=${ROW_CONCURRENCY})`, ratio: format.ratio(ratio) },
        { figure: 'Import worker peak RSS, 100k vs 10k rows', value: `${large.peakRssMb.toFixed(1)} MB`, baseline: `${small.peakRssMb.toFixed(1)} MB`, ratio: format.ratio(large.peakRssMb / small.peakRssMb) },
      ],
      verdicts: [
        { target: `import rows/s ≥ ${TARGET.shareOfRaw}× the raw upserts`, measured: format.ratio(ratio), pass: ratio >= TARGET.shareOfRaw },
        { target: `worker peak memory at 100k within ${TARGET.memoryGrowth * 100} % of 10k`, measured: `${(memoryGrowth * 100).toFixed(1)} %`, pass: Math.abs(memoryGrowth) <= TARGET.memoryGrowth },
      ],
    };
  },
};
