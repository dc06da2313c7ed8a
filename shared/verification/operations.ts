import type { OperationDoc } from '../http/operation-doc';
import { verificationResponseSchema } from './responses';
import { verifyRequestSchema } from './schemas';

/** The OpenAPI entries of the address verification route, keyed by route key ('METHOD /path'). */
export const verificationOperations: Record<string, OperationDoc> = {
  'POST /v1/verify': {
    operationId: 'verifyEmail',
    tag: 'Sending',
    summary: 'Verify an email address',
    description: 'Syntax, disposable domain, likely typo (with a suggestion in reasons), role account, +tag, domain and MX records. An undeliverable address is a 200 with valid false.',
    body: verifyRequestSchema,
    bodyExample: { email: 'ada@gmial.com' },
    success: { status: 200, description: 'The verdict', data: verificationResponseSchema },
  },
};
