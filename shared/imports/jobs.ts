import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import * as v from 'valibot';
import { documentClient } from '../aws/clients';
import { tableName } from '../db/table';
import { putCounted, pageWithTotal, type CountedListing } from '../db/listing';
import { ApiError, conflict, notFound } from '../http/errors';
import { payloadSize, payloadStream, presignPayloadUpload, putPayload } from '../payloads/payloads';
import { importKeys } from './keys';
import { enqueueImport } from './queue';
import { FileProblem, type RowError } from './rows';
import type { listImportsQuerySchema } from './schemas';
import { sniffFormat } from './source';
import { ULID_PATTERN } from '../http/ids';

/**
 * Import jobs: POST /contacts/imports stores the file (a CSV body, a JSON body as JSON Lines, or
 * a presigned upload) in the payload bucket and queues the job; the contact-imports worker
 * (worker.ts) moves it QUEUED → PROCESSING → COMPLETED | FAILED.
 */
export type ImportStatus = 'QUEUED' | 'PROCESSING' | 'COMPLETED' | 'FAILED';

export const importLimits = {
  /** Presigned uploads: the largest file a job takes, and how long the URL lasts. */
  maxUploadBytes: 100 * 1024 * 1024,
  uploadUrlSeconds: 15 * 60,
  /** A JSON document (not JSON Lines) is read whole to convert it: no larger than a request body. */
  maxJsonDocumentBytes: 6_000_000,
  /** Row errors kept on the job (the count in `failed` is exact). */
  maxReportedErrors: 100,
} as const;

const SNIFF_BYTES = 64 * 1024;

