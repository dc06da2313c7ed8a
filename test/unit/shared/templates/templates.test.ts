import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import * as v from 'valibot';
import { createTemplateSchema, patchTemplateSchema } from '../../../../shared/templates/schemas';
import { createTemplate, deleteTemplate, getTemplate, listTemplates, patchTemplate } from '../../../../shared/templates/templates';

const ddb = mockClient(DynamoDBDocumentClient);
const P = 'P1';
const ID = '01JD0000000000000000000000';
const stored = {
  PK: 'PROJECT#P1',
  SK: `TEMPLATE#${ID}`,
  templateId: ID,
  name: 'Welcome',
  subject: 'Hi {{name}}',
  body: '<p>Hello {{name}}</p>',
  type: 'TRANSACTIONAL',
  from: { name: 'Acme', email: 'hello@acme.test' },
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-02T00:00:00.000Z',
};
const record = {
  id: ID,
  name: 'Welcome',
  subject: 'Hi {{name}}',
  body: '<p>Hello {{name}}</p>',
  // The stored item has no format (stored before formats existed): it reads as html.
  format: 'html',
  text: null,
  type: 'TRANSACTIONAL',
  from: { name: 'Acme', email: 'hello@acme.test' },
  replyTo: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-02T00:00:00.000Z',
};

const cancelled = () => new TransactionCanceledException({ message: 'cancelled', $metadata: {}, CancellationReasons: [{ Code: 'ConditionalCheckFailed' }] });

describe('template schemas', () => {
  it('trims the name, lower-cases emails and turns a from string into { email }', () => {
    // Act
    const input = v.parse(createTemplateSchema, {
      name: '  Welcome ',
      subject: 'Hi',
      body: '<p>x</p>',
      type: 'MARKETING',
      from: ' Hello@Acme.TEST ',
      replyTo: 'Support@Acme.test',
    });

    // Assess
    expect(input).toEqual({ name: 'Welcome', subject: 'Hi', body: '<p>x</p>', format: 'html', type: 'MARKETING', from: { email: 'hello@acme.test' }, replyTo: 'support@acme.test' });
  });

  it('keeps a from name and rejects line breaks in it and in the subject', () => {
    const base = { name: 'n', subject: 'Hi', body: 'b', type: 'TRANSACTIONAL' };

    expect(v.parse(createTemplateSchema, { ...base, from: { name: ' Acme ', email: 'a@acme.test' } }).from).toEqual({ name: 'Acme', email: 'a@acme.test' });
    expect(v.safeParse(createTemplateSchema, { ...base, from: { name: 'A\r\nBcc: x@evil.test', email: 'a@acme.test' } }).success).toBe(false);
    expect(v.safeParse(createTemplateSchema, { ...base, subject: 'Hi\nBcc: x@evil.test' }).success).toBe(false);
  });

  it('limits the body to 200 KB in bytes and rejects an unknown type', () => {
    const base = { name: 'n', subject: 'Hi', type: 'TRANSACTIONAL' };

    expect(v.safeParse(createTemplateSchema, { ...base, body: 'x'.repeat(200 * 1024) }).success).toBe(true);
    expect(v.safeParse(createTemplateSchema, { ...base, body: 'é'.repeat(100 * 1024 + 1) }).success).toBe(false);
    expect(v.safeParse(createTemplateSchema, { ...base, body: 'b', type: 'OTHER' }).success).toBe(false);
  });

  it('requires at least one field on patch and accepts null to remove text, from and replyTo', () => {
    expect(v.safeParse(patchTemplateSchema, {}).success).toBe(false);
    expect(v.parse(patchTemplateSchema, { text: null, from: null, replyTo: null })).toEqual({ text: null, from: null, replyTo: null });
  });

  it('takes an optional plain-text part of up to 100 KB in bytes', () => {
    const base = { name: 'n', subject: 'Hi', body: 'b', type: 'TRANSACTIONAL' };

    expect(v.parse(createTemplateSchema, { ...base, text: 'Hi {{name}}' }).text).toBe('Hi {{name}}');
    expect(v.safeParse(createTemplateSchema, { ...base, text: 'x'.repeat(100 * 1024) }).success).toBe(true);
    expect(v.safeParse(createTemplateSchema, { ...base, text: 'é'.repeat(50 * 1024 + 1) }).success).toBe(false);
    expect(v.safeParse(createTemplateSchema, { ...base, text: '' }).success).toBe(false);
    expect(v.safeParse(createTemplateSchema, { ...base, text: 42 }).success).toBe(false);
  });
});

