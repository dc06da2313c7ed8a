import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { jest } from '@jest/globals';
import { admin, api, stack, until } from '../support/api-client';

jest.setTimeout(30_000);

const suffix = () => Math.random().toString(36).slice(2, 8);
const where = (field: string, operator: string, value?: unknown) => (value === undefined ? { field, operator } : { field, operator, value });
const all = (...conditions: unknown[]) => ({ operator: 'AND', conditions });

async function project(name: string) {
  const created = await admin<{ secretKey: string; publicKey: string }>('create-project', '--name', name);
  return created;
}

async function memberEmails(key: string, segmentId: string): Promise<string[]> {
  const emails: string[] = [];
  let cursor: string | null = null;
  do {
    const page: any = await api('GET', `/segments/${segmentId}/contacts?limit=2${cursor ? `&cursor=${cursor}` : ''}`, { key });
    expect(page.status).toBe(200);
    emails.push(...page.body.data.items.map((contact: { email: string }) => contact.email));
    cursor = page.body.data.nextCursor;
  } while (cursor);
  return emails.sort();
}

describe('segments: the checked scenario', () => {
  let key: string;
  const emails: Record<string, string> = {};

  beforeAll(async () => {
    ({ secretKey: key } = await project('segments-checked'));
    for (const [label, plan] of [['p1', 'pro'], ['p2', 'pro'], ['p3', 'pro'], ['f1', 'free'], ['f2', 'free']] as const) {
      const created = await api('POST', '/contacts', { key, body: { email: `${label}-${suffix()}@example.com`, data: { plan } } });
      expect(created.status).toBe(201);
      emails[label] = created.body.data.email;
    }
  });

  it('an on-demand segment data.plan equals pro reports 3 members and lists them', async () => {
    const created = await api('POST', '/segments', { key, body: { name: 'Pro', filters: all(where('data.plan', 'equals', 'pro')) } });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ name: 'Pro', trackMembership: false, memberCount: 3 });

    const fetched = await api('GET', `/segments/${created.body.data.id}`, { key });
    expect(fetched.body.data.memberCount).toBe(3);
    expect(await memberEmails(key, created.body.data.id)).toEqual([emails.p1, emails.p2, emails.p3].sort());
  });

  it('a tracked segment follows a contact moving to free (stream consumer) and records segment.exited on it', async () => {
    const created = await api('POST', '/segments', { key, body: { name: 'Pro tracked', trackMembership: true, filters: all(where('data.plan', 'equals', 'pro')) } });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ trackMembership: true, memberCount: 3, membershipStatus: 'READY' });
    const id = created.body.data.id;
    expect(await memberEmails(key, id)).toEqual([emails.p1, emails.p2, emails.p3].sort());

    const moved = await api('POST', '/contacts', { key, body: { email: emails.p1, data: { plan: 'free' } } });
    expect(moved.status).toBe(200);
    const contactId = moved.body.data.id;

    const count = await until(async () => {
      const { body } = await api('GET', `/segments/${id}`, { key });
      return body.data.memberCount === 2 ? 2 : undefined;
    });
    expect(count).toBe(2);
    expect(await memberEmails(key, id)).toEqual([emails.p2, emails.p3].sort());

    const events = await until(async () => {
      const { body } = await api('GET', `/events?contactId=${contactId}&name=segment.exited`, { key });
      return body.data.items.length ? body.data.items : undefined;
    });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ name: 'segment.exited', contactId, data: { segmentId: id, segmentName: 'Pro tracked' } });

    // And back in: segment.entered.
    await api('PATCH', `/contacts/${contactId}`, { key, body: { data: { plan: 'PRO' } } });
    await until(async () => ((await api('GET', `/segments/${id}`, { key })).body.data.memberCount === 3 ? true : undefined));
    const entered = await until(async () => {
      const { body } = await api('GET', `/events?contactId=${contactId}&name=segment.entered`, { key });
      return body.data.items.length ? body.data.items : undefined;
    });
    expect(entered[0].data).toEqual({ segmentId: id, segmentName: 'Pro tracked' });
  });
});

