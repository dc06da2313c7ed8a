import { createHash } from 'node:crypto';
import { encodeTime, ulid } from 'ulid';
import { addToCounters } from '../db/counters';
import { tableName } from '../db/table';
import { writeAllOrNone, type TransactItem } from '../db/transactions';
import { eventKeys } from './keys';

/** An event on a contact: custom (POST /v1/track) or from the service (`email.sent`…). */
export interface ContactEvent {
  id: string;
  name: string;
  contactId: string;
  emailId?: string;
  /** Custom events: the tracked `data`; service events: what happened (link, bounce type…). */
  data: Record<string, unknown>;
  createdAt: string;
}

/**
 * A new event at `at`. An event recorded in answer to something that has its own id (an SES
 * event's EventBridge id) passes it as `idSeed`: the event id is then a ULID of `at` whose random
 * part is derived from the seed, so a replay writes the same item and its condition refuses it.
 */
export function newEvent(fields: Omit<ContactEvent, 'id' | 'createdAt'>, at = new Date(), idSeed?: string): ContactEvent {
  return { id: idSeed === undefined ? ulid(at.getTime()) : derivedUlid(at.getTime(), idSeed), createdAt: at.toISOString(), ...fields };
}

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** A ULID of `time` whose 80 random bits are the first 80 bits of SHA-256(seed). */
export function derivedUlid(time: number, seed: string): string {
  const digest = createHash('sha256').update(seed).digest();
  let random = '';
  for (let bit = 0; bit < 80; bit += 5) {
    const byte = bit >> 3;
    const window = ((digest[byte]! << 8) | digest[byte + 1]!) >> (11 - (bit & 7));
    random += CROCKFORD[window & 31];
  }
  return encodeTime(time, 10) + random;
}

/** How an email's event is written (shared/delivery/outcomes.ts). */
export interface EmailEventWrite {
  /** The counts the table stream adds up for it (shared/delivery/tallies.ts). */
  tally?: object;
  /**
   * The email's record names this event by its id (its send end, its delivery): the email's
   * timeline reads it from there, so it gets no entry in the email's index (1 WRU less).
   */
  namedByEmailRecord?: boolean;
}

/**
 * The write of one event, to put in the same transaction as what caused it. Its counters are
 * not in that transaction: every event of a project updates the same counter items, and
 * transactions touching one item concurrently cancel each other — call countEvents after it, or
 * give an email's event its `tally` (shared/delivery/tallies.ts) for the table stream to count it.
 */
export function eventWriteItems(projectId: string, event: ContactEvent, { tally, namedByEmailRecord = false }: EmailEventWrite = {}): TransactItem[] {
  return [
    {
      Put: {
        TableName: tableName,
        Item: {
          ...eventKeys.event(projectId, event.id),
          ...eventKeys.indexes(projectId, event.id, event.contactId, event.name, namedByEmailRecord ? undefined : event.emailId),
          eventId: event.id,
          name: event.name,
          contactId: event.contactId,
          ...(event.emailId ? { emailId: event.emailId } : {}),
          data: event.data,
          createdAt: event.createdAt,
          ...(tally ? { tally } : {}),
        },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    },
  ];
}

/**
 * Counts recorded events: each name's counter (count, last seen: GET /events/names) and the
 * project's total, as atomic ADDs (coalesced per item, see shared/db/counters.ts), which never
 * conflict. They run after the events are written, so a function that dies in between leaves a
 * count one short.
 */
export async function countEvents(projectId: string, events: ContactEvent[]): Promise<void> {
  await Promise.all([
    ...events.map((event) => addToCounters(eventKeys.nameCounter(projectId, event.name), { count: 1 }, { name: event.name, lastSeenAt: event.createdAt }, { countNewOn: eventKeys.namesTotal(projectId) })),
    addToCounters(eventKeys.total(projectId), { count: events.length }),
  ]);
}

/**
 * Records events on their own (not tied to another write), each a conditional PutItem, then
 * counts them. A failed condition (the event id is taken) is thrown, and nothing is counted.
 */
export async function recordEvents(projectId: string, events: ContactEvent[]): Promise<void> {
  for (const event of events) await writeAllOrNone(eventWriteItems(projectId, event));
  await countEvents(projectId, events);
}

export function toEvent(item: Record<string, unknown>): ContactEvent {
  return {
    id: item.eventId as string,
    name: item.name as string,
    contactId: item.contactId as string,
    ...(item.emailId ? { emailId: item.emailId as string } : {}),
    data: (item.data as Record<string, unknown>) ?? {},
    createdAt: item.createdAt as string,
  };
}