describe('createTemplate', () => {
  beforeEach(() => ddb.reset());

  it('puts the template and counts it (total and per type) in one transaction', async () => {
    // Prepare
    ddb.on(TransactWriteCommand).resolves({});

    // Act
    const template = await createTemplate(P, { name: 'Welcome', subject: 'Hi {{name}}', body: '<p>{{name}}</p>', format: 'html', type: 'MARKETING', from: { email: 'a@acme.test' } });

    // Assess
    expect(template).toEqual({
      id: expect.stringMatching(/^[0-9A-HJKMNP-TV-Z]{26}$/),
      name: 'Welcome',
      subject: 'Hi {{name}}',
      body: '<p>{{name}}</p>',
      format: 'html',
      text: null,
      type: 'MARKETING',
      from: { email: 'a@acme.test' },
      replyTo: null,
      createdAt: expect.any(String),
      updatedAt: template.createdAt,
    });
    expect(ddb.commandCalls(TransactWriteCommand)[0]!.args[0].input).toEqual({
      TransactItems: [
        {
          Put: {
            TableName: 'mailwright-test',
            Item: {
              PK: 'PROJECT#P1',
              SK: `TEMPLATE#${template.id}`,
              templateId: template.id,
              name: 'Welcome',
              subject: 'Hi {{name}}',
              body: '<p>{{name}}</p>',
              format: 'html',
              type: 'MARKETING',
              from: { email: 'a@acme.test' },
              createdAt: template.createdAt,
              updatedAt: template.createdAt,
            },
            ConditionExpression: 'attribute_not_exists(PK)',
          },
        },
        {
          Update: {
            TableName: 'mailwright-test',
            Key: { PK: 'PROJECT#P1', SK: 'COUNTER#TEMPLATES' },
            UpdateExpression: 'ADD #total :total, #t0 :t0',
            ExpressionAttributeNames: { '#total': 'total', '#t0': 'MARKETING' },
            ExpressionAttributeValues: { ':total': 1, ':t0': 1 },
          },
        },
      ],
    });
  });

  it('rejects a body that does not parse with 422 INVALID_TEMPLATE and writes nothing', async () => {
    await expect(createTemplate(P, { name: 'n', subject: 'ok', body: '{{#open}}', format: 'html', type: 'MARKETING' })).rejects.toMatchObject({
      statusCode: 422,
      errors: [{ field: 'body', code: 'INVALID_TEMPLATE', message: 'Unclosed section "open" at 9' }],
    });
    expect(ddb.calls()).toHaveLength(0);
  });
});

describe('getTemplate', () => {
  beforeEach(() => ddb.reset());

  it('reads the template strongly consistent', async () => {
    ddb.on(GetCommand).resolves({ Item: stored });

    const template = await getTemplate(P, ID);

    expect(template).toEqual(record);
    expect(ddb.commandCalls(GetCommand)[0]!.args[0].input).toEqual({
      TableName: 'mailwright-test',
      Key: { PK: 'PROJECT#P1', SK: `TEMPLATE#${ID}` },
      ConsistentRead: true,
    });
  });

  it('answers 404 for an unknown id, and for a non-ULID id without reading', async () => {
    ddb.on(GetCommand).resolves({});

    await expect(getTemplate(P, ID)).rejects.toMatchObject({ statusCode: 404, code: 'NOT_FOUND', message: 'Template not found' });
    await expect(getTemplate(P, 'nope')).rejects.toMatchObject({ statusCode: 404 });
    expect(ddb.commandCalls(GetCommand)).toHaveLength(1);
  });
});

