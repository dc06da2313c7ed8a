import * as v from 'valibot';
import { contactResponseSchema } from '../contacts/responses';
import { idSchema, isoDateTimeSchema } from '../http/responses';
import { filtersSchema } from './filter';

export const segmentResponseSchema = v.pipe(
  v.strictObject({
    id: idSchema,
    name: v.pipe(v.string(), v.examples(['Pro customers'])),
    filters: filtersSchema,
    trackMembership: v.boolean(),
    memberCount: v.pipe(v.nullable(v.pipe(v.number(), v.integer(), v.minValue(0))), v.description('Tracked: the member counter; on demand: evaluated now (null in lists)')),
    membershipStatus: v.pipe(v.nullable(v.picklist(['BUILDING', 'READY'])), v.description('Tracked segments only (null on demand)')),
    createdAt: isoDateTimeSchema,
    updatedAt: isoDateTimeSchema,
  }),
  v.title('Segment'),
);

export const segmentPreviewSchema = v.pipe(
  v.strictObject({
    memberCount: v.pipe(v.number(), v.integer(), v.minValue(0), v.description('Contacts that match the filters now')),
    subscribedCount: v.pipe(v.number(), v.integer(), v.minValue(0), v.description('Of those, the subscribed ones')),
    sample: v.pipe(v.array(contactResponseSchema), v.description('Up to 10 matching contacts, newest first')),
  }),
  v.title('SegmentPreview'),
);