describe('segments: operators and nesting', () => {
  let key: string;
  const email: Record<string, string> = {};

  beforeAll(async () => {
    ({ secretKey: key } = await project('segments-operators'));
    const contacts = {
      a: { email: `a-${suffix()}@alpha.com`, data: { plan: 'Pro', seats: 5, tags: ['vip', 'beta'], signupDate: '2026-01-10', nested: { tier: 'gold' } } },
      b: { email: `b-${suffix()}@beta.org`, subscribed: false, data: { plan: 'free', seats: 1, tags: ['beta'] } },
      c: { email: `c-${suffix()}@alpha.com`, data: { plan: 'pro', seats: 10, signupDate: '2026-03-01' } },
      d: { email: `d-${suffix()}@gamma.net` },
    };
    for (const [label, body] of Object.entries(contacts)) {
      const created = await api('POST', '/contacts', { key, body });
      expect(created.status).toBe(201);
      email[label] = created.body.data.email;
    }
    for (const label of ['a', 'b']) expect((await api('POST', '/v1/track', { key, body: { email: email[label], event: 'purchase' } })).status).toBe(200);
  });

  const cases: [string, unknown, string][] = [
    ['equals (case-insensitive)', all(where('data.plan', 'equals', 'pro')), 'ac'],
    ['notEquals (includes missing)', all(where('data.plan', 'notEquals', 'pro')), 'bd'],
    ['contains on email', all(where('email', 'contains', '@ALPHA')), 'ac'],
    ['notContains on email', all(where('email', 'notContains', '@alpha')), 'bd'],
    ['startsWith', all(where('email', 'startsWith', 'b-')), 'b'],
    ['endsWith', all(where('email', 'endsWith', '.NET')), 'd'],
    ['gt number', all(where('data.seats', 'gt', 5)), 'c'],
    ['gte number', all(where('data.seats', 'gte', 5)), 'ac'],
    ['lt number', all(where('data.seats', 'lt', 5)), 'b'],
    ['lte number', all(where('data.seats', 'lte', 5)), 'ab'],
    ['exists', all(where('data.plan', 'exists')), 'abc'],
    ['notExists', all(where('data.plan', 'notExists')), 'd'],
    ['in', all(where('data.plan', 'in', ['free', 'PRO'])), 'abc'],
    ['notIn', all(where('data.plan', 'notIn', ['free'])), 'acd'],
    ['contains on an array', all(where('data.tags', 'contains', 'VIP')), 'a'],
    ['gt on an ISO date in data', all(where('data.signupDate', 'gt', '2026-02-01')), 'c'],
    ['dotted path', all(where('data.nested.tier', 'equals', 'gold')), 'a'],
    ['subscribed', all(where('subscribed', 'equals', false)), 'b'],
    ['createdAt gte a date', all(where('createdAt', 'gte', '2000-01-01')), 'abcd'],
    ['createdAt lt a date', all(where('createdAt', 'lt', '2000-01-01')), ''],
    ['event triggered', all({ field: 'event', operator: 'triggered', value: 'purchase' }), 'ab'],
    ['event notTriggered', all({ field: 'event', operator: 'notTriggered', value: 'purchase' }), 'cd'],
    ['event triggered within 1 day', all({ field: 'event', operator: 'triggered', value: 'purchase', withinDays: 1 }), 'ab'],
    ['OR of conditions', { operator: 'OR', conditions: [where('data.seats', 'gt', 5), where('email', 'endsWith', '.net')] }, 'cd'],
    [
      'nested groups (AND of OR of AND)',
      all(where('data.plan', 'exists'), {
        operator: 'OR',
        conditions: [all(where('email', 'contains', 'alpha'), where('data.seats', 'gte', 10)), all({ field: 'event', operator: 'triggered', value: 'purchase' }, where('subscribed', 'equals', false))],
      }),
      'bc',
    ],
  ];

  it.each(cases)('%s', async (_, filters, expected) => {
    const created = await api('POST', '/segments', { key, body: { name: 'op', filters } });
    expect(created.status).toBe(201);
    expect(created.body.data.memberCount).toBe(expected.length);
    expect(await memberEmails(key, created.body.data.id)).toEqual([...expected].map((label) => email[label]).sort());
  });

  it('a tracked event segment gains a contact when it tracks the event (stream consumer)', async () => {
    const created = await api('POST', '/segments', { key, body: { name: 'signed up', trackMembership: true, filters: all({ field: 'event', operator: 'triggered', value: 'signup' }) } });
    expect(created.body.data.memberCount).toBe(0);
    await api('POST', '/v1/track', { key, body: { email: email.c, event: 'signup' } });
    await until(async () => ((await api('GET', `/segments/${created.body.data.id}`, { key })).body.data.memberCount === 1 ? true : undefined));
    expect(await memberEmails(key, created.body.data.id)).toEqual([email.c]);
  });

  it('PATCH re-evaluates a tracked segment and records entered / exited', async () => {
    const created = await api('POST', '/segments', { key, body: { name: 'alpha', trackMembership: true, filters: all(where('email', 'endsWith', '@alpha.com')) } });
    expect(created.body.data.memberCount).toBe(2);
    const patched = await api('PATCH', `/segments/${created.body.data.id}`, { key, body: { name: 'beta-ish', filters: all(where('data.tags', 'contains', 'beta')) } });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({ name: 'beta-ish', memberCount: 2 });
    expect(await memberEmails(key, created.body.data.id)).toEqual([email.a, email.b].sort());
    const exited = await api('GET', `/events?email=${encodeURIComponent(email.c!)}&name=segment.exited`, { key });
    expect(exited.body.data.items.some((event: any) => event.data.segmentId === created.body.data.id)).toBe(true);
    const entered = await api('GET', `/events?email=${encodeURIComponent(email.b!)}&name=segment.entered`, { key });
    expect(entered.body.data.items.some((event: any) => event.data.segmentId === created.body.data.id)).toBe(true);
  });

  it('lists, gets and deletes segments', async () => {
    const created = await api('POST', '/segments', { key, body: { name: 'to delete', trackMembership: true, filters: all(where('data.plan', 'exists')) } });
    const list = await api('GET', '/segments?limit=100', { key });
    expect(list.status).toBe(200);
    expect(list.body.data.total).toBe(list.body.data.items.length);
    expect(list.body.data.items.find((segment: any) => segment.id === created.body.data.id)).toMatchObject({ memberCount: 3, trackMembership: true });
    expect((await api('DELETE', `/segments/${created.body.data.id}`, { key })).body.data).toEqual({ id: created.body.data.id, deleted: true });
    expect((await api('GET', `/segments/${created.body.data.id}`, { key })).status).toBe(404);
    expect((await api('GET', `/segments/${created.body.data.id}/contacts`, { key })).status).toBe(404);
  });
});