describe('listTemplates', () => {
  beforeEach(() => ddb.reset());

  it('queries the project partition newest first with limit + 1 and reads the total from the counter', async () => {
    // Prepare
    const items = [3, 2, 1].map((n) => ({ ...stored, SK: `TEMPLATE#${ID.slice(0, -1)}${n}`, templateId: `${ID.slice(0, -1)}${n}` }));
    ddb.on(QueryCommand).resolves({ Items: items, LastEvaluatedKey: { PK: 'PROJECT#P1', SK: items[2]!.SK } });
    ddb.on(GetCommand).resolves({ Item: { total: 7, TRANSACTIONAL: 4, MARKETING: 3 } });

    // Act
    const page = await listTemplates(P, { limit: 2 });
    ddb.on(QueryCommand).resolves({ Items: [] });
    const next = await listTemplates(P, { limit: 2, cursor: page.nextCursor! });

    // Assess
    expect(page.items.map((t) => t.id)).toEqual([items[0]!.templateId, items[1]!.templateId]);
    expect(page).toMatchObject({ hasMore: true, total: 7 });
    expect(next).toEqual({ items: [], nextCursor: null, hasMore: false, total: 7 });
    const [first, second] = ddb.commandCalls(QueryCommand).map((call) => call.args[0].input);
    expect(first).toEqual({
      TableName: 'mailwright-test',
      KeyConditionExpression: 'PK = :pk AND SK BETWEEN :prefixLow AND :prefixHigh',
      ExpressionAttributeValues: { ':pk': 'PROJECT#P1', ':prefixLow': 'TEMPLATE#', ':prefixHigh': 'TEMPLATE#\uffff' },
      ScanIndexForward: false,
      Limit: 3,
      ExclusiveStartKey: undefined,
    });
    expect(second!.ExclusiveStartKey).toEqual({ PK: 'PROJECT#P1', SK: items[1]!.SK });
    expect(ddb.commandCalls(GetCommand)[0]!.args[0].input).toEqual({ TableName: 'mailwright-test', Key: { PK: 'PROJECT#P1', SK: 'COUNTER#TEMPLATES' } });
  });

  it('filters by type with a FilterExpression and returns that type count as total', async () => {
    ddb.on(QueryCommand).resolves({ Items: [stored] });
    ddb.on(GetCommand).resolves({ Item: { total: 7, TRANSACTIONAL: 4, MARKETING: 3 } });

    const page = await listTemplates(P, { limit: 20, type: 'TRANSACTIONAL' });

    expect(page).toEqual({ items: [record], nextCursor: null, hasMore: false, total: 4 });
    expect(ddb.commandCalls(QueryCommand)[0]!.args[0].input).toEqual({
      TableName: 'mailwright-test',
      KeyConditionExpression: 'PK = :pk AND SK BETWEEN :prefixLow AND :prefixHigh',
      FilterExpression: '#type = :type',
      ExpressionAttributeNames: { '#type': 'type' },
      ExpressionAttributeValues: { ':pk': 'PROJECT#P1', ':prefixLow': 'TEMPLATE#', ':prefixHigh': 'TEMPLATE#\uffff', ':type': 'TRANSACTIONAL' },
      ScanIndexForward: false,
      Limit: 21,
      ExclusiveStartKey: undefined,
    });
  });

  it('rejects a cursor from another query or project with 400 before querying', async () => {
    ddb.on(QueryCommand).resolves({ Items: [stored, stored], LastEvaluatedKey: undefined });
    ddb.on(GetCommand).resolves({});
    const { nextCursor } = await listTemplates(P, { limit: 1 });
    ddb.resetHistory();

    await expect(listTemplates(P, { limit: 1, cursor: nextCursor!, type: 'MARKETING' })).rejects.toMatchObject({ statusCode: 400, code: 'INVALID_CURSOR' });
    await expect(listTemplates('P2', { limit: 1, cursor: nextCursor! })).rejects.toMatchObject({ statusCode: 400 });
    expect(ddb.commandCalls(QueryCommand)).toHaveLength(0);
  });
});

