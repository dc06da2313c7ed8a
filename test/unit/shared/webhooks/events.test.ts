import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import * as v from 'valibot';
import type { StreamChange } from '../../../../shared/streams/handler';
import { projectOfChange, webhookEventsOf } from '../../../../shared/webhooks/events';
import { eventKindsSchema, subscribes } from '../../../../shared/webhooks/kinds';
import { DEFAULT_RETRY_SCHEDULE, nextRetryDelaySeconds, parseRetrySchedule } from '../../../../shared/webhooks/schedule';

const CONTACT_ID = '01JD0000000000000000000001';

function change(eventName: StreamChange['eventName'], keys: { PK: string; SK: string }, newImage?: Record<string, unknown>, oldImage?: Record<string, unknown>, eventID = 'stream-1'): StreamChange {
  const record: DynamoDBRecord = { eventID, eventName, dynamodb: { SequenceNumber: '1', Keys: marshall(keys) as never, ApproximateCreationDateTime: 1_790_000_000 } };
  return { eventName, keys, newImage, oldImage, sequenceNumber: '1', record };
}

const contactItem = (fields: Record<string, unknown> = {}) => ({
  PK: 'PROJECT#P1',
  SK: `CONTACT#${CONTACT_ID}`,
  contactId: CONTACT_ID,
  email: 'jane@example.com',
  subscribed: true,
  data: { plan: 'pro', seats: 3 },
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-02T00:00:00.000Z',
  GSI1PK: 'x',
  ...fields,
});

const eventItem = (name: string, extra: Record<string, unknown> = {}) => ({
  PK: 'PROJECT#P1',
  SK: 'EVENT#01JD00000000000000000000E1',
  eventId: '01JD00000000000000000000E1',
  name,
  contactId: CONTACT_ID,
  data: { smtpResponse: '250 ok' },
  createdAt: '2026-01-03T00:00:00.000Z',
  ...extra,
});

