import * as v from 'valibot';
import { countSchema } from '../http/responses';

const dateSchema = v.pipe(v.string(), v.regex(/^\d{4}-\d{2}-\d{2}$/), v.examples(['2026-11-24']));
const counts = {
  sent: countSchema,
  delivered: countSchema,
  opened: v.pipe(countSchema, v.description('Every open (not unique openers)')),
  clicked: v.pipe(countSchema, v.description('Every click (not unique clickers)')),
  bounced: v.pipe(countSchema, v.description('Permanent bounces (what SES\'s bounce rate counts)')),
  complained: countSchema,
};
const rateSchema = v.pipe(v.number(), v.minValue(0));

export const analyticsResponseSchema = v.pipe(
  v.strictObject({
    from: dateSchema,
    to: dateSchema,
    days: v.array(v.pipe(v.strictObject({ date: dateSchema, ...counts }), v.title('AnalyticsDay'))),
    totals: v.strictObject(counts),
    bounceRate: v.pipe(rateSchema, v.description('totals.bounced / totals.sent (0 without sends)')),
    complaintRate: v.pipe(rateSchema, v.description('totals.complained / totals.sent (0 without sends)')),
    thresholds: v.pipe(
      v.strictObject({ bounceRate: rateSchema, complaintRate: rateSchema }),
      v.description('SES reviews an account from these rates on (bounce 5 %, complaint 0.1 %)'),
    ),
    contacts: v.pipe(countSchema, v.description('The project\'s contacts now')),
    subscribers: v.pipe(countSchema, v.description('Its subscribed contacts now')),
  }),
  v.title('Analytics'),
);
