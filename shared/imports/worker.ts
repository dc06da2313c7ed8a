import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../aws/clients';
import { integerEnv } from '../config/env';
import { variables } from '../config/variables';
import { upsertImportRow, type ImportOutcome } from '../contacts/contacts';
import { tableName } from '../db/table';
import { updateIfStill } from '../db/transactions';
import { ApiError, isDependencyUnavailable } from '../http/errors';
import { logger } from '../observability/logger';
import { payloadStream } from '../payloads/payloads';
import { RetryLater } from '../queue/errors';
import { importLimits, readImport, type StoredImportJob } from './jobs';
import { importKeys } from './keys';
import { collapseDuplicates, csvColumns, csvRow, FileProblem, jsonRow, type CsvColumns, type ImportRow, type ParsedRow, type RowError } from './rows';
import { csvRecords, InvalidJsonLine, jsonLineRecords, type SourceRecord } from './source';

/**
 * The contact-imports worker's loop. The file is streamed from the job's checkpoint (a Range GET
 * from `nextByte`) in batches of BATCH_ROWS rows. Per batch: parse and validate each row, fold
 * rows with the same email into the last of them, upsert the contacts (ROW_CONCURRENCY at a
 * time, through upsertImportRow: the rules of POST /contacts), then move the checkpoint and add
 * the batch's counts in ONE conditional UpdateItem of the job (`nextRow` must still be where the
 * batch began). So the counts and the checkpoint move together, and a batch interrupted before
 * that update (a crash, a timeout) is applied again from the same checkpoint: the rows it had
 * written find their own mark on the contact and report the outcome they had, so nothing is
 * counted twice (see upsertImportRow). A second worker on the same job (a duplicate message)
 * loses the condition and stops.
 *
 * Duplicates across batches: each contact carries the last row of this job that wrote it, so a
 * later row of the same email is applied (the last row wins) and counted as a duplicate, without
 * any per-job set of seen emails: memory stays flat whatever the file's size.
 */
const BATCH_ROWS = 200;
/** Upserts in flight per worker; with the queue's maxConcurrency, the import's share of DynamoDB. */
const ROW_CONCURRENCY = integerEnv(variables.importRowConcurrency, 16, { max: 64 });

export type ImportRunOutcome = 'DONE' | 'CONTINUE';

/**
 * After a dependency stayed busy or failing through the SDK's retries (DynamoDB throttling, an S3
 * or SQS 5xx): back from the checkpoint in this many seconds, not after the queue's visibility
 * timeout (30 minutes, meant for a crashed invocation).
 */
const DEPENDENCY_RETRY_SECONDS = 5;

class Superseded extends Error {}

interface BatchEntry {
  row: number;
  parsed: ParsedRow;
}

export async function runImport(projectId: string, jobId: string, deadline: number): Promise<ImportRunOutcome> {
  let job: StoredImportJob;
  try {
    job = await readImport(projectId, jobId);
  } catch (error) {
    if (error instanceof ApiError && error.statusCode === 404) return 'DONE';
    throw error;
  }
  if (job.status === 'COMPLETED' || job.status === 'FAILED' || !job.queuedAt || !job.format) return 'DONE';
  if (job.status === 'QUEUED') job = await markProcessing(job);
  const progress = { batches: 0 };
  try {
    return await processFrom(job, deadline, progress);
  } catch (error) {
    if (error instanceof Superseded) return 'DONE';
    if (error instanceof FileProblem) {
      await finish(job.projectId, job.id, await currentRow(job), { status: 'FAILED', failure: { code: error.code, message: error.message } });
      return 'DONE';
    }
    if (isDependencyUnavailable(error)) {
      // The batch in progress is applied again from the checkpoint (nothing counted twice). After
      // progress, a new message continues the job (its receives start again: a long import under
      // faults never runs out of them); without, this message comes back soon, towards the DLQ.
      logger.warn('A dependency was unavailable; the import continues from its checkpoint', { projectId, jobId, batchesApplied: progress.batches, error: error as Error });
      if (progress.batches > 0) return 'CONTINUE';
      throw new RetryLater(DEPENDENCY_RETRY_SECONDS, `A dependency was unavailable: ${(error as Error).name}`);
    }
    throw error;
  }
}

async function processFrom(initial: StoredImportJob, deadline: number, progress: { batches: number }): Promise<ImportRunOutcome> {
  let job = initial;
  const stream = await payloadStream(job.objectKey, job.nextByte);
  const records: AsyncGenerator<SourceRecord<unknown>> = job.format === 'csv' ? csvRecords(stream, job.nextByte) : jsonLineRecords(stream, job.nextByte);
  let columns: CsvColumns | undefined = job.header ? csvColumns(job.header) : undefined;
  let newHeader: string[] | undefined;
  let batch: BatchEntry[] = [];
  let batchEnd = job.nextByte;
  let row = job.nextRow;
  try {
    for await (const record of records) {
      if (job.format === 'csv' && !columns) {
        newHeader = record.value as string[];
        columns = csvColumns(newHeader);
        batchEnd = record.end;
        continue;
      }
      row += 1;
      batch.push({ row, parsed: columns ? csvRow(record.value as string[], columns) : parseJsonRecord(record.value) });
      batchEnd = record.end;
      if (batch.length >= BATCH_ROWS) {
        job = await applyBatch(job, batch, batchEnd, newHeader);
        progress.batches += 1;
        batch = [];
        newHeader = undefined;
        if (Date.now() >= deadline) return 'CONTINUE';
      }
    }
  } finally {
    await records.return(undefined);
  }
  if (batch.length > 0 || newHeader) job = await applyBatch(job, batch, batchEnd, newHeader);
  if (job.nextRow === 0) {
    const problem = job.format === 'csv' ? 'The file has a header row but no contacts' : 'The file has no contacts';
    await finish(job.projectId, job.id, 0, { status: 'FAILED', failure: { code: 'EMPTY_FILE', message: problem } });
  } else {
    await finish(job.projectId, job.id, job.nextRow, { status: 'COMPLETED', failure: null });
  }
  return 'DONE';
}

