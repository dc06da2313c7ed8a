import { accountOperations } from '../accounts/operations';
import { analyticsOperations } from '../analytics/operations';
import { campaignOperations } from '../campaigns/operations';
import { contactOperations } from '../contacts/operations';
import { dashboardOperations } from '../dashboard/operations';
import { domainOperations } from '../domains/operations';
import { emailOperations } from '../emails/operations';
import { eventOperations } from '../events/operations';
import { exportOperations } from '../exports/operations';
import type { OperationDoc } from '../http/operation-doc';
import { importOperations } from '../imports/operations';
import { segmentOperations } from '../segments/operations';
import { sendingOperations } from '../sending/operations';
import { templateOperations } from '../templates/operations';
import { unsubscribeOperations } from '../unsubscribe/operations';
import { verificationOperations } from '../verification/operations';
import { webhookOperations } from '../webhooks/operations';
import { workflowOperations } from '../workflows/operations';

/** The OpenAPI entries of the routes of this room: the document and its reference page. */
const contractOperations: Record<string, OperationDoc> = {
  'GET /openapi.json': {
    operationId: 'getOpenApiDocument',
    tag: 'API contract',
    summary: 'This OpenAPI document',
    description: 'Generated from the code (route table, valibot schemas); no key needed. npm run client turns it into a typed TypeScript client.',
    success: { status: 200, description: 'The OpenAPI 3.1 document', mediaType: 'application/json', schema: { type: 'object', required: ['openapi', 'paths'] } },
  },
  'GET /docs': {
    operationId: 'getReferencePage',
    tag: 'API contract',
    summary: 'The API reference page',
    description: 'Renders this document with Scalar, served by the API itself (no CDN); "try it" sends requests to this API.',
    success: { status: 200, description: 'An HTML page', mediaType: 'text/html', schema: { type: 'string' } },
  },
  'GET /docs/scalar.js': {
    operationId: 'getReferenceScript',
    tag: 'API contract',
    summary: 'The reference page renderer',
    description: "Scalar's standalone bundle (@scalar/api-reference), loaded by GET /docs.",
    success: { status: 200, description: 'JavaScript', mediaType: 'text/javascript', schema: { type: 'string' } },
  },
};

/**
 * THE per-route documentation, keyed by route key ('METHOD /path'): each domain's entries, written
 * beside its schemas. Every route of shared/http/routes.ts has an entry, and every entry a route
 * (documentationGaps in document.ts; test/unit/shared/contract checks both).
 */
export const operations: Record<string, OperationDoc> = {
  ...contactOperations,
  ...importOperations,
  ...exportOperations,
  ...templateOperations,
  ...sendingOperations,
  ...verificationOperations,
  ...eventOperations,
  ...domainOperations,
  ...emailOperations,
  ...analyticsOperations,
  ...segmentOperations,
  ...workflowOperations,
  ...webhookOperations,
  ...campaignOperations,
  ...unsubscribeOperations,
  ...contractOperations,
  ...accountOperations,
  ...dashboardOperations,
};
