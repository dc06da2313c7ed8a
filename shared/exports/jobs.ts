import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import * as v from 'valibot';
import { documentClient } from '../aws/clients';
import { tableName } from '../db/table';
import { updateIfStill } from '../db/transactions';
import { putCounted, pageWithTotal, type CountedListing } from '../db/listing';
import { notFound } from '../http/errors';
import { presignPayloadDownload } from '../payloads/payloads';
import { segmentKeys } from '../segments/keys';
import { exportKeys } from './keys';
import type { ExportFilter, listExportsQuerySchema } from './schemas';
import { enqueueExport } from './queue';
import { ULID_PATTERN } from '../http/ids';

/**
 * Export jobs: POST /contacts/exports queues one; the contact-exports worker (worker.ts) writes the
 * CSV to the payload bucket; GET /contacts/exports/{id} answers with a download URL once it is done.
 */
export type ExportStatus = 'QUEUED' | 'PROCESSING' | 'COMPLETED' | 'FAILED';

/** How long a download URL lasts. */
export const DOWNLOAD_URL_SECONDS = 3600;

export { createExportSchema, listExportsQuerySchema, type ExportFilter } from './schemas';

export interface ExportJob {
  id: string;
  status: ExportStatus;
  filter: ExportFilter;
  /** Contacts written (so far, while PROCESSING). */
  rows: number;
  /** The file's size once COMPLETED. */
  bytes: number | null;
  failure: { code: string; message: string } | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  /** COMPLETED only: a fresh presigned URL at every GET, valid for DOWNLOAD_URL_SECONDS. */
  downloadUrl?: string;
  downloadExpiresAt?: string;
}

export interface StoredExportJob extends Omit<ExportJob, 'downloadUrl' | 'downloadExpiresAt'> {
  projectId: string;
  objectKey: string;
}

/** Checks the segment is the project's, records the job and queues it. */
export async function createExport(projectId: string, filter: ExportFilter): Promise<ExportJob> {
  if (filter.segmentId) {
    const { Item } = await documentClient.send(new GetCommand({ TableName: tableName, Key: segmentKeys.segment(projectId, filter.segmentId), ProjectionExpression: 'PK' }));
    if (!Item) throw notFound('Segment');
  }
  const jobId = ulid();
  const job: StoredExportJob = {
    id: jobId,
    projectId,
    status: 'QUEUED',
    filter,
    rows: 0,
    bytes: null,
    failure: null,
    createdAt: new Date().toISOString(),
    startedAt: null,
    finishedAt: null,
    objectKey: exportKeys.object(projectId, jobId),
  };
  await putCounted(listingOf(projectId), { ...exportKeys.job(projectId, jobId), ...job });
  await enqueueExport({ projectId, jobId });
  return toView(job);
}

export async function getExport(projectId: string, jobId: string): Promise<ExportJob> {
  return withDownload(await readExport(projectId, jobId));
}

export async function listExports(projectId: string, query: v.InferOutput<typeof listExportsQuerySchema>) {
  const page = await pageWithTotal(listingOf(projectId), query, JSON.stringify(['exports', projectId]));
  return { ...page, items: page.items.map((item) => toView(item as unknown as StoredExportJob)) };
}

const listingOf = (projectId: string): CountedListing => ({ partition: exportKeys.partition(projectId), prefix: exportKeys.jobPrefix, counter: exportKeys.counter(projectId) });

export async function readExport(projectId: string, jobId: string): Promise<StoredExportJob> {
  const { Item } = ULID_PATTERN.test(jobId)
    ? await documentClient.send(new GetCommand({ TableName: tableName, Key: exportKeys.job(projectId, jobId), ConsistentRead: true }))
    : { Item: undefined };
  if (!Item) throw notFound('Export');
  return Item as unknown as StoredExportJob;
}

/** Moves a job on, conditioned on the status it is expected to have; false when it had another. */
export async function updateExport(job: StoredExportJob, expected: ExportStatus, changes: Partial<StoredExportJob>): Promise<boolean> {
  const names: Record<string, string> = { '#status': 'status' };
  const values: Record<string, unknown> = { ':expected': expected };
  const set = Object.entries(changes).map(([name, value], index) => {
    names[`#c${index}`] = name;
    values[`:c${index}`] = value;
    return `#c${index} = :c${index}`;
  });
  return updateIfStill({
    TableName: tableName,
    Key: exportKeys.job(job.projectId, job.id),
    UpdateExpression: `SET ${set.join(', ')}`,
    ConditionExpression: '#status = :expected',
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  });
}

function toView(job: StoredExportJob): ExportJob {
  return {
    id: job.id,
    status: job.status,
    filter: job.filter,
    rows: job.rows,
    bytes: job.bytes,
    failure: job.failure,
    createdAt: job.createdAt,
    startedAt: job.startedAt,
    finishedAt: job.finishedAt,
  };
}

async function withDownload(job: StoredExportJob): Promise<ExportJob> {
  if (job.status !== 'COMPLETED') return toView(job);
  const downloadUrl = await presignPayloadDownload(job.objectKey, `contacts-${job.id}.csv`, DOWNLOAD_URL_SECONDS);
  return { ...toView(job), downloadUrl, downloadExpiresAt: new Date(Date.now() + DOWNLOAD_URL_SECONDS * 1000).toISOString() };
}
