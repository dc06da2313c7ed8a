import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import { documentClient } from '../aws/clients';
import { sortKeyPrefixRange } from '../db/schema';
import { tableName } from '../db/table';
import { transactWrite, type TransactItem } from '../db/transactions';
import { decodeCursor, pageOf } from '../http/cursor';
import { conflict, notFound } from '../http/errors';
import { templateKeys } from './keys';
import { assertTemplateParses } from './render';
import type { CreateTemplateInput, ListTemplatesQuery, Sender, TemplateChanges, TemplateFormat, TemplateType } from './schemas';
import { ULID_PATTERN } from '../http/ids';

export interface Template {
  id: string;
  name: string;
  subject: string;
  /** HTML (or Markdown, per format) with mustache variables. */
  body: string;
  /** How body is written; templateHtml gives the HTML every sender renders. */
  format: TemplateFormat;
  /** The plain-text part with mustache variables; null: made from the rendered body. */
  text: string | null;
  type: TemplateType;
  /** Its domain is checked when a send uses the template, not here. */
  from: Sender | null;
  replyTo: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
  hasMore: boolean;
  total: number;
}

const MAX_ATTEMPTS = 4;

/** Creates the template and counts it (total and per type), in one transaction. */
export async function createTemplate(projectId: string, input: CreateTemplateInput): Promise<Template> {
  assertTemplateParses({ subject: input.subject, body: input.body, text: input.text }, input.format);
  const now = new Date().toISOString();
  const template: Template = {
    id: ulid(),
    name: input.name,
    subject: input.subject,
    body: input.body,
    format: input.format,
    text: input.text ?? null,
    type: input.type,
    from: input.from ?? null,
    replyTo: input.replyTo ?? null,
    createdAt: now,
    updatedAt: now,
  };
  await transactWrite([
    { Put: { TableName: tableName, Item: toItem(projectId, template), ConditionExpression: 'attribute_not_exists(PK)' } },
    counterUpdate(projectId, { [template.type]: 1 }),
  ]);
  return template;
}

export async function getTemplate(projectId: string, templateId: string): Promise<Template> {
  const stored = ULID_PATTERN.test(templateId) ? await readTemplate(projectId, templateId) : undefined;
  if (!stored) throw notFound('Template');
  return stored;
}

/**
 * One Query per page on the project partition, newest first. `type` is a FilterExpression (there
 * is no index per type), so a filtered page may hold fewer than `limit` items while `hasMore` is
 * true. `total` is a counter read: all the project's templates, or those of `type` when given.
 */
export async function listTemplates(projectId: string, query: ListTemplatesQuery): Promise<Page<Template>> {
  const partition = templateKeys.partition(projectId);
  const binding = JSON.stringify(['templates', projectId, query.type ?? null]);
  const startKey = query.cursor ? decodeCursor(query.cursor, binding, { PK: partition }, ['SK']) : undefined;
  const filter = query.type
    ? { FilterExpression: '#type = :type', ExpressionAttributeNames: { '#type': 'type' }, ExpressionAttributeValues: { ':type': query.type } }
    : { ExpressionAttributeValues: {} };

  const [result, counts] = await Promise.all([
    documentClient.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'PK = :pk AND SK BETWEEN :prefixLow AND :prefixHigh',
        ...filter,
        ExpressionAttributeValues: { ':pk': partition, ...sortKeyPrefixRange(templateKeys.templatePrefix), ...filter.ExpressionAttributeValues },
        ScanIndexForward: false,
        Limit: query.limit + 1,
        ExclusiveStartKey: startKey,
      }),
    ),
    countTemplates(projectId),
  ]);

  const { page, hasMore, nextCursor } = pageOf(result, query.limit, ['PK', 'SK'], binding);
  const total = query.type ? counts[query.type] : counts.total;

  return { items: page.map(toTemplate), nextCursor, hasMore, total };
}

export type TemplateCounts = { total: number } & Record<TemplateType, number>;

/** O(1): the counters move on every create, delete and type change. */
export async function countTemplates(projectId: string): Promise<TemplateCounts> {
  const { Item } = await documentClient.send(new GetCommand({ TableName: tableName, Key: templateKeys.counter(projectId) }));
  const read = (name: string) => (Item?.[name] as number | undefined) ?? 0;
  return { total: read('total'), TRANSACTIONAL: read('TRANSACTIONAL'), MARKETING: read('MARKETING') };
}

/**
 * PATCH: the given fields replace the stored ones; `text`, `from` or `replyTo` null remove them.
 * One UpdateItem, unless the type changes: then the per-type counters move in the same
 * transaction, conditioned on the type that was read.
 */