export interface ImportJob {
  id: string;
  status: ImportStatus;
  /** Data rows in the file: known when it has been read to the end (null before). */
  rows: number | null;
  processed: number;
  created: number;
  updated: number;
  skipped: number;
  /** Rows whose email an earlier row of the file had: applied (the last row wins), counted once. */
  duplicates: number;
  failed: number;
  errors: RowError[];
  /** Why a FAILED job failed (the file, not a row). */
  failure: { code: string; message: string } | null;
  options: { updateExisting: boolean; subscribed: boolean };
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

/** The stored job: the view plus the worker's checkpoint and the file. */
export interface StoredImportJob extends ImportJob {
  projectId: string;
  source: 'body' | 'upload';
  format: 'csv' | 'jsonl' | null;
  objectKey: string;
  /** The checkpoint: rows consumed (all counted) and the byte offset where the next row starts. */
  nextRow: number;
  nextByte: number;
  /** The CSV header, read once at the start of the file. */
  header: string[] | null;
  /** Set when the file is there and the job queued (uploads: by /start). */
  queuedAt: string | null;
}

export { createImportSchema, importOptionsQuerySchema, listImportsQuerySchema } from './schemas';

export interface ImportOptions {
  updateExisting?: boolean;
  subscribed?: boolean;
}

export type ImportSource = { kind: 'csv'; body: Buffer } | { kind: 'json'; contacts: unknown[] } | { kind: 'upload' };

export interface CreatedImport {
  job: ImportJob;
  /** Only for uploads: where to PUT the file before POST /contacts/imports/{id}/start. */
  upload?: { url: string; method: 'PUT'; expiresAt: string; maxBytes: number };
}

/** Stores the file (or prepares its upload), records the job and, when the file is there, queues it. */
export async function createImport(projectId: string, source: ImportSource, options: ImportOptions): Promise<CreatedImport> {
  const jobId = ulid();
  const now = new Date();
  let format: StoredImportJob['format'] = null;
  let objectKey = importKeys.object(projectId, jobId, 'upload');
  let failure: FileProblem | undefined;
  if (source.kind === 'csv') {
    try {
      if (sniffFormat(source.body.subarray(0, SNIFF_BYTES), source.body.length <= SNIFF_BYTES) !== 'csv') {
        throw new FileProblem('NOT_CSV', 'The body was sent as text/csv but is JSON; send it with Content-Type: application/json');
      }
      format = 'csv';
      objectKey = importKeys.object(projectId, jobId, 'csv');
      await putPayload(objectKey, source.body, 'text/csv');
    } catch (error) {
      if (!(error instanceof FileProblem)) throw error;
      failure = error;
    }
  } else if (source.kind === 'json') {
    format = 'jsonl';
    objectKey = importKeys.object(projectId, jobId, 'jsonl');
    if (source.contacts.length === 0) failure = new FileProblem('EMPTY_FILE', 'contacts is empty');
    else await putPayload(objectKey, jsonLines(source.contacts), 'application/x-ndjson');
  }

  const job: StoredImportJob = {
    id: jobId,
    projectId,
    status: failure ? 'FAILED' : 'QUEUED',
    rows: failure ? 0 : null,
    processed: 0,
    created: 0,
    updated: 0,
    skipped: 0,
    duplicates: 0,
    failed: 0,
    errors: [],
    failure: failure ? { code: failure.code, message: failure.message } : null,
    options: { updateExisting: options.updateExisting ?? true, subscribed: options.subscribed ?? true },
    createdAt: now.toISOString(),
    startedAt: null,
    finishedAt: failure ? now.toISOString() : null,
    source: source.kind === 'upload' ? 'upload' : 'body',
    format,
    objectKey,
    nextRow: 0,
    nextByte: 0,
    header: null,
    queuedAt: source.kind === 'upload' || failure ? null : now.toISOString(),
  };
  await putCounted(listingOf(projectId), { ...importKeys.job(projectId, jobId), ...job });
  if (job.queuedAt) await enqueueImport({ projectId, jobId });
  if (source.kind !== 'upload') return { job: toView(job) };
  const url = await presignPayloadUpload(objectKey, importLimits.uploadUrlSeconds);
  const expiresAt = new Date(now.getTime() + importLimits.uploadUrlSeconds * 1000).toISOString();
  return { job: toView(job), upload: { url, method: 'PUT', expiresAt, maxBytes: importLimits.maxUploadBytes } };
}

/**
 * POST /contacts/imports/{id}/start: the uploaded file is checked (there, not over the limit,
 * CSV or JSON) and the job queued. Calling it again re-queues a job that has not started yet,
 * which is harmless (the worker's checkpoint is conditional).
 */
export async function startImport(projectId: string, jobId: string): Promise<ImportJob> {
  const job = await readImport(projectId, jobId);
  if (job.source !== 'upload') throw conflict('NOT_AN_UPLOAD', 'This import was created with its file; it is queued already');
  if (job.status !== 'QUEUED') return toView(job);
  if (job.queuedAt) {
    await enqueueImport({ projectId, jobId });
    return toView(job);
  }
  const size = await payloadSize(job.objectKey);
  if (size === undefined) {
    throw new ApiError(409, 'UPLOAD_MISSING', 'No file has been uploaded for this import yet', {
      suggestion: 'PUT the file to the upload URL returned when the import was created, then call start again.',
    });
  }
  let changes: Partial<StoredImportJob>;
  try {
    if (size > importLimits.maxUploadBytes) throw new FileProblem('FILE_TOO_LARGE', `The file has ${size} bytes; an import takes at most ${importLimits.maxUploadBytes}`);
    const head = size === 0 ? Buffer.alloc(0) : await readAll(await payloadStream(job.objectKey, 0, Math.min(size, SNIFF_BYTES) - 1));
    const format = sniffFormat(head, size <= SNIFF_BYTES);
    changes = { format: format === 'json' ? 'jsonl' : format };
    if (format === 'json') changes.objectKey = await convertJsonDocument(job, size);
  } catch (error) {
    if (!(error instanceof FileProblem)) throw error;
    return finishWithFailure(job, error);
  }
  const queuedAt = new Date().toISOString();
  const updated = await updateQueued(job, { ...changes, queuedAt });
  await enqueueImport({ projectId, jobId });
  return toView(updated);
}

export async function getImport(projectId: string, jobId: string): Promise<ImportJob> {
  return toView(await readImport(projectId, jobId));
}

export async function listImports(projectId: string, query: v.InferOutput<typeof listImportsQuerySchema>) {
  const page = await pageWithTotal(listingOf(projectId), query, JSON.stringify(['imports', projectId]));
  return { ...page, items: page.items.map((item) => toView(item as unknown as StoredImportJob)) };
}

const listingOf = (projectId: string): CountedListing => ({ partition: importKeys.partition(projectId), prefix: importKeys.jobPrefix, counter: importKeys.counter(projectId) });

export async function readImport(projectId: string, jobId: string): Promise<StoredImportJob> {
  const { Item } = ULID_PATTERN.test(jobId)
    ? await documentClient.send(new GetCommand({ TableName: tableName, Key: importKeys.job(projectId, jobId), ConsistentRead: true }))
    : { Item: undefined };
  if (!Item) throw notFound('Import');
  return Item as unknown as StoredImportJob;
}

export function toView(job: StoredImportJob): ImportJob {
  return {
    id: job.id,
    status: job.status,
    rows: job.rows,
    processed: job.processed,
    created: job.created,
    updated: job.updated,
    skipped: job.skipped,
    duplicates: job.duplicates,
    failed: job.failed,
    errors: job.errors,
    failure: job.failure,
    options: job.options,
    createdAt: job.createdAt,
    startedAt: job.startedAt,
    finishedAt: job.finishedAt,
  };
}

/** Ends a job that has not started yet (its file is unusable) as FAILED. */
async function finishWithFailure(job: StoredImportJob, problem: FileProblem): Promise<ImportJob> {
  return toView(await updateQueued(job, { status: 'FAILED', rows: 0, failure: { code: problem.code, message: problem.message }, finishedAt: new Date().toISOString() }));
}

/** Changes a job that is still QUEUED and unqueued; a concurrent start that won is returned instead. */
async function updateQueued(job: StoredImportJob, changes: Partial<StoredImportJob>): Promise<StoredImportJob> {
  const names: Record<string, string> = { '#status': 'status', '#queuedAt': 'queuedAt' };
  const values: Record<string, unknown> = { ':queued': 'QUEUED' };
  const set = Object.entries(changes).map(([name, value], index) => {
    names[`#c${index}`] = name;
    values[`:c${index}`] = value;
    return `#c${index} = :c${index}`;
  });
  try {
    const { Attributes } = await documentClient.send(
      new UpdateCommand({
        TableName: tableName,
        Key: importKeys.job(job.projectId, job.id),
        UpdateExpression: `SET ${set.join(', ')}`,
        ConditionExpression: '#status = :queued AND attribute_type(#queuedAt, :null)',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: { ...values, ':null': 'NULL' },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return Attributes as StoredImportJob;
  } catch (error) {
    if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
    return readImport(job.projectId, job.id);
  }
}

/** A JSON document (`[...]` or `{ contacts: [...] }`) becomes JSON Lines, the worker's format. */
async function convertJsonDocument(job: StoredImportJob, size: number): Promise<string> {
  if (size > importLimits.maxJsonDocumentBytes) {
    throw new FileProblem('JSON_TOO_LARGE', `JSON documents are read whole, up to ${importLimits.maxJsonDocumentBytes} bytes; upload CSV or JSON Lines (one contact per line) instead`);
  }
  let document: unknown;
  try {
    document = JSON.parse((await readAll(await payloadStream(job.objectKey))).toString('utf8').replace(/^\uFEFF/, ''));
  } catch {
    throw new FileProblem('INVALID_JSON', 'The file is not valid JSON');
  }
  const contacts = Array.isArray(document) ? document : (document as { contacts?: unknown } | null)?.contacts;
  if (!Array.isArray(contacts)) throw new FileProblem('INVALID_JSON', 'A JSON file must be an array of contacts or { "contacts": [...] }');
  if (contacts.length === 0) throw new FileProblem('EMPTY_FILE', 'The file has no contacts');
  const key = importKeys.object(job.projectId, job.id, 'jsonl');
  await putPayload(key, jsonLines(contacts), 'application/x-ndjson');
  return key;
}

const jsonLines = (contacts: unknown[]) => Buffer.from(contacts.map((contact) => JSON.stringify(contact ?? null)).join('\n'));

async function readAll(stream: AsyncIterable<Buffer>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return Buffer.concat(chunks);
}