describe('segments: tracked segments of projects too large to build within the request', () => {
  let key: string;
  const pro: string[] = [];
  const free: string[] = [];
  const idOf: Record<string, string> = {};

  beforeAll(async () => {
    ({ secretKey: key } = await project('segments-background'));
    // More contacts than SEGMENT_INLINE_BUILD_MAX_CONTACTS (10 for the integration stack).
    for (let index = 0; index < 24; index++) {
      const plan = index % 3 === 0 ? 'pro' : 'free';
      const created = await api('POST', '/contacts', { key, body: { email: `bg${index}-${suffix()}@example.com`, data: { plan } } });
      expect(created.status).toBe(201);
      (plan === 'pro' ? pro : free).push(created.body.data.email);
      idOf[created.body.data.email] = created.body.data.id;
    }
  });

  const ready = (id: string) =>
    until(async () => {
      const { body } = await api('GET', `/segments/${id}`, { key });
      return body.data.membershipStatus === 'READY' ? body.data : undefined;
    }, 30_000);

  it('answers at once with BUILDING, then the segment-builder completes it to READY with every member', async () => {
    const created = await api('POST', '/segments', { key, body: { name: 'pro (background)', trackMembership: true, filters: all(where('data.plan', 'equals', 'pro')) } });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ trackMembership: true, membershipStatus: 'BUILDING' });
    expect(created.body.data.memberCount).toBeLessThanOrEqual(pro.length);
    expect(await ready(created.body.data.id)).toMatchObject({ memberCount: pro.length });
    expect(await memberEmails(key, created.body.data.id)).toEqual([...pro].sort());
    // Built members are counted once: a contact change afterwards moves the counter by one.
    await api('PATCH', `/contacts/${idOf[pro[0]!]}`, { key, body: { data: { plan: 'free' } } });
    await until(async () => ((await api('GET', `/segments/${created.body.data.id}`, { key })).body.data.memberCount === pro.length - 1 ? true : undefined));
    await api('PATCH', `/contacts/${idOf[pro[0]!]}`, { key, body: { data: { plan: 'pro' } } });
    await until(async () => ((await api('GET', `/segments/${created.body.data.id}`, { key })).body.data.memberCount === pro.length ? true : undefined));
  });

  it('a filter change rebuilds in the background and records segment.entered / segment.exited', async () => {
    const created = await api('POST', '/segments', { key, body: { name: 'switch', trackMembership: true, filters: all(where('data.plan', 'equals', 'pro')) } });
    await ready(created.body.data.id);
    const patched = await api('PATCH', `/segments/${created.body.data.id}`, { key, body: { filters: all(where('data.plan', 'equals', 'free')) } });
    expect(patched.status).toBe(200);
    expect(patched.body.data.membershipStatus).toBe('BUILDING');
    expect(await ready(created.body.data.id)).toMatchObject({ memberCount: free.length });
    expect(await memberEmails(key, created.body.data.id)).toEqual([...free].sort());
    const exited = await api('GET', `/events?email=${encodeURIComponent(pro[1]!)}&name=segment.exited`, { key });
    expect(exited.body.data.items.some((event: any) => event.data.segmentId === created.body.data.id)).toBe(true);
    const entered = await api('GET', `/events?email=${encodeURIComponent(free[0]!)}&name=segment.entered`, { key });
    expect(entered.body.data.items.some((event: any) => event.data.segmentId === created.body.data.id)).toBe(true);
  });
});

