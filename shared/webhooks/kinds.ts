import * as v from 'valibot';
import { eventNameSchema } from '../events/schemas';
import { WEBHOOK_EVENT_KINDS } from './event-kinds';


export const ALL_KINDS = '*';
/** An endpoint the service disabled after every delivery failed for the deploy's period (its owners are emailed too). */
export const DISABLED_KIND = 'webhook.disabled';
export const CUSTOM_EVENT_PREFIX = 'event:';
/** Sent only by POST /webhooks/{id}/test, to that endpoint, whatever it subscribed to. */
export const TEST_KIND = 'webhook.test';

const known = new Set<string>(WEBHOOK_EVENT_KINDS);

/** The webhook type of a custom tracked event: `event:<name>`, which is also what subscribes to it. */
export const customEventKind = (name: string) => `${CUSTOM_EVENT_PREFIX}${name}`;

/** Whether an endpoint subscribed to `kinds` receives an event of `type`. */
export const subscribes = (kinds: readonly string[], type: string) => kinds.includes(ALL_KINDS) || kinds.includes(type);

const isCustomKind = (kind: string) => {
  const name = kind.slice(CUSTOM_EVENT_PREFIX.length);
  return kind.startsWith(CUSTOM_EVENT_PREFIX) && name === name.trim() && v.is(eventNameSchema, name);
};

const kindSchema = v.pipe(
  v.string('each event kind must be a string'),
  v.trim(),
  v.check(
    (kind) => kind === ALL_KINDS || known.has(kind) || isCustomKind(kind),
    `each event kind must be "*", "event:<custom event name>" or one of ${WEBHOOK_EVENT_KINDS.join(', ')}`,
  ),
);

export const MAX_KINDS_PER_ENDPOINT = 50;

export const eventKindsSchema = v.pipe(
  v.array(kindSchema, 'events must be an array of event kinds'),
  v.minLength(1, 'events must name at least one event kind (or "*")'),
  v.maxLength(MAX_KINDS_PER_ENDPOINT, `events takes at most ${MAX_KINDS_PER_ENDPOINT} kinds`),
  v.transform((kinds) => [...new Set(kinds)]),
);