export async function patchTemplate(projectId: string, templateId: string, changes: TemplateChanges): Promise<Template> {
  assertTemplateParses({ subject: changes.subject, body: changes.body, text: changes.text ?? undefined }, changes.format);
  if (!ULID_PATTERN.test(templateId)) throw notFound('Template');
  const key = templateKeys.template(projectId, templateId);

  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const current = changes.type ? await getTemplate(projectId, templateId) : undefined;
    const update = buildUpdate(changes, new Date().toISOString());

    if (!current || current.type === changes.type) {
      const guardType = changes.type !== undefined;
      try {
        const { Attributes } = await documentClient.send(
          new UpdateCommand({
            TableName: tableName,
            Key: key,
            UpdateExpression: update.expression,
            ConditionExpression: guardType ? 'attribute_exists(PK) AND #type = :type' : 'attribute_exists(PK)',
            ExpressionAttributeNames: update.names,
            ExpressionAttributeValues: update.values,
            ReturnValues: 'ALL_NEW',
          }),
        );
        return toTemplate(Attributes!);
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
        if (!guardType) throw notFound('Template');
        continue; // deleted or its type changed meanwhile: read again
      }
    }

    try {
      await transactWrite([
        {
          Update: {
            TableName: tableName,
            Key: key,
            UpdateExpression: update.expression,
            ConditionExpression: 'attribute_exists(PK) AND #type = :currentType',
            ExpressionAttributeNames: update.names,
            ExpressionAttributeValues: { ...update.values, ':currentType': current.type },
          },
        },
        counterUpdate(projectId, { [current.type]: -1, [changes.type!]: 1 }, 0),
      ]);
      return getTemplate(projectId, templateId);
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
    }
  }
  throw conflict('CONCURRENT_MODIFICATION', 'The template changed concurrently; retry the request');
}

/** Removes the template and its share of the counters, in one transaction. */
export async function deleteTemplate(projectId: string, templateId: string): Promise<void> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const current = await getTemplate(projectId, templateId);
    try {
      await transactWrite([
        {
          Delete: {
            TableName: tableName,
            Key: templateKeys.template(projectId, templateId),
            ConditionExpression: 'attribute_exists(PK) AND #type = :type',
            ExpressionAttributeNames: { '#type': 'type' },
            ExpressionAttributeValues: { ':type': current.type },
          },
        },
        counterUpdate(projectId, { [current.type]: -1 }, -1),
      ]);
      return;
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
    }
  }
  throw conflict('CONCURRENT_MODIFICATION', 'The template changed concurrently; retry the request');
}

async function readTemplate(projectId: string, templateId: string): Promise<Template | undefined> {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: tableName, Key: templateKeys.template(projectId, templateId), ConsistentRead: true }),
  );
  return Item ? toTemplate(Item) : undefined;
}

const fields = { name: 'name', subject: 'subject', body: 'body', format: 'format', text: 'text', type: 'type', from: 'from', replyTo: 'replyTo' } as const;

function buildUpdate(changes: TemplateChanges, now: string) {
  const names: Record<string, string> = { '#updatedAt': 'updatedAt' };
  const values: Record<string, unknown> = { ':updatedAt': now };
  const set = ['#updatedAt = :updatedAt'];
  const remove: string[] = [];
  for (const field of Object.keys(fields) as (keyof typeof fields)[]) {
    const value = changes[field];
    if (value === undefined) continue;
    names[`#${field}`] = fields[field];
    if (value === null) {
      remove.push(`#${field}`);
    } else {
      values[`:${field}`] = value;
      set.push(`#${field} = :${field}`);
    }
  }
  if (changes.type !== undefined) names['#type'] = 'type';
  return { expression: `SET ${set.join(', ')}${remove.length ? ` REMOVE ${remove.join(', ')}` : ''}`, names, values };
}

/** ADD to the counter item: `total` by `totalDelta`, and each per-type count given. */
function counterUpdate(projectId: string, byType: Partial<Record<string, number>>, totalDelta = 1): TransactItem {
  const names: Record<string, string> = { '#total': 'total' };
  const values: Record<string, unknown> = { ':total': totalDelta };
  const add = ['#total :total'];
  Object.entries(byType).forEach(([type, delta], index) => {
    names[`#t${index}`] = type;
    values[`:t${index}`] = delta;
    add.push(`#t${index} :t${index}`);
  });
  return {
    Update: {
      TableName: tableName,
      Key: templateKeys.counter(projectId),
      UpdateExpression: `ADD ${add.join(', ')}`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}

export function toItem(projectId: string, template: Template) {
  return {
    ...templateKeys.template(projectId, template.id),
    templateId: template.id,
    name: template.name,
    subject: template.subject,
    body: template.body,
    format: template.format,
    ...(template.text ? { text: template.text } : {}),
    type: template.type,
    ...(template.from ? { from: template.from } : {}),
    ...(template.replyTo ? { replyTo: template.replyTo } : {}),
    createdAt: template.createdAt,
    updatedAt: template.updatedAt,
  };
}

export function toTemplate(item: Record<string, unknown>): Template {
  const from = item.from as Sender | undefined;
  return {
    id: item.templateId as string,
    name: item.name as string,
    subject: item.subject as string,
    body: item.body as string,
    // Templates stored before formats existed are HTML.
    format: (item.format as TemplateFormat | undefined) ?? 'html',
    text: (item.text as string | undefined) ?? null,
    type: item.type as TemplateType,
    from: from ? { ...(from.name ? { name: from.name } : {}), email: from.email } : null,
    replyTo: (item.replyTo as string | undefined) ?? null,
    createdAt: item.createdAt as string,
    updatedAt: item.updatedAt as string,
  };
}