describe('segments: deleting a large tracked segment', () => {
  const MEMBERS = 300;
  // The table read directly (as the admin CLI does), only to see that the membership items go.
  const table = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: stack.dynamoDbEndpoint, region: 'us-east-1', credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } }));
  const membershipItems = async (projectId: string, segmentId: string) => {
    let count = 0;
    let ExclusiveStartKey: Record<string, unknown> | undefined;
    do {
      const page = await table.send(
        new QueryCommand({
          TableName: 'mailwright',
          KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
          ExpressionAttributeValues: { ':pk': `PROJECT#${projectId}`, ':prefix': `SEGMENT_MEMBER#${segmentId}#` },
          Select: 'COUNT',
          ExclusiveStartKey,
        }),
      );
      count += page.Count ?? 0;
      ExclusiveStartKey = page.LastEvaluatedKey;
    } while (ExclusiveStartKey);
    return count;
  };

  it(`answers at once for ${MEMBERS} members, the segment is gone, and its membership items follow in the background`, async () => {
    // Prepare: 300 contacts by one CSV import, and a tracked segment of all of them (built by the segment-builder)
    const { projectId, secretKey: key } = await admin<{ projectId: string; secretKey: string }>('create-project', '--name', 'segments-delete-large');
    const run = suffix();
    const csv = ['email,plan', ...Array.from({ length: MEMBERS }, (_, index) => `big${index}-${run}@example.com,big`)].join('\n');
    const queued = await fetch(`${stack.baseUrl}/contacts/imports`, { method: 'POST', headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'text/csv' }, body: csv });
    expect(queued.status).toBe(202);
    const importId = ((await queued.json()) as { data: { id: string } }).data.id;
    const imported = await until(async () => {
      const { body } = await api('GET', `/contacts/imports/${importId}`, { key });
      return ['COMPLETED', 'FAILED'].includes(body.data.status) ? body.data : undefined;
    }, 120_000);
    expect(imported.status).toBe('COMPLETED');
    const created = await api('POST', '/segments', { key, body: { name: 'everyone big', trackMembership: true, filters: all(where('data.plan', 'equals', 'big')) } });
    expect(created.status).toBe(201);
    const id = created.body.data.id as string;
    const built = await until(async () => {
      const { body } = await api('GET', `/segments/${id}`, { key });
      return body.data.membershipStatus === 'READY' ? body.data : undefined;
    }, 120_000);
    expect(built.memberCount).toBe(MEMBERS);
    expect(await membershipItems(projectId, id)).toBe(MEMBERS);

    // Act
    const started = performance.now();
    const deleted = await api('DELETE', `/segments/${id}`, { key });
    const seconds = (performance.now() - started) / 1000;

    // Assess: answered without deleting 300 items first, gone at once, its items gone soon after
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toEqual({ id, deleted: true });
    expect(seconds).toBeLessThan(2);
    expect((await api('GET', `/segments/${id}`, { key })).status).toBe(404);
    expect((await api('GET', `/segments/${id}/contacts`, { key })).status).toBe(404);
    expect((await api('GET', '/segments?limit=100', { key })).body.data.items.map((segment: { id: string }) => segment.id)).not.toContain(id);
    expect((await api('DELETE', `/segments/${id}`, { key })).status).toBe(404);
    await until(async () => ((await membershipItems(projectId, id)) === 0 ? true : undefined), 60_000);
    // The contacts stay.
    expect((await api('GET', '/contacts?limit=1', { key })).body.data.total).toBe(MEMBERS);
  }, 300_000);
});