describe('patchTemplate', () => {
  beforeEach(() => ddb.reset());

  it('sets the given fields and removes from/replyTo given as null, in one conditional UpdateItem', async () => {
    // Prepare
    ddb.on(UpdateCommand).resolves({ Attributes: { ...stored, subject: 'New {{x}}', from: undefined } });

    // Act
    const template = await patchTemplate(P, ID, { subject: 'New {{x}}', from: null, replyTo: null });

    // Assess
    expect(template).toMatchObject({ id: ID, subject: 'New {{x}}', from: null, replyTo: null });
    const input = ddb.commandCalls(UpdateCommand)[0]!.args[0].input;
    expect(input).toEqual({
      TableName: 'mailwright-test',
      Key: { PK: 'PROJECT#P1', SK: `TEMPLATE#${ID}` },
      UpdateExpression: 'SET #updatedAt = :updatedAt, #subject = :subject REMOVE #from, #replyTo',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeNames: { '#updatedAt': 'updatedAt', '#subject': 'subject', '#from': 'from', '#replyTo': 'replyTo' },
      ExpressionAttributeValues: { ':updatedAt': expect.any(String), ':subject': 'New {{x}}' },
      ReturnValues: 'ALL_NEW',
    });
    expect(ddb.commandCalls(GetCommand)).toHaveLength(0);
  });

  it('sets a plain-text part and removes it given as null', async () => {
    // Prepare
    ddb.on(UpdateCommand).resolvesOnce({ Attributes: { ...stored, text: 'Hi {{name}}' } }).resolvesOnce({ Attributes: stored });

    // Act
    const set = await patchTemplate(P, ID, { text: 'Hi {{name}}' });
    const removed = await patchTemplate(P, ID, { text: null });

    // Assess
    expect(set.text).toBe('Hi {{name}}');
    expect(removed.text).toBeNull();
    const [first, second] = ddb.commandCalls(UpdateCommand).map((call) => call.args[0].input);
    expect(first).toMatchObject({ UpdateExpression: 'SET #updatedAt = :updatedAt, #text = :text', ExpressionAttributeNames: { '#updatedAt': 'updatedAt', '#text': 'text' }, ExpressionAttributeValues: { ':updatedAt': expect.any(String), ':text': 'Hi {{name}}' } });
    expect(second).toMatchObject({ UpdateExpression: 'SET #updatedAt = :updatedAt REMOVE #text', ExpressionAttributeNames: { '#updatedAt': 'updatedAt', '#text': 'text' }, ExpressionAttributeValues: { ':updatedAt': expect.any(String) } });
  });

  it('rejects a text that does not parse with 422 INVALID_TEMPLATE on the text field', async () => {
    await expect(patchTemplate(P, ID, { text: 'Hi {{name' })).rejects.toMatchObject({ statusCode: 422, errors: [{ field: 'text', code: 'INVALID_TEMPLATE' }] });
    expect(ddb.calls()).toHaveLength(0);
  });

  it('answers 404 when the template does not exist', async () => {
    ddb.on(UpdateCommand).rejects(new ConditionalCheckFailedException({ message: 'failed', $metadata: {} }));

    await expect(patchTemplate(P, ID, { name: 'x' })).rejects.toMatchObject({ statusCode: 404, code: 'NOT_FOUND' });
    await expect(patchTemplate(P, 'not-a-ulid', { name: 'x' })).rejects.toMatchObject({ statusCode: 404 });
  });

  it('rejects a subject that does not parse with 422 INVALID_TEMPLATE before writing', async () => {
    await expect(patchTemplate(P, ID, { subject: 'Hi {{name' })).rejects.toMatchObject({
      statusCode: 422,
      errors: [{ field: 'subject', code: 'INVALID_TEMPLATE', message: 'Unclosed tag at 9' }],
    });
    expect(ddb.calls()).toHaveLength(0);
  });

  it('moves the per-type counters in a transaction conditioned on the type read when the type changes', async () => {
    ddb.on(GetCommand).resolvesOnce({ Item: stored }).resolves({ Item: { ...stored, type: 'MARKETING' } });
    ddb.on(TransactWriteCommand).resolves({});

    const template = await patchTemplate(P, ID, { type: 'MARKETING' });

    expect(template.type).toBe('MARKETING');
    expect(ddb.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems).toEqual([
      {
        Update: {
          TableName: 'mailwright-test',
          Key: { PK: 'PROJECT#P1', SK: `TEMPLATE#${ID}` },
          UpdateExpression: 'SET #updatedAt = :updatedAt, #type = :type',
          ConditionExpression: 'attribute_exists(PK) AND #type = :currentType',
          ExpressionAttributeNames: { '#updatedAt': 'updatedAt', '#type': 'type' },
          ExpressionAttributeValues: { ':updatedAt': expect.any(String), ':type': 'MARKETING', ':currentType': 'TRANSACTIONAL' },
        },
      },
      {
        Update: {
          TableName: 'mailwright-test',
          Key: { PK: 'PROJECT#P1', SK: 'COUNTER#TEMPLATES' },
          UpdateExpression: 'ADD #total :total, #t0 :t0, #t1 :t1',
          ExpressionAttributeNames: { '#total': 'total', '#t0': 'TRANSACTIONAL', '#t1': 'MARKETING' },
          ExpressionAttributeValues: { ':total': 0, ':t0': -1, ':t1': 1 },
        },
      },
    ]);
    expect(ddb.commandCalls(UpdateCommand)).toHaveLength(0);
  });
});

describe('deleteTemplate', () => {
  beforeEach(() => ddb.reset());

  it('deletes the template and decrements its counters in one transaction', async () => {
    ddb.on(GetCommand).resolves({ Item: stored });
    ddb.on(TransactWriteCommand).resolves({});

    await deleteTemplate(P, ID);

    expect(ddb.commandCalls(TransactWriteCommand)[0]!.args[0].input).toEqual({
      TransactItems: [
        {
          Delete: {
            TableName: 'mailwright-test',
            Key: { PK: 'PROJECT#P1', SK: `TEMPLATE#${ID}` },
            ConditionExpression: 'attribute_exists(PK) AND #type = :type',
            ExpressionAttributeNames: { '#type': 'type' },
            ExpressionAttributeValues: { ':type': 'TRANSACTIONAL' },
          },
        },
        {
          Update: {
            TableName: 'mailwright-test',
            Key: { PK: 'PROJECT#P1', SK: 'COUNTER#TEMPLATES' },
            UpdateExpression: 'ADD #total :total, #t0 :t0',
            ExpressionAttributeNames: { '#total': 'total', '#t0': 'TRANSACTIONAL' },
            ExpressionAttributeValues: { ':total': -1, ':t0': -1 },
          },
        },
      ],
    });
  });

  it('answers 404 when a concurrent delete won the race', async () => {
    ddb.on(GetCommand).resolvesOnce({ Item: stored }).resolves({});
    ddb.on(TransactWriteCommand).rejects(cancelled());

    await expect(deleteTemplate(P, ID)).rejects.toMatchObject({ statusCode: 404 });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(1);
  });
});
