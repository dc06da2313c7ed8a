import * as v from 'valibot';
import { countSchema, idSchema, isoDateTimeSchema } from '../http/responses';

export const eventResponseSchema = v.pipe(
  v.strictObject({
    id: idSchema,
    name: v.pipe(v.string(), v.examples(['signed-up', 'email.opened'])),
    contactId: idSchema,
    emailId: v.optional(idSchema),
    data: v.pipe(v.record(v.string(), v.unknown()), v.description('Custom events: the tracked data; service events: what happened (link, bounce type…)')),
    createdAt: isoDateTimeSchema,
  }),
  v.title('Event'),
);

export const eventNameResponseSchema = v.pipe(v.strictObject({ name: v.string(), count: countSchema, lastSeenAt: isoDateTimeSchema }), v.title('EventName'));

/** POST /v1/track. */
export const trackResponseSchema = v.pipe(
  v.strictObject({ contact: v.pipe(idSchema, v.description('The contact id')), event: v.pipe(idSchema, v.description('The event id')), timestamp: isoDateTimeSchema }),
  v.title('TrackResult'),
);
