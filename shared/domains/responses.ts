import * as v from 'valibot';
import { idSchema, isoDateTimeSchema } from '../http/responses';

export const domainResponseSchema = v.pipe(
  v.strictObject({
    id: idSchema,
    domain: v.pipe(v.string(), v.examples(['mail.example.com'])),
    status: v.picklist(['PENDING', 'VERIFIED', 'FAILED', 'TEMPORARY_FAILURE']),
    records: v.pipe(
      v.array(v.strictObject({ type: v.picklist(['CNAME', 'TXT', 'MX']), name: v.string(), value: v.string(), purpose: v.string() })),
      v.description('The DNS records to publish for verification (DKIM, SPF, DMARC…)'),
    ),
    createdAt: isoDateTimeSchema,
    verifiedAt: v.nullable(isoDateTimeSchema),
    checkedAt: v.pipe(v.nullable(isoDateTimeSchema), v.description('When the status was last read from SES')),
  }),
  v.title('Domain'),
);
