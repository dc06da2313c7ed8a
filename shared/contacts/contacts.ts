import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import { documentClient } from '../aws/clients';
import { tableName } from '../db/table';
import { transactWrite, type TransactItem } from '../db/transactions';
import { conflict, notFound, validationFailed } from '../http/errors';
import { contactKeys } from './keys';
import { contactDataLimits, type ContactDataPatch } from './schemas';
import { ULID_PATTERN } from '../http/ids';

export interface Contact {
  id: string;
  email: string;
  subscribed: boolean;
  data: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
}

export interface ContactChanges {
  email?: string;
  subscribed?: boolean;
  /** Top-level keys merge into the contact's data; a null value removes the key. */
  data?: ContactDataPatch;
}

export interface UpsertResult {
  contact: Contact;
  isNew: boolean;
}

const MAX_ATTEMPTS = 4;

/**
 * Creates the contact with this email, or applies the changes to the existing one. The one
 * upsert behind POST /contacts, /v1/send, /v1/track and workflows. `subscribed` falls back to
 * `defaultSubscribed` only on create; an existing contact's flag changes only when given.
 * DynamoDB calls: create = GetItem + TransactWriteItems; update = GetItem + UpdateItem, or a
 * second GetItem when nothing is to change (a send, a track without data).
 */
export async function upsertContact(
  projectId: string,
  email: string,
  changes: Omit<ContactChanges, 'email'>,
  defaultSubscribed: boolean,
): Promise<UpsertResult> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const contactId = await findContactIdByEmail(projectId, email);
    if (!contactId) {
      const created = await createContact(projectId, email, changes.subscribed ?? defaultSubscribed, changes.data);
      if (created) return { contact: created, isNew: true };
      continue; // lost a race with a concurrent create of the same email: update it instead
    }
    const updated = await updateContact(projectId, contactId, changes);
    if (updated) return { contact: updated, isNew: false };
  }
  throw conflict('CONCURRENT_MODIFICATION', 'The contact changed concurrently; retry the request');
}

/**
 * What an import row leaves on the contact it wrote, in the same write: the attribute `lastImport`
 * = `<jobId>#<row>#<outcome>`. A row applied again after a crash finds its own mark and reports
 * the outcome it had (its effect is already there); a later row of the same job finds an earlier
 * row's mark and is a duplicate (applied, so the last row wins, but counted once).
 */
export interface ImportRowMark {
  jobId: string;
  /** The row's number in its file (1 = the first row after the header). */
  row: number;
}

export type ImportOutcome = 'created' | 'updated' | 'skipped' | 'duplicate';

const LAST_IMPORT = 'lastImport';
const markOf = (mark: ImportRowMark, outcome: ImportOutcome) => `${mark.jobId}#${mark.row}#${outcome}`;

/** The mark's row and outcome when it was left by this job. */
function ownMark(item: Record<string, unknown> | undefined, jobId: string): { row: number; outcome: ImportOutcome } | undefined {
  const value = item?.[LAST_IMPORT];
  if (typeof value !== 'string' || !value.startsWith(`${jobId}#`)) return undefined;
  const [, row, outcome] = value.split('#');
  return { row: Number(row), outcome: outcome as ImportOutcome };
}

/**
 * One import row through the same rules as upsertContact (create with the counters in one
 * transaction; merge data on update; `subscribed` only on create unless given), marked with the
 * row. `updateExisting: false` skips contacts that existed before the job (a contact an earlier
 * row of the same job created is still updated: the last row wins). Per-row effects are
 * idempotent, so the caller may apply a batch again after a crash and count what it returns.
 */
export async function upsertImportRow(
  projectId: string,
  email: string,
  changes: Omit<ContactChanges, 'email'>,
  options: { mark: ImportRowMark; defaultSubscribed: boolean; updateExisting: boolean },
): Promise<ImportOutcome> {
  const { mark } = options;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const contactId = await findContactIdByEmail(projectId, email);
    if (!contactId) {
      const created = await createContact(projectId, email, changes.subscribed ?? options.defaultSubscribed, changes.data, { [LAST_IMPORT]: markOf(mark, 'created') });
      if (created) return 'created';
      continue;
    }
    const current = await readContactItem(projectId, contactId);
    if (!current) continue;
    const own = ownMark(current, mark.jobId);
    if (own && own.row >= mark.row) return own.outcome; // this row was applied before a crash
    if (!own && !options.updateExisting) return 'skipped';
    const outcome: ImportOutcome = own ? 'duplicate' : 'updated';
    const updated = await writeChanges(projectId, toContact(current), changes, { [LAST_IMPORT]: markOf(mark, outcome) });
    if (updated) return outcome;
  }
  throw conflict('CONCURRENT_MODIFICATION', 'The contact changed concurrently; retry the request');
}

export async function getContact(projectId: string, contactId: string): Promise<Contact> {
  const stored = ULID_PATTERN.test(contactId) ? await readContact(projectId, contactId) : undefined;
  if (!stored) throw notFound('Contact');
  return stored;
}