describe('segments: errors', () => {
  it('answers 422 naming the path of a bad condition', async () => {
    const response = await api('POST', '/segments', {
      body: { name: 'bad', filters: all(where('data.plan', 'equals', 'pro'), where('data.plan', 'between', 'a')) },
    });
    expect(response.status).toBe(422);
    expect(response.body.error.code).toBe('VALIDATION_ERROR');
    expect(response.body.error.errors[0].field).toBe('filters.conditions[1].operator');
  });

  it('answers 422 for a value of the wrong type, and for nesting past 3 levels', async () => {
    const badValue = await api('POST', '/segments', { body: { name: 'bad', filters: all(where('createdAt', 'gt', 'yesterday')) } });
    expect(badValue.body.error.errors[0].field).toBe('filters.conditions[0].value');
    const deep = all(all(all(all(where('email', 'exists')))));
    const tooDeep = await api('POST', '/segments', { body: { name: 'deep', filters: deep } });
    expect(tooDeep.status).toBe(422);
  });

  it('refuses public keys with 403', async () => {
    const { publicKey } = await project('segments-public');
    const response = await api('GET', '/segments', { key: publicKey });
    expect(response.status).toBe(403);
  });

  it('answers 404 for an unknown segment', async () => {
    expect((await api('GET', '/segments/01JD0000000000000000000000')).status).toBe(404);
  });
});

describe('POST /segments/preview', () => {
  let key: string;
  const filters = (operator: string) => ({ operator, conditions: [where('data.plan', 'equals', 'pro'), { field: 'event', operator: 'triggered', value: 'signed_up' }] });

  beforeAll(async () => {
    ({ secretKey: key } = await project('segments-preview'));
    const people = [['a', 'pro', true, true], ['b', 'pro', false, true], ['c', 'pro', true, false], ['d', 'free', true, true]] as const;
    for (const [label, plan, subscribed, signedUp] of people) {
      const email = `${label}-${suffix()}@example.com`;
      expect((await api('POST', '/contacts', { key, body: { email, subscribed, data: { plan } } })).status).toBe(201);
      if (signedUp) expect((await api('POST', '/v1/track', { key, body: { email, event: 'signed_up' } })).status).toBe(200);
    }
  });

  it('counts the members, the subscribed ones and samples them without saving anything; the saved segments then report the same counts', async () => {
    // Act
    const preview = await api('POST', '/segments/preview', { key, body: { filters: filters('AND') } });
    const wider = await api('POST', '/segments/preview', { key, body: { filters: filters('OR') } });
    const listed = await api('GET', '/segments', { key });
    const onDemand = await api('POST', '/segments', { key, body: { name: 'pro signed up', filters: filters('AND') } });
    const tracked = await api('POST', '/segments', { key, body: { name: 'pro or signed up', filters: filters('OR'), trackMembership: true } });

    // Assess
    expect(preview.status).toBe(200);
    expect(preview.body.data).toMatchObject({ memberCount: 2, subscribedCount: 1 });
    expect(preview.body.data.sample.map((contact: { email: string }) => contact.email.slice(0, 2)).sort()).toEqual(['a-', 'b-']);
    expect(wider.body.data).toMatchObject({ memberCount: 4, subscribedCount: 3 });
    expect(wider.body.data.sample).toHaveLength(4);
    expect(listed.body.data.total).toBe(0);
    expect(onDemand.body.data.memberCount).toBe(preview.body.data.memberCount);
    expect(tracked.body.data.memberCount).toBe(wider.body.data.memberCount);
  });

  it('answers 422 where creating the segment would, naming the same field', async () => {
    const bad = all(where('data.plan', 'equals', 'pro'), where('data.plan', 'between', 'a'));

    const preview = await api('POST', '/segments/preview', { key, body: { filters: bad } });
    const create = await api('POST', '/segments', { key, body: { name: 'bad', filters: bad } });
    const missing = await api('POST', '/segments/preview', { key, body: {} });

    expect(preview.status).toBe(422);
    expect(preview.body.error.errors).toEqual(create.body.error.errors);
    expect(missing.status).toBe(422);
  });
});