const parseJsonRecord = (value: unknown): ParsedRow =>
  value instanceof InvalidJsonLine ? { ok: false, error: { code: 'INVALID_JSON', message: 'The line is not valid JSON' } } : jsonRow(value);

async function applyBatch(job: StoredImportJob, batch: BatchEntry[], end: number, header: string[] | undefined): Promise<StoredImportJob> {
  const errors: RowError[] = [];
  const valid: { row: number; value: ImportRow }[] = [];
  for (const entry of batch) {
    if (entry.parsed.ok) valid.push({ row: entry.row, value: entry.parsed.row });
    else errors.push({ row: entry.row, ...entry.parsed.error });
  }
  const { changes, folded } = collapseDuplicates(valid);
  const counts: Record<ImportOutcome, number> = { created: 0, updated: 0, skipped: 0, duplicate: folded.length };
  await inParallel(changes, ROW_CONCURRENCY, async ({ row, value }) => {
    try {
      const outcome = await upsertImportRow(job.projectId, value.email, value, {
        mark: { jobId: job.id, row },
        defaultSubscribed: job.options.subscribed,
        updateExisting: job.options.updateExisting,
      });
      counts[outcome] += 1;
    } catch (error) {
      if (!(error instanceof ApiError) || error.statusCode >= 500) throw error;
      const first = error.errors?.[0];
      errors.push({ row, email: value.email, code: first?.code ?? error.code, message: first ? `${first.field}: ${first.message}` : error.message });
    }
  });
  errors.sort((a, b) => a.row - b.row);
  const reported = errors.slice(0, Math.max(0, importLimits.maxReportedErrors - job.errors.length));
  const nextRow = job.nextRow + batch.length;
  try {
    const { Attributes } = await documentClient.send(
      new UpdateCommand({
        TableName: tableName,
        Key: importKeys.job(job.projectId, job.id),
        // Every attribute by alias: some of these names are DynamoDB reserved words.
        UpdateExpression:
          'SET #nextRow = :nextRow, #nextByte = :nextByte, #processed = :nextRow, #errors = list_append(#errors, :errors)' +
          (header ? ', #header = :header' : '') +
          ' ADD #created :created, #updated :updated, #skipped :skipped, #duplicates :duplicates, #failed :failed',
        ConditionExpression: '#nextRow = :fromRow AND #status = :processing',
        ExpressionAttributeNames: {
          '#status': 'status',
          ...Object.fromEntries(['nextRow', 'nextByte', 'processed', 'errors', 'created', 'updated', 'skipped', 'duplicates', 'failed'].map((name) => [`#${name}`, name])),
          ...(header ? { '#header': 'header' } : {}),
        },
        ExpressionAttributeValues: {
          ':nextRow': nextRow,
          ':nextByte': end,
          ':errors': reported,
          ...(header ? { ':header': header } : {}),
          ':created': counts.created,
          ':updated': counts.updated,
          ':skipped': counts.skipped,
          ':duplicates': counts.duplicate,
          ':failed': errors.length,
          ':fromRow': job.nextRow,
          ':processing': 'PROCESSING',
        },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return Attributes as StoredImportJob;
  } catch (error) {
    if ((error as Error).name === 'ConditionalCheckFailedException') throw new Superseded();
    throw error;
  }
}

async function markProcessing(job: StoredImportJob): Promise<StoredImportJob> {
  try {
    const { Attributes } = await documentClient.send(
      new UpdateCommand({
        TableName: tableName,
        Key: importKeys.job(job.projectId, job.id),
        UpdateExpression: 'SET #status = :processing, #startedAt = :now',
        ConditionExpression: '#status = :queued',
        ExpressionAttributeNames: { '#status': 'status', '#startedAt': 'startedAt' },
        ExpressionAttributeValues: { ':processing': 'PROCESSING', ':queued': 'QUEUED', ':now': new Date().toISOString() },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return Attributes as StoredImportJob;
  } catch (error) {
    if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
    return readImport(job.projectId, job.id);
  }
}

const currentRow = async (job: StoredImportJob) => (await readImport(job.projectId, job.id)).nextRow;

/** PROCESSING → COMPLETED | FAILED, at the checkpoint the caller saw last (a newer worker's wins). */
async function finish(projectId: string, jobId: string, atRow: number, end: { status: 'COMPLETED' | 'FAILED'; failure: StoredImportJob['failure'] }): Promise<void> {
  await updateIfStill({
    TableName: tableName,
    Key: importKeys.job(projectId, jobId),
    UpdateExpression: 'SET #status = :status, #failure = :failure, #rows = :rows, #finishedAt = :now',
    ConditionExpression: '#nextRow = :rows AND #status = :processing',
    ExpressionAttributeNames: { '#status': 'status', '#rows': 'rows', '#failure': 'failure', '#finishedAt': 'finishedAt', '#nextRow': 'nextRow' },
    ExpressionAttributeValues: { ':status': end.status, ':failure': end.failure, ':rows': atRow, ':now': new Date().toISOString(), ':processing': 'PROCESSING' },
  });
}

/** Runs `work` over `items` with at most `limit` in flight; the first failure rejects. */
async function inParallel<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