describe('webhookEventsOf', () => {
  it('turns a new service event into its own kind with the event as GET /events shows it', () => {
    const events = webhookEventsOf(change('INSERT', { PK: 'PROJECT#P1', SK: 'EVENT#01JD00000000000000000000E1' }, eventItem('email.delivered', { emailId: 'E9' })));
    expect(events).toEqual([
      {
        id: '01JD00000000000000000000E1',
        type: 'email.delivered',
        timestamp: '2026-01-03T00:00:00.000Z',
        data: { id: '01JD00000000000000000000E1', name: 'email.delivered', contactId: CONTACT_ID, emailId: 'E9', data: { smtpResponse: '250 ok' }, createdAt: '2026-01-03T00:00:00.000Z' },
      },
    ]);
  });

  it('gives a custom event the kind event:<name> and segment events their own names', () => {
    const keys = { PK: 'PROJECT#P1', SK: 'EVENT#01JD00000000000000000000E1' };
    expect(webhookEventsOf(change('INSERT', keys, eventItem('signup')))[0]!.type).toBe('event:signup');
    expect(webhookEventsOf(change('INSERT', keys, eventItem('segment.entered')))[0]!.type).toBe('segment.entered');
  });

  it('ignores event removals (TTL), modifications and contact.* events (the contact item reports those)', () => {
    const keys = { PK: 'PROJECT#P1', SK: 'EVENT#01JD00000000000000000000E1' };
    expect(webhookEventsOf(change('REMOVE', keys, undefined, eventItem('email.sent')))).toEqual([]);
    expect(webhookEventsOf(change('MODIFY', keys, eventItem('email.sent'), eventItem('email.sent')))).toEqual([]);
    expect(webhookEventsOf(change('INSERT', keys, eventItem('contact.unsubscribed')))).toEqual([]);
  });

  it('reports a new contact as contact.created with the API shape, and an id derived from the stream record', () => {
    const keys = { PK: 'PROJECT#P1', SK: `CONTACT#${CONTACT_ID}` };
    const [created] = webhookEventsOf(change('INSERT', keys, contactItem()));
    const again = webhookEventsOf(change('INSERT', keys, contactItem()))[0]!;
    const other = webhookEventsOf(change('INSERT', keys, contactItem(), undefined, 'stream-2'))[0]!;
    expect(created).toEqual({
      id: expect.any(String),
      type: 'contact.created',
      timestamp: '2026-01-01T00:00:00.000Z',
      data: { id: CONTACT_ID, email: 'jane@example.com', subscribed: true, data: { plan: 'pro', seats: 3 }, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-02T00:00:00.000Z' },
    });
    expect(again.id).toBe(created!.id);
    expect(other.id).not.toBe(created!.id);
  });

  it('reports contact.updated only when email, subscribed or data changed, whatever the key order of data', () => {
    const keys = { PK: 'PROJECT#P1', SK: `CONTACT#${CONTACT_ID}` };
    const reordered = contactItem({ data: { seats: 3, plan: 'pro' }, updatedAt: '2026-01-05T00:00:00.000Z', lastImport: 'job#1#updated' });
    expect(webhookEventsOf(change('MODIFY', keys, reordered, contactItem()))).toEqual([]);
    const changed = webhookEventsOf(change('MODIFY', keys, contactItem({ data: { plan: 'team', seats: 3 } }), contactItem()));
    expect(changed.map((event) => event.type)).toEqual(['contact.updated']);
  });

  it('adds contact.unsubscribed when subscribed goes from true to false, and not the other way', () => {
    const keys = { PK: 'PROJECT#P1', SK: `CONTACT#${CONTACT_ID}` };
    const unsubscribed = webhookEventsOf(change('MODIFY', keys, contactItem({ subscribed: false, updatedAt: '2026-01-06T00:00:00.000Z' }), contactItem()));
    expect(unsubscribed.map((event) => [event.type, event.timestamp, event.data.subscribed])).toEqual([
      ['contact.updated', '2026-01-06T00:00:00.000Z', false],
      ['contact.unsubscribed', '2026-01-06T00:00:00.000Z', false],
    ]);
    expect(new Set(unsubscribed.map((event) => event.id)).size).toBe(2);
    const resubscribed = webhookEventsOf(change('MODIFY', keys, contactItem(), contactItem({ subscribed: false })));
    expect(resubscribed.map((event) => event.type)).toEqual(['contact.updated']);
  });

  it('reports a removed contact as contact.deleted with its last state, at the stream record time', () => {
    const [deleted] = webhookEventsOf(change('REMOVE', { PK: 'PROJECT#P1', SK: `CONTACT#${CONTACT_ID}` }, undefined, contactItem()));
    expect(deleted).toMatchObject({ type: 'contact.deleted', timestamp: new Date(1_790_000_000_000).toISOString(), data: { id: CONTACT_ID, email: 'jane@example.com' } });
  });

  it('passes a notification on with its type, data and id', () => {
    const item = { PK: 'PROJECT#P1', SK: 'NOTIFICATION#n1', id: 'n1', type: 'campaign.sent', data: { id: 'C1', status: 'SENT' }, createdAt: '2026-01-07T00:00:00.000Z', expiresAt: 1 };
    expect(webhookEventsOf(change('INSERT', { PK: 'PROJECT#P1', SK: 'NOTIFICATION#n1' }, item))).toEqual([
      { id: 'n1', type: 'campaign.sent', timestamp: '2026-01-07T00:00:00.000Z', data: { id: 'C1', status: 'SENT' } },
    ]);
  });

  it('finds the project of items in a project partition only', () => {
    expect(projectOfChange(change('INSERT', { PK: 'PROJECT#P1', SK: 'EVENT#x' }))).toBe('P1');
    expect(projectOfChange(change('INSERT', { PK: 'PROJECT#P1#WEBHOOK#W', SK: 'DELIVERY#x' }))).toBeUndefined();
    expect(projectOfChange(change('INSERT', { PK: 'DOMAIN#example.com', SK: 'CLAIM' }))).toBeUndefined();
  });
});

describe('event kinds', () => {
  it('accepts the documented kinds, * and event:<name>, without duplicates', () => {
    expect(v.parse(eventKindsSchema, ['email.delivered', '*', 'event:signup', 'contact.unsubscribed', 'email.delivered'])).toEqual(['email.delivered', '*', 'event:signup', 'contact.unsubscribed']);
  });

  it.each([[['email.nope']], [['event:']], [['event: padded']], [['event:email.sent']], [[]], [[1]], ['*'], [Array.from({ length: 51 }, (_, i) => `event:e${i}`)]])('refuses %j', (kinds) => {
    expect(v.safeParse(eventKindsSchema, kinds).success).toBe(false);
  });

  it('matches a type to subscriptions', () => {
    expect(subscribes(['*'], 'email.opened')).toBe(true);
    expect(subscribes(['email.opened'], 'email.opened')).toBe(true);
    expect(subscribes(['email.opened'], 'email.clicked')).toBe(false);
    expect(subscribes(['event:signup'], 'event:signup')).toBe(true);
  });
});

describe('retry schedule', () => {
  it('defaults to about a day of backoff and parses a configured one', () => {
    expect(parseRetrySchedule(undefined)).toBe(DEFAULT_RETRY_SCHEDULE);
    expect(DEFAULT_RETRY_SCHEDULE.reduce((sum, wait) => sum + wait, 0)).toBeGreaterThan(24 * 3600);
    expect(parseRetrySchedule('1, 1,1')).toEqual([1, 1, 1]);
  });

  it.each(['0', '1,x', '1.5', '-1', '100000', Array.from({ length: 21 }, () => '1').join(',')])('refuses %s', (raw) => {
    expect(() => parseRetrySchedule(raw)).toThrow('WEBHOOK_RETRY_SCHEDULE');
  });

  it('jitters each wait by at most 20 % and ends after the last', () => {
    expect(nextRetryDelaySeconds([300, 1800], 1, () => 0)).toBe(240);
    expect(nextRetryDelaySeconds([300, 1800], 1, () => 0.999999)).toBe(360);
    expect(nextRetryDelaySeconds([300, 1800], 2, () => 0.5)).toBe(1800);
    expect(nextRetryDelaySeconds([1], 1, () => 0)).toBe(1);
    expect(nextRetryDelaySeconds([300, 1800], 3)).toBeUndefined();
  });
});
