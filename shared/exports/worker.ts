import { GetCommand, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../aws/clients';
import { toContact, type Contact } from '../contacts/contacts';
import { contactKeys } from '../contacts/keys';
import { batchGetAll } from '../db/batch';
import { sortKeyPrefixRange } from '../db/schema';
import { tableName } from '../db/table';
import { ApiError } from '../http/errors';
import { writePayloadStream } from '../payloads/payloads';
import { assertEvaluable, evaluateSegment } from '../segments/evaluate';
import type { FilterGroup } from '../segments/filter';
import { segmentKeys } from '../segments/keys';
import { csvContactLine, csvHeader } from './csv';
import { readExport, updateExport, type ExportFilter, type StoredExportJob } from './jobs';

/**
 * The contact-exports worker: two passes over the contacts to export, a page at a time. The first
 * collects the set of data keys (the CSV's columns must be known before its first line); the
 * second writes the lines into a multipart upload of 5 MB parts. Memory holds one page, one part
 * and the key set — flat in the number of contacts. One invocation does the whole export (the
 * worker's timeout is 15 minutes: millions of contacts at DynamoDB's paged read rates); a job
 * that runs out of time fails with EXPORT_TOO_LARGE instead of being retried forever.
 */
const PAGE_SIZE = 500;

class ExportProblem extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export async function runExport(projectId: string, jobId: string, deadline: number): Promise<void> {
  let job: StoredExportJob;
  try {
    job = await readExport(projectId, jobId);
  } catch (error) {
    if (error instanceof ApiError && error.statusCode === 404) return;
    throw error;
  }
  if (job.status === 'COMPLETED' || job.status === 'FAILED') return;
  if (job.status === 'QUEUED') {
    await updateExport(job, 'QUEUED', { status: 'PROCESSING', startedAt: new Date().toISOString() });
  }
  job = { ...job, status: 'PROCESSING' };
  try {
    const keys = new Set<string>();
    for await (const page of contactsToExport(projectId, job.filter, deadline)) {
      for (const contact of page) for (const key of Object.keys(contact.data)) keys.add(key);
    }
    const dataKeys = [...keys].sort();
    let rows = 0;
    const bytes = await writePayloadStream(
      job.objectKey,
      'text/csv; charset=utf-8',
      (async function* () {
        yield csvHeader(dataKeys);
        for await (const page of contactsToExport(projectId, job.filter, deadline)) {
          rows += page.length;
          yield page.map((contact) => csvContactLine(contact, dataKeys)).join('');
        }
      })(),
    );
    await updateExport(job, 'PROCESSING', { status: 'COMPLETED', rows, bytes, finishedAt: new Date().toISOString() });
  } catch (error) {
    const problem =
      error instanceof ExportProblem ? error : error instanceof ApiError && error.statusCode < 500 ? new ExportProblem(error.code, error.message) : undefined;
    if (!problem) throw error;
    await updateExport(job, 'PROCESSING', { status: 'FAILED', failure: { code: problem.code, message: problem.message }, finishedAt: new Date().toISOString() });
  }
}

/** The contacts the filter selects, page by page: the project's, its subscribed ones, or a segment's members. */
async function* contactsToExport(projectId: string, filter: ExportFilter, deadline: number): AsyncGenerator<Contact[]> {
  const pages = filter.segmentId ? segmentMembers(projectId, filter.segmentId) : contactPages(projectId, filter.subscribed);
  for await (const page of pages) {
    if (Date.now() >= deadline) throw new ExportProblem('EXPORT_TOO_LARGE', 'The export did not finish within the worker\'s time limit; export a segment or by subscription instead');
    yield filter.segmentId && filter.subscribed !== undefined ? page.filter((contact) => contact.subscribed === filter.subscribed) : page;
  }
}

/** Newest first; by subscription through GSI3 (shared/db/README.md). */
async function* contactPages(projectId: string, subscribed: boolean | undefined): AsyncGenerator<Contact[]> {
  const input: Omit<QueryCommandInput, 'TableName'> =
    subscribed === undefined
      ? {
          KeyConditionExpression: 'PK = :pk AND SK BETWEEN :prefixLow AND :prefixHigh',
          ExpressionAttributeValues: { ':pk': contactKeys.contact(projectId, '').PK, ...sortKeyPrefixRange(contactKeys.contactPrefix) },
        }
      : { IndexName: 'GSI3', KeyConditionExpression: 'GSI3PK = :pk', ExpressionAttributeValues: { ':pk': contactKeys.bySubscribedPartition(projectId, subscribed) } };
  yield* pagesOf(input, (items) => items.map(toContact));
}

/** Tracked segments: the membership items, then the page's contacts; on demand: an evaluation. */
async function* segmentMembers(projectId: string, segmentId: string): AsyncGenerator<Contact[]> {
  const { Item: segment } = await documentClient.send(new GetCommand({ TableName: tableName, Key: segmentKeys.segment(projectId, segmentId), ConsistentRead: true }));
  if (!segment) throw new ExportProblem('SEGMENT_NOT_FOUND', 'The segment was deleted before the export ran');
  if (segment.trackMembership === true) {
    yield* pagesOf(
      {
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
        ExpressionAttributeValues: { ':pk': segmentKeys.partition(projectId), ':prefix': segmentKeys.memberPrefix(segmentId) },
        ProjectionExpression: 'contactId',
      },
      (items) => contactsByIds(projectId, items.map((item) => item.contactId as string)),
    );
    return;
  }
  await assertEvaluable(projectId);
  const { memberIds } = await evaluateSegment(projectId, segment.filters as FilterGroup);
  for (let start = 0; start < memberIds.length; start += PAGE_SIZE) yield contactsByIds(projectId, memberIds.slice(start, start + PAGE_SIZE));
}

async function* pagesOf<T>(input: Omit<QueryCommandInput, 'TableName'>, map: (items: Record<string, unknown>[]) => T | Promise<T>): AsyncGenerator<T> {
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await documentClient.send(new QueryCommand({ ...input, TableName: tableName, Limit: PAGE_SIZE, ExclusiveStartKey }));
    yield await map(page.Items ?? []);
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
}

/** A page of contacts by id, in id order (a member deleted meanwhile is left out). */
async function contactsByIds(projectId: string, ids: string[]): Promise<Contact[]> {
  const items = await batchGetAll(ids.map((id) => contactKeys.contact(projectId, id)));
  return items.map(toContact).sort((a, b) => (a.id < b.id ? 1 : -1));
}
