import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { DynamoDBDocumentClient, GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { deleteContact, patchContact, upsertContact } from '../../../../shared/contacts/contacts';

const ddb = mockClient(DynamoDBDocumentClient);
const P = 'P1';
const ID = '01JD0000000000000000000000';
const stored = {
  PK: 'PROJECT#P1',
  SK: `CONTACT#${ID}`,
  contactId: ID,
  email: 'jane@example.com',
  subscribed: true,
  data: { plan: 'pro' },
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-02T00:00:00.000Z',
};

const cancelled = (codes: string[]) =>
  new TransactionCanceledException({ message: 'cancelled', $metadata: {}, CancellationReasons: codes.map((Code) => ({ Code })) });

describe('upsertContact', () => {
  beforeEach(() => ddb.reset());

  it('creates a new contact with its email lookup and counters in one transaction', async () => {
    // Prepare
    ddb.on(GetCommand).resolves({});
    ddb.on(TransactWriteCommand).resolves({});

    // Act
    const { contact, isNew } = await upsertContact(P, 'jane@example.com', { data: { plan: 'pro', gone: null } }, true);

    // Assess
    expect(isNew).toBe(true);
    expect(contact).toMatchObject({ email: 'jane@example.com', subscribed: true, data: { plan: 'pro' } });
    expect(ddb.commandCalls(GetCommand)[0]!.args[0].input).toEqual({
      TableName: 'mailwright-test',
      Key: { PK: 'PROJECT#P1', SK: 'CONTACT_EMAIL#jane@example.com' },
      ConsistentRead: true,
    });
    const items = ddb.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!;
    expect(items[0]!.Put).toEqual({
      TableName: 'mailwright-test',
      Item: { PK: 'PROJECT#P1', SK: 'CONTACT_EMAIL#jane@example.com', contactId: contact.id },
      ConditionExpression: 'attribute_not_exists(PK)',
    });
    expect(items[1]!.Put!.Item).toEqual({
      PK: 'PROJECT#P1',
      SK: `CONTACT#${contact.id}`,
      GSI1PK: 'PROJECT#P1#CONTACT_EMAILS',
      GSI1SK: 'jane@example.com',
      GSI2PK: 'PROJECT#P1#CONTACT_DOMAIN#example.com',
      GSI2SK: 'jane@example.com',
      GSI3PK: 'PROJECT#P1#CONTACT_SUBSCRIBED#true',
      GSI3SK: contact.id,
      contactId: contact.id,
      email: 'jane@example.com',
      subscribed: true,
      data: { plan: 'pro' },
      createdAt: contact.createdAt,
      updatedAt: contact.createdAt,
    });
    expect(items[2]!.Update).toMatchObject({
      Key: { PK: 'PROJECT#P1', SK: 'COUNTER#CONTACTS' },
      UpdateExpression: 'ADD #total :total, #subscribed :subscribed',
      ExpressionAttributeValues: { ':total': 1, ':subscribed': 1 },
    });
  });

  it('uses the default subscription only on create', async () => {
    ddb.on(GetCommand).resolves({});
    ddb.on(TransactWriteCommand).resolves({});

    const { contact } = await upsertContact(P, 'a@example.com', {}, false);

    expect(contact.subscribed).toBe(false);
    const counters = ddb.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems![2]!.Update!;
    expect(counters.ExpressionAttributeValues).toEqual({ ':total': 1, ':subscribed': 0 });
  });

  it('updates an existing contact in one UpdateItem that merges data keys and removes null ones', async () => {
    ddb.on(GetCommand).resolves({ Item: { contactId: ID } });
    ddb.on(UpdateCommand).resolves({ Attributes: { ...stored, data: { seats: 3 } } });

    const { contact, isNew } = await upsertContact(P, 'jane@example.com', { data: { seats: 3, plan: null } }, true);

    expect(isNew).toBe(false);
    expect(contact).toMatchObject({ id: ID, data: { seats: 3 } });
    const input = ddb.commandCalls(UpdateCommand)[0]!.args[0].input;
    expect(input.Key).toEqual({ PK: 'PROJECT#P1', SK: `CONTACT#${ID}` });
    expect(input.UpdateExpression).toBe('SET #updatedAt = :updatedAt, #data.#k0 = :v0 REMOVE #data.#k1');
    expect(input.ConditionExpression).toBe('attribute_exists(PK) AND size(#data) <= :maxKeysBefore');
    expect(input.ExpressionAttributeNames).toEqual({ '#data': 'data', '#updatedAt': 'updatedAt', '#k0': 'seats', '#k1': 'plan' });
    expect(input.ExpressionAttributeValues).toMatchObject({ ':v0': 3, ':maxKeysBefore': 99 });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('reads an existing contact instead of rewriting it when nothing is to change (a send, a track without data)', async () => {
    // Prepare
    ddb.on(GetCommand, { Key: { PK: 'PROJECT#P1', SK: 'CONTACT_EMAIL#jane@example.com' } }).resolves({ Item: { contactId: ID } });
    ddb.on(GetCommand, { Key: { PK: 'PROJECT#P1', SK: `CONTACT#${ID}` } }).resolves({ Item: stored });

    // Act
    const { contact, isNew } = await upsertContact(P, 'jane@example.com', { subscribed: undefined, data: {} }, false);

    // Assess
    expect(isNew).toBe(false);
    expect(contact).toEqual({ id: ID, email: 'jane@example.com', subscribed: true, data: { plan: 'pro' }, createdAt: stored.createdAt, updatedAt: stored.updatedAt });
    expect(ddb.commandCalls(GetCommand).at(-1)!.args[0].input).toMatchObject({ Key: { PK: 'PROJECT#P1', SK: `CONTACT#${ID}` }, ConsistentRead: true });
    expect(ddb.commandCalls(UpdateCommand)).toHaveLength(0);
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('creates the contact when the one its lookup named is gone by the time it is read', async () => {
    // Prepare: the lookup still names a contact being deleted, then is gone too
    ddb.on(GetCommand, { Key: { PK: 'PROJECT#P1', SK: 'CONTACT_EMAIL#jane@example.com' } }).resolvesOnce({ Item: { contactId: ID } }).resolves({});
    ddb.on(GetCommand, { Key: { PK: 'PROJECT#P1', SK: `CONTACT#${ID}` } }).resolves({});
    ddb.on(TransactWriteCommand).resolves({});

    // Act
    const { isNew } = await upsertContact(P, 'jane@example.com', {}, false);

    // Assess
    expect(isNew).toBe(true);
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(1);
  });

  it('moves the counters in a transaction when an update flips the subscription', async () => {
    ddb.on(GetCommand).resolves({ Item: { contactId: ID } });
    ddb.on(UpdateCommand).rejects(new ConditionalCheckFailedException({ message: 'failed', $metadata: {}, Item: marshall(stored) as never }));
    ddb.on(TransactWriteCommand).resolves({});

    const { contact } = await upsertContact(P, 'jane@example.com', { subscribed: false }, true);

    expect(contact.subscribed).toBe(false);
    const items = ddb.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!;
    expect(items[0]!.Put).toMatchObject({
      Item: { GSI3PK: 'PROJECT#P1#CONTACT_SUBSCRIBED#false', subscribed: false },
      ConditionExpression: 'attribute_exists(PK) AND updatedAt = :readAt',
      ExpressionAttributeValues: { ':readAt': stored.updatedAt },
    });
    expect(items[1]!.Update!.ExpressionAttributeValues).toEqual({ ':total': 0, ':subscribed': -1 });
  });

  it('becomes an update when a concurrent request created the same email first', async () => {
    ddb.on(GetCommand).resolvesOnce({}).resolves({ Item: { contactId: ID } });
    ddb.on(TransactWriteCommand).rejects(cancelled(['ConditionalCheckFailed', 'None', 'None']));
    ddb.on(UpdateCommand).resolves({ Attributes: stored });

    const { contact, isNew } = await upsertContact(P, 'jane@example.com', { data: { plan: 'pro' } }, true);

    expect(isNew).toBe(false);
    expect(contact.id).toBe(ID);
  });

  it('rejects data that would exceed 100 keys with 422', async () => {
    const full = { ...stored, data: Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`k${i}`, i])) };
    ddb.on(GetCommand).resolves({ Item: { contactId: ID } });
    ddb.on(UpdateCommand).rejects(new ConditionalCheckFailedException({ message: 'failed', $metadata: {}, Item: marshall(full) as never }));

    await expect(upsertContact(P, 'jane@example.com', { data: { extra: 1 } }, true)).rejects.toMatchObject({ statusCode: 422 });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });
});

describe('patchContact', () => {
  beforeEach(() => ddb.reset());

  it('changes the email by swapping the lookups in the same transaction', async () => {
    ddb.on(GetCommand).resolves({ Item: stored });
    ddb.on(TransactWriteCommand).resolves({});

    const contact = await patchContact(P, ID, { email: 'new@example.org' });

    expect(contact.email).toBe('new@example.org');
    const items = ddb.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!;
    expect(items[0]!.Put!.Item).toMatchObject({ email: 'new@example.org', GSI2PK: 'PROJECT#P1#CONTACT_DOMAIN#example.org' });
    expect(items[1]!.Put).toMatchObject({ Item: { SK: 'CONTACT_EMAIL#new@example.org', contactId: ID }, ConditionExpression: 'attribute_not_exists(PK)' });
    expect(items[2]!.Delete).toMatchObject({ Key: { SK: 'CONTACT_EMAIL#jane@example.com' }, ConditionExpression: 'contactId = :contactId' });
  });

  it('answers 409 EMAIL_TAKEN when the new email belongs to another contact', async () => {
    ddb.on(GetCommand).resolves({ Item: stored });
    ddb.on(TransactWriteCommand).rejects(cancelled(['None', 'ConditionalCheckFailed', 'None']));

    await expect(patchContact(P, ID, { email: 'taken@example.com' })).rejects.toMatchObject({ statusCode: 409, code: 'EMAIL_TAKEN' });
  });

  it('answers 404 for an unknown or malformed id without a lookup for malformed ones', async () => {
    ddb.on(GetCommand).resolves({});

    await expect(patchContact(P, ID, {})).rejects.toMatchObject({ statusCode: 404 });
    await expect(patchContact(P, '../../etc', {})).rejects.toMatchObject({ statusCode: 404 });
    expect(ddb.commandCalls(GetCommand)).toHaveLength(1);
  });
});

describe('deleteContact', () => {
  beforeEach(() => ddb.reset());

  it('deletes the contact, its lookup and its share of the counters together', async () => {
    ddb.on(GetCommand).resolves({ Item: stored });
    ddb.on(TransactWriteCommand).resolves({});

    await deleteContact(P, ID);

    const items = ddb.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!;
    expect(items[0]!.Delete).toMatchObject({ Key: { PK: 'PROJECT#P1', SK: `CONTACT#${ID}` }, ConditionExpression: 'attribute_exists(PK) AND #subscribed = :subscribed' });
    expect(items[1]!.Delete!.Key).toEqual({ PK: 'PROJECT#P1', SK: 'CONTACT_EMAIL#jane@example.com' });
    expect(items[2]!.Update!.ExpressionAttributeValues).toEqual({ ':total': -1, ':subscribed': -1 });
  });
});