/** PATCH: email changes keep emails unique (409 EMAIL_TAKEN on a clash). */
export async function patchContact(projectId: string, contactId: string, changes: ContactChanges): Promise<Contact> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const current = await getContact(projectId, contactId);
    const updated = await writeChanges(projectId, current, changes);
    if (updated) return updated;
  }
  throw conflict('CONCURRENT_MODIFICATION', 'The contact changed concurrently; retry the request');
}

/** Removes the contact, its email lookup and its share of the counters, in one transaction. */
export async function deleteContact(projectId: string, contactId: string): Promise<void> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const current = await getContact(projectId, contactId);
    try {
      await transactWrite([
        {
          Delete: {
            TableName: tableName,
            Key: contactKeys.contact(projectId, contactId),
            ConditionExpression: 'attribute_exists(PK) AND #subscribed = :subscribed',
            ExpressionAttributeNames: { '#subscribed': 'subscribed' },
            ExpressionAttributeValues: { ':subscribed': current.subscribed },
          },
        },
        { Delete: { TableName: tableName, Key: contactKeys.emailLookup(projectId, current.email) } },
        counterUpdate(projectId, -1, current.subscribed ? -1 : 0),
      ]);
      return;
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
    }
  }
  throw conflict('CONCURRENT_MODIFICATION', 'The contact changed concurrently; retry the request');
}

export interface ContactCounts {
  total: number;
  subscribed: number;
}

/** O(1): the counters are kept on every create, delete and subscription change. */
export async function countContacts(projectId: string): Promise<ContactCounts> {
  const { Item } = await documentClient.send(new GetCommand({ TableName: tableName, Key: contactKeys.counters(projectId) }));
  return { total: (Item?.total as number | undefined) ?? 0, subscribed: (Item?.subscribed as number | undefined) ?? 0 };
}

export async function findContactIdByEmail(projectId: string, email: string): Promise<string | undefined> {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: tableName, Key: contactKeys.emailLookup(projectId, email), ConsistentRead: true }),
  );
  return Item?.contactId as string | undefined;
}

async function readContact(projectId: string, contactId: string): Promise<Contact | undefined> {
  const item = await readContactItem(projectId, contactId);
  return item ? toContact(item) : undefined;
}

async function readContactItem(projectId: string, contactId: string): Promise<Record<string, unknown> | undefined> {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: tableName, Key: contactKeys.contact(projectId, contactId), ConsistentRead: true }),
  );
  return Item;
}

