import type { OperationDoc } from '../http/operation-doc';

/** The OpenAPI entries of the unsubscribe link routes, keyed by route key ('METHOD /path'). */
export const unsubscribeOperations: Record<string, OperationDoc> = {
  'GET /unsubscribe/{token}': {
    operationId: 'openUnsubscribeLink',
    tag: 'Unsubscribe',
    summary: 'Unsubscribe link (browser)',
    description: 'The link in marketing email: unsubscribes the contact and answers a page with a re-subscribe button. The signed token is the credential.',
    success: { status: 200, description: 'The unsubscribed page', mediaType: 'text/html', schema: { type: 'string' } },
    rawResponses: [{ status: 400, description: 'The link is not valid', mediaType: 'text/html' }],
  },
  'POST /unsubscribe/{token}': {
    operationId: 'oneClickUnsubscribe',
    tag: 'Unsubscribe',
    summary: 'One-click unsubscribe (RFC 8058)',
    description:
      'What mail clients POST for `List-Unsubscribe-Post` (RFC 8058): unsubscribes the contact and answers 200 to any body (providers post `List-Unsubscribe=One-Click` form-encoded).',
    success: { status: 200, description: 'Unsubscribed', mediaType: 'text/plain', schema: { type: 'string' } },
    rawResponses: [{ status: 400, description: 'The link is not valid', mediaType: 'text/plain' }],
  },
  'POST /unsubscribe/{token}/resubscribe': {
    operationId: 'resubscribe',
    tag: 'Unsubscribe',
    summary: 'Re-subscribe (browser)',
    description:
      'The button on the unsubscribed page: subscribes the contact again (`contact.subscribed`).',
    success: { status: 200, description: 'The re-subscribed page', mediaType: 'text/html', schema: { type: 'string' } },
    rawResponses: [{ status: 400, description: 'The link is not valid', mediaType: 'text/html' }],
  },
};