/** `extra`: attributes stored beside the contact's own (an import row's mark). */
async function createContact(
  projectId: string,
  email: string,
  subscribed: boolean,
  data: ContactDataPatch | undefined,
  extra: Record<string, string> = {},
): Promise<Contact | null> {
  const now = new Date().toISOString();
  const contact: Contact = { id: ulid(), email, subscribed, data: mergeData({}, data), createdAt: now, updatedAt: now };
  assertDataFits(contact.data);
  try {
    await transactWrite([
      {
        Put: {
          TableName: tableName,
          Item: { ...contactKeys.emailLookup(projectId, email), contactId: contact.id },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
      { Put: { TableName: tableName, Item: { ...toItem(projectId, contact), ...extra }, ConditionExpression: 'attribute_not_exists(PK)' } },
      counterUpdate(projectId, 1, subscribed ? 1 : 0),
    ]);
    return contact;
  } catch (error) {
    if (error instanceof TransactionCanceledException) return null;
    throw error;
  }
}

/**
 * The update path of an upsert in one UpdateItem, when the subscription does not flip (the common
 * case). When it flips, the counters must move too, so it reads the contact and goes through
 * writeChanges' transaction. Returns null when the contact vanished (the caller retries).
 */
async function updateContact(projectId: string, contactId: string, changes: ContactChanges): Promise<Contact | null> {
  // A read costs a fraction of rewriting the contact and its index entries only to move updatedAt.
  if (changes.subscribed === undefined && Object.keys(changes.data ?? {}).length === 0) return (await readContact(projectId, contactId)) ?? null;
  const expression = buildUpdate(changes, new Date().toISOString());
  const values: Record<string, unknown> = { ...expression.values, ':maxKeysBefore': contactDataLimits.maxKeys - expression.addedKeys };
  let condition = 'attribute_exists(PK) AND size(#data) <= :maxKeysBefore';
  if (changes.subscribed !== undefined) condition += ' AND #subscribed = :subscribed';
  try {
    const { Attributes } = await documentClient.send(
      new UpdateCommand({
        TableName: tableName,
        Key: contactKeys.contact(projectId, contactId),
        UpdateExpression: expression.update,
        ConditionExpression: condition,
        ExpressionAttributeNames: expression.names,
        ExpressionAttributeValues: values,
        ReturnValues: 'ALL_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return toContact(Attributes!);
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
    if (!error.Item) return null;
    return writeChanges(projectId, toContact(unmarshall(error.Item)), changes);
  }
}

/**
 * Applies changes to a contact read beforehand, in one transaction conditioned on what was read
 * (so the counters stay exact): the contact, the counters when `subscribed` flips, and the email
 * lookups when the email changes. Returns null when the contact changed meanwhile.
 */
async function writeChanges(projectId: string, current: Contact, changes: ContactChanges, extra: Record<string, string> = {}): Promise<Contact | null> {
  const now = new Date().toISOString();
  const next: Contact = {
    ...current,
    email: changes.email ?? current.email,
    subscribed: changes.subscribed ?? current.subscribed,
    data: mergeData(current.data, changes.data),
    updatedAt: now,
  };
  assertDataFits(next.data);
  const emailChanges = next.email !== current.email;
  const items: TransactItem[] = [
    {
      Put: {
        TableName: tableName,
        Item: { ...toItem(projectId, next), ...extra },
        ConditionExpression: 'attribute_exists(PK) AND updatedAt = :readAt',
        ExpressionAttributeValues: { ':readAt': current.updatedAt },
      },
    },
  ];
  if (next.subscribed !== current.subscribed) items.push(counterUpdate(projectId, 0, next.subscribed ? 1 : -1));
  if (emailChanges) {
    items.push(
      {
        Put: {
          TableName: tableName,
          Item: { ...contactKeys.emailLookup(projectId, next.email), contactId: current.id },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
      {
        Delete: {
          TableName: tableName,
          Key: contactKeys.emailLookup(projectId, current.email),
          ConditionExpression: 'contactId = :contactId',
          ExpressionAttributeValues: { ':contactId': current.id },
        },
      },
    );
  }
  try {
    await transactWrite(items);
    return next;
  } catch (error) {
    if (!(error instanceof TransactionCanceledException)) throw error;
    const reasons = error.CancellationReasons ?? [];
    const lookupIndex = items.length - 2;
    if (emailChanges && reasons[lookupIndex]?.Code === 'ConditionalCheckFailed' && reasons[0]?.Code !== 'ConditionalCheckFailed') {
      throw conflict('EMAIL_TAKEN', `Another contact already has the email ${next.email}`);
    }
    return null;
  }
}

function buildUpdate(changes: ContactChanges, now: string) {
  const names: Record<string, string> = { '#data': 'data', '#updatedAt': 'updatedAt' };
  const values: Record<string, unknown> = { ':updatedAt': now };
  const set = ['#updatedAt = :updatedAt'];
  const remove: string[] = [];
  let addedKeys = 0;
  if (changes.subscribed !== undefined) {
    names['#subscribed'] = 'subscribed';
    values[':subscribed'] = changes.subscribed;
    set.push('#subscribed = :subscribed');
  }
  Object.entries(changes.data ?? {}).forEach(([key, value], index) => {
    names[`#k${index}`] = key;
    if (value === null) {
      remove.push(`#data.#k${index}`);
    } else {
      values[`:v${index}`] = value;
      set.push(`#data.#k${index} = :v${index}`);
      addedKeys++;
    }
  });
  const update = `SET ${set.join(', ')}${remove.length ? ` REMOVE ${remove.join(', ')}` : ''}`;
  return { update, names, values, addedKeys };
}

function counterUpdate(projectId: string, totalDelta: number, subscribedDelta: number): TransactItem {
  return {
    Update: {
      TableName: tableName,
      Key: contactKeys.counters(projectId),
      UpdateExpression: 'ADD #total :total, #subscribed :subscribed',
      ExpressionAttributeNames: { '#total': 'total', '#subscribed': 'subscribed' },
      ExpressionAttributeValues: { ':total': totalDelta, ':subscribed': subscribedDelta },
    },
  };
}

export function mergeData(current: Record<string, unknown>, patch: ContactDataPatch | undefined): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...current };
  for (const [key, value] of Object.entries(patch ?? {})) {
    if (value === null) delete merged[key];
    else merged[key] = value;
  }
  return merged;
}

function assertDataFits(data: Record<string, unknown>) {
  if (Object.keys(data).length > contactDataLimits.maxKeys) throw tooManyKeys();
}

const tooManyKeys = () =>
  validationFailed([{ field: 'data', code: 'TOO_MANY_KEYS', message: `a contact may hold at most ${contactDataLimits.maxKeys} data keys` }]);

export function toItem(projectId: string, contact: Contact) {
  return {
    ...contactKeys.contact(projectId, contact.id),
    ...contactKeys.indexes(projectId, contact.id, contact.email, contact.subscribed),
    contactId: contact.id,
    email: contact.email,
    subscribed: contact.subscribed,
    data: contact.data,
    createdAt: contact.createdAt,
    updatedAt: contact.updatedAt,
  };
}

export function toContact(item: Record<string, unknown>): Contact {
  return {
    id: item.contactId as string,
    email: item.email as string,
    subscribed: item.subscribed as boolean,
    data: (item.data as Record<string, unknown>) ?? {},
    createdAt: item.createdAt as string,
    updatedAt: item.updatedAt as string,
  };
}
